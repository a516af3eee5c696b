import type { FastifyError } from 'fastify';
import type { App } from './fastify-types.js';
import { HttpError } from './errors.js';

/** Makes Ajv's messages readable: "/email must match format \"email\"" → "email must be a valid e-mail address". */
function describeValidation(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const field =
    (first.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
    first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where = field || error.validationContext || 'request';
  switch (first.keyword) {
    case 'required':
      return `${where} is required`;
    case 'additionalProperties':
      return `${(first.params as { additionalProperty: string }).additionalProperty} is not an accepted field`;
    case 'format':
      return first.params.format === 'email' ? `${where} must be a valid e-mail address` : `${where} must be a valid ${first.params.format}`;
    case 'maxLength':
      return `${where} must be at most ${first.params.limit} characters`;
    case 'minLength':
      return first.params.limit === 1 ? `${where} is required` : `${where} must be at least ${first.params.limit} characters`;
    default:
      return `${where} ${first.message ?? 'is invalid'}`;
  }
}

/** The refusal (contract/schemas/shared.ts) of the field whose schema refused the value, if it declares one. */
function refusalOf(error: FastifyError): { message: string; errors: Record<string, string> } | null {
  const first = error.validation?.[0] as { parentSchema?: { refusal?: { message: string; field: string } }; instancePath: string } | undefined;
  const refused = first?.parentSchema?.refusal;
  if (!first || !refused) return null;
  return { message: refused.message, errors: { [first.instancePath.replace(/^\//, '').replace(/\//g, '.')]: refused.field } };
}

/**
 * 4xx: the message is for the user and shown as is. 5xx: logged with context,
 * and the client gets a generic sentence (never internals).
 */
export function registerErrorHandler(app: App): void {
  app.setErrorHandler((error: FastifyError | HttpError, req, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send({ message: error.message, ...(error.errors ? { errors: error.errors } : {}) });
    }
    if (error.validation) {
      return reply.status(400).send(refusalOf(error) ?? { message: describeValidation(error) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Errors from plugins may carry headers the status needs (416's Content-Range from @fastify/send).
      const headers = (error as { headers?: Record<string, string> }).headers;
      if (headers) reply.headers(headers);
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body must be valid JSON.'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'The request is too large.'
            : error.message;
      return reply.status(status).send({ message });
    }
    req.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}
