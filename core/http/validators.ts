import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { App } from './fastify-types.js';
import { registerJsonBodyParser } from './json-body.js';
import { textProblem, type TextKind } from './text-hygiene.js';

// verbose: each error carries the schema that refused the value, so a field's own refusal can be shown.
const base: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false, verbose: true };

const TEXT_KEYWORD = 'textKind';
// Parts of a schema that hold values, not subschemas: never annotated.
const VALUE_KEYS = new Set(['enum', 'const', 'default', 'examples']);

/**
 * A copy of `schema` in which every string subschema carries the text rule: single-line
 * unless the route declared `multiline: true`, none when it declared `verbatim: true` (text-hygiene.ts says what each refuses).
 */
function withTextRules(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withTextRules);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = VALUE_KEYS.has(key) ? value : withTextRules(value);
  const isString = node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string'));
  if (isString && node.verbatim !== true) copy[TEXT_KEYWORD] = node.multiline === true ? 'multiline' : 'line';
  return copy;
}

function addTextKeyword(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: TEXT_KEYWORD,
    type: 'string',
    schemaType: 'string',
    errors: true,
    validate: function check(kind: TextKind, data: string) {
      const problem = textProblem(data, kind);
      if (problem === null) return true;
      (check as unknown as { errors: unknown[] }).errors = [{ keyword: TEXT_KEYWORD, message: problem, params: { kind } }];
      return false;
    },
  });
}

/**
 * What a request must be to reach a handler. Path and query parameters arrive as text, so
 * they are coerced ("42" → 42). JSON bodies are not: Ajv's coercion would quietly turn 0 or
 * "" into null and "true" into true, accepting values the owner never meant. A body must
 * have the declared types, be UTF-8 (json-body.ts), and every text field in it, like every
 * parameter, passes the text rules: one place for every route with a schema.
 */
export function registerValidators(app: App): void {
  const bodies = new Ajv({ ...base, coerceTypes: false });
  const params = new Ajv({ ...base, coerceTypes: 'array' });
  for (const ajv of [bodies, params]) {
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    addTextKeyword(ajv);
  }
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodies : params).compile(withTextRules(schema) as object));
  registerJsonBodyParser(app);
}
