// Issue 59 part B, the connection: the owner's restricted key sealed at rest and never answered
// (keyEnding only), "Test connection" in plain words for each case (works, wrong key, a right
// missing named, Stripe unreachable), the box's webhook endpoint made once on the owner's
// account with its secret sealed, and disconnect refused while a pay link is out.
import { describe, expect, it } from 'vitest';
import { unseal } from '../../../core/booking/calendars/secret-box.js';
import { PAYMENT_ROUTES } from '../../../contract/payments.js';
import { awaitingBooking, bookingRow, connected, connectionRow, KEY, RIGHTS, useWorld } from './setup.js';

const theWorld = useWorld();

describe('the owner\'s Stripe connection', () => {
  it('seals the key, never answers it, and says "Connected to …" once the rights are proved; the webhook endpoint is made once', async () => {
    const w = theWorld();
    const account = w.stripe.account({ key: KEY, name: 'Hartley Plumbing Ltd', permissions: RIGHTS });
    const saved = await w.deposits.save(w.userId, { secretKey: KEY, depositPolicy: 'Refunded if you cancel a day ahead.', refundOnCallerCancel: false });
    expect(JSON.stringify(saved)).not.toContain(KEY.slice(8));
    expect(saved).toMatchObject({ connected: false, keyEnding: '0001', livemode: false, depositPolicy: 'Refunded if you cancel a day ahead.', refundOnCallerCancel: false });
    const row = await connectionRow(w);
    expect(row!.secretKeySealed).not.toContain(KEY.slice(8));
    expect(unseal(w.server.services.booking.keys.seal, row!.secretKeySealed)).toBe(KEY);
    expect(await w.deposits.connected(w.userId)).toBe(false);

    const tested = await w.deposits.test(w.userId);
    expect(tested).toMatchObject({ ok: true, message: 'Connected to your Stripe account (test mode).', connection: { connected: true, keyEnding: '0001' } });
    expect(JSON.stringify(tested)).not.toContain(KEY.slice(8));
    expect(await w.deposits.connected(w.userId)).toBe(true);
    const [endpoint] = account.webhookEndpoints();
    expect(endpoint!.url).toBe(new URL(PAYMENT_ROUTES.depositsWebhook(w.userId), w.server.config.publicUrl).toString());
    expect(endpoint!.enabled_events).toEqual(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.expired']);
    const sealedSecret = (await connectionRow(w))!.webhookSecretSealed!;
    expect(sealedSecret).not.toContain(endpoint!.secret!);
    expect(unseal(w.server.services.booking.keys.seal, sealedSecret)).toBe(endpoint!.secret);

    // Tested again: the endpoint found, not made twice; no POST without the box's own key.
    await w.deposits.test(w.userId);
    expect(account.webhookEndpoints()).toHaveLength(1);
    expect(w.stripe.violations).toEqual([]);
  });

  it('names the account when the key may read it', async () => {
    const w = theWorld();
    w.stripe.account({ key: KEY, name: 'Hartley Plumbing Ltd', permissions: [...RIGHTS, 'rak_account_read'] });
    await w.deposits.save(w.userId, { secretKey: KEY });
    expect(await w.deposits.test(w.userId)).toMatchObject({ ok: true, message: 'Connected to Hartley Plumbing Ltd (test mode).' });
  });

  it('says a wrong key, a missing right by name, and Stripe unreachable in plain words, and stays unconnected', async () => {
    const w = theWorld();
    await w.deposits.save(w.userId, { secretKey: KEY });
    expect(await w.deposits.test(w.userId)).toMatchObject({ ok: false, message: expect.stringMatching(/^Stripe did not accept this key\./), connection: { connected: false } });

    w.stripe.account({ key: KEY, name: 'Hartley Plumbing Ltd', permissions: ['rak_checkout_session_write', 'rak_webhook_write'] });
    expect(await w.deposits.test(w.userId)).toMatchObject({ ok: false, message: expect.stringContaining('missing the right "Refunds: Write"') });

    await w.stripe.down(true, 'refused');
    expect(await w.deposits.test(w.userId)).toMatchObject({ ok: false, message: expect.stringMatching(/^Stripe could not be reached/) });
    expect(await w.deposits.connected(w.userId)).toBe(false);
  });

  it('refuses to disconnect while a booking awaits its deposit, then deletes the endpoint it made', async () => {
    const w = theWorld();
    const account = await connected(w);
    const id = await awaitingBooking(w);
    expect(await w.deposits.disconnect(w.userId)).toEqual({ refused: 'A booking is waiting for a deposit. Disconnect Stripe once it is paid or released.' });
    expect(account.webhookEndpoints()).toHaveLength(1);
    await w.deposits.startHold(id);
    w.stripe.expireCheckout((await bookingRow(w, id)).depositSessionId!);
    w.server.clock.offsetMs += 31 * 60_000;
    await w.deposits.sweep();
    expect(await w.deposits.disconnect(w.userId)).toMatchObject({ connected: false, keyEnding: null });
    expect(account.webhookEndpoints()).toHaveLength(0);
    expect(await connectionRow(w)).toBeUndefined();
  });
});
