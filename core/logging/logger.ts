import pino from 'pino';
import { serializeError } from './safe-errors.js';

/**
 * Paths whose values never reach a log line: cookies, authorisation headers and every field
 * named like a password, token or secret, wherever a module put it in its log object.
 */
const SECRET_FIELDS = ['password', 'newPassword', 'currentPassword', 'confirmPassword', 'token', 'secret', 'authToken'];
const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  // pino's `*.x` matches one level down only: the top level is listed as well.
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
];

/**
 * The one set of logging rules: the core's logger and every child of it (the HTTP server's,
 * the PBX's, the job runners', the schedules') redact the same paths and serialize errors
 * without the data a failed query carried (core/logging/safe-errors.ts).
 */
const LOG_OPTIONS = {
  redact: LOG_REDACT,
  serializers: { err: serializeError, error: serializeError },
} satisfies pino.LoggerOptions;

/** The core's logger; `destination`: root/main.ts's standard output (core/logging/stdout-log.ts), or a test's reader. */
export function createLogger(opts: { level: string; base?: Record<string, unknown> }, destination?: pino.DestinationStream): pino.Logger {
  const options: pino.LoggerOptions = { ...LOG_OPTIONS, level: opts.level, ...(opts.base ? { base: opts.base } : {}) };
  return destination ? pino(options, destination) : pino(options);
}
