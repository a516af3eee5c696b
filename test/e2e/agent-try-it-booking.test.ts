// The owner walks a booking in the Try-it panel at 375 and 1280 px (issue 41 item 6): the
// conversation is listed turn by turn, the times come from the owner's real service and hours,
// the last turn says booked in preview and nothing is written; "Start again" clears it, and a
// conversation the server forgot (idle too long) shows its message and the next question
// starts a new one. axe-core and the viewport check in each state.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../helpers/tables.js';
import { PREVIEW_SESSION_LIMITS } from '../../core/agent-preview/preview-sessions.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { seriousViolations } from './support/axe.js';
import { customerPage, startE2E, type E2E, until } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';
import { openAnsweringCards } from './support/answering-cards.js';

let e2e: E2E;
let ollama: OllamaDouble;
beforeAll(async () => {
  ollama = await startOllamaDouble();
  e2e = await startE2E({ OLLAMA_URL: ollama.url, TTS_ENGINE: 'espeak-ng' });
}, 180_000);
afterAll(async () => {
  await e2e?.close();
  await ollama?.close();
});
afterEach(() => {
  e2e.server.clock.offsetMs = 0;
});

const book = (extra: Record<string, unknown> = {}) => ({ reply: JSON.stringify({ intent: 'book', answered: true, answer: '', ...extra }) });

describe.each([375, 1280])('Try-it walks a booking at %i px', (width) => {
  it('lists the turns, offers the real times, ends booked in preview with nothing written; Start again and an expired conversation start afresh', async () => {
    // Monday 30 November 2026, 08:00 London: Tuesday morning is free from nine.
    e2e.server.clock.offsetMs = Date.parse('2026-11-30T08:00:00Z') - Date.now();
    const { page, customer } = await customerPage(e2e, { businessName: 'Hale Plumbing' }, { width, height: 900 });
    expect((await customer.client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 })).status).toBe(201);
    const clean = async () => {
      expect(await seriousViolations(page)).toEqual([]);
      expect(await outsideViewport(page)).toEqual([]);
    };
    const answers = page.getByTestId('agent-answer');
    const say = async (words: string, turns: number) => {
      await page.getByLabel("Caller's question").fill(words);
      await page.getByRole('button', { name: 'Ask' }).click();
      await until(async () => expect(await answers.count()).toBe(turns));
      // The box is emptied for the next turn once the answer is in.
      expect(await page.getByLabel("Caller's question").inputValue()).toBe('');
    };

    await page.goto('/dashboard/notifications');
    // On a phone the Answering section's cards start closed (issue 57); the agent's come with the mode.
    await openAnsweringCards(page);
    await page.getByRole('radio', { name: /AI Voice Agent/ }).check();
    await openAnsweringCards(page, ['Try Your AI Agent']);

    ollama.script.push(book());
    await say("I'd like to book a boiler service on Tuesday morning", 1);
    expect(await answers.nth(0).textContent()).toBe("I can do Tuesday the 1st of December at nine o'clock, Tuesday the 1st of December at half past nine, or Tuesday the 1st of December at ten o'clock. Which would suit you?");
    ollama.script.push(book({ choice: 's3' }));
    await say('Ten please', 2);
    ollama.script.push(book({ name: 'Sam Hale' }));
    await say('Sam Hale', 3);
    expect(await answers.nth(2).textContent()).toContain("Tuesday the 1st of December at ten o'clock");
    ollama.script.push(book({ yes: true }));
    await say('Yes', 4);
    await page.getByText('Booked (preview: nothing was saved)').waitFor();
    // Every turn is listed: the owner's words and the agent's.
    const list = page.getByRole('list', { name: 'Your conversation with the agent' });
    expect(await list.getByRole('listitem').count()).toBe(4);
    expect(await list.getByText('You: Sam Hale', { exact: true }).count()).toBe(1);
    expect(await e2e.server.database.db.select().from(bookings).where(eq(bookings.userId, customer.user.id))).toEqual([]);
    await clean();

    await page.getByRole('button', { name: 'Start again' }).click();
    expect(await answers.count()).toBe(0);
    ollama.script.push({ reply: '{"intent":"question","answered":true,"answer":"Hello, how can I help?"}' });
    await say('Hello', 1);
    // A new conversation: the model sees no earlier turns.
    expect(ollama.requests.at(-1)!.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);

    // Idle past the limit: the server's message, the turns cleared, and the next question starts afresh.
    e2e.server.clock.offsetMs += PREVIEW_SESSION_LIMITS.idleMs + 60_000;
    await page.getByLabel("Caller's question").fill('Are you there?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByRole('alert').filter({ hasText: 'This conversation with the agent has expired. Ask your question again to start a new one.' }).waitFor();
    expect(await answers.count()).toBe(0);
    await clean();
    ollama.script.push({ reply: '{"intent":"question","answered":true,"answer":"Yes, I am here."}' });
    await page.getByRole('button', { name: 'Ask' }).click();
    await until(async () => expect(await answers.count()).toBe(1));
    expect(await answers.nth(0).textContent()).toBe('Yes, I am here.');
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
