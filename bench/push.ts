// Push alerts on loopback (issue 54): an alert queued on the box's durable queue → received and
// decrypted by the push-service double (VAPID checked, aes128gcm decrypted with the device's
// keys), with the production worker's timing (kicked on enqueue, 1 s poll). Alerts go one after
// another, then in a burst to several devices. Figures only.
// Run: npx tsx bench/push.ts [alerts] [devices]
import { PUSH_SERVICE_CA, startPushService } from '../test/doubles/web-push/push-service.js';
import { activeCustomer } from '../test/helpers/accounts.js';
import { startTestServer } from '../test/helpers/server.js';
import { waitUntil } from '../test/helpers/wait.js';
import { percentile, report } from './lib/report.js';

const ALERTS = Number(process.argv[2] ?? 100);
const DEVICES = Number(process.argv[3] ?? 5);

const double = await startPushService();
const server = await startTestServer({ push: { testPushService: { allowLoopback: true, ca: PUSH_SERVICE_CA } }, background: { push: true } });
try {
  const { client, user } = await activeCustomer(server);
  double.expectKey = ((await client.get('/api/user/push/key')).body as { publicKey: string }).publicKey;
  const subscribe = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await client.post('/api/user/push/devices', { ...double.subscribe(), name: `Bench phone ${i}` });
      if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${res.text}`);
    }
  };
  const queuedAt = new Map<string, number>();
  const alert = async (event: string) => {
    queuedAt.set(event, performance.now());
    await server.services.push.alertOwnerNews({ userId: user.id, event, kind: 'caller-text', staffId: null, title: 'Text from +44 770 090 0123', body: 'Can you come on Friday instead?', url: '/dashboard/texts', callerNumber: '+447700900123' });
  };
  const latencies = (prefix: string) => double.arrived.filter((a) => String(a.payload.tag).startsWith(prefix)).map((a) => Math.round(a.at - queuedAt.get(String(a.payload.tag))!));
  const line = (xs: number[]) => `p50 ${percentile(xs, 50)} ms, p95 ${percentile(xs, 95)} ms, max ${Math.max(...xs)} ms`;

  // One device, one alert at a time: the queue's and web-push's own cost.
  await subscribe(1);
  for (let i = 0; i < ALERTS; i++) {
    const event = `one-${i}`;
    await alert(event);
    await waitUntil(() => {
      if (!double.arrived.some((a) => a.payload.tag === event)) throw new Error('not yet');
    }, 30_000, 1);
  }
  const one = latencies('one-');
  console.log(`${ALERTS} alerts to one device, one at a time: queued → received ${line(one)}`);

  // A burst: every alert to every device at once.
  await subscribe(DEVICES - 1);
  const before = double.arrived.length;
  await Promise.all(Array.from({ length: ALERTS }, (_, i) => alert(`burst-${i}`)));
  await waitUntil(() => {
    if (double.arrived.length - before < ALERTS * DEVICES) throw new Error(`${double.arrived.length - before} of ${ALERTS * DEVICES}`);
  }, 300_000, 20);
  const burst = latencies('burst-');
  console.log(`${ALERTS} alerts at once to ${DEVICES} devices (${ALERTS * DEVICES} pushes): queued → received ${line(burst)}`);
  if (double.refused.length) console.log(`refused by the double: ${double.refused.length} (${double.refused[0]!.why})`);

  report({ bench: 'push', measure: 'push queued → received by the push-service double, one at a time (p95)', value: `${percentile(one, 95)} ms` });
  report({ bench: 'push', measure: `push queued → received, ${ALERTS} alerts × ${DEVICES} devices at once (p95)`, value: `${percentile(burst, 95)} ms` });
} finally {
  await server.close();
  await double.close();
}
