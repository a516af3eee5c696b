import { describe, expect, it } from 'vitest';
import { qualityReport, saveQualityReport } from '../eval/report-fixture.js';
import { seriousViolations } from './support/axe.js';
import { adminPage, attachScreenshot, useE2E } from './support/browser.js';

// The admin dashboard's AI Quality card (issue 45): the latest `npm run eval` report of each
// set of models, side by side, next to the agent capacity.

const e2e = useE2E();

describe('admin dashboard: AI Quality', () => {
  it('says how to get a report before the evaluation has run', async () => {
    const { page } = await adminPage(e2e);
    await page.goto('/dashboard/admin');
    await page.getByText('No evaluation yet').waitFor();
    await page.getByText('Run npm run eval on the box').waitFor();
  });

  it('shows the latest report of each set of models side by side', async ({ annotate }) => {
    const base = qualityReport('base.en', '2026-11-03T10:00:00.000Z');
    base.figures.transcription.wordErrorRate = 0.082;
    base.figures.transcription.numberErrorRate = 0.125;
    base.figures.agent.inventedFacts = 3;
    const small = qualityReport('small.en', '2026-11-02T10:00:00.000Z');
    small.figures.transcription.wordErrorRate = 0.051;
    small.set.partial = true;
    saveQualityReport(e2e.server.dataDir, base);
    saveQualityReport(e2e.server.dataDir, small);

    const { page } = await adminPage(e2e, { width: 1280, height: 900 });
    await page.goto('/dashboard/admin');
    const table = page.getByRole('table', { name: 'AI Quality' });
    await table.waitFor();
    const headers = await table.getByRole('columnheader').allInnerTexts();
    expect(headers[1]).toContain('whisper.cpp base.en · ollama llama3.2:3b · piper');
    expect(headers[2]).toContain('whisper.cpp small.en');
    expect(headers[2]).toContain('Part of the set');
    const row = (label: string) => table.getByRole('row').filter({ hasText: label }).getByRole('cell');
    expect(await row('Word error rate').allInnerTexts()).toEqual([expect.stringContaining('Word error rate'), '8.2%', '5.1%']);
    expect((await row('Number errors').allInnerTexts()).slice(1)).toEqual(['12.5%', 'n/a']);
    expect((await row('Agent: invented facts').allInnerTexts()).slice(1)).toEqual(['3', '0']);
    await attachScreenshot(page, annotate, 'admin-quality-1280-light');
    expect(await seriousViolations(page)).toEqual([]);

    // On a phone the table stacks, each figure labelled with its models, and stays accessible in the dark theme.
    const { page: phone } = await adminPage(e2e, { width: 375, height: 800, dark: true });
    await phone.goto('/dashboard/admin');
    await phone.getByRole('table', { name: 'AI Quality' }).waitFor();
    await attachScreenshot(phone, annotate, 'admin-quality-375-dark');
    expect(await seriousViolations(phone)).toEqual([]);
  });
});
