// Issue 42 in the console: the owner picks a voice for each ticked caller language, hears the
// greeting line in it, and saves it (GET /api/agent/voices, POST /api/agent/line-preview).
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { customerPage, expectToast, useE2E } from './support/browser.js';
import { openAnsweringCards } from './support/answering-cards.js';

const e2e = useE2E({ TTS_ENGINE: 'espeak-ng' });

describe('a voice per caller language', () => {
  it('at 375 px: picks a voice for Polish, plays the greeting in it, saves it, and a reload shows it; axe clean', async () => {
    const { page, customer } = await customerPage(e2e, {}, { width: 375, height: 800 });
    await customer.client.patch('/api/user/settings', { aiMode: 'agent', agentLanguages: ['pl', 'ur'] });
    await page.goto('/dashboard/notifications');
    await openAnsweringCards(page, ['Caller Languages']);
    const polish = page.getByRole('combobox', { name: 'Polish voice' });
    await polish.waitFor();
    // Only ticked languages other than English, each offered its own installed voices.
    expect(await page.getByRole('combobox', { name: /^\w+ voice$/ }).count()).toBe(2);
    await page.getByRole('combobox', { name: 'Urdu voice' }).waitFor();
    await polish.getByRole('option', { name: 'Basic male voice (plainer, more robotic)' }).waitFor({ state: 'attached' });
    expect(await polish.locator('option').allTextContents()).toEqual(['Default (Female)', 'Basic female voice (plainer, more robotic)', 'Basic male voice (plainer, more robotic)']);

    await polish.selectOption({ label: 'Basic male voice (plainer, more robotic)' });
    const request = page.waitForRequest((r) => r.url().endsWith('/api/agent/line-preview'));
    const audio = page.waitForResponse((r) => r.url().includes('/api/agent/preview/audio/'), { timeout: 60_000 });
    await page.getByRole('button', { name: 'Play the Polish greeting in this voice' }).click();
    expect((await request).postDataJSON()).toEqual({ language: 'pl', line: 'greeting', languageVoice: 'espeak-ng:pl' });
    // The browser fetched the line's audio to play it, and got it.
    const answered = await audio;
    expect([answered.status(), answered.headers()['content-type']]).toEqual([200, 'audio/wav']);
    await page.getByLabel('Polish voice sample').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);

    // "Hear a line" offers each of Polish's installed voices too, beside the female/male rule.
    const lineVoice = page.getByRole('combobox', { name: 'Voice', exact: true });
    expect(await lineVoice.locator('option').allTextContents()).toEqual(['Female', 'Male', 'Basic female voice (plainer, more robotic)', 'Basic male voice (plainer, more robotic)']);

    // Keyboard: the Urdu picker is reached and changed without a mouse.
    await page.getByRole('combobox', { name: 'Urdu voice' }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('combobox', { name: 'Urdu voice' }).inputValue()).toBe('espeak-ng:ur+f3');

    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Settings saved');
    expect((await customer.client.get('/api/auth/me')).body.user.languageVoices).toEqual({ pl: 'espeak-ng:pl', ur: 'espeak-ng:ur+f3' });

    await page.reload();
    await openAnsweringCards(page, ['Caller Languages']);
    await page.getByRole('combobox', { name: 'Polish voice' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Polish voice' }).inputValue()).toBe('espeak-ng:pl');
  }, 120_000);
});
