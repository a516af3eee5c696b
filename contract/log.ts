/**
 * The one log shape every server module takes: pino's (Fastify's logger satisfies it), a fields
 * object first and the message second. A module that only warns asks for `Pick<Log, 'warn'>`, so
 * tests can hand it just that.
 */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  /** Optional: pino has it, a test's double need not. */
  debug?(obj: object, msg: string): void;
}
