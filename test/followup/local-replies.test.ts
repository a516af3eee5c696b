// Owner replies without Twilio: texts dropped as files into $DATA_DIR/outbox/sms-in/ run the same
// commands as the signed webhook (same sender check, same once-per-message claim), and the
// answers land in $DATA_DIR/outbox/sms/ beside the summaries. Nothing here needs the network.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { insertUser } from '../../core/accounts/users.js';
import { calls, inboundMessages, notifications, users } from '../helpers/tables.js';
import { HELP_TEXT } from '../../core/followup/commands.js';
import { LOCAL_INBOX, startLocalInbox, type LocalInbox } from '../../core/followup/local-inbox.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const OWNER_MOBILE = '+447700900222';
const DID = '+447700900001';
const CALLER = '+447700900123';

let server: TestServer | undefined;
let inbox: LocalInbox | undefined;
let logLines: string[] = [];
afterEach(async () => {
  await inbox?.stop();
  await server?.close();
  server = inbox = undefined;
  logLines = [];
});

async function start(opts: { watch?: boolean; before?: (dir: string) => void } = {}) {
  const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  server = await startTestServer({ log }); // no TWILIO_*: the outbox gateway
  const owner = await insertUser(server.database.db, { email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active', notificationNumber: OWNER_MOBILE, aiMode: 'voicemail' });
  opts.before?.(inboxDir());
  inbox = startLocalInbox(server.services, { watch: opts.watch ?? false });
  return owner.id;
}
const inboxDir = () => path.join(server!.dataDir, LOCAL_INBOX);
/** Drops a text as a writer should: another name first, then renamed to *.json. */
function drop(name: string, content: unknown) {
  fs.mkdirSync(inboxDir(), { recursive: true });
  const tmp = path.join(inboxDir(), `${name}.tmp`);
  fs.writeFileSync(tmp, typeof content === 'string' ? content : JSON.stringify(content));
  fs.renameSync(tmp, path.join(inboxDir(), name));
}
const missedCall = async (userId: number) =>
  (await server!.database.db.insert(calls).values({ userId, fromNumber: CALLER, toNumber: DID, status: 'missed' }).returning())[0]!.id;
const call = async (id: number) => (await server!.database.db.select().from(calls).where(eq(calls.id, id)).limit(1))[0]!;
const outbox = () => {
  const dir = path.join(server!.dataDir, 'outbox', 'sms');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, string>) : [];
};

describe('local owner replies (no Twilio)', () => {
  it('DONE <ref> in a dropped file marks the call called back and writes the answer to the outbox', async () => {
    const owner = await start();
    const id = await missedCall(owner);
    drop('0001.json', { from: '07700 900222', to: DID, body: `DONE ${id}` });

    expect(await inbox!.scan()).toEqual({ '0001.json': 'handled' });
    expect((await call(id)).calledBackAt).toBeInstanceOf(Date);
    expect(outbox()).toEqual([expect.objectContaining({ channel: 'sms', to: OWNER_MOBILE, from: DID, body: `Call ${id} from ${CALLER} is marked as called back.` })]);
    expect(fs.readdirSync(inboxDir()).sort()).toEqual(['done']);
    expect(fs.existsSync(path.join(inboxDir(), 'done', '0001.json'))).toBe(true);
    expect((await server!.database.db.select().from(notifications).where(eq(notifications.kind, 'reply')).limit(1))[0]).toMatchObject({ callId: id, status: 'sent' });
  });

  it('acts once on the same file dropped again, and once on a message id seen before', async () => {
    const owner = await start();
    const id = await missedCall(owner);
    drop('again.json', { from: OWNER_MOBILE, body: 'AGENT ON' });
    expect(await inbox!.scan()).toEqual({ 'again.json': 'handled' });
    drop('again.json', { from: OWNER_MOBILE, body: 'AGENT ON' });
    drop('other-1.json', { from: OWNER_MOBILE, body: `DONE ${id}`, messageSid: 'LCfixed' });
    drop('other-2.json', { from: OWNER_MOBILE, body: `DONE ${id}`, messageSid: 'LCfixed' });
    expect(await inbox!.scan()).toEqual({ 'again.json': 'replayed', 'other-1.json': 'handled', 'other-2.json': 'replayed' });
    expect((await server!.database.db.select().from(inboundMessages)).map((r) => r.command)).toEqual(['agent', 'done']);
    expect(outbox().map((m) => m.body)).toHaveLength(2);
    expect((await server!.database.db.select().from(users).where(eq(users.id, owner)).limit(1))[0]!.aiMode).toBe('agent');
  });

  it('ignores a text from any other number and logs it by id only', async () => {
    const owner = await start();
    const id = await missedCall(owner);
    drop('stranger.json', { from: '+447700900999', body: `DONE ${id} secret words` });
    expect(await inbox!.scan()).toEqual({ 'stranger.json': 'ignored' });
    expect((await call(id)).calledBackAt).toBeNull();
    expect(outbox()).toEqual([]);
    expect((await server!.database.db.select().from(inboundMessages).limit(1))[0]).toMatchObject({ userId: null, outcome: 'ignored: not an owner' });
    expect(logLines.join('\n')).not.toContain('secret words');
  });

  it('answers HELP and an unknown command with the list of commands', async () => {
    await start();
    drop('a.json', { from: OWNER_MOBILE, body: 'help', channel: 'whatsapp' });
    drop('b.json', { from: OWNER_MOBILE, body: 'what now?' });
    await inbox!.scan();
    expect(outbox().map((m) => [m.channel, m.body])).toEqual(
      expect.arrayContaining([
        ['whatsapp', HELP_TEXT],
        ['sms', `Sorry, that is not a command I know. ${HELP_TEXT}`],
      ]),
    );
  });

  it('moves a malformed file to failed/ with the reason beside it, and goes on with the next', async () => {
    const owner = await start();
    const id = await missedCall(owner);
    drop('1-broken.json', '{"from": "+447700900222", "body": ');
    drop('2-no-number.json', { from: 'my mobile', body: 'HELP' });
    drop('3-good.json', { from: OWNER_MOBILE, body: `DONE ${id}` });
    expect(await inbox!.scan()).toEqual({ '1-broken.json': 'refused', '2-no-number.json': 'refused', '3-good.json': 'handled' });
    const failed = path.join(inboxDir(), 'failed');
    expect(fs.readFileSync(path.join(failed, '1-broken.json.error.txt'), 'utf8')).toBe('not JSON: write {"from": "+447700900222", "body": "DONE 41"}\n');
    expect(fs.readFileSync(path.join(failed, '2-no-number.json.error.txt'), 'utf8')).toBe('"from" must be the phone number the text came from, e.g. +447700900222\n');
    expect((await call(id)).calledBackAt).toBeInstanceOf(Date);
  });

  it('picks a dropped file up by itself, and at start one dropped while the core was down', async () => {
    let early = 0;
    const owner = await start({
      watch: true,
      before: async () => {
        early = (await missedCall((await server!.database.db.select().from(users).limit(1))[0]!.id));
        drop('while-down.json', { from: OWNER_MOBILE, body: `DONE ${early}` });
      },
    });
    await vi.waitFor(async () => expect((await call(early)).calledBackAt).toBeInstanceOf(Date), { timeout: 10_000, interval: 20 });
    const id = await missedCall(owner);
    drop('live.json', { from: OWNER_MOBILE, body: `DONE ${id}` });
    await vi.waitFor(() => expect(fs.existsSync(path.join(inboxDir(), 'done', 'live.json'))).toBe(true), { timeout: 10_000, interval: 20 });
    expect((await call(id)).calledBackAt).toBeInstanceOf(Date);
    expect(outbox()).toHaveLength(2);
  });
});
