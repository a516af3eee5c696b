// The devices' routes (issue 54): one row per browser, every bad input a 400 with a sentence,
// another business (or a team member) never sees, alters or removes a device that is not theirs,
// and the push service's address is judged as the webhooks' are.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PUSH_SERVICE_CA, startPushService, type PushServiceDouble } from '../doubles/web-push/push-service.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let double: PushServiceDouble;
let server: TestServer;
let strict: TestServer;
let owner: ApiClient;
let other: ApiClient;
beforeAll(async () => {
  double = await startPushService();
  server = await startTestServer({ push: { testPushService: { allowLoopback: true, ca: PUSH_SERVICE_CA } } });
  // As production: no test seam, so a push service on loopback is refused.
  strict = await startTestServer();
  owner = (await activeCustomer(server)).client;
  other = (await activeCustomer(server)).client;
});
afterAll(async () => {
  await server?.close();
  await strict?.close();
  await double?.close();
});

describe('a device subscribes, and is listed, changed and removed', () => {
  it('one row per browser: subscribing the same endpoint again updates it and keeps its preferences', async () => {
    const sub = double.subscribe();
    const made = await owner.post('/api/user/push/devices', { ...sub, name: 'Pixel 8' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ message: 'Alerts turned on for Pixel 8', device: { name: 'Pixel 8', calls: 'all', bookings: true, callerTexts: true, quietStart: null, quietEnd: null, service: `127.0.0.1:${double.port}` } });
    const id = made.body.device.id as number;
    const changed = await owner.patch(`/api/user/push/devices/${id}`, { calls: 'urgent', quietStart: '22:00', quietEnd: '07:00', name: 'Sam’s phone' });
    expect(changed.status).toBe(200);
    const again = await owner.post('/api/user/push/devices', { ...sub, keys: double.subscribe().keys, name: 'Pixel 8' });
    expect(again.status).toBe(200);
    expect(again.body.device).toMatchObject({ id, name: 'Pixel 8', calls: 'urgent', quietStart: '22:00', quietEnd: '07:00' });
    const list = await owner.get('/api/user/push/devices');
    expect(list.body.devices.map((d: { id: number }) => d.id)).toEqual([id]);
    expect(list.body.textDelayMinutes).toBeNull();

    expect((await owner.delete(`/api/user/push/devices/${id}`)).status).toBe(200);
    expect((await owner.get('/api/user/push/devices')).body.devices).toEqual([]);
    expect((await owner.delete(`/api/user/push/devices/${id}`)).status).toBe(404);
  });

  it('another owner gets 404 for a device that is not theirs, and their list does not show it', async () => {
    const made = await owner.post('/api/user/push/devices', { ...double.subscribe(), name: 'Owner’s iPhone' });
    const id = made.body.device.id as number;
    expect((await other.get('/api/user/push/devices')).body.devices).toEqual([]);
    const altered = await other.patch(`/api/user/push/devices/${id}`, { calls: 'none' });
    expect(altered).toMatchObject({ status: 404, body: { message: 'This device is not on your list (it may have been removed).' } });
    expect((await other.delete(`/api/user/push/devices/${id}`)).status).toBe(404);
    expect((await owner.get('/api/user/push/devices')).body.devices).toEqual([expect.objectContaining({ id, calls: 'all' })]);
    // Nor can they report the owner's alerts opened.
    expect((await other.post('/api/user/push/alerts/nobodys-alert/opened')).status).toBe(404);
  });
});

describe('bad input is a 400 that says what to do', () => {
  it('refuses an http endpoint, a bad key, a missing name, a bad preference and a bad delay', async () => {
    const sub = double.subscribe();
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/api/user/push/devices', { ...sub, endpoint: sub.endpoint.replace('https:', 'http:'), name: 'x' }, 'The push address (endpoint) must start with https://'],
      ['POST', '/api/user/push/devices', { ...sub, keys: { ...sub.keys, auth: 'abc' }, name: 'x' }, 'The browser\'s secret (keys.auth) must be 16 bytes; turn alerts on again'],
      ['POST', '/api/user/push/devices', { ...sub }, 'Give this device a name, e.g. "Sam\'s iPhone"'],
      ['PUT', '/api/user/push/settings', { textDelayMinutes: 0 }, 'Minutes before the text must be a whole number from 1 to 60, or off'],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await owner.request(method, path, body);
      expect({ path, status: res.status, message: res.body.message }).toEqual({ path, status: 400, message });
    }
    const made = await owner.post('/api/user/push/devices', { ...double.subscribe(), name: 'Tablet' });
    const bad = await owner.patch(`/api/user/push/devices/${made.body.device.id}`, { quietStart: '22:00' });
    expect(bad).toMatchObject({ status: 400, body: { message: 'Give quiet hours both a start and an end, or turn them off' } });
  });

  it('refuses a push service on a loopback or private address without the test seam, as the webhook guard does', async () => {
    const client = (await activeCustomer(strict)).client;
    const res = await client.post('/api/user/push/devices', { ...double.subscribe(), name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Push alerts only go to a public push service: 127.0.0.1 is a loopback address');
    const lan = await client.post('/api/user/push/devices', { ...double.subscribe(), endpoint: 'https://10.0.0.5/push/abc', name: 'x' });
    expect(lan.body.message).toBe('Push alerts only go to a public push service: 10.0.0.5 is a private address');
  });
});
