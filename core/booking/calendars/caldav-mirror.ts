import { DAY_MS } from '../../time/london-time.js';
import { bounded } from './calendar-gate.js';
import { collectionVersion, fetchObjects, listEventTags, type CalDavAccount, type CalDavObject } from './caldav.js';
import { busyFromIcs } from './expand.js';
import type { Interval } from '../rules/slots.js';

// Each connected CalDAV calendar's events, kept on the box by ETag (issue 53, item 3). A read
// asks the server only whether the collection changed (its sync-token or ctag, one PROPFIND);
// when it did, the events that can be busy in the window are listed by ETag and only the new or
// changed ones fetched. Recurring series are fetched whatever their range and expanded here
// (expand.ts), so a server that does not expand them in a time-range query cannot hide one.

/** How far the kept window reaches: the longest horizon (365 days) and a day either side. */
const WINDOW_MS = 368 * DAY_MS;

interface Mirror {
  url: string;
  /** The server's mark read before the listing that made this copy; null when it has none (then every read lists). */
  version: string | null;
  from: number;
  to: number;
  objects: Map<string, CalDavObject>;
  busy: Interval[];
  checkedAt: number;
}

export interface CalDavReadOptions {
  /** A copy checked this recently answers without asking the server (offers); 0 asks now (the claim). */
  maxAgeMs: number;
  /** The bound on the server's answers: the box's own work (the database, the expansion) is outside it. */
  boundMs: number;
  signal?: AbortSignal;
}

export interface CalDavMirror {
  busy(ownerId: number, account: CalDavAccount, from: number, to: number, opts: CalDavReadOptions): Promise<Interval[]>;
}

export function createCalDavMirror(now: () => Date): CalDavMirror {
  const kept = new Map<number, Mirror>();
  // One sync per owner at a time: parallel claims on one calendar share one question to the server.
  const inFlight = new Map<number, Promise<Mirror>>();

  /** The server's answers only, within the bound; null when the kept copy is still current. */
  const ask = async (account: CalDavAccount, had: Mirror | undefined, known: Map<string, CalDavObject>, from: number, to: number, signal: AbortSignal) => {
    const version = await collectionVersion(account, signal);
    if (had && version !== null && version === had.version) return { version, listed: null, fetched: [] };
    const listed = await listEventTags(account, from, to, signal);
    const stale = [...listed].filter(([href, etag]) => !etag || known.get(href)?.etag !== etag).map(([href]) => href);
    return { version, listed, fetched: await fetchObjects(account, stale, signal) };
  };

  const sync = async (ownerId: number, account: CalDavAccount, from: number, to: number, opts: CalDavReadOptions): Promise<Mirror> => {
    const previous = kept.get(ownerId);
    // Objects are kept across windows (an ETag names one version of one object); the mark only for the same window.
    const known = previous?.url === account.url ? previous.objects : new Map<string, CalDavObject>();
    const had = previous?.url === account.url && previous.from <= from && previous.to >= to ? previous : undefined;
    const at = now().getTime();
    const answer = await bounded((signal) => ask(account, had, known, from, to, signal), opts.boundMs, opts.signal);
    if (!answer.listed && had) {
      had.checkedAt = at;
      return had;
    }
    const objects = new Map<string, CalDavObject>();
    const fetched = new Map(answer.fetched.map((o) => [o.href, o]));
    for (const href of answer.listed?.keys() ?? []) {
      const o = fetched.get(href) ?? known.get(href);
      if (o) objects.set(href, o);
    }
    const mirror: Mirror = { url: account.url, version: answer.version, from, to, objects, checkedAt: at, busy: busyFromIcs([...objects.values()].map((o) => o.data), from, to) };
    kept.set(ownerId, mirror);
    return mirror;
  };

  return {
    async busy(ownerId, account, from, to, opts) {
      const at = now().getTime();
      const had = kept.get(ownerId);
      const covers = (m: Mirror | undefined) => m?.url === account.url && m.from <= from && m.to >= to;
      let mirror = had;
      if (!covers(had) || opts.maxAgeMs <= 0 || at - had!.checkedAt >= opts.maxAgeMs) {
        let pending = inFlight.get(ownerId);
        if (!pending) {
          const start = Math.floor(at / DAY_MS) * DAY_MS - DAY_MS;
          pending = sync(ownerId, account, Math.min(from, start), Math.max(to, start + WINDOW_MS), opts).finally(() => inFlight.delete(ownerId));
          inFlight.set(ownerId, pending);
        }
        mirror = await pending;
      }
      return mirror!.busy.filter((b) => b.end > from && b.start < to);
    },
  };
}
