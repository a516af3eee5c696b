import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { until } from './browser.js';

/**
 * Opens every closed card of Notification Settings' Answering section (issue 57: on a phone each
 * card is closed to its heading and summary). `titles` are the cards the test needs to be there
 * first (cards come with the agent mode and the owner's numbers); on a wide screen there is
 * nothing to open and it only waits for them.
 */
export async function openAnsweringCards(page: Page, titles: readonly string[] = ['AI Voice Agent Mode']): Promise<void> {
  const form = page.getByRole('form', { name: 'Answering' });
  await form.waitFor();
  const heading = (title: string) => form.getByRole('heading', { name: title, exact: true });
  await until(async () => {
    for (const title of titles) expect(await heading(title).count(), title).toBeGreaterThan(0);
  });
  for (const toggle of await form.locator('button[aria-expanded="false"]').all()) await toggle.click();
  await until(async () => expect(await form.locator('button[aria-expanded="false"]').count()).toBe(0));
}
