import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { errorMessage, printableError, scrubError, serializeError } from './safe-errors.js';

const EMAIL = 'planted.person@leak-probe.example';
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';

/** A failed insert on PostgreSQL as drizzle hands it over: the driver's error as its cause. */
function failedInsert(): DrizzleQueryError {
  const driver = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), {
    code: '23505',
    detail: `Key (email)=(${EMAIL}) already exists.`,
    constraint: 'users_email_unique',
  });
  return new DrizzleQueryError('insert into "users" ("email", "password_hash") values ($1, $2)', [EMAIL, HASH], driver);
}

describe('a failed query as logged', () => {
  it('says which statement and why, never the values it carried, in message, stack, fields or cause', () => {
    const out = JSON.stringify(serializeError(failedInsert()));
    expect(out).not.toContain(EMAIL);
    expect(out).not.toContain('argon2id');
    expect(out).toContain('Failed query: insert into \\"users\\"');
    expect(out).toContain('duplicate key value violates unique constraint');
    expect(out).toContain('"type":"DrizzleQueryError"');
  });

  it('scrubs a failed query kept under another field of a wrapping error', () => {
    const wrapped = Object.assign(new Error('could not save the settings'), { original: failedInsert() });
    const out = JSON.stringify(serializeError(wrapped));
    expect(out).toContain('Failed query: insert into');
    expect(out).not.toContain(EMAIL);
  });

  it('errorMessage (stored as a job’s lastError, logged by workers) joins the causes without the values', () => {
    expect(errorMessage(failedInsert())).toBe(
      'Failed query: insert into "users" ("email", "password_hash") values ($1, $2): duplicate key value violates unique constraint "users_email_unique"',
    );
    expect(errorMessage('plain text')).toBe('plain text');
  });

  it('a start-up failure printed without a logger keeps the frames and drops the values', () => {
    const text = printableError(failedInsert());
    expect(text).not.toContain(EMAIL);
    expect(text).toMatch(/\n\s+at /);
  });

  it('the original error is left as it was (callers still read its code and params)', () => {
    const err = failedInsert();
    const safe = scrubError(err) as DrizzleQueryError;
    expect(safe).toBeInstanceOf(DrizzleQueryError);
    expect(err.params).toEqual([EMAIL, HASH]);
    expect(err.message).toContain(EMAIL);
  });

  it('every logger built by createLogger applies it, also on child loggers and under "error"', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    log.child({ component: 'pbx' }).error({ err: failedInsert() }, 'write failed');
    log.warn({ error: failedInsert(), password: 'hunter2-planted' }, 'write failed');
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      expect(l).not.toContain(EMAIL);
      expect(l).not.toContain('hunter2-planted');
      expect(l).toContain('Failed query');
    }
  });
});
