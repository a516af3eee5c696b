import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualityReportsDir } from '../../core/quality/reports.js';
import type { SavedReport } from '../../core/quality/evaluation/report.js';
import { qualityReport, saveQualityReport } from '../eval/report-fixture.js';
import type { ApiClient } from '../helpers/client.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The admin console's view of `npm run eval`: the latest saved report of each set of models,
// read from $DATA_DIR/eval/reports; the server never runs the evaluation itself.

let server: TestServer;
let admin: ApiClient;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  dir = qualityReportsDir(server.dataDir);
});
afterAll(() => server.close());

const saveReport = (whisperModel: string, at: string) => saveQualityReport(server.dataDir, qualityReport(whisperModel, at));

describe('GET /api/admin/quality', () => {
  it('answers no reports before the evaluation has run on the box', async () => {
    const res = await admin.get('/api/admin/quality');
    expect(res.status).toBe(200);
    expect(res.body.reports).toEqual([]);
    // No WHISPER_URL on this test server: the self-test is off, and says so.
    expect(res.body.selfTest).toMatchObject({ enabled: false, state: 'off', report: null });
  });

  it('gives the latest report of each set of models, newest first, without the per-message details', async () => {
    saveReport('base.en', '2026-11-01T10:00:00.000Z');
    saveReport('base.en', '2026-11-03T10:00:00.000Z');
    saveReport('small.en', '2026-11-02T10:00:00.000Z');
    fs.writeFileSync(path.join(dir, 'half-written.json'), '{"format": 1, "createdAt"');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a report');
    const res = await admin.get('/api/admin/quality');
    expect(res.status).toBe(200);
    expect(res.body.reports.map((r: SavedReport) => [r.models, r.createdAt])).toEqual([
      ['whisper.cpp base.en · ollama llama3.2:3b · piper', '2026-11-03T10:00:00.000Z'],
      ['whisper.cpp small.en · ollama llama3.2:3b · piper', '2026-11-02T10:00:00.000Z'],
    ]);
    expect(res.body.reports[0].figures.transcription).toMatchObject({ messages: 0, wordErrorRate: null });
    expect(res.body.reports[0]).not.toHaveProperty('details');
  });

  it('is for administrators only', async () => {
    const { client } = await activeCustomer(server);
    expect((await client.get('/api/admin/quality')).status).toBe(403);
  });
});
