import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCallPath } from '../../core/calls/call-path.js';
import { routeCall } from '../../pbx/routing.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ env: { NUMBER_PROVIDER: 'static', STATIC_NUMBERS: '+447700900001,+447700900002' } });
});
afterEach(() => server.close());

describe('numbers and the PBX', () => {
  it('routes a bought number to its owner, and a released one to the unknown-number outcome', async () => {
    const route = async (did: string) => (await routeCall(createCallPath(server.database.db, server.services.log), did, server.services.now())).decision;
    expect(await route('+447700900001')).toEqual({ kind: 'not-in-service' });

    const owner = await activeCustomer(server);
    await owner.client.post('/api/phone-numbers/purchase');
    // Trunks may deliver the DID nationally; it still reaches the owner.
    expect(await route('07700900001')).toEqual({ kind: 'answer', userId: owner.user.id, mode: 'voicemail' });

    const admin = await signInAdmin(server);
    expect((await admin.post('/api/admin/static-numbers/DID447700900001/release', { phoneNumber: '+447700900001' })).status).toBe(200);
    expect(await route('+447700900001')).toEqual({ kind: 'not-in-service' });
  });
});
