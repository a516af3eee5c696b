import { ensureFirstAdmin } from '../../core/accounts/bootstrap-admin.js';
import { ApiClient } from './client.js';
import { signupPhoneCode } from './destinations.js';
import type { TestServer } from './server.js';

export const ADMIN = { email: 'admin@example.co.uk', password: 'Admin-Password-1!' };

export function signupBody(overrides: Record<string, string> = {}) {
  return {
    businessName: 'Acme Plumbing',
    businessEmail: `owner-${Math.random().toString(36).slice(2, 10)}@example.co.uk`,
    businessPhone: '07700 900123',
    password: 'Str0ng!Pass',
    industry: 'plumbing',
    weeklyCustomerCalls: '10-25',
    addressLine1: '1 High Street',
    addressLine2: '',
    city: 'Leeds',
    postcode: 'ls11aa',
    country: 'United Kingdom',
    ...overrides,
  };
}

export async function signInAdmin(server: TestServer): Promise<ApiClient> {
  await ensureFirstAdmin(server.database.db, ADMIN, new Date());
  const admin = new ApiClient(server.url);
  const res = await admin.post('/api/auth/login', ADMIN);
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.text}`);
  return admin;
}

/**
 * Signs up, gets approved by the admin and signs in: an active customer with a session, whose
 * sign-up phone is confirmed with the code its approval texted (as an owner does on first
 * sign-in), so summaries go there. `{ confirmPhone: false }` leaves it waiting for its code.
 */
export async function activeCustomer(server: TestServer, overrides: Record<string, string> = {}, opts: { confirmPhone?: boolean } = {}) {
  const body = signupBody(overrides);
  const client = new ApiClient(server.url);
  const signup = await client.post('/api/auth/signup', body);
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${signup.text}`);
  const admin = await signInAdmin(server);
  const approve = await admin.post(`/api/admin/approvals/${signup.body.user.id}/approve`);
  if (approve.status !== 200) throw new Error(`approve failed: ${approve.status} ${approve.text}`);
  const login = await client.post('/api/auth/login', { email: body.businessEmail, password: body.password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  const code = opts.confirmPhone === false ? undefined : signupPhoneCode(server, signup.body.user.id);
  if (code) {
    const confirmed = await client.post('/api/user/destinations/confirm', { kind: 'sms', code });
    if (confirmed.status !== 200) throw new Error(`confirming the sign-up phone failed: ${confirmed.status} ${confirmed.text}`);
  }
  return { client, user: login.body.user as { id: number; email: string }, password: body.password, email: body.businessEmail };
}
