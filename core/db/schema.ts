import * as pg from './pg/schema.js';
import * as sqlite from './sqlite/schema.js';

/**
 * The tables the appliance queries, bound to the dialect of the database it opened: SQLite's
 * (core/db/sqlite/schema.ts, the default) or PostgreSQL's (core/db/pg/schema.ts), both written from one
 * declaration (core/db/declaration/tables.ts) by npm run db:schema. The two
 * describe the same columns with the same row types (test/db/schema-parity.test.ts), so code
 * imports its tables from here and never knows which engine it runs on. The bindings are
 * ES module live bindings: openAppDatabase (core/db/open.ts) rebinds them once, at start,
 * before any query is built. One process runs on one dialect; the move tool, which reads one
 * and writes the other, imports both schemas by their own paths.
 */

export type { User, NewUser, Call, PhoneNumberRow, UnansweredQuestion, OwnerWebhook, WebhookDelivery, CallerText, BookingRow, BookingServiceRow } from './sqlite/schema.js';

export let users = sqlite.users;
export let sessions = sqlite.sessions;
export let passwordResetTokens = sqlite.passwordResetTokens;
export let auditLog = sqlite.auditLog;
export let phoneNumbers = sqlite.phoneNumbers;
export let calls = sqlite.calls;
export let unansweredQuestions = sqlite.unansweredQuestions;
export let jobs = sqlite.jobs;
export let notifications = sqlite.notifications;
export let inboundMessages = sqlite.inboundMessages;
export let callHandling = sqlite.callHandling;
export let outboundCalls = sqlite.outboundCalls;
export let forwardingChecks = sqlite.forwardingChecks;
export let weeklyDigests = sqlite.weeklyDigests;
export let appSettings = sqlite.appSettings;
export let rateLimits = sqlite.rateLimits;
export let callStats = sqlite.callStats;
export let callHourStats = sqlite.callHourStats;
export let ownerWebhooks = sqlite.ownerWebhooks;
export let webhookDeliveries = sqlite.webhookDeliveries;
export let destinationCodes = sqlite.destinationCodes;
export let callerTexts = sqlite.callerTexts;
export let callerOptOuts = sqlite.callerOptOuts;
export let textBackSettings = sqlite.textBackSettings;
export let spamMarks = sqlite.spamMarks;
export let boxSpamNumbers = sqlite.boxSpamNumbers;
export let screeningSettings = sqlite.screeningSettings;
export let bookingServices = sqlite.bookingServices;
export let bookingRules = sqlite.bookingRules;
export let bookingCalendars = sqlite.bookingCalendars;
export let bookings = sqlite.bookings;

export type TablesDialect = 'sqlite' | 'pg';


/** Binds every table to one dialect's definition (the PostgreSQL ones typed as SQLite's: same columns, same rows). */
export function bindTables(dialect: TablesDialect): void {
  const from = (dialect === 'pg' ? pg : sqlite) as unknown as typeof sqlite;
  users = from.users;
  sessions = from.sessions;
  passwordResetTokens = from.passwordResetTokens;
  auditLog = from.auditLog;
  phoneNumbers = from.phoneNumbers;
  calls = from.calls;
  unansweredQuestions = from.unansweredQuestions;
  jobs = from.jobs;
  notifications = from.notifications;
  inboundMessages = from.inboundMessages;
  callHandling = from.callHandling;
  outboundCalls = from.outboundCalls;
  forwardingChecks = from.forwardingChecks;
  weeklyDigests = from.weeklyDigests;
  appSettings = from.appSettings;
  rateLimits = from.rateLimits;
  callStats = from.callStats;
  callHourStats = from.callHourStats;
  ownerWebhooks = from.ownerWebhooks;
  webhookDeliveries = from.webhookDeliveries;
  destinationCodes = from.destinationCodes;
  callerTexts = from.callerTexts;
  callerOptOuts = from.callerOptOuts;
  textBackSettings = from.textBackSettings;
  spamMarks = from.spamMarks;
  boxSpamNumbers = from.boxSpamNumbers;
  screeningSettings = from.screeningSettings;
  bookingServices = from.bookingServices;
  bookingRules = from.bookingRules;
  bookingCalendars = from.bookingCalendars;
  bookings = from.bookings;
}
