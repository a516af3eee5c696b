import { DrizzleQueryError } from 'drizzle-orm';
import pino from 'pino';

/**
 * Fields of a database error that repeat the data the statement carried: drizzle's `params`
 * (an e-mail, a phone number, argon2 hashes, a knowledge base), node-postgres' `detail`
 * ("Key (email)=(…) already exists", "Failing row contains (…)", the whole row) and
 * `parameters`. They never leave in a log line or a stored error text.
 */
const DATA_FIELDS = new Set(['params', 'parameters', 'detail']);

/** How deep a chain of causes is followed (drizzle → driver is two; anything past this is dropped). */
const MAX_DEPTH = 5;

/** An error's own message as it may be logged: a failed query says which statement, never its values. */
function ownMessage(err: Error): string {
  // drizzle writes "Failed query: <sql>\nparams: <values>" into the message itself.
  if (err instanceof DrizzleQueryError) return `Failed query: ${err.query}`;
  return err.message;
}

/**
 * A copy of `err` safe to log or store: the same class, name, code and other fields, with the
 * query's values gone from its message, its stack and its fields, and the same for each cause.
 * Anything that is not an Error is returned as is.
 */
export function scrubError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err;
  if (depth >= MAX_DEPTH) return new Error('(further causes left out)');
  const safe = Object.create(Object.getPrototypeOf(err) as object) as Error & Record<string, unknown>;
  for (const key of Object.keys(err)) {
    if (DATA_FIELDS.has(key) || key === 'cause') continue;
    const value = (err as unknown as Record<string, unknown>)[key];
    // An error kept under another name (a library's `original`, `error`) is scrubbed as well.
    safe[key] = value instanceof Error ? scrubError(value, depth + 1) : value;
  }
  const message = ownMessage(err);
  // The stack's first lines are "<name>: <message>" as it was when the error was made.
  const frames = err.stack?.indexOf('\n    at ') ?? -1;
  Object.defineProperty(safe, 'message', { value: message, writable: true, configurable: true });
  Object.defineProperty(safe, 'stack', {
    value: `${err.name}: ${message}${frames >= 0 ? err.stack!.slice(frames) : ''}`,
    writable: true,
    configurable: true,
  });
  if (err.cause !== undefined) Object.defineProperty(safe, 'cause', { value: scrubError(err.cause, depth + 1), configurable: true });
  if (Array.isArray((err as { errors?: unknown }).errors)) safe.errors = (err as unknown as { errors: unknown[] }).errors.map((e) => scrubError(e, depth + 1));
  return safe;
}

/**
 * An error's text for a log field or a stored `lastError`: its message, never the values a
 * query carried. A failed query's own text only names the statement, so the driver's reason
 * ("database is locked") follows it.
 */
export function errorMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const safe = scrubError(err) as Error;
  if (err instanceof DrizzleQueryError && safe.cause instanceof Error) return `${safe.message}: ${safe.cause.message}`;
  return safe.message;
}

/** pino's error serializer over the scrubbed copy: every logger's `err` field goes through it. */
export function serializeError(err: unknown): unknown {
  return pino.stdSerializers.err(scrubError(err) as Error);
}

/** An error as printed on stderr when there is no logger yet (start-up failures): its scrubbed stack. */
export function printableError(err: unknown): string {
  const safe = scrubError(err);
  if (!(safe instanceof Error)) return String(safe);
  const serialized = serializeError(safe) as { stack?: string; message?: string };
  return serialized.stack ?? serialized.message ?? String(safe);
}
