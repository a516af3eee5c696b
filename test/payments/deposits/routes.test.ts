// Issue 59 part B, the connection's routes (PAYMENT_ROUTES.stripe, stripeTest) through Fastify with
// the server's own validators and error answers: the key never in any answer, a malformed key and
// a disconnect while a link is out refused with a 400 the console can show. The API scope puts
// them behind the session hook; here a hook names the owner, so the service under test is the world's.
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_KEY_WARNING, PAYMENT_ROUTES } from '../../../contract/payments.js';
import type { User } from '../../../core/db/schema.js';
import { registerErrorHandler } from '../../../core/http/error-handler.js';
import type { App } from '../../../core/http/fastify-types.js';
import { registerValidators } from '../../../core/http/validators.js';
import { depositRoutes } from '../../../core/payments/deposits/routes.js';
import { awaitingBooking, KEY, RIGHTS, useWorld } from './setup.js';

const theWorld = useWorld();
let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function routes(userId: number): Promise<App> {
  const a = Fastify().withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  registerValidators(a);
  registerErrorHandler(a);
  a.addHook('onRequest', async (req) => {
    req.user = { id: userId } as User;
  });
  a.decorate('services', { deposits: theWorld().deposits } as unknown as App['services']);
  await a.register(depositRoutes);
  await a.ready();
  return a;
}

describe('the connection routes', () => {
  it('save, test, read and disconnect without ever answering the key; bad input is a 400 in words', async () => {
    const w = theWorld();
    w.stripe.account({ key: KEY, name: 'Hartley Plumbing Ltd', permissions: RIGHTS });
    app = await routes(w.userId);
    const bad = await app.inject({ method: 'PUT', url: PAYMENT_ROUTES.stripe, payload: { secretKey: 'pk_test_nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/restricted key/);
    const answers = [
      await app.inject({ method: 'PUT', url: PAYMENT_ROUTES.stripe, payload: { secretKey: KEY, depositPolicy: 'Refunded a day ahead.' } }),
      await app.inject({ method: 'POST', url: PAYMENT_ROUTES.stripeTest }),
      await app.inject({ method: 'GET', url: PAYMENT_ROUTES.stripe }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    for (const r of answers) expect(r.body).not.toContain(KEY.slice(8));
    expect(answers[1]!.json()).toMatchObject({ ok: true, message: 'Connected to your Stripe account (test mode).' });
    expect(answers[2]!.json()).toMatchObject({ connected: true, keyEnding: '0001', depositPolicy: 'Refunded a day ahead.' });

    await awaitingBooking(w);
    const refused = await app.inject({ method: 'DELETE', url: PAYMENT_ROUTES.stripe });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('A booking is waiting for a deposit. Disconnect Stripe once it is paid or released.');
  });

  it('a full secret key (sk_…) is kept, and the save and test answers say plainly it has more rights than the box needs', async () => {
    const w = theWorld();
    const full = 'sk_test_hartley000000000000000000000009';
    w.stripe.account({ key: full, name: 'Hartley Plumbing Ltd', permissions: RIGHTS });
    app = await routes(w.userId);
    const saved = await app.inject({ method: 'PUT', url: PAYMENT_ROUTES.stripe, payload: { secretKey: full } });
    expect([saved.statusCode, saved.json().fullKey]).toEqual([200, true]);
    const tested = await app.inject({ method: 'POST', url: PAYMENT_ROUTES.stripeTest });
    expect(tested.json()).toMatchObject({ ok: true, message: `Connected to your Stripe account (test mode). ${FULL_KEY_WARNING}`, connection: { connected: true, fullKey: true } });
    expect(FULL_KEY_WARNING).toBe('This is a full secret key: it can do anything on your Stripe account. A restricted key with only Checkout Sessions, Refunds and Webhook Endpoints is safer: see docs/payments.md.');
    for (const r of [saved, tested]) expect(r.body).not.toContain(full.slice(8));
    // A restricted key in its place: no warning.
    w.stripe.account({ key: KEY, name: 'Hartley Plumbing Ltd', permissions: RIGHTS });
    expect((await app.inject({ method: 'PUT', url: PAYMENT_ROUTES.stripe, payload: { secretKey: KEY } })).json().fullKey).toBe(false);
    expect((await app.inject({ method: 'POST', url: PAYMENT_ROUTES.stripeTest })).json().message).toBe('Connected to your Stripe account (test mode).');
  });
});
