import type { Page } from 'playwright-core';
import { expect, vi } from 'vitest';

/** Several engineers' tests run at once here: a render is given 30 s to land. */
const LOADED_MACHINE = { timeout: 30_000, interval: 100 };

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
  await vi.waitFor(async () => {
    for (const title of titles) expect(await heading(title).count(), title).toBeGreaterThan(0);
  }, LOADED_MACHINE);
  // One at a time: each click takes a button out of the closed set the next click looks in.
  const closed = form.locator('button[aria-expanded="false"]');
  await vi.waitFor(async () => {
    if ((await closed.count()) > 0) await closed.first().click();
    expect(await closed.count()).toBe(0);
  }, LOADED_MACHINE);
}
