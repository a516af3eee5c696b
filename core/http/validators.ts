import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { App } from './fastify-types.js';

const base: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false };

/**
 * Path and query parameters arrive as text, so they are coerced ("42" → 42). JSON
 * bodies are not: Ajv's coercion would quietly turn 0 or "" into null and "true" into
 * true, accepting values the owner never meant. A body must have the declared types.
 */
export function registerValidators(app: App): void {
  const bodies = new Ajv({ ...base, coerceTypes: false });
  const params = new Ajv({ ...base, coerceTypes: 'array' });
  for (const ajv of [bodies, params]) (addFormats as unknown as (a: Ajv) => void)(ajv);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodies : params).compile(schema));
}
