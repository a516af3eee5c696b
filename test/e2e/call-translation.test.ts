// Issue 42 in Call Details, at 375 and 1280 px, axe clean: a caller who spoke another language
// keeps their words, marked with their language, with the English translation the post-call
// job stored beside them (under them on a phone); an English call shows its transcript alone.
import { describe, expect, it } from 'vitest';
import { calls } from '../helpers/tables.js';
import { seriousViolations } from './support/axe.js';
import { customerPage, useE2E, until } from './support/browser.js';

const e2e = useE2E();

const POLISH = 'Dzień dobry, mówi Marta Nowak. Cieknie mi kran w kuchni. Proszę oddzwonić na 07700 900456.';
const ENGLISH = 'Good morning, this is Marta Nowak. My kitchen tap is leaking. Please call me back on 07700 900456.';
const URDU = 'السلام علیکم، میرا نام عمران خان ہے۔ میرا بوائلر خراب ہے۔';

describe.each([375, 1280])('Call Details in the caller’s language at %i px', (width) => {
  it('shows the original in Polish with the English translation beside it, an untranslated Urdu call says so, an English call has no translation', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Nowak Plumbing' }, { width, height: 900 });
    const at = Date.parse('2026-07-04T12:30:00Z');
    const base = { userId: customer.user.id, toNumber: '+447700900999', status: 'voicemail' as const, duration: 20, transcriptionStatus: 'done' as const };
    await e2e.server.database.db.insert(calls).values([
      { ...base, fromNumber: '+447700900123', createdAt: new Date(at), transcription: POLISH, transcriptEnglish: ENGLISH, callerLanguage: 'pl', aiSummary: 'The caller spoke Polish. Marta Nowak has a leaking kitchen tap.' },
      { ...base, fromNumber: '+447700900456', createdAt: new Date(at - 60_000), transcription: URDU, callerLanguage: 'ur', aiSummary: 'The caller spoke Urdu. Imran Khan’s boiler is broken.' },
      { ...base, fromNumber: '+447700900789', createdAt: new Date(at - 120_000), transcription: 'Hi, it is Sam, can you quote for a boiler?', aiSummary: 'Sam wants a boiler quote.' },
    ]);
    await page.goto('/dashboard');
    const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
    await until(async () => expect(await cards.count()).toBe(3));
    const dialog = page.getByRole('dialog', { name: 'Call Details' });

    await cards.filter({ hasText: '+44 770 090 0123' }).getByRole('button', { name: '+44 770 090 0123' }).click();
    const original = dialog.getByRole('heading', { name: 'Full Transcript (Polish, as spoken)' });
    const translation = dialog.getByRole('heading', { name: 'English Translation' });
    await original.waitFor();
    const polishText = dialog.locator('p[lang="pl"]');
    expect(await polishText.textContent()).toBe(POLISH);
    expect(await dialog.locator('p[lang="en"]').textContent()).toBe(ENGLISH);
    await dialog.getByText('Language', { exact: true }).waitFor();
    expect(await dialog.getByRole('definition').filter({ hasText: /^Polish$/ }).count()).toBe(1);
    // Beside the original on a wide screen, under it on a phone.
    const [a, b] = [(await original.boundingBox())!, (await translation.boundingBox())!];
    if (width === 1280) expect([b.x > a.x + a.width / 2, Math.abs(b.y - a.y) < 4]).toEqual([true, true]);
    else expect([b.y > a.y + a.height, Math.abs(b.x - a.x) < 4]).toEqual([true, true]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await cards.filter({ hasText: '+44 770 090 0456' }).getByRole('button', { name: '+44 770 090 0456' }).click();
    await dialog.getByRole('heading', { name: 'Full Transcript (Urdu, as spoken)' }).waitFor();
    expect(await dialog.locator('p[lang="ur"]').getAttribute('dir')).toBe('auto');
    await dialog.getByText('Not translated yet: the English appears here once the local model has translated the call.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await cards.filter({ hasText: '+44 770 090 0789' }).getByRole('button', { name: '+44 770 090 0789' }).click();
    await dialog.getByRole('heading', { name: 'Full Transcript', exact: true }).waitFor();
    expect(await dialog.getByRole('heading', { name: 'English Translation' }).count()).toBe(0);
    expect(await dialog.getByText('Language', { exact: true }).count()).toBe(0);
  });
});
