import { describe, expect, it } from 'vitest';
import { currentFingerprint } from '../../core/self-test/status.js';
import { qualityReport, saveQualityReport } from '../eval/report-fixture.js';
import { seriousViolations } from './support/axe.js';
import { adminPage, attachScreenshot, useE2E } from './support/browser.js';

// The admin dashboard's self-test card (issue 60 item 3), beside AI Quality: the box's own
// figures, the plain advice when the assistant is slow on this hardware, and the operator's
// acceptance of agent mode for new owners. The report is seeded as the self-test writes it
// (the run itself is test/self-test/slow-box.test.ts).

const e2e = useE2E({ SELF_TEST: 'on' });

describe('admin dashboard: the self-test card', () => {
  it('shows a slow box’s figures and advice, and the accept button ends the hold on new owners', async ({ annotate }) => {
    const report = qualityReport('base', '2026-12-03T10:00:00.000Z');
    report.figures.latency.agentFirstAudio = { count: 10, p50Ms: 2300, p95Ms: 3100, meanMs: 2400, maxMs: 3300 };
    report.selfTest = { fingerprint: await currentFingerprint(e2e.server.config), engines: 'whisper.cpp base · ollama llama3.2:3b · espeak-ng' };
    saveQualityReport(e2e.server.dataDir, report, 'self-test-2026-12-03T10-00-00-000Z.json');

    const { page } = await adminPage(e2e, { width: 1280, height: 900 });
    await page.goto('/dashboard/admin');
    await page.getByText('Self-test on this box').waitFor();
    await page.getByText('On this hardware the assistant takes 2.3 s to start answering (p50); callers notice over 1.5 s. Use a smaller model (OLLAMA_MODEL) or keep owners in voicemail mode.').waitFor();
    expect(await page.getByText('2.3 s / 3.1 s').count()).toBe(1);
    await page.getByText(/^New owners start in voicemail mode:/).waitFor();
    await attachScreenshot(page, annotate, 'admin-self-test-slow-1280');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Accept agent mode anyway' }).click();
    await page.getByText(/^Agent mode accepted by /).waitFor();
    expect(await page.getByRole('button', { name: 'Accept agent mode anyway' }).count()).toBe(0);
  });
});
