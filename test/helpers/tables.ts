import type { Tables } from '../../core/db/schema.js';

/**
 * The tables of the engine this test run uses, for tests that seed and inspect the harness's
 * database: PostgreSQL's under TEST_DATABASE=postgres, SQLite's otherwise. The product takes
 * its tables from the database a query runs on (tablesOf, core/db/schema.ts); a test process
 * runs on one engine, named by its environment before it starts, so here they are constants.
 * A test that opens a database of the other engine (a SQLite file in a PostgreSQL run, or both
 * at once) takes that database's tables with tablesOf instead.
 */
// Only the engine's own schema is imported: PostgreSQL's pulls in drizzle's pg-core (~0.2 s of
// CPU), which a SQLite run's ~100 files that read tables here would each import for nothing.
const tables = (process.env.TEST_DATABASE === 'postgres' ? await import('../../core/db/pg/schema.js') : await import('../../core/db/sqlite/schema.js')) as unknown as Tables;

export const {
  users,
  sessions,
  passwordResetTokens,
  auditLog,
  phoneNumbers,
  calls,
  unansweredQuestions,
  jobs,
  notifications,
  inboundMessages,
  callHandling,
  outboundCalls,
  forwardingChecks,
  weeklyDigests,
  callStats,
  callHourStats,
  ownerWebhooks,
  webhookDeliveries,
  callerTexts,
  callerOptOuts,
  spamMarks,
  boxSpamNumbers,
  bookingServices,
  bookingCalendars,
  bookings,
} = tables;
