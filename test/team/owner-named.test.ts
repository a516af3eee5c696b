// Issue 58: the owner's own team member is made with the name "Owner" (accounts hold no
// personal name). Through the real agent dialogue (the console's Try-it, over HTTP), the real
// booking desk and the real database, the agent offering times with the owner says "the
// owner", never "Owner"; once the owner gives their name, that name. The model is the Ollama
// double; SQLite or (npm run test:postgres) PostgreSQL.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** "Owner" said as a name: the word with its capital ("The owner can do …" is how it should read). */
const OWNER_AS_NAME = /\bOwner\b/;
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

/** A business (default hours, Monday 30 November 2026 at 08:00 London) whose cut is done by the owner and by Tom. */
async function teamBusiness() {
  server.clock.offsetMs = Date.parse('2026-11-30T08:00:00Z') - Date.now();
  const o = await activeCustomer(server, { businessName: 'Hale Hair' });
  const service = await o.client.post('/api/user/booking/services', { name: 'Cut', durationMinutes: 60 });
  expect(service.status, service.text).toBe(201);
  const tom = await o.client.post('/api/user/team', { name: 'Tom' });
  expect(tom.status, tom.text).toBe(201);
  const team = await o.client.get('/api/user/team');
  const ownerId = (team.body.members as Array<{ id: number; isOwner: boolean }>).find((m) => m.isOwner)!.id;
  for (const id of [ownerId, tom.body.member.id as number]) {
    const saved = await o.client.request('PUT', `/api/user/team/${id}/services`, { services: [{ serviceId: service.body.id, durationMinutes: null }] });
    expect(saved.status, saved.text).toBe(200);
  }
  return { ...o, ownerId };
}

describe('the agent offering times with the owner', () => {
  it('says "the owner" while the owner\'s member is still "Owner", from the offer to the booking; once renamed, their name', async () => {
    const { client, ownerId } = await teamBusiness();

    ollama.script.push(book());
    const offer = await client.post('/api/agent/preview', { question: "I'd like a cut on Tuesday morning" });
    expect(offer.status, offer.text).toBe(200);
    expect(offer.body.answer).toMatch(/^The owner can do Tuesday the 1st of December at nine o'clock/);
    const sessionId = offer.body.sessionId as string;

    ollama.script.push(book({ choice: 's1' }));
    const picked = await client.post('/api/agent/preview', { question: 'Nine with the owner please', sessionId });
    ollama.script.push(book({ name: 'Sam Hale' }));
    const named = await client.post('/api/agent/preview', { question: 'Sam Hale', sessionId });
    expect(named.body.answer).toContain('with the owner, for Sam Hale');
    ollama.script.push(book({ yes: true }));
    const done = await client.post('/api/agent/preview', { question: 'Yes', sessionId });
    expect(done.body).toMatchObject({ ended: 'booked', answer: expect.stringContaining('with the owner') });
    for (const said of [offer, picked, named, done]) expect(said.body.answer).not.toMatch(OWNER_AS_NAME);

    const renamed = await client.request('PUT', `/api/user/team/${ownerId}`, { name: 'Priya' });
    expect(renamed.status, renamed.text).toBe(200);
    ollama.script.push(book());
    const again = await client.post('/api/agent/preview', { question: "I'd like a cut on Tuesday morning" });
    expect(again.body.answer).toMatch(/^Priya can do Tuesday the 1st of December at nine o'clock/);
  });
});
