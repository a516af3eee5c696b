import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { queryRow } from '../db/raw.js';
import { rateLimits } from '../db/schema.js';

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

/** The store class to give @fastify/rate-limit (`store:`), counting in `db`. */
export function sharedRateLimitStore(db: Db, now: () => Date): FastifyRateLimitStoreCtor {
  class Store implements FastifyRateLimitStore {
    // The plugin constructs the root store with its options; children get their namespace.
    private readonly namespace: string;
    constructor(namespace?: unknown) {
      this.namespace = typeof namespace === 'string' ? namespace : '';
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      const t = now();
      const ends = new Date(t.getTime() + timeWindow);
      // One statement: the first hit of a window opens it; a hit after its end opens the next.
      queryRow<{ hits: number; expires_at: Date | string }>(
        db,
        sql`insert into ${rateLimits} (key, hits, expires_at) values (${this.keyOf(key)}, 1, ${ends})
            on conflict (key) do update set
              hits = case when ${rateLimits.expiresAt} <= ${t} then 1 else ${rateLimits.hits} + 1 end,
              expires_at = case when ${rateLimits.expiresAt} <= ${t} then excluded.expires_at else ${rateLimits.expiresAt} end
            returning hits, expires_at`,
      ).then(
        (row) => cb(null, { current: row!.hits, ttl: Math.max(0, new Date(row!.expires_at).getTime() - t.getTime()) }),
        (err: Error) => cb(err),
      );
    }

    read(key: string, cb: Callback): void {
      const t = now();
      queryRow<{ hits: number; expires_at: Date | string }>(db, sql`select hits, expires_at from ${rateLimits} where key = ${this.keyOf(key)}`).then(
        (row) => {
          const left = row ? new Date(row.expires_at).getTime() - t.getTime() : 0;
          cb(null, left > 0 ? { current: row!.hits, ttl: left } : { current: 0, ttl: 0 });
        },
        (err: Error) => cb(err),
      );
    }

    // The plugin's types name the route's options only; at run time a child gets the merged
    // limiter options, with routeInfo for a route and groupId for a named counter.
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): Store {
      return new Store(namespaceOf(options as unknown as ChildOptions));
    }

    private keyOf(key: string): string {
      return `${this.namespace}|${key}`;
    }
  }
  return Store as unknown as FastifyRateLimitStoreCtor;
}

/** Deletes counters whose window has ended (housekeeping); returns how many. */
export async function deleteEndedRateLimits(db: Db, at: Date): Promise<number> {
  return (await db.delete(rateLimits).where(lt(rateLimits.expiresAt, at)).returning({ key: rateLimits.key })).length;
}
