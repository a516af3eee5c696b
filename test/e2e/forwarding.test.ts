// Phone Numbers (issue 28): the codes for the owner's own kind of line, and "Check my
// forwarding" showing its result. The PBX is a stand-in that opens the check's row as the real
// one does; the test then ends the check as the real call back would (test/pbx-real/forwarding-check.test.ts
// proves those calls on Asterisk).
import { describe, expect, it } from 'vitest';
import { createForwardingChecks } from '../../core/forwarding-check/index.js';
import type { ForwardingCheckStartResult } from '../../core/ports/forwarding-check.js';
import { attachScreenshot, customerPage, expectToast, until, useE2E } from './support/browser.js';

const started: number[] = [];
const e2e = useE2E({ OUTBOUND_ENDPOINT: 'PJSIP/{number}@uk-did', NUMBER_PROVIDER: 'static', STATIC_NUMBERS: '+447700900001,+447700900002,+447700900003,+447700900004' }, 90_000, {
  setup: (services) => {
    const checks = createForwardingChecks(services.database.db);
    return {
      forwardingCheck: async (userId: number, line: string): Promise<ForwardingCheckStartResult> => {
        const at = services.now();
        const id = await checks.open({ userId, line, did: 'stand-in', startedAt: at, endsAt: new Date(at.getTime() + 60_000) });
        started.push(id);
        return { kind: 'started', id };
      },
    };
  },
});

async function ownerWithNumber() {
  const { page, customer } = await customerPage(e2e, { businessPhone: '0113 496 0000' }, { clipboard: true });
  const res = await customer.client.post('/api/phone-numbers/purchase');
  expect(res.status).toBe(201);
  const did = (res.body as { number: { phoneNumber: string } }).number.phoneNumber;
  await page.goto('/dashboard/phone-numbers');
  await page.getByRole('heading', { name: 'Codes for your line' }).waitFor();
  return { page, did };
}

describe('forwarding the owner’s own line', () => {
  it('shows the codes for a landline, Virgin Media and a mobile with its ring delay, the spec’s four codes unchanged', async ({ annotate }) => {
    const { page, did } = await ownerWithNumber();
    const national = `0${did.slice(3)}`;
    const line = page.getByLabel('Your business line');
    // The spec's guide is still there as written.
    await page.getByText(`*61*${did}#`).waitFor();

    const table = page.getByRole('table', { name: /Forwarding codes for/ });
    await table.getByText(`*21*${national}#`).waitFor();
    await table.getByText(`*61*${national}#`).waitFor();
    await table.getByText(`*67*${national}#`).waitFor();
    await table.getByText('*#21#').waitFor();
    await table.getByText('#61#', { exact: true }).waitFor();

    await line.selectOption('virgin');
    await page.getByText('Forwarding does not work while Virgin Media’s free voicemail is on: turn it off first.').waitFor();
    expect(await table.getByRole('row').count()).toBe(2);

    await line.selectOption('mobile');
    await page.getByLabel('Ring before forwarding').selectOption('15');
    await table.getByText(`**61*${did}**15#`).waitFor();
    await table.getByText(`**62*${did}#`).waitFor();
    await page.getByText('If your voicemail answers in less than 15 seconds, calls go to voicemail and are not forwarded', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Copy When unanswered (after 15 seconds): turn on' }).click();
    await expectToast(page, 'Copied! When unanswered (after 15 seconds): turn on copied to clipboard');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(`**61*${did}**15#`);
    await page.getByRole('button', { name: 'Copy Turn off all forwarding' }).waitFor();
    await attachScreenshot(page, annotate, 'phone-numbers-own-line-mobile');
  });

  it('"Check my forwarding": checking, then "Forwarding works" with the condition the network reported', async () => {
    const { page } = await ownerWithNumber();
    const checks = createForwardingChecks(e2e.server.database.db);
    await page.getByRole('button', { name: 'Check my forwarding' }).click();
    await page.getByRole('button', { name: 'Checking...' }).waitFor();
    await page.getByText('Calling your business line. Don’t answer: let it ring.').waitFor();
    const id = started.at(-1)!;
    expect(await checks.arrived(id, ['<sip:+441134960000@carrier.example>;reason=no-answer'], new Date())).toBe(true);
    await page.getByText('Forwarding works').waitFor();
    await page.getByText('Calls you don’t answer are forwarded.').waitFor();
    await page.getByRole('button', { name: 'Check my forwarding' }).waitFor();
  });

  it('"Forwarding is not reaching us", with the codes to try for the line chosen', async () => {
    const { page } = await ownerWithNumber();
    const checks = createForwardingChecks(e2e.server.database.db);
    await page.getByRole('button', { name: 'Check my forwarding' }).click();
    await page.getByRole('button', { name: 'Checking...' }).waitFor();
    await checks.unreached(started.at(-1)!, new Date());
    const result = page.getByRole('status').filter({ hasText: 'Forwarding is not reaching us' });
    await result.waitFor();
    await until(async () => expect(await result.getByText(/^\*21\*0\d+#$/).count()).toBe(1));
    await result.getByText(/^\*61\*0\d+#$/).waitFor();
  });
});
