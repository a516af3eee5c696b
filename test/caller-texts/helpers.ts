import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import { tablesOf, type Call } from '../../core/db/schema.js';
import { textBackKey } from '../../core/caller-texts/service.js';
import { LOCAL_INBOX } from '../../core/followup/local-inbox.js';
import type { TestServer } from '../helpers/server.js';

/** The texts the outbox gateway wrote ($DATA_DIR/outbox/sms/), oldest first. */
function outbox(server: TestServer): Array<{ to: string; from: string; body: string; key: string }> {
  const dir = path.join(server.dataDir, 'outbox', 'sms');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export const outboxTo = (server: TestServer, to: string) => outbox(server).filter((m) => m.to === to);

/** What the owner's phone got besides the code that confirmed it (texted at approval, core/destinations/signup-phone.ts). */
export const ownerTextsTo = (server: TestServer, to: string) => outboxTo(server, to).filter((m) => !m.key.startsWith('confirm-'));

/** Gives the owner a DID (as an approved number would be). */
export async function giveNumber(server: TestServer, userId: number, did: string): Promise<void> {
  const { phoneNumbers } = tablesOf(server.database.db);
  await server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId, assignedAt: new Date() });
}

/** A call row as the PBX leaves it, then the hook it fires. */
export async function finishCall(server: TestServer, userId: number, did: string, fromNumber: string, set: Partial<Call> = {}): Promise<number> {
  const { calls } = tablesOf(server.database.db);
  const [row] = await server.database.db.insert(calls).values({ userId, fromNumber, toNumber: did, status: 'missed', endedAt: new Date(), ...set }).returning();
  for (const hook of server.services.hooks.callFinished) hook(row!.id);
  return row!.id;
}

/** Waits until the call's text-back job has run (or was never queued: `queued: false`). */
export async function textBackSettled(server: TestServer, callId: number): Promise<void> {
  await vi.waitFor(async () => expect((await server.services.callerTexts.queue.byKey(textBackKey(callId)))?.status).toBe('done'), { timeout: 20_000, interval: 20 });
}

export const thread = async (server: TestServer, userId: number, caller: string) => {
  const { callerTexts } = tablesOf(server.database.db);
  return await server.database.db.select().from(callerTexts).where(and(eq(callerTexts.userId, userId), eq(callerTexts.callerNumber, caller))).orderBy(callerTexts.id);
};

/** Drops a text into the local inbox as a writer should (another name, then renamed to *.json). */
export function dropText(server: TestServer, name: string, text: { from: string; to: string; body: string }): void {
  const dir = path.join(server.dataDir, LOCAL_INBOX);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.tmp`), JSON.stringify(text));
  fs.renameSync(path.join(dir, `${name}.tmp`), path.join(dir, name));
}
