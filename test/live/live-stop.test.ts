import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { insertBusiness } from '../pbx-real/business.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openLiveEvents, sessionFor, type LiveEventReader } from './sse-reader.js';

// A server stop with Live pages open (issue 54 item 3): the core's preClose ends every stream,
// so the stop never waits for a browser to leave, each browser sees its stream end as a stream
// ends (not a broken connection) and nothing is thrown or logged as an error on the way.

let server: TestServer | undefined;
const readers: LiveEventReader[] = [];
afterEach(async () => {
  // A failed stop must not hold the next test: the clients leave first.
  for (const r of readers.splice(0)) r.close();
  await server?.close().catch(() => undefined);
  server = undefined;
});

describe('live calls: a server stop', { timeout: 60_000 }, () => {
  it('ends the open streams cleanly: the stop completes, every client sees its stream end, no unhandled error and no error logged', async () => {
    const logged: Array<{ level: number; msg: string }> = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) logged.push(JSON.parse(line));
        done();
      },
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    process.on('uncaughtException', onUnhandled);
    try {
      const s = await startTestServer({ log: pino({ level: 'warn' }, sink) });
      server = s;
      const biz = await insertBusiness(s.database.db, { businessName: 'Stopping Ltd' });
      const owner = await sessionFor(s.database.db, s.url, biz.userId);
      // A call in progress, so the streams carry more than their first event.
      s.services.live.started({ callId: 777_001, userId: biz.userId, fromNumber: '+447700900123', startedAt: new Date(), mode: 'agent', testCall: false });
      s.services.live.line(777_001, { speaker: 'caller', text: 'Hello, is that the plumber?' });
      readers.push(await openLiveEvents(owner), await openLiveEvents(owner));
      for (const r of readers) {
        expect(r.status).toBe(200);
        expect((await r.next('snapshot')).data.calls.map((c) => c.id)).toEqual([777_001]);
      }

      // The stop must not wait for the browsers: without the preClose ending the streams it would hang here until the test's timeout.
      await s.close();
      server = undefined;
      for (const r of readers) {
        expect(await r.ended, String(r.failure)).toBe('end');
      }
      // Let anything thrown late by a closed socket surface before judging.
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
      expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      process.off('uncaughtException', onUnhandled);
    }
  });
});
