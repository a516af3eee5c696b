// The real entry point (root/main.ts) without TWILIO_*: it reads owner replies from the local
// inbox folder on its own, as an operator trying the box offline would use it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/db/client.js';
import { tablesOf } from '../../core/db/schema.js';
import { startCoreProcess, type CoreProcess } from '../helpers/core-process.js';
import { waitUntil } from '../helpers/wait.js';

let core: CoreProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  if (core && core.child.exitCode === null) {
    core.child.kill('SIGKILL');
    await core.exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  core = dataDir = undefined;
});

describe('the core without Twilio credentials', () => {
  it('acts on a reply dropped into $DATA_DIR/outbox/sms-in/ and writes its answer to outbox/sms/', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'core-local-replies-'));
    const seed = openDatabase(path.join(dataDir, 'appliance.db'));
    // The core runs on this DATA_DIR's SQLite file whatever the run's engine: its tables are SQLite's.
    const { calls, users } = tablesOf(seed.db);
    const owner = (await seed.db.insert(users).values({ email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active', notificationNumber: '+447700900222' }).returning())[0]!;
    const callId = (await seed.db.insert(calls).values({ userId: owner.id, fromNumber: '+447700900123', toNumber: '+447700900001', status: 'missed', endedAt: new Date() }).returning())[0]!.id;
    await seed.close();

    core = await startCoreProcess(dataDir, {}, { pbx: false });
    const inbox = path.join(dataDir, 'outbox', 'sms-in');
    fs.writeFileSync(path.join(inbox, 'reply.tmp'), JSON.stringify({ from: '+447700900222', body: `DONE ${callId}` }));
    fs.renameSync(path.join(inbox, 'reply.tmp'), path.join(inbox, 'reply.json'));

    const answer = await waitUntil(() => {
      const dir = path.join(dataDir!, 'outbox', 'sms');
      const file = fs.readdirSync(dir).find((f) => f.startsWith('reply-'));
      if (!file) throw new Error('no answer yet');
      return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { to: string; body: string };
    }, 20_000);
    expect(answer).toMatchObject({ to: '+447700900222', body: `Call ${callId} from +447700900123 is marked as called back.` });
    const check = openDatabase(path.join(dataDir, 'appliance.db'));
    try {
      expect((await check.db.select().from(calls).where(eq(calls.id, callId)).limit(1))[0]!.calledBackAt).toBeInstanceOf(Date);
    } finally {
      await check.close();
    }
    expect(core.output()).toContain('owner replies are read from files in the local inbox');

    core.child.kill('SIGTERM');
    expect(await core.exited).toBe(0);
  });
});
