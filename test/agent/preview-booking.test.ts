// Issue 41 item 6: the console's Try-it walks a booking turn by turn, in a short-lived
// conversation the server keeps, on the call's own booking walk over the preview desk: the
// owner's real services, hours and bookings decide the times, and nothing is written (no
// booking row, no text, no job). An unknown or expired conversation gets the message the
// console shows. The model is the Ollama double; the database is SQLite or PostgreSQL.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bookings, jobs } from '../helpers/tables.js';
import { PREVIEW_SESSION_LIMITS } from '../../core/agent-preview/preview-sessions.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { outboxTo } from '../caller-texts/helpers.js';
import { callFrom } from '../booking/fixtures.js';

const EXPIRED = 'This conversation with the agent has expired. Ask your question again to start a new one.';
const book = (extra: Record<string, unknown> = {}) => ({ reply: JSON.stringify({ intent: 'book', answered: true, answer: '', ...extra }) });

let server: TestServer;
let ollama: OllamaDouble;
beforeAll(async () => {
  ollama = await startOllamaDouble();
  server = await startTestServer({ env: { OLLAMA_URL: ollama.url, OLLAMA_MODEL: 'llama3.2:3b', TTS_ENGINE: 'espeak-ng' } });
});
afterAll(async () => {
  await server?.close();
  await ollama?.close();
});
afterEach(() => {
  server.clock.offsetMs = 0;
});

/** An owner with the default hours (Mon–Fri 09:00–17:30) and a one-hour boiler service, on Monday 30 November 2026 at 08:00 London. */
async function owner() {
  server.clock.offsetMs = Date.parse('2026-11-30T08:00:00Z') - Date.now();
  const o = await activeCustomer(server, { businessName: 'Hale Plumbing' });
  const service = await o.client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 });
  expect(service.status).toBe(201);
  return { ...o, serviceId: service.body.id as number };
}

describe('the Try-it preview walks a booking', () => {
  it('offers three real free times, takes one, a name, reads it back and says booked: nothing written', async () => {
    const { client, user, serviceId } = await owner();
    // A real booking at Tuesday 09:00: the preview must not offer it.
    const desk = server.services.booking.desk(user.id);
    const offer = await desk.offer({ serviceId, wish: 'Tuesday at nine' });
    if (offer.kind !== 'offered') throw new Error(offer.kind);
    expect(offer.slots[0]!.start.toISOString()).toBe('2026-12-01T09:00:00.000Z');
    const taken = await desk.book({ slotId: offer.slots[0]!.id, callId: await callFrom(server.database.db, user.id, '+447700900302'), callerName: 'Kim', callerNumber: '+447700900302' });
    expect(taken.kind).toBe('booked');
    const before = {
      bookings: (await server.database.db.select().from(bookings).where(eq(bookings.userId, user.id))).length,
      jobs: (await server.database.db.select().from(jobs)).length,
    };

    ollama.script.push(book());
    const first = await client.post('/api/agent/preview', { question: "I'd like to book a boiler service on Tuesday morning" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      sessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
      answered: true,
    });
    // Three times, soonest first, after the real 09:00–10:00 booking.
    expect(first.body.answer).toBe("I can do Tuesday the 1st of December at ten o'clock, Tuesday the 1st of December at half past ten, or Tuesday the 1st of December at eleven o'clock. Which would suit you?");
    expect(first.body.ended).toBeUndefined();
    const sessionId = first.body.sessionId;
    // The model was offered "book" with the phone's prompt.
    expect(ollama.requests.at(-1)!.body.messages[0].content).toContain('set intent to "book"');

    ollama.script.push(book({ choice: 's1' }));
    const picked = await client.post('/api/agent/preview', { question: 'Ten o\'clock please', sessionId });
    expect(picked.status).toBe(200);
    // The model saw the offered times as ids, and the conversation so far.
    const shown = ollama.requests.at(-1)!.body.messages;
    expect(shown[0].content).toContain("s1 = Tuesday the 1st of December at ten o'clock");
    expect(shown.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(picked.body.answer).toMatch(/name/i);

    ollama.script.push(book({ name: 'Sam Hale' }));
    const named = await client.post('/api/agent/preview', { question: 'Sam Hale', sessionId });
    expect(named.body.answer).toContain("Tuesday the 1st of December at ten o'clock");
    expect(named.body.answer).toContain('Sam Hale');
    expect(named.body.ended).toBeUndefined();

    ollama.script.push(book({ yes: true }));
    const done = await client.post('/api/agent/preview', { question: 'Yes, that is right', sessionId });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ sessionId, ended: 'booked', answer: expect.stringContaining("Tuesday the 1st of December at ten o'clock") });

    // Nothing written: no booking row, no job, no text to the preview's caller.
    expect((await server.database.db.select().from(bookings).where(eq(bookings.userId, user.id))).length).toBe(before.bookings);
    expect((await server.database.db.select().from(jobs)).length).toBe(before.jobs);
    expect(outboxTo(server, '+447700900000')).toEqual([]);
  });

  it('an unknown or idle conversation is a 404 with the message; without one, a new conversation starts', async () => {
    const { client } = await owner();
    const unknown = await client.post('/api/agent/preview', { question: 'Hello', sessionId: '0'.repeat(32) });
    expect([unknown.status, unknown.body.message]).toEqual([404, EXPIRED]);

    ollama.script.push(book());
    const first = await client.post('/api/agent/preview', { question: 'Can I book a boiler service on Tuesday morning?' });
    expect(first.status).toBe(200);
    // Idle past the limit (the server's clock moved, no sleep).
    server.clock.offsetMs += PREVIEW_SESSION_LIMITS.idleMs + 60_000;
    const late = await client.post('/api/agent/preview', { question: 'The first one', sessionId: first.body.sessionId });
    expect([late.status, late.body.message]).toEqual([404, EXPIRED]);

    ollama.script.push({ reply: '{"intent":"question","answered":true,"answer":"Hello."}' });
    const fresh = await client.post('/api/agent/preview', { question: 'Hello' });
    expect(fresh.status).toBe(200);
    expect(fresh.body.sessionId).not.toBe(first.body.sessionId);
    // A fresh conversation: the model sees no earlier turns.
    expect(ollama.requests.at(-1)!.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
  });

  it('keeps a few conversations per owner (a new one drops the least recently used) and none of another owner\'s', async () => {
    const { client } = await owner();
    const ids: string[] = [];
    for (let i = 0; i <= PREVIEW_SESSION_LIMITS.perOwner; i++) {
      ollama.script.push({ reply: '{"intent":"question","answered":true,"answer":"Hello."}' });
      const res = await client.post('/api/agent/preview', { question: 'Hello' });
      expect(res.status).toBe(200);
      ids.push(res.body.sessionId);
    }
    const dropped = await client.post('/api/agent/preview', { question: 'Hello', sessionId: ids[0] });
    expect([dropped.status, dropped.body.message]).toEqual([404, EXPIRED]);
    ollama.script.push({ reply: '{"intent":"question","answered":true,"answer":"Hello."}' });
    expect((await client.post('/api/agent/preview', { question: 'Hello', sessionId: ids.at(-1) })).status).toBe(200);

    const other = await activeCustomer(server);
    const theirs = await other.client.post('/api/agent/preview', { question: 'Hello', sessionId: ids.at(-1) });
    expect([theirs.status, theirs.body.message]).toEqual([404, EXPIRED]);
  });
});
