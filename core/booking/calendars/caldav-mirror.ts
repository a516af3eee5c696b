import { DAY_MS } from '../../time/london-time.js';
import { bounded } from './calendar-gate.js';
import { changesSince, collectionMarks, fetchObjects, listEventTags, type CalDavAccount, type CalDavObject } from './caldav.js';
import { busyFromIcs } from './expand.js';
import type { CalendarGuard } from './guarded-fetch.js';
import type { Interval } from '../rules/slots.js';

// Each connected CalDAV calendar's events, kept on the box by ETag (issue 53, item 3). Once a copy
// is made, a read asks the server only what changed since: one sync-collection REPORT (RFC 6578)
// that carries the changed events' text, or where a server has no sync-token, one PROPFIND of its
// ctag and a listing by ETag when that moved; only new or changed events are ever fetched.
// Recurring series are fetched whatever their range and expanded here (expand.ts), so a server
// that leaves a series out of a time-range query (Xandikos) cannot hide one.

/** How far a copy reaches: the longest horizon (365 days) and a day either side. */
const WINDOW_MS = 368 * DAY_MS;

interface Mirror {
  url: string;
  /** The server's marks read before the listing or changes that made this copy. */
  syncToken: string | null;
  ctag: string | null;
  from: number;
  to: number;
  objects: Map<string, CalDavObject>;
  busy: Interval[];
  checkedAt: number;
}

interface CalDavReadOptions {
  /** A copy checked this recently answers without asking the server (offers); 0 asks now (the claim). */
  maxAgeMs: number;
  /** The bound on the server's answers: the box's own work (the database, the expansion) is outside it. */
  boundMs: number;
  signal?: AbortSignal;
}

export interface CalDavMirror {
  busy(calendarKey: string, account: CalDavAccount, from: number, to: number, opts: CalDavReadOptions): Promise<Interval[]>;
}

type Answer =
  | { kind: 'same' }
  | { kind: 'changes'; syncToken: string; objects: CalDavObject[]; removed: string[] }
  | { kind: 'listing'; syncToken: string | null; ctag: string | null; hrefs: string[]; objects: CalDavObject[] };

/** The server's answers only (what the bound covers): what changed since the copy `had`, or a fresh listing. */
async function ask(account: CalDavAccount, had: Mirror | undefined, known: Map<string, CalDavObject>, from: number, to: number, signal: AbortSignal, guard: CalendarGuard): Promise<Answer> {
  const fresh = (o: { href: string; etag: string }) => !o.etag || known.get(o.href)?.etag !== o.etag;
  if (had?.syncToken) {
    try {
      const delta = await changesSince(account, had.syncToken, signal, guard);
      if (delta.token) {
        if (!delta.changed.length && !delta.removed.length) return { kind: 'same' };
        const sent = delta.changed.flatMap((o) => (o.data ? [{ ...o, data: o.data }] : []));
        const missing = delta.changed.filter((o) => !o.data && fresh(o)).map((o) => o.href);
        return { kind: 'changes', syncToken: delta.token, objects: [...sent, ...await fetchObjects(account, missing, signal, guard)], removed: delta.removed };
      }
    } catch (err) {
      // An expired or refused token: the copy is made again from a listing below.
      if (signal.aborted) throw err;
    }
  }
  const marks = await collectionMarks(account, signal, guard);
  if (had && !marks.syncToken && marks.ctag !== null && marks.ctag === had.ctag) return { kind: 'same' };
  const listed = await listEventTags(account, from, to, signal, guard);
  const stale = [...listed].filter(([href, etag]) => fresh({ href, etag })).map(([href]) => href);
  return { kind: 'listing', ...marks, hrefs: [...listed.keys()], objects: await fetchObjects(account, stale, signal, guard) };
}

export function createCalDavMirror(now: () => Date, guard: CalendarGuard): CalDavMirror {
  const kept = new Map<string, Mirror>();
  // One sync per owner at a time: parallel reads of one calendar share one question to the server.
  const inFlight = new Map<string, Promise<Mirror>>();

  const sync = async (key: string, account: CalDavAccount, from: number, to: number, opts: CalDavReadOptions): Promise<Mirror> => {
    const previous = kept.get(key);
    // Objects are kept across windows (an ETag names one version of one object); changes only within one window.
    const known = previous?.url === account.url ? previous.objects : new Map<string, CalDavObject>();
    const had = previous?.url === account.url && previous.from <= from && previous.to >= to ? previous : undefined;
    const at = now().getTime();
    const answer = await bounded((signal) => ask(account, had, known, from, to, signal, guard), opts.boundMs, opts.signal);
    if (answer.kind === 'same' && had) {
      had.checkedAt = at;
      return had;
    }
    let objects: Map<string, CalDavObject>;
    let marks = { syncToken: had?.syncToken ?? null, ctag: had?.ctag ?? null };
    let window = { from, to };
    if (answer.kind === 'changes' && had) {
      objects = new Map(had.objects);
      for (const href of answer.removed) objects.delete(href);
      for (const o of answer.objects) objects.set(o.href, o);
      marks = { syncToken: answer.syncToken, ctag: null };
      window = { from: had.from, to: had.to };
    } else if (answer.kind === 'listing') {
      const fetched = new Map(answer.objects.map((o) => [o.href, o]));
      objects = new Map(answer.hrefs.flatMap((href) => {
        const o = fetched.get(href) ?? known.get(href);
        return o ? [[href, o] as const] : [];
      }));
      marks = { syncToken: answer.syncToken, ctag: answer.ctag };
    } else {
      objects = new Map(known);
    }
    const mirror: Mirror = { url: account.url, ...marks, ...window, objects, checkedAt: at, busy: busyFromIcs([...objects.values()].map((o) => o.data), window.from, window.to) };
    kept.set(key, mirror);
    return mirror;
  };

  return {
    async busy(key, account, from, to, opts) {
      const at = now().getTime();
      const had = kept.get(key);
      let mirror = had;
      if (!(had?.url === account.url && had.from <= from && had.to >= to) || opts.maxAgeMs <= 0 || at - had.checkedAt >= opts.maxAgeMs) {
        let pending = inFlight.get(key);
        if (!pending) {
          const start = Math.floor(at / DAY_MS) * DAY_MS - DAY_MS;
          pending = sync(key, account, Math.min(from, start), Math.max(to, start + WINDOW_MS), opts).finally(() => inFlight.delete(key));
          inFlight.set(key, pending);
        }
        mirror = await pending;
      }
      return mirror!.busy.filter((b) => b.end > from && b.start < to);
    },
  };
}
