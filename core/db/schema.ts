import type { CheckedDb as Db, CheckedSchema } from '@appliance/checked-dialect';

/**
 * The tables of the database a query runs on: SQLite's (core/db/sqlite/schema.ts) or
 * PostgreSQL's (core/db/pg/schema.ts), both written from one declaration
 * (core/db/declaration/tables.ts) by npm run db:schema, with the same columns and row types
 * (test/db/schema-parity.test.ts). A query takes its tables from the database it runs on,
 * `const { calls } = tablesOf(db)`, so nothing is bound at start and two databases of
 * different engines can be open in one process (the move tool, the engine benches).
 *
 * The types are those of the dialect being checked (core/db/checked/): npm run typecheck
 * compiles the app against each engine in turn.
 */
export type Tables = CheckedSchema;

const byDb = new WeakMap<object, Tables>();

/** Called by core/db when it opens a database: the tables of its dialect. */
export function registerTables(db: Db, tables: object): void {
  byDb.set(db, tables as Tables);
}

/** The tables of the database `db` runs on. */
export function tablesOf(db: Db): Tables {
  const tables = byDb.get(db);
  if (!tables) throw new Error('This Db was not opened by openDatabase or openAppDatabase (core/db), so its tables are unknown.');
  return tables;
}

export type User = Tables['users']['$inferSelect'];
export type NewUser = Tables['users']['$inferInsert'];
export type Call = Tables['calls']['$inferSelect'];
export type PhoneNumberRow = Tables['phoneNumbers']['$inferSelect'];
export type UnansweredQuestion = Tables['unansweredQuestions']['$inferSelect'];
export type OwnerWebhook = Tables['ownerWebhooks']['$inferSelect'];
export type WebhookDelivery = Tables['webhookDeliveries']['$inferSelect'];
export type CallerText = Tables['callerTexts']['$inferSelect'];
export type BookingRow = Tables['bookings']['$inferSelect'];
export type BookingServiceRow = Tables['bookingServices']['$inferSelect'];
export type StaffRow = Tables['staff']['$inferSelect'];
export type PushSubscriptionRow = Tables['pushSubscriptions']['$inferSelect'];
export type PushAlertRow = Tables['pushAlerts']['$inferSelect'];
export type CallBackRow = Tables['callBacks']['$inferSelect'];
