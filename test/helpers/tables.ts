import * as pg from '../../core/db/pg/schema.js';
import * as sqlite from '../../core/db/sqlite/schema.js';
import type { Tables } from '../../core/db/schema.js';

/**
 * The tables of the engine this test run uses, for tests that seed and inspect the harness's
 * database: PostgreSQL's under TEST_DATABASE=postgres, SQLite's otherwise. The product takes
 * its tables from the database a query runs on (tablesOf, core/db/schema.ts); a test process
 * runs on one engine, named by its environment before it starts, so here they are constants.
 * A test that opens a database of the other engine (a SQLite file in a PostgreSQL run, or both
 * at once) takes that database's tables with tablesOf instead.
 */
const tables = (process.env.TEST_DATABASE === 'postgres' ? pg : sqlite) as unknown as Tables;

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
