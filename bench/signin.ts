// Sign-in throughput with argon2id at the configured cost: the hash alone, and
// POST /api/auth/login end to end. Prints figures; asserts nothing.
import { hashPassword, verifyPassword } from '../core/auth/passwords.js';
import { ensureFirstAdmin } from '../core/accounts/bootstrap-admin.js';
import { startTestServer } from '../test/helpers/server.js';
import { machine, percentile, report } from './lib/report.js';

const N = Number(process.env.BENCH_SIGNINS ?? 60);
const hash = await hashPassword('Bench-Password-1!');
const verify: number[] = [];
for (let i = 0; i < N; i++) {
  const t = performance.now();
  await verifyPassword(hash, 'Bench-Password-1!');
  verify.push(performance.now() - t);
}
console.log(`argon2id verify: p50 ${percentile(verify, 50).toFixed(1)} ms, p95 ${percentile(verify, 95).toFixed(1)} ms`);
report({ bench: 'signin', measure: 'argon2id verify p50 / p95', value: `${percentile(verify, 50).toFixed(1)} / ${percentile(verify, 95).toFixed(1)} ms` });

const server = await startTestServer();
await ensureFirstAdmin(server.database.db, { email: 'bench@example.co.uk', password: 'Bench-Password-1!' }, new Date());
// Concurrency 4: two cores, argon2 on libuv's pool; more only queues.
const started = performance.now();
const latencies: number[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: 4 }, async () => {
    while (next++ < N) {
      const t = performance.now();
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bench@example.co.uk', password: 'Bench-Password-1!' }),
      });
      await res.text();
      if (res.status !== 200) throw new Error(`login ${res.status}`);
      latencies.push(performance.now() - t);
    }
  }),
);
const perSecond = latencies.length / ((performance.now() - started) / 1000);
console.log(`POST /api/auth/login: ${perSecond.toFixed(1)} sign-ins/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`);
report({ bench: 'signin', measure: 'POST /api/auth/login throughput (4 concurrent)', value: `${perSecond.toFixed(1)} sign-ins/s` });
console.log(machine());
await server.close();
