import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../core/accounts/users.js';
import { HttpError } from '../../core/http/errors.js';
import { NumberServiceError } from '../../core/numbers/errors.js';
import { numberRoutes } from '../../core/numbers/routes.js';
import { createNumberService } from '../../core/numbers/factory.js';
import { NoNumberAvailableError, type NumberProvider } from '../../core/numbers/provider.js';
import { tablesOf } from '../../core/db/schema.js';
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

  it('answers with the number when the last free one went to the same owner\'s click on another core while this click looked', async () => {
    const owner = await activeCustomer(server);
    const user = (await findUserByEmail(server.database.db, owner.email))!;
    const { phoneNumbers } = tablesOf(server.database.db);
    // The other core's click: it records the last number for this owner, so this core's provider finds none.
    const provider: NumberProvider = {
      name: 'static',
      async buyNumberFor() {
        await server.database.db.insert(phoneNumbers).values({ phoneNumber: '+447700901044', provider: 'static', providerSid: 'DID-44', friendlyName: 'Other core', userId: user.id, monthlyCostPence: 100, assignedAt: new Date(), dateCreated: new Date() });
        throw new NoNumberAvailableError('All of our UK numbers are in use at the moment.');
      },
      list: async () => [],
      release: async () => undefined,
      usage: async () => ({ lines: [], totalPence: 0, balance: null }) as never,
    };
    const answer = await createNumberService(server.services, provider).purchase(user);
    expect(answer).toEqual({
      number: { phoneNumber: '+447700901044', friendlyName: 'Other core' },
      message: 'You already have the UK number +447700901044. Forward your business line to it to start answering calls.',
      created: false,
    });
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
