// Regression: a dialog taller than the window (the sign-up form on a laptop or phone)
// must scroll to its very top; a centring flex container used to cut the title off.
import { describe, expect, it } from 'vitest';
import { useE2E } from './support/browser.js';

const e2e = useE2E({}, 60_000);

describe('tall dialogs', () => {
  it.each([
    { width: 1280, height: 700 },
    { width: 375, height: 667 },
  ])('the sign-up dialog scrolls to its title at $width×$height', async (size) => {
    const page = await e2e.page(size);
    await page.goto('/');
    await page.getByRole('button', { name: 'Start Free Trial' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // Runs in the page (the test files are typed without the DOM library): scroll the dialog's scroller to the top.
    await page.evaluate(`(() => {
      let el = document.querySelector('[role=dialog]');
      while (el && getComputedStyle(el).overflowY !== 'auto') el = el.parentElement;
      if (el) el.scrollTo(0, 0);
    })()`);
    const title = await page.getByRole('heading', { name: 'Start Your 7-Day Free Trial' }).boundingBox();
    expect(title!.y).toBeGreaterThanOrEqual(0);
    const submit = page.getByRole('button', { name: 'Submit Free Trial Request' });
    await submit.scrollIntoViewIfNeeded();
    expect(await submit.isVisible()).toBe(true);
  });
});
