import { createSession } from '../../core/auth/sessions.js';
import type { Db } from '../../core/db/client.js';
import type { LiveEventData, LiveEventName } from '../../contract/schemas/live.js';
import { ApiClient } from '../helpers/client.js';
import { waitUntil } from '../helpers/wait.js';

// Reads GET /api/live/events as a browser's EventSource would: the events in order, as parsed
// JSON, with a way to wait for one that matches.

export interface LiveEvent<N extends LiveEventName = LiveEventName> {
  name: N;
  data: LiveEventData[N];
  at: number;
}

export interface LiveEventReader {
  status: number;
  events: LiveEvent[];
  /** Waits for an event named `name` (after `from`, an index into events) that satisfies `match`. */
  next<N extends LiveEventName>(name: N, match?: (data: LiveEventData[N]) => boolean, from?: number, timeoutMs?: number): Promise<LiveEvent<N>>;
  close(): void;
  /** Resolves once the stream ended: 'end' when the server closed it cleanly, 'error' when it broke off, 'aborted' after close(). */
  ended: Promise<'end' | 'error' | 'aborted'>;
  /** Why the stream broke off ('error'). */
  failure?: unknown;
}

/** A signed-in client for a user made straight in the database (the harness's businesses have no password). */
export async function sessionFor(db: Db, baseUrl: string, userId: number): Promise<ApiClient> {
  const { id } = await createSession(db, userId, new Date());
  const client = new ApiClient(baseUrl);
  client.cookie = `sid=${id}`;
  return client;
}

export async function openLiveEvents(client: ApiClient, onEvent?: (e: LiveEvent) => void): Promise<LiveEventReader> {
  const ac = new AbortController();
  const res = await fetch(`${client.baseUrl}/api/live/events`, { headers: { accept: 'text/event-stream', ...(client.cookie ? { cookie: client.cookie } : {}) }, signal: ac.signal });
  const events: LiveEvent[] = [];
  let endedResolve!: (how: 'end' | 'error' | 'aborted') => void;
  const ended = new Promise<'end' | 'error' | 'aborted'>((r) => (endedResolve = r));
  let failure: unknown;
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const name = /^event: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (!name || data === undefined) continue;
            const e = { name: name as LiveEventName, data: JSON.parse(data) as LiveEventData[LiveEventName], at: performance.now() };
            events.push(e);
            onEvent?.(e);
          }
        }
      } catch (err) {
        if (ac.signal.aborted) return endedResolve('aborted');
        failure = err;
        return endedResolve('error');
      }
      endedResolve('end');
    })();
  } else {
    await res.text().catch(() => undefined);
    endedResolve('end');
  }
  return {
    status: res.status,
    events,
    ended,
    next(name, match = () => true, from = 0, timeoutMs = 30_000) {
      return waitUntil(() => {
        const found = events.slice(from).find((e) => e.name === name && match(e.data as never));
        if (!found) throw new Error(`no ${name} event yet (have: ${events.map((e) => e.name).join(', ')})`);
        return found as never;
      }, timeoutMs);
    },
    close: () => ac.abort(),
    get failure() {
      return failure;
    },
  };
}
