import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiUnansweredQuestion } from '../../contract/api.js';
import { users } from '../helpers/tables.js';
import { recordUnansweredQuestion } from '../../core/questions/repository.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function seed(userId: number, question: string, minutesAgo = 0) {
  return recordUnansweredQuestion(server.database.db, {
    userId,
    question,
    callerNumber: '+447700900555',
    aiResponse: "I'm sorry, I don't have that information.",
    createdAt: new Date(Date.now() - minutesAgo * 60_000),
  });
}

const kbOf = async (userId: number) =>
  (await server.database.db.select({ kb: users.knowledgeBase }).from(users).where(eq(users.id, userId)).limit(1))[0]!.kb;

describe('questions API (SPEC.md §7)', () => {
  it('lists only the signed-in owner’s questions, newest first, in the API shape', async () => {
    const owner = await activeCustomer(server);
    const other = await activeCustomer(server);
    await seed(owner.user.id, 'Do you work weekends?', 30);
    await seed(owner.user.id, 'Do you fix boilers?', 5);
    await seed(other.user.id, 'Someone else’s question', 1);

    const res = await owner.client.get<{ questions: ApiUnansweredQuestion[] }>('/api/unanswered-questions');
    expect(res.status).toBe(200);
    expect(res.body.questions.map((q) => q.question)).toEqual(['Do you fix boilers?', 'Do you work weekends?']);
    expect(res.body.questions[0]).toEqual({
      id: expect.any(Number),
      question: 'Do you fix boilers?',
      callerNumber: '+447700900555',
      aiResponse: "I'm sorry, I don't have that information.",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      resolved: false,
      addedToKnowledgeBase: false,
      originalQuestion: null,
      language: null,
    });
  });

  it('shows a question asked in another language in English with the caller’s words and the language (issue 42)', async () => {
    const owner = await activeCustomer(server);
    await recordUnansweredQuestion(server.database.db, {
      userId: owner.user.id,
      question: 'How much does it cost to repair a pool heater?',
      originalQuestion: 'Ile kosztuje naprawa podgrzewacza basenu?',
      language: 'pl',
      callerNumber: '+447700900555',
      aiResponse: null,
    });
    const res = await owner.client.get<{ questions: ApiUnansweredQuestion[] }>('/api/unanswered-questions');
    expect(res.body.questions[0]).toMatchObject({
      question: 'How much does it cost to repair a pool heater?',
      originalQuestion: 'Ile kosztuje naprawa podgrzewacza basenu?',
      language: 'pl',
    });
  });

  it('requires a session', async () => {
    const anon = await fetch(`${server.url}/api/unanswered-questions`);
    expect(anon.status).toBe(401);
  });

  it('resolves a pending question, and resolving again changes nothing', async () => {
    const owner = await activeCustomer(server);
    const q = await seed(owner.user.id, 'Are you insured?');
    const res = await owner.client.patch(`/api/unanswered-questions/${q.id}/resolve`);
    expect(res.status).toBe(200);
    expect(res.body.question).toMatchObject({ id: q.id, resolved: true, addedToKnowledgeBase: false });
    const again = await owner.client.patch(`/api/unanswered-questions/${q.id}/resolve`);
    expect(again.status).toBe(200);
    expect(again.body.question.resolved).toBe(true);
  });

  it('adds a trimmed answer to an empty knowledge base and marks the question In KB', async () => {
    const owner = await activeCustomer(server);
    const q = await seed(owner.user.id, 'Do you cover Harrogate?');
    const res = await owner.client.patch(`/api/unanswered-questions/${q.id}/add-to-kb`, { answer: '   Yes, within 20 miles of Leeds.  ' });
    expect(res.status).toBe(200);
    expect(res.body.question).toMatchObject({ addedToKnowledgeBase: true });
    expect(await kbOf(owner.user.id)).toBe('Q: Do you cover Harrogate?\nA: Yes, within 20 miles of Leeds.');
    const me = await owner.client.get('/api/auth/me');
    expect(me.body.user.knowledgeBase).toBe('Q: Do you cover Harrogate?\nA: Yes, within 20 miles of Leeds.');
  });

  it('appends after existing entries separated by one blank line, from pending or resolved', async () => {
    const owner = await activeCustomer(server);
    const save = await owner.client.patch('/api/user/settings', { aiMode: 'agent', knowledgeBase: 'Q: Opening hours?\nA: 8am to 6pm.\n\n' });
    expect(save.status).toBe(200);
    const pending = await seed(owner.user.id, 'Do you do emergencies?');
    const resolved = await seed(owner.user.id, 'Do you take cards?');
    await owner.client.patch(`/api/unanswered-questions/${resolved.id}/resolve`);

    expect((await owner.client.patch(`/api/unanswered-questions/${pending.id}/add-to-kb`, { answer: 'Yes, 24/7.' })).status).toBe(200);
    expect((await owner.client.patch(`/api/unanswered-questions/${resolved.id}/add-to-kb`, { answer: 'Yes, all major cards.' })).status).toBe(200);
    expect(await kbOf(owner.user.id)).toBe(
      'Q: Opening hours?\nA: 8am to 6pm.\n\nQ: Do you do emergencies?\nA: Yes, 24/7.\n\nQ: Do you take cards?\nA: Yes, all major cards.',
    );
  });

  it('rejects a blank answer with 400 and changes nothing', async () => {
    const owner = await activeCustomer(server);
    const q = await seed(owner.user.id, 'Parking?');
    for (const body of [{ answer: '   ' }, { answer: '' }, {}]) {
      const res = await owner.client.patch(`/api/unanswered-questions/${q.id}/add-to-kb`, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
    expect(await kbOf(owner.user.id)).toBeNull();
    const list = await owner.client.get('/api/unanswered-questions');
    expect(list.body.questions[0]).toMatchObject({ resolved: false, addedToKnowledgeBase: false });
  });

  it('refuses a second add-to-KB (409) and resolving an In KB question (409), leaving the knowledge base as it was', async () => {
    const owner = await activeCustomer(server);
    const q = await seed(owner.user.id, 'Free quotes?');
    await owner.client.patch(`/api/unanswered-questions/${q.id}/add-to-kb`, { answer: 'Yes.' });
    const before = await kbOf(owner.user.id);
    const twice = await owner.client.patch(`/api/unanswered-questions/${q.id}/add-to-kb`, { answer: 'Still yes.' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/already in your knowledge base/);
    const resolve = await owner.client.patch(`/api/unanswered-questions/${q.id}/resolve`);
    expect(resolve.status).toBe(409);
    expect(await kbOf(owner.user.id)).toBe(before);
  });

  it('deletes from any state', async () => {
    const owner = await activeCustomer(server);
    const pending = await seed(owner.user.id, 'A');
    const resolved = await seed(owner.user.id, 'B');
    const inKb = await seed(owner.user.id, 'C');
    await owner.client.patch(`/api/unanswered-questions/${resolved.id}/resolve`);
    await owner.client.patch(`/api/unanswered-questions/${inKb.id}/add-to-kb`, { answer: 'c' });
    for (const q of [pending, resolved, inKb]) {
      expect((await owner.client.delete(`/api/unanswered-questions/${q.id}`)).status).toBe(200);
    }
    expect((await owner.client.get('/api/unanswered-questions')).body.questions).toEqual([]);
    expect((await owner.client.delete(`/api/unanswered-questions/${pending.id}`)).status).toBe(404);
  });

  it('answers 400 for an id that is not a number', async () => {
    const owner = await activeCustomer(server);
    expect((await owner.client.patch('/api/unanswered-questions/abc/resolve')).status).toBe(400);
  });
});

describe('tenant isolation', () => {
  it('another owner’s question id is 404 for every action, and nothing of theirs changes', async () => {
    const victim = await activeCustomer(server);
    const attacker = await activeCustomer(server);
    await victim.client.patch('/api/user/settings', { knowledgeBase: 'Q: Hours?\nA: 9 to 5.' });
    const q = await seed(victim.user.id, 'Private question');

    const resolve = await attacker.client.patch(`/api/unanswered-questions/${q.id}/resolve`);
    const add = await attacker.client.patch(`/api/unanswered-questions/${q.id}/add-to-kb`, { answer: 'pwned' });
    const del = await attacker.client.delete(`/api/unanswered-questions/${q.id}`);
    expect([resolve.status, add.status, del.status]).toEqual([404, 404, 404]);
    expect((await attacker.client.get('/api/unanswered-questions')).body.questions).toEqual([]);

    const mine = await victim.client.get('/api/unanswered-questions');
    expect(mine.body.questions).toHaveLength(1);
    expect(mine.body.questions[0]).toMatchObject({ resolved: false, addedToKnowledgeBase: false });
    expect(await kbOf(victim.user.id)).toBe('Q: Hours?\nA: 9 to 5.');
    expect(await kbOf(attacker.user.id)).toBeNull();
  });
});
