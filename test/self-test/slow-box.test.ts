import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { makeRecordings } from '../../core/quality/evaluation/audio.js';
import { loadEvalSet } from '../../core/quality/evaluation/set.js';
import { selfTestSubset } from '../../core/self-test/subset.js';
import { scriptEvalDoubles } from '../doubles/eval-engines.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

// The box's self-test on the doubles, with a slow language model (every answer's first token
// after 2 s): it runs by itself once the engines answer, its report reaches the dashboard with
// the advice, and new owners start in voicemail mode until the admin accepts agent mode.

const doubles = useEngineDoubles();
let server: TestServer;
let admin: ApiClient;
let audioDir: string;
let recordings: Awaited<ReturnType<typeof makeRecordings>>;

beforeAll(async () => {
  audioDir = fs.mkdtempSync(path.join(os.tmpdir(), 'self-test-audio-'));
  // The doubles learn the subset's recordings (the same bytes the self-test makes: the recipe is deterministic).
  const set = selfTestSubset(await loadEvalSet());
  recordings = await makeRecordings(set.messages, audioDir);
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(audioDir, { recursive: true, force: true });
});

describe('the self-test on a slow box', () => {
  it('runs by itself, reaches GET /api/admin/quality with the advice, and keeps new owners in voicemail mode until accepted', { timeout: 600_000 }, async () => {
    // Here, not in beforeAll: the engine doubles are reset before each test.
    await scriptEvalDoubles(doubles, selfTestSubset(await loadEvalSet()), recordings, 'perfect');
    doubles.ollama.always = { delayMs: 2000 };
    server = await startTestServer({ env: { ...doubles.env(), SELF_TEST: 'on', TTS_ENGINE: 'espeak-ng' }, background: { selfTest: true } });
    admin = await signInAdmin(server);
    const quality = await waitUntil(async () => {
      const res = await admin.get('/api/admin/quality');
      if (res.body.selfTest?.state === 'failed') throw new Error(`the self-test failed: ${res.body.selfTest.error?.message}`);
      if (res.body.selfTest?.state !== 'done') throw new Error(`self-test ${res.body.selfTest?.state}`);
      return res.body;
    }, 540_000, 1000);
    const { selfTest } = quality;
    expect(quality.reports).toEqual([]);
    expect(selfTest.report.set).toMatchObject({ messages: 10, partial: true });
    expect(selfTest.report.selfTest.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(selfTest.report.figures.transcription.wordErrorRate).toBe(0);
    const firstAudio = selfTest.report.figures.latency.agentFirstAudio;
    expect(firstAudio.count).toBeGreaterThan(0);
    expect(firstAudio.p50Ms).toBeGreaterThan(2000);
    expect(selfTest.advice.slow).toBe(true);
    expect(selfTest.advice.text).toMatch(/^On this hardware the assistant takes \d+\.\d s to start answering \(p50\); callers notice over 1\.5 s\. Use a smaller model \(OLLAMA_MODEL\) or keep owners in voicemail mode\.$/);
    expect(selfTest.agentMode).toMatchObject({ newOwnersKeptInVoicemail: true, accepted: null });

    const { auditLog } = tablesOf(server.database.db);
    const approvalDetails = async () => (await server.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(5)).find((e) => e.action === 'user.approve')!.details;

    const first = await activeCustomer(server);
    const { users } = tablesOf(server.database.db);
    expect((await server.database.db.select().from(users).where(eq(users.id, first.user.id)))[0]!.aiMode).toBe('voicemail');
    expect(await approvalDetails()).toMatchObject({ aiMode: 'voicemail', why: expect.stringMatching(/first audio p50/) });

    const accepted = await admin.post('/api/admin/quality/accept-agent-mode');
    expect(accepted.status).toBe(200);
    expect(accepted.body.agentMode).toMatchObject({ newOwnersKeptInVoicemail: false, accepted: { by: 'admin@example.co.uk' } });
    expect((await server.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0]!.action).toBe('quality.accept-agent-mode');

    // After the acceptance a new owner gets SPEC's default (voicemail) by the ordinary path, not held by the self-test.
    await activeCustomer(server);
    expect(await approvalDetails()).toEqual({});
  });
});
