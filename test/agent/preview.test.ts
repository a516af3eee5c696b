import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT_LINES } from '../../dialogue/spoken/agent-lines.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

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

const KB = 'Q: What are your opening hours?\nA: 8am to 6pm, Monday to Friday.';

describe('POST /api/agent/preview', () => {
  it('answers from the unsaved knowledge base with the phone prompt, streamed, and gives audio in the chosen voice', async () => {
    const owner = await activeCustomer(server);
    ollama.script.push({ reply: '{"intent":"question","answered":true,"answer":"We are open 8am to 6pm, Monday to Friday."}' });
    const res = await owner.client.post('/api/agent/preview', { question: ' When are you open? ', knowledgeBase: KB, businessName: 'Acme Plumbing', voice: 'male' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ answer: 'We are open 8am to 6pm, Monday to Friday.', answered: true });

    const sent = ollama.requests.at(-1)!.body;
    expect(sent.stream).toBe(true);
    expect(sent.format).toMatchObject({ type: 'object', required: ['intent', 'answered', 'answer'] });
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content).toContain('Acme Plumbing');
    expect(sent.messages[0].content).toContain('A: 8am to 6pm, Monday to Friday.');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'When are you open?' });

    expect(res.body.audioUrl).toMatch(/^\/api\/agent\/preview\/audio\/[0-9a-f]{64}$/);
    const audio = await owner.client.get(res.body.audioUrl);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    // Another owner cannot fetch it.
    const other = await activeCustomer(server);
    expect((await other.client.get(res.body.audioUrl)).status).toBe(404);
  });

  it('gives the polite admission when the knowledge base does not cover the question, and logs nothing', async () => {
    const owner = await activeCustomer(server);
    ollama.script.push({ reply: '{"intent":"question","answered":false,"answer":"Probably £80."}' });
    const res = await owner.client.post('/api/agent/preview', { question: 'How much is a boiler service?', knowledgeBase: KB });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ answer: AGENT_LINES.notAnswered, answered: false });
    expect(res.body.answer).not.toContain('£80');
    expect((await owner.client.get('/api/unanswered-questions')).body.questions).toEqual([]);
  });

  it('falls back to "not answered" when the model writes garbage', async () => {
    const owner = await activeCustomer(server);
    ollama.script.push({ reply: 'I think we open at 7am' });
    const res = await owner.client.post('/api/agent/preview', { question: 'When do you open?', knowledgeBase: KB });
    expect(res.body).toMatchObject({ answer: AGENT_LINES.notAnswered, answered: false });
  });

  it('says what to do when the engine is down (503), and rejects an empty question (400) or no session (401)', async () => {
    const owner = await activeCustomer(server);
    ollama.script.push({ status: 500, error: 'model runner crashed' });
    const down = await owner.client.post('/api/agent/preview', { question: 'Hours?', knowledgeBase: KB });
    expect(down.status).toBe(503);
    expect(down.body.message).toMatch(/Ollama/);
    expect((await owner.client.post('/api/agent/preview', { question: '   ', knowledgeBase: KB })).status).toBe(400);
    const anon = await fetch(`${server.url}/api/agent/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'x' }),
    });
    expect(anon.status).toBe(401);
  });

  it('answers one preview per owner at a time (429 for a second while the first runs)', async () => {
    const owner = await activeCustomer(server);
    let answer!: () => void;
    const held = new Promise<void>((r) => (answer = r));
    ollama.script.push({ reply: '{"intent":"question","answered":true,"answer":"Yes."}', until: held });
    const asked = ollama.requests.length;
    const first = owner.client.post('/api/agent/preview', { question: 'Are you open on Saturdays?', knowledgeBase: KB });
    // The first is with the model (and holding the owner's turn) until the test lets it answer.
    await vi.waitFor(() => expect(ollama.requests.slice(asked).map((r) => r.body.messages.at(-1).content)).toContain('Are you open on Saturdays?'), { timeout: 30_000 });
    const second = await owner.client.post('/api/agent/preview', { question: 'Parking?', knowledgeBase: KB });
    expect(second.status).toBe(429);
    answer();
    expect((await first).status).toBe(200);
  });
});
