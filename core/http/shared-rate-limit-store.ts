import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { execute, queryRow } from '../db/raw.js';
import { tablesOf } from '../db/schema.js';

// @fastify/rate-limit's store for a cluster (docs/cluster.md): the counters live in the shared
// PostgreSQL, so a limit means the same on every core; in memory, N cores would allow N times
// each figure. A fixed window per key, as the plugin's own in-memory store counts: the first
// hit opens it, the window's end resets it. (Its continueExceeding and exponentialBackoff
// options are not used by the appliance and not supported here.)

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];

/** The options @fastify/rate-limit hands a store's child: a route's, or a createRateLimit's. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
  /** A createRateLimit counter's name (failureCounter): its own namespace. */
  groupId?: string;
}

/** The namespace of a child: the route's method and URL, or the named counter. */
function namespaceOf(options: ChildOptions): string {
  if (options.groupId) return options.groupId;
  const route = options.routeInfo;
  if (route?.url) return `${[route.method].flat().join(',')} ${route.url}`;
  throw new Error('shared rate-limit store: a limiter needs a route or a groupId to keep its counts apart');
}

/** A key's hits in its current window, and how long that window has left. */
export interface Hits {
  current: number;
  ttl: number;
}

type HitRow = { hits: number; expires_at: Date | string };
const hitsOf = (row: HitRow | undefined, t: Date): Hits => {
  const left = row ? new Date(row.expires_at).getTime() - t.getTime() : 0;
  return left > 0 ? { current: row!.hits, ttl: left } : { current: 0, ttl: 0 };
};

/** Counts one hit for `key` in one statement: the first hit of a window opens it; a hit after its end opens the next. */
export async function countHit(db: Db, key: string, windowMs: number, t: Date): Promise<Hits> {
  const { rateLimits } = tablesOf(db);
  const ends = new Date(t.getTime() + windowMs);
  const row = await queryRow<HitRow>(
    db,
    sql`insert into ${rateLimits} (key, hits, expires_at) values (${key}, 1, ${ends})
        on conflict (key) do update set
          hits = case when ${rateLimits.expiresAt} <= ${t} then 1 else ${rateLimits.hits} + 1 end,
          expires_at = case when ${rateLimits.expiresAt} <= ${t} then excluded.expires_at else ${rateLimits.expiresAt} end
        returning hits, expires_at`,
  );
  return hitsOf(row, t);
}

export async function readHits(db: Db, key: string, t: Date): Promise<Hits> {
  const { rateLimits } = tablesOf(db);
  return hitsOf(await queryRow<HitRow>(db, sql`select hits, expires_at from ${rateLimits} where key = ${key}`), t);
}

/** Takes back one hit counted in the key's current window (an attempt that, judged, did not count). */
export async function takeBackHit(db: Db, key: string, t: Date): Promise<void> {
  const { rateLimits } = tablesOf(db);
  await execute(db, sql`update ${rateLimits} set hits = hits - 1 where key = ${key} and hits > 0 and ${rateLimits.expiresAt} > ${t}`);
}

/** The store class to give @fastify/rate-limit (`store:`), counting in `db`. */
export function sharedRateLimitStore(db: Db, now: () => Date): FastifyRateLimitStoreCtor {
  class Store implements FastifyRateLimitStore {
    // The plugin constructs the root store with its options; children get their namespace.
    private readonly namespace: string;
    constructor(namespace?: unknown) {
      this.namespace = typeof namespace === 'string' ? namespace : '';
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      countHit(db, this.keyOf(key), timeWindow, now()).then(
        (hits) => cb(null, hits),
        (err: Error) => cb(err),
      );
    }

    read(key: string, cb: Callback): void {
      readHits(db, this.keyOf(key), now()).then(
        (hits) => cb(null, hits),
        (err: Error) => cb(err),
      );
    }

    // The plugin's types name the route's options only; at run time a child gets the merged
    // limiter options, with routeInfo for a route and groupId for a named counter.
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): Store {
      return new Store(namespaceOf(options as unknown as ChildOptions));
    }

    private keyOf(key: string): string {
      return sharedKey(this.namespace, key);
    }
  }
  return Store as unknown as FastifyRateLimitStoreCtor;
}

/** A counter's key in the shared table: its namespace (route or counter name), then its own key. */
export const sharedKey = (namespace: string, key: string) => `${namespace}|${key}`;

/** Deletes counters whose window has ended (housekeeping); returns how many. */
export async function deleteEndedRateLimits(db: Db, at: Date): Promise<number> {
  const { rateLimits } = tablesOf(db);
  return (await db.delete(rateLimits).where(lt(rateLimits.expiresAt, at)).returning({ key: rateLimits.key })).length;
}
