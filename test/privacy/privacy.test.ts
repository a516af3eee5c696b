import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookings, bookingServices, calls, unansweredQuestions } from '../helpers/tables.js';
import { openCall } from '../../core/calls/call-store.js';
import { applyRetention, cutoff, getRetention } from '../../core/privacy/retention.js';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const DAY = 864e5;

async function addCall(userId: number, from: string, ageDays: number, withRecording = true) {
  const file = withRecording ? `call-priv-${Math.random().toString(36).slice(2)}.wav` : null;
  if (file) {
    fs.mkdirSync(path.join(server.dataDir, 'recordings'), { recursive: true });
    fs.writeFileSync(path.join(server.dataDir, 'recordings', file), 'RIFF....WAVE');
  }
  const [row] = await server.database.db
    .insert(calls)
    .values({
      userId,
      fromNumber: from,
      toNumber: '+447700900001',
      status: 'voicemail',
      createdAt: new Date(Date.now() - ageDays * DAY),
      recordingFile: file,
      transcription: 'Hello, it is Jo about the boiler',
      aiSummary: 'Jo: boiler',
    })
    .returning({ id: calls.id });
  return { id: row!.id, file };
}

describe('owner data export', () => {
  it('returns only the signed-in owner’s account, calls and questions as a JSON attachment', async () => {
    const a = await activeCustomer(server, { businessName: 'Export Alpha' });
    const b = await activeCustomer(server, { businessName: 'Export Beta' });
    await addCall(a.user.id, '+447700900201', 1);
    await addCall(b.user.id, '+447700900202', 1);
    await server.database.db.insert(unansweredQuestions).values({ userId: a.user.id, question: 'Open Sundays?', callerNumber: '+447700900201' });
    const res = await a.client.get('/api/user/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="call-data-export-\d{4}-\d{2}-\d{2}\.json"/);
    expect(res.body.account.businessName).toBe('Export Alpha');
    expect(res.body.calls.map((c: any) => c.fromNumber)).toEqual(['+447700900201']);
    expect(res.body.calls[0].transcription).toBe('Hello, it is Jo about the boiler');
    expect(res.body.unansweredQuestions).toHaveLength(1);
    expect(res.text).not.toContain('+447700900202');
    expect(res.text).not.toMatch(/argon2|password/i);
  });

  it('needs a session', async () => {
    expect((await new ApiClient(server.url).get('/api/user/export')).status).toBe(401);
  });
});

describe('erasing a caller on request', () => {
  it('deletes that caller’s calls, recordings and questions for this owner only', async () => {
    const a = await activeCustomer(server);
    const b = await activeCustomer(server);
    const gone = await addCall(a.user.id, '+447700900301', 2);
    const kept = await addCall(a.user.id, '+447700900302', 2);
    const otherOwner = await addCall(b.user.id, '+447700900301', 2);
    await server.database.db.insert(unansweredQuestions).values({ userId: a.user.id, question: 'Price?', callerNumber: '+447700900301' });

    const res = await a.client.delete('/api/user/callers/07700%20900301');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deletedCalls: 1, deletedQuestions: 1, deletedRecordings: 1 });
    const ids = (await server.database.db.select({ id: calls.id }).from(calls)).map((r) => r.id);
    expect(ids).not.toContain(gone.id);
    expect(ids).toContain(kept.id);
    expect(ids).toContain(otherOwner.id);
    expect(fs.existsSync(path.join(server.dataDir, 'recordings', gone.file!))).toBe(false);
    expect(fs.existsSync(path.join(server.dataDir, 'recordings', otherOwner.file!))).toBe(true);
  });

  it('erases a call stored in E.164 when the number is given as 07…, and one stored as 07… when it is given in E.164', async () => {
    const a = await activeCustomer(server);
    // Written by the PBX's call store, which stores what the trunk sent (07…) in E.164.
    const { call: viaTrunk } = await openCall(server.database.db, {
      userId: a.user.id,
      channelId: `erase-${Date.now()}`,
      fromNumber: '07700922222',
      toNumber: '07700900001',
      mode: 'voicemail',
      createdAt: new Date(),
    });
    expect(viaTrunk.fromNumber).toBe('+447700922222');
    // Stored before numbers were normalised (a row that escaped migration 0005).
    const legacy = await addCall(a.user.id, '07700922223', 1);
    const spaced = await addCall(a.user.id, '+44 7700 922224', 1);
    const bystander = await addCall(a.user.id, '+447700922225', 1);
    await server.database.db.insert(unansweredQuestions).values({ userId: a.user.id, question: 'Price?', callerNumber: '447700922223' });

    const first = await a.client.delete('/api/user/callers/07700922222');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ deletedCalls: 1, deletedQuestions: 0 });
    const second = await a.client.delete(`/api/user/callers/${encodeURIComponent('+447700922223')}`);
    expect(second.body).toMatchObject({ deletedCalls: 1, deletedQuestions: 1, deletedRecordings: 1 });
    const third = await a.client.delete('/api/user/callers/00447700922224');
    expect(third.body).toMatchObject({ deletedCalls: 1 });

    const left = (await server.database.db.select({ id: calls.id }).from(calls).where(eq(calls.userId, a.user.id))).map((r) => r.id);
    expect(left).toEqual([bystander.id]);
    expect(left).not.toContain(viaTrunk.id);
    expect(left).not.toContain(legacy.id);
    expect(left).not.toContain(spaced.id);
    expect(fs.existsSync(path.join(server.dataDir, 'recordings', legacy.file!))).toBe(false);
  });

  it('erases the caller’s bookings with the business and exports every booking (issue 41: bookings hold callers’ names and numbers)', async () => {
    const a = await activeCustomer(server);
    const [service] = await server.database.db.insert(bookingServices).values({ userId: a.user.id, name: 'Boiler service', durationMinutes: 60 }).returning({ id: bookingServices.id });
    const at = (h: number) => new Date(Date.UTC(2026, 11, 3, h));
    const booking = (callerNumber: string, callerName: string, h: number) => ({ userId: a.user.id, serviceId: service!.id, startAt: at(h), endAt: at(h + 1), blockEndAt: at(h + 1), callerName, callerNumber, slotKey: `${service!.id}:${h}` });
    await server.database.db.insert(bookings).values([booking('+447700900401', 'Jo Erased', 10), booking('+447700900402', 'Sam Kept', 12)]);

    const exported = await a.client.get('/api/user/export');
    expect(exported.body.bookings.map((b: any) => [b.callerName, b.callerNumber, b.serviceName, b.startAt, b.status])).toEqual([
      ['Jo Erased', '+447700900401', 'Boiler service', at(10).toISOString(), 'booked'],
      ['Sam Kept', '+447700900402', 'Boiler service', at(12).toISOString(), 'booked'],
    ]);

    const res = await a.client.delete('/api/user/callers/07700%20900401');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deletedBookings: 1 });
    const left = await server.database.db.select({ callerName: bookings.callerName }).from(bookings).where(eq(bookings.userId, a.user.id));
    expect(left).toEqual([{ callerName: 'Sam Kept' }]);
  });

  it('refuses something that is not a number', async () => {
    const a = await activeCustomer(server);
    const res = await a.client.delete('/api/user/callers/someone');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Give the caller's number with its country code, e.g. +447700900123");
  });
});

