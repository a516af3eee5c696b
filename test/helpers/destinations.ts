import fs from 'node:fs';
import path from 'node:path';
import type { ApiClient } from './client.js';
import type { TestServer } from './server.js';

/** Every text the outbox gateway wrote to `to` (E.164), oldest first. */
export function textsTo(server: { dataDir: string }, to: string): Array<{ body: string; createdAt: string }> {
  const dir = path.join(server.dataDir, 'outbox', 'sms');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { to: string; body: string; createdAt: string })
    .filter((m) => m.to === to)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Every mail (raw .eml) the outbox mailer wrote to `to`, oldest first. */
export function mailsTo(server: { dataDir: string }, to: string): string[] {
  const dir = path.join(server.dataDir, 'outbox', 'mail');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .filter((m) => new RegExp(`^To: ${to.replace(/[.+]/g, '\\$&')}\\s*$`, 'mi').test(m));
}

/** The latest confirmation code sent to a number or address. */
export function latestCode(server: { dataDir: string }, kind: 'sms' | 'email', to: string): string {
  const found = kind === 'sms' ? textsTo(server, to).map((t) => t.body) : mailsTo(server, to);
  const code = found.map((m) => /confirmation code is (\d{6})/.exec(m)?.[1]).filter(Boolean).at(-1);
  if (!code) throw new Error(`no confirmation code was sent to ${to}`);
  return code;
}

/** Confirms a notification number or summary e-mail the owner just saved, with the code sent there. */
export async function confirmDestination(server: TestServer, client: ApiClient, kind: 'sms' | 'email', to: string) {
  const res = await client.post('/api/user/destinations/confirm', { kind, code: latestCode(server, kind, to) });
  if (res.status !== 200) throw new Error(`confirming ${to} answered ${res.status}: ${res.text}`);
  return res;
}

/**
 * The code the approval of account `userId` texted to its sign-up phone, from the outbox (the
 * file is named by the message key, core/destinations/send-code.ts); undefined when none went
 * there (a number the box may not text, or a server sending through Twilio).
 */
export function signupPhoneCode(server: { dataDir: string }, userId: number): string | undefined {
  const dir = path.join(server.dataDir, 'outbox', 'sms');
  if (!fs.existsSync(dir)) return undefined;
  const file = fs.readdirSync(dir).filter((f) => f.startsWith(`confirm-${userId}-`)).sort().at(-1);
  if (!file) return undefined;
  return /confirmation code is (\d{6})/.exec((JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { body: string }).body)?.[1];
}
