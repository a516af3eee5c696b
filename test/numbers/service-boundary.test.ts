import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../core/accounts/users.js';
import { HttpError } from '../../core/http/errors.js';
import { NumberServiceError } from '../../core/numbers/errors.js';
import { numberRoutes } from '../../core/numbers/routes.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 15 item 5: the numbers service speaks in its own errors; only the routes know HTTP.

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ env: { NUMBER_PROVIDER: 'static', STATIC_NUMBERS: '' } });
});
afterEach(() => server.close());

describe('numbers service boundary', () => {
  it('refuses a purchase with no DID left as a conflict of its own, not an HTTP error', async () => {
    const owner = await activeCustomer(server);
    const user = (await findUserByEmail(server.database.db, owner.email))!;
    const refusal = await server.services.numbers.purchase(user).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(NumberServiceError);
    expect(refusal).not.toBeInstanceOf(HttpError);
    expect((refusal as NumberServiceError).reason).toBe('conflict');
  });

  it('answers an unknown number to release with the reason unknown-number', async () => {
    const owner = await activeCustomer(server);
    const user = (await findUserByEmail(server.database.db, owner.email))!;
    const refusal = await server.services.numbers.release(user, 'PN404', '+447700900999').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(NumberServiceError);
    expect((refusal as NumberServiceError).reason).toBe('unknown-number');
  });

  it('will not start number routes registered without the numbers service', async () => {
    const app = Fastify();
    app.register(numberRoutes);
    await expect(app.ready()).rejects.toThrow(/dependency 'numbers'/);
    await app.close().catch(() => undefined);
  });
});
