// Old push alerts are purged (issue 54): push_alerts holds one row per alert sent, so the box's
// housekeeping deletes rows older than PUSH_ALERT_RETAIN_MS, but never one still needed (its push
// still queued, or a held "text me only if not opened" text of its event still waiting).
// On SQLite and, with TEST_DATABASE=postgres, on PostgreSQL.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PushAlert } from '../../contract/push-alert.js';
import { tablesOf } from '../../core/db/schema.js';
import { startHousekeeping } from '../../core/housekeeping/schedule.js';
import { PUSH_ALERT_RETAIN_MS, pushKey } from '../../core/push/service.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DAY_MS = 24 * 3600_000;

describe('old push alerts', () => {
  it('housekeeping deletes alerts older than the bound and keeps newer ones and any still needed by a pending push or held text', async () => {
    server = await startTestServer();
    const { user } = await activeCustomer(server);
    const db = server.database.db;
    const { jobs, pushAlerts } = tablesOf(db);
    const now = server.services.now().getTime();
    const push = server.services.push;
    const add = async (name: string, ageMs: number, status: 'pending' | 'sent' | 'failed') => {
      const payload: PushAlert = { v: 1, alertId: name, kind: 'call', title: '', body: '', urgent: false, tag: name, url: '', sentAt: '' };
      const [row] = await db.insert(pushAlerts).values({ alertId: name, userId: user.id, event: `event-${name}`, kind: 'call', payload, status, createdAt: new Date(now - ageMs) }).returning();
      return row!;
    };
    const old = PUSH_ALERT_RETAIN_MS + DAY_MS;
    await add('old-sent', old, 'sent');
    await add('old-failed', old, 'failed');
    await add('newer-sent', PUSH_ALERT_RETAIN_MS - DAY_MS, 'sent');
    // Old, and its event's held text is still waiting on whether it was opened.
    const held = await add('old-held', old, 'sent');
    await push.queue.enqueue('push-text', `push-text:${held.event}`, { callId: 1 }, { runAt: new Date(now + 3600_000) });
    // Old, and its push is still queued to be retried.
    const retried = await add('old-retried', old, 'pending');
    await push.queue.enqueue('push', pushKey(retried.id), { alertRowId: retried.id, ttlSeconds: 60 }, { runAt: new Date(now + 60_000) });
    // Old, and its held text already went: nothing needs it any more.
    const texted = await add('old-texted', old, 'sent');
    await push.queue.enqueue('push-text', `push-text:${texted.event}`, { callId: 1 });
    await db.update(jobs).set({ status: 'done' }).where(eq(jobs.key, `push-text:${texted.event}`));

    // Housekeeping's first pass runs at its start.
    const housekeeping = await startHousekeeping(server.services);
    housekeeping.stop();

    const left = (await db.select({ alertId: pushAlerts.alertId }).from(pushAlerts).orderBy(pushAlerts.id)).map((r) => r.alertId);
    expect(left).toEqual(['newer-sent', 'old-held', 'old-retried']);
    // Once the held text has gone, the row goes at the next pass.
    await db.update(jobs).set({ status: 'done' }).where(eq(jobs.key, `push-text:${held.event}`));
    expect(await push.sweep()).toEqual({ purged: 1 });
    expect((await db.select({ alertId: pushAlerts.alertId }).from(pushAlerts).orderBy(pushAlerts.id)).map((r) => r.alertId)).toEqual(['newer-sent', 'old-retried']);
  });
});
