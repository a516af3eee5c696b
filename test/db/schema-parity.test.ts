// The PostgreSQL schema (core/db/pg/schema.ts) and the SQLite one (core/db/sqlite/schema.ts) are
// both written from one declaration (core/db/declaration/tables.ts) with each engine's kit; this
// guards the kits (and a hand edit) by comparing the two through drizzle's own table descriptions: tables, columns and the JS type drizzle gives each, nullability, defaults,
// identity, primary keys, indexes and unique constraints, foreign keys. The row types the
// app sees are compared by the type checker (npm run typecheck) at the bottom.
import { is, SQL, type Column } from 'drizzle-orm';
import { index, integer, getTableConfig as pgConfig, PgTable, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as pgSchema from '../../core/db/pg/schema.js';
import * as sqliteSchema from '../../core/db/sqlite/schema.js';

/** A default both dialects can state: a literal, or "the current instant". */
function defaultOf(c: Column): unknown {
  if (!c.hasDefault) return undefined;
  const d = c.default;
  if (is(d, SQL)) {
    const text = d.queryChunks.map((ch) => (typeof ch === 'object' && ch && 'value' in ch ? (ch.value as string[]).join('') : String(ch))).join('');
    // SQLite: (cast(unixepoch('subsec') * 1000 as integer)); PostgreSQL: now().
    if (/unixepoch\('subsec'\)|^now\(\)$/.test(text)) return 'now';
    return `sql:${text}`;
  }
  if (c.defaultFn) return 'fn';
  return d;
}

interface Described {
  columns: Record<string, { type: string; enum?: readonly string[]; notNull: boolean; default: unknown; identity: boolean }>;
  primaryKey: string[];
  indexes: Record<string, { unique: boolean; columns: string[] }>;
  foreignKeys: string[];
}

type AnyConfig = ReturnType<typeof pgConfig> | ReturnType<typeof sqliteConfig>;

function describeTable(config: AnyConfig, identity: (c: Column) => boolean): Described {
  const columns: Described['columns'] = {};
  for (const c of config.columns as Column[]) {
    columns[c.name] = { type: c.dataType, enum: c.enumValues, notNull: c.notNull, default: defaultOf(c), identity: identity(c) };
  }
  const pkColumns = (config.columns as Column[]).filter((c) => c.primary).map((c) => c.name);
  const composite = config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name));
  const indexes: Described['indexes'] = {};
  for (const ix of config.indexes) {
    indexes[ix.config.name!] = { unique: ix.config.unique, columns: ix.config.columns.map((c) => (c as Column).name) };
  }
  const foreignKeys = config.foreignKeys
    .map((fk) => {
      const r = fk.reference();
      const target = is(r.foreignTable, PgTable) ? pgConfig(r.foreignTable).name : sqliteConfig(r.foreignTable as SQLiteTable).name;
      return `(${r.columns.map((c) => c.name).join(',')}) → ${target}(${r.foreignColumns.map((c) => c.name).join(',')}) on delete ${fk.onDelete ?? 'no action'} on update ${fk.onUpdate ?? 'no action'}`;
    })
    .sort();
  return { columns, primaryKey: [...pkColumns, ...composite], indexes, foreignKeys };
}

const sqliteTables = () =>
  Object.fromEntries(
    (Object.values(sqliteSchema).filter((t) => is(t, SQLiteTable)) as SQLiteTable[]).map((t) => [sqliteConfig(t).name, describeTable(sqliteConfig(t), (c) => (c as unknown as { autoIncrement?: boolean }).autoIncrement === true)]),
  );
const pgTables = (tables: unknown[]) =>
  Object.fromEntries(
    tables
      .filter((t): t is PgTable => is(t, PgTable))
      .map((t) => [pgConfig(t).name, describeTable(pgConfig(t), (c) => (c as unknown as { generatedIdentity?: unknown }).generatedIdentity !== undefined)]),
  );

describe('the PostgreSQL schema is the twin of the SQLite one', () => {
  it('has the same tables, columns, types, defaults, keys, indexes and foreign keys', () => {
    const sqlite = sqliteTables();
    expect(Object.keys(sqlite).length).toBeGreaterThan(15);
    expect(pgTables(Object.values(pgSchema))).toEqual(sqlite);
  });

  it('notices a column added to one side only, or a nullability changed', () => {
    // core/db/pg/schema.ts's outbound_calls as a careless edit would leave it.
    const outbound = (extra: boolean, secondsNullable: boolean) =>
      pgTable(
        'outbound_calls',
        {
          id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
          userId: integer('user_id')
            .notNull()
            .references(() => pgSchema.users.id, { onDelete: 'cascade' }),
          startedAt: timestamp('started_at', { withTimezone: true, precision: 3, mode: 'date' }).notNull(),
          seconds: secondsNullable ? integer('seconds') : integer('seconds').notNull(),
          ...(extra ? { extra: text('extra') } : {}),
        },
        (t) => [index('outbound_calls_user_started_idx').on(t.userId, t.startedAt), index('outbound_calls_started_idx').on(t.startedAt)],
      );
    const others = Object.values(pgSchema).filter((t) => t !== pgSchema.outboundCalls);
    const sqlite = sqliteTables();
    // The faithful copy matches, so what follows is the edit being noticed, not the copy.
    expect(pgTables([...others, outbound(false, false)])).toEqual(sqlite);
    expect(pgTables([...others, outbound(true, false)])).not.toEqual(sqlite);
    expect(pgTables([...others, outbound(false, true)])).not.toEqual(sqlite);
  });

  it('gives the app the same row objects on both (checked by the type checker)', () => {
    type Rows<S> = { [K in keyof S]: S[K] extends { $inferSelect: infer R } ? R : never };
    type Inserts<S> = { [K in keyof S]: S[K] extends { $inferInsert: infer R } ? R : never };
    type Tables<S> = Pick<S, { [K in keyof S]: S[K] extends { $inferSelect: unknown } ? K : never }[keyof S]>;
    expectTypeOf<Rows<Tables<typeof pgSchema>>>().toEqualTypeOf<Rows<Tables<typeof sqliteSchema>>>();
    // One known difference: SQLite types a non-autoincrement integer primary key (call_handling's
    // owner_webhooks', text_back_settings', booking_rules', booking_calendars', team_settings', website_sites', stripe_connections', billing_subscriptions' and push_settings' user_id) as optional on insert, since it could be a rowid; the app
    // always gives it, and PostgreSQL rightly requires it. Compared without that key.
    type Keyed = 'callHandling' | 'ownerWebhooks' | 'textBackSettings' | 'screeningSettings' | 'bookingRules' | 'bookingCalendars' | 'teamSettings' | 'websiteSites' | 'stripeConnections' | 'billingSubscriptions' | 'pushSettings';
    type Loose<S> = Omit<Inserts<Tables<S>>, Keyed> & { [K in Keyed]: Omit<Inserts<Tables<S>>[K & keyof Inserts<Tables<S>>], 'userId'> };
    expectTypeOf<Loose<typeof pgSchema>>().toEqualTypeOf<Loose<typeof sqliteSchema>>();
  });
});
