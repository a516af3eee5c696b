import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTeamMember, ApiTeamResponse } from '../../contract/team.js';
import { activeCustomer } from '../helpers/accounts.js';
import { textsTo } from '../helpers/destinations.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 58 item 1: a member's landline gets its code by a call the appliance places. A box with
// no OUTBOUND_ENDPOINT places no calls, so there the owner is told why a landline cannot be
// confirmed, and nothing waits for a code. (The call itself: test/pbx-real/landline-code.test.ts.)
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('a team member’s landline on a box that places no calls', () => {
  it('is refused with a sentence saying so; a mobile still gets its code by text', async () => {
    const { client } = await activeCustomer(server, { businessName: 'Hale Solicitors' });
    const added = await client.post<{ member: ApiTeamMember }>('/api/user/team', { name: 'Sarah' });
    expect(added.status, added.text).toBe(201);
    const sarah = added.body.member;

    const landline = await client.post(`/api/user/team/${sarah.id}/phone`, { phone: '020 7946 0000' });
    expect(landline.status).toBe(400);
    const why =
      '020 7946 0000 is a landline, which gets its code by a phone call, and this appliance does not place calls (its operator has not set up outbound calls). Enter a mobile, which gets its code by text.';
    expect(landline.body).toEqual({ message: why, errors: { phone: why } });
    expect(textsTo(server, '+442079460000')).toEqual([]);
    expect((await client.get<ApiTeamResponse>('/api/user/team')).body.members[1]).toMatchObject({ phone: null, pendingPhone: null });

    const mobile = await client.post(`/api/user/team/${sarah.id}/phone`, { phone: '07700 900601' });
    expect(mobile.status, mobile.text).toBe(200);
    expect(mobile.body.message).toBe("We texted a 6-digit code to +447700900601. Enter it here to confirm Sarah's phone.");
  });
});
