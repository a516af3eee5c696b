// SQLite's analytics counters (call_stats per London day and hour, call_hour_stats per London
// hour of day), kept by triggers on calls in the same statement as each write. SQLite has no
// functions a trigger can call, so the SQL is produced here, from one London-time rule and one
// list of counters, and `npm run db:schema` writes it into the migration that installs it
// (drizzle/*_counter_triggers.sql; test/analytics/counter-triggers.test.ts fails when the file
// differs). PostgreSQL states the same once as functions (drizzle-pg/0001_call_stats_triggers.sql).
// A later change to the counters is a new migration that calls sqliteCounterTriggers again.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * London wall-clock epoch milliseconds of an epoch-milliseconds SQL expression, by the UK rule
 * core/time/london-time.ts states in TypeScript: British Summer Time (+1 hour) runs from 01:00
 * UTC on the first Sunday on or after 25 March to 01:00 UTC on the first Sunday on or after
 * 25 October ('weekday 0' moves a date forward to a Sunday).
 */
function londonMs(ms: string): string {
  const change = (monthDay: string) => `(unixepoch(date(strftime('%Y', ${ms} / 1000, 'unixepoch') || '-${monthDay}', 'weekday 0')) + 3600) * 1000`;
  return `${ms} + (CASE WHEN ${ms} >= ${change('03-25')} AND ${ms} < ${change('10-25')} THEN 3600000 ELSE 0 END)`;
}

type Row = 'NEW' | 'OLD';

/** Each counter column and what one call adds to it (0 or 1, or its seconds); never NULL. */
const COUNTERS: [column: string, of: (r: Row) => string][] = [
  ['calls', () => '1'],
  ['missed', (r) => `(${r}.status = 'missed')`],
  ['answered', (r) => `(${r}.status = 'answered')`],
  ['voicemail', (r) => `(${r}.status = 'voicemail')`],
  ['duration_sum', (r) => `${r}.duration`],
  ['notified', (r) => `(${r}.notification_sent = 1)`],
  ['notify_outcomes', (r) => `(${r}.notification_sent = 1 OR ${r}.notification_error IS NOT NULL)`],
  ['transcribed', (r) => `(${r}.transcription_status = 'done')`],
  ['transcribe_outcomes', (r) => `(${r}.transcription_status IN ('done', 'failed'))`],
  // IS, not =: a call not yet assessed (urgency NULL) adds 0, never NULL.
  ['urgent', (r) => `(${r}.urgency IS 'urgent')`],
  ['normal', (r) => `(${r}.urgency IS 'normal')`],
  ['low', (r) => `(${r}.urgency IS 'low')`],
];

/** The calls columns the counters read: an update of any other column leaves them alone. */
const READ = ['user_id', 'created_at', 'status', 'duration', 'notification_sent', 'notification_error', 'transcription_status', 'urgency'];

const TABLES = {
  call_stats: { keys: ['day', 'hour'], of: ['lt / 86400000', '(lt / 3600000) % 24'] },
  call_hour_stats: { keys: ['hour'], of: ['(lt / 3600000) % 24'] },
} as const;

/** Adds one call's figures to a counter table (sign 1) or takes them away (-1). */
function bump(table: keyof typeof TABLES, r: Row, sign: 1 | -1): string {
  const { keys, of } = TABLES[table];
  const columns = ['user_id', ...keys, ...COUNTERS.map(([c]) => c)].join(', ');
  const values = [`${r}.user_id`, ...of, ...COUNTERS.map(([, f]) => `${sign} * ${f(r)}`)].join(', ');
  const sums = COUNTERS.map(([c]) => `${c} = ${c} + excluded.${c}`).join(', ');
  // WHERE true: SQLite's upsert needs a WHERE after SELECT … FROM to tell ON CONFLICT from a join.
  return `  INSERT INTO ${table} (${columns})
  SELECT ${values}
  FROM (SELECT ${londonMs(`${r}.created_at`)} AS lt) WHERE true
  ON CONFLICT (user_id, ${keys.join(', ')}) DO UPDATE SET ${sums};`;
}

const both = (r: Row, sign: 1 | -1) => [bump('call_stats', r, sign), bump('call_hour_stats', r, sign)];

/** The triggers the migrations before this one made, each with its own copy of the rule. */
const REPLACED = ['calls_stats', 'calls_hour_stats', 'calls_stats_urgency', 'calls_hour_stats_urgency'].flatMap((t) => ['insert', 'delete', 'update'].map((op) => `${t}_${op}`));

/**
 * The migration that replaces the twelve triggers of 0003, 0004, 0009 and 0018 by three. The
 * owner's test calls ("Call my line") stay out (test_call is set at insert and never changes);
 * a deleted owner's counters go with them (users_call_stats_delete, unchanged).
 */
function sqliteCounterTriggers(): string {
  const trigger = (name: string, event: string, when: string, body: string[]) => `CREATE TRIGGER ${name} AFTER ${event} ON calls WHEN ${when} BEGIN\n${body.join('\n')}\nEND;`;
  const statements = [
    ...REPLACED.map((t) => `DROP TRIGGER ${t};`),
    trigger('calls_counters_insert', 'INSERT', 'NEW.test_call = 0', both('NEW', 1)),
    trigger('calls_counters_delete', 'DELETE', 'OLD.test_call = 0', both('OLD', -1)),
    trigger('calls_counters_update', `UPDATE OF ${READ.join(', ')}`, 'NEW.test_call = 0', [...both('OLD', -1), ...both('NEW', 1)]),
  ];
  const comment = `-- custom: the analytics counters on SQLite, written by \`npm run db:schema\` from
-- scripts/db-schema/counter-triggers.ts (edit that, never this file). Three triggers instead of
-- the twelve of 0003, 0004, 0009 and 0018, each counter and the London-time rule stated once.
-- The counts they keep are unchanged, so the tables are not rebuilt.\n`;
  return comment + statements.join('\n--> statement-breakpoint\n') + '\n';
}

/** The migration that installs the triggers (its number is drizzle-kit's) and the SQL it must hold. */
export function counterTriggersMigration(root: string): { path: string; text: string } {
  const found = readdirSync(join(root, 'drizzle')).filter((f) => f.endsWith('_counter_triggers.sql'));
  if (found.length !== 1) throw new Error(`expected one drizzle/*_counter_triggers.sql, found ${found.length}: make it with drizzle-kit generate --custom --name counter_triggers`);
  return { path: `drizzle/${found[0]}`, text: sqliteCounterTriggers() };
}
