import { afterEach, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { phoneNumbers } from '../helpers/tables.js';

// "Ask your operator" in the forwarding check's refusals names the box's operator with their
// contact (SUPPORT_NAME, SUPPORT_EMAIL), as the line banners do (issue 57 item 7).

const env = { SUPPORT_NAME: 'Box Ops', SUPPORT_EMAIL: 'ops@example.co.uk' };
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function ownerWithNumber(s: TestServer) {
  const o = await activeCustomer(s, { businessPhone: '07400 123456' });
  await s.database.db.insert(phoneNumbers).values({ phoneNumber: '+447700901099', provider: 'static', providerSid: 'x', userId: o.user.id, assignedAt: new Date() });
  return o;
}

describe('the forwarding check names the operator', () => {
  it('when the box cannot call out', async () => {
    server = await startTestServer({ env });
    const res = await (await ownerWithNumber(server)).client.post('/api/forwarding-check');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Checking forwarding needs calls out, which are not set up on this appliance: ask your operator, Box Ops (ops@example.co.uk), to set them up.');
  });

  it('when the call to the line could not be placed', async () => {
    server = await startTestServer({ env, setup: () => ({ forwardingCheck: () => Promise.resolve({ kind: 'not-placed' as const }) }) });
    const res = await (await ownerWithNumber(server)).client.post('/api/forwarding-check');
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('The call to your line could not be placed: ask your operator, Box Ops (ops@example.co.uk), to check the line that makes calls out.');
  });
});