describe('retention', () => {
  it('computes the cutoff in whole days, or none when kept', () => {
    const now = new Date('2026-11-22T00:00:00Z');
    expect(cutoff(30, now)!.toISOString()).toBe('2026-10-23T00:00:00.000Z');
    expect(cutoff(null, now)).toBeNull();
  });

  it('removes old recordings and clears old transcripts, keeping the call rows', async () => {
    const a = await activeCustomer(server);
    const old = await addCall(a.user.id, '+447700900401', 100);
    const recent = await addCall(a.user.id, '+447700900402', 10);
    await server.database.db.update(calls).set({ urgency: 'urgent', urgencyReason: 'boiler leaking' }).where(inArray(calls.id, [old.id, recent.id]));
    const result = await applyRetention(server.database.db, server.dataDir, { recordingDays: 90, transcriptDays: 30 }, new Date());
    expect(result.recordings).toBeGreaterThanOrEqual(1);
    const row = async (id: number) =>
      (
        await server.database.db
          .select({ recordingFile: calls.recordingFile, transcription: calls.transcription, aiSummary: calls.aiSummary, urgency: calls.urgency, urgencyReason: calls.urgencyReason })
          .from(calls)
          .where(eq(calls.id, id))
      )[0]!;
    expect(await row(old.id)).toEqual({ recordingFile: null, transcription: null, aiSummary: null, urgency: 'urgent', urgencyReason: null });
    expect(fs.existsSync(path.join(server.dataDir, 'recordings', old.file!))).toBe(false);
    expect(await row(recent.id)).toMatchObject({ urgencyReason: 'boiler leaking', recordingFile: recent.file, transcription: 'Hello, it is Jo about the boiler' });
  });

  it('is set by an admin (audited), validated, and refused to customers', async () => {
    const admin = await signInAdmin(server);
    expect((await admin.get('/api/admin/retention')).body).toEqual({ recordingDays: 90, transcriptDays: 365 });
    const set = await admin.patch('/api/admin/retention', { recordingDays: 30, transcriptDays: null });
    expect(set.status).toBe(200);
    expect(await getRetention(server.database.db, server.config.retention)).toEqual({ recordingDays: 30, transcriptDays: null });
    expect((await admin.patch('/api/admin/retention', { recordingDays: 0, transcriptDays: null })).status).toBe(400);
    const { client } = await activeCustomer(server);
    expect((await client.patch('/api/admin/retention', { recordingDays: 1, transcriptDays: 1 })).status).toBe(403);
    expect(await server.database.db.$count(auditLog, eq(auditLog.action, 'retention.update'))).toBe(1);
  });
});
