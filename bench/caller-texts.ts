// Missed-call text-back under a burst: 50 SIPp callers (each from its own mobile) ring one
// business on a real Asterisk 20.17.0 and hang up at the greeting at once. For each call, from
// the moment its row was made final (ended_at, written when the PBX saw the hang-up) to its
// text-back job being queued, and to its text being in the outbox (sent). Figures only.
// Run: npx tsx bench/caller-texts.ts [calls]
import { eq, inArray } from 'drizzle-orm';
import { saveTextBack } from '../core/caller-texts/store.js';
import { tablesOf } from '../core/db/schema.js';
import { findAsterisk } from '../test/pbx-real/asterisk-install.js';
import { startRealPbx } from '../test/pbx-real/harness.js';
import { waitUntil } from '../test/helpers/wait.js';
import { percentile, report } from './lib/report.js';

const CALLS = Number(process.argv[2] ?? 50);
const found = findAsterisk();
if (!found.ok) {
  console.log(`skipped: ${found.why}`);
  process.exit(0);
}

const h = await startRealPbx({ services: (s) => s.callerTexts.start(), rtpPorts: Math.max(200, CALLS * 4) });
try {
  const db = h.server.database.db;
  const { callerTexts, jobs } = tablesOf(db);
  const { did, userId } = await h.business({ businessName: 'Bench Plumbing' });
  await saveTextBack(db, userId, { enabled: true, wording: null, windowHours: 24, hours: 'always' }, new Date());
  // One caller per 100-number block, so the range rule lets each of them be texted.
  const from = (i: number) => `+4477${10_000_000 + i * 100 + 55}`;
  const batch = await h.calls(Array.from({ length: CALLS }, (_, i) => ({ did, from: from(i) })));
  await waitUntil(() => {
    if (!batch.calls.every((c) => c.media.soundMs() > 600)) throw new Error('not every caller hears the greeting yet');
  }, 120_000, 20);
  await Promise.all(batch.calls.map((c) => c.hangUp()));
  await batch.done;
  const rows = await waitUntil(async () => {
    const r = await h.rows(did);
    if (r.length !== CALLS || r.some((c) => !c.endedAt)) throw new Error('calls still ending');
    return r;
  }, 120_000, 50);
  const texts = await waitUntil(async () => {
    const t = await db.select().from(callerTexts).where(eq(callerTexts.userId, userId));
    if (t.filter((x) => x.status === 'sent').length !== CALLS) throw new Error(`${t.length} of ${CALLS} texts sent`);
    return t;
  }, 120_000, 50);
  const jobRows = await db.select().from(jobs).where(inArray(jobs.key, rows.map((r) => `text-back:${r.id}`)));
  const ended = new Map(rows.map((r) => [r.id, r.endedAt!.getTime()]));
  const queued = jobRows.map((j) => j.createdAt.getTime() - ended.get(Number(j.key.split(':')[1]))!);
  const sent = texts.map((t) => t.updatedAt!.getTime() - ended.get(t.callId!)!);
  const spread = Math.max(...ended.values()) - Math.min(...ended.values());
  const line = (xs: number[]) => `p50 ${percentile(xs, 50)} ms, p95 ${percentile(xs, 95)} ms, max ${Math.max(...xs)} ms`;
  console.log(`${CALLS} calls ended within ${spread} ms of each other`);
  console.log(`hang-up → text-back queued: ${line(queued)}`);
  console.log(`hang-up → text in the outbox: ${line(sent)}`);
  report({ bench: 'caller-texts', measure: `hang-up → text-back queued, ${CALLS} calls ending at once (p95)`, value: `${percentile(queued, 95)} ms`, budget: '< 1000 ms' });
  report({ bench: 'caller-texts', measure: `hang-up → text-back sent to the outbox, ${CALLS} calls (p95)`, value: `${percentile(sent, 95)} ms` });
} finally {
  await h.server.services.callerTexts.stop();
  await h.close();
}
