import type { FastifyRequest } from 'fastify';
import { IdParams } from '../../contract/schemas/shared.js';
import { LiveCallsResponse, LiveEndResponse } from '../../contract/schemas/live.js';
import { HttpError, notFound, tooManyRequests } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { recordLiveEnd } from '../live-control/history.js';
import { actorName } from '../live-control/refusals.js';
import { HEARTBEAT_MS, LiveEventStream } from './event-stream.js';
import { canSeeLiveCall, type LiveViewer } from './visibility.js';

// The Live page's API (issue 54): the calls in progress now, their changes as Server-Sent
// Events, and End call. The stream is written straight to the socket (reply.hijack), so no
// onSend hook (there is no compression on /api: core/plugins/external.ts) holds events back;
// the security headers set before it are kept.

/** Streams one sign-in may hold open at once (tabs, the phone and the desk): beyond, a 429. */
const MAX_STREAMS_PER_LOGIN = 5;
const NOT_IN_PROGRESS = 'That call is not in progress any more.';

function viewerOf(req: FastifyRequest): LiveViewer {
  return { userId: currentUser(req).id, staff: req.staff };
}

/** A staff member's own sign-in, or the owner's: the streams' bound is per login. */
function loginOf(req: FastifyRequest): string {
  return req.staff ? `staff:${req.staff.loginUserId}` : `user:${currentUser(req).id}`;
}

export async function liveRoutes(app: App): Promise<void> {
  const { live, database, now } = app.services;
  const open = new Map<string, Set<() => void>>();

  // Open streams would hold app.close() (and the box's stop) until every browser left.
  app.addHook('preClose', async () => {
    for (const closers of open.values()) for (const close of [...closers]) close();
  });

  app.get('/api/live/calls', { schema: { response: { 200: LiveCallsResponse } } }, async (req) => {
    const viewer = viewerOf(req);
    return { calls: live.list(viewer.userId).filter((e) => canSeeLiveCall(viewer, e)).map((e) => e.call) };
  });

  app.get('/api/live/events', { config: { rawReply: true } }, async (req, reply) => {
    const viewer = viewerOf(req);
    const login = loginOf(req);
    const mine = open.get(login) ?? new Set<() => void>();
    if (mine.size >= MAX_STREAMS_PER_LOGIN) throw tooManyRequests(`Live calls are already open in ${MAX_STREAMS_PER_LOGIN} windows for this sign-in. Close one of them and try again.`);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // nginx and other proxies would buffer the stream otherwise.
      'x-accel-buffering': 'no',
    });
    const stream = new LiveEventStream(res, (change) => canSeeLiveCall(viewer, change.entry));
    // The browser reconnects after this long if the stream drops.
    res.write('retry: 3000\n\n');
    stream.snapshot(live.list(viewer.userId).filter((e) => canSeeLiveCall(viewer, e)).map((e) => e.call));
    const unsubscribe = live.subscribe((change) => stream.change(change));
    const beat = setInterval(() => stream.heartbeat(), HEARTBEAT_MS);
    beat.unref();

    let done = false;
    const close = () => {
      if (done) return;
      done = true;
      clearInterval(beat);
      unsubscribe();
      stream.close();
      mine.delete(close);
      if (mine.size === 0) open.delete(login);
      if (!res.writableEnded) res.end();
    };
    mine.add(close);
    open.set(login, mine);
    // The browser went (tab closed, network lost): a reset socket is the normal end of a stream, never an unhandled error.
    req.raw.on('close', close);
    res.on('close', close);
    res.on('error', (err) => {
      req.log.debug({ err }, 'live calls: stream socket error');
      close();
    });
    req.raw.socket.on('error', close);
  });

  app.post('/api/live/calls/:id/end', { schema: { params: IdParams, response: { 200: LiveEndResponse } } }, async (req) => {
    const viewer = viewerOf(req);
    const entry = live.find(req.params.id);
    // Another business's call answers exactly as one that is over: ids do not leak.
    if (!entry || !canSeeLiveCall(viewer, entry)) throw notFound(NOT_IN_PROGRESS);
    const result = await live.end(entry.call.id);
    if (result === 'no-pbx') throw new HttpError(503, 'The phone system is not connected just now, so the call cannot be ended from here.');
    if (result === 'gone') throw notFound(NOT_IN_PROGRESS);
    // The call's history, beside its listens and take-overs: who ended it (the name a take-over keeps).
    await recordLiveEnd(database.db, { callId: entry.call.id, userId: viewer.userId, byName: actorName(req.staff) }, now());
    return { message: 'Call ended.' };
  });
}
