// The owner tries the agent on the Notification Settings screen with the knowledge base
// they are still typing: what the phone would say, from the same prompt and engine.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { customerPage, startE2E, type E2E, until } from './support/browser.js';

vi.setConfig({ testTimeout: 90_000 });

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

describe('Try Your AI Agent', () => {
  it('answers from the unsaved knowledge base typed into the form, under the saved business name', async () => {
    const { page } = await customerPage(e2e, { businessName: 'Saved Name Ltd' });
    await page.goto('/dashboard/notifications');
    expect(await page.getByText('Try Your AI Agent').count()).toBe(0); // voicemail mode: no panel
    await page.getByRole('radio', { name: /AI Voice Agent/ }).check();
    await page.getByRole('textbox', { name: 'Knowledge Base' }).fill('Q: Do you cover Leeds?\nA: Yes, all of Leeds and Bradford.');

    ollama.script.push({ reply: '{"intent":"question","answered":true,"answer":"Yes, we cover all of Leeds and Bradford."}' });
    await page.getByLabel("Caller's question").fill('Do you come out to Leeds?');
    await page.getByRole('button', { name: 'Ask' }).click();
    expect(await page.getByRole('radio', { name: /AI Voice Agent/ }).isChecked()).toBe(true); // still the unsaved form
    await until(async () => expect(await page.getByTestId('agent-answer').textContent()).toBe('Yes, we cover all of Leeds and Bradford.'));
    await page.getByText('Answered from your knowledge base').waitFor();

    const system = ollama.requests.at(-1)!.body.messages[0].content as string;
    expect(system).toContain('A: Yes, all of Leeds and Bradford.');
    // The business name is edited and saved under Greeting, a section of its own.
    expect(system).toContain('Saved Name Ltd');
  });
});
