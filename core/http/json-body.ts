import { isUtf8 } from 'node:buffer';
import { badRequest } from './errors.js';
import type { App } from './fastify-types.js';

/**
 * JSON bodies must be UTF-8 (RFC 8259 §8.1). Fastify's own parser decodes the bytes with
 * replacement, so a body with a stray 0xFF byte would be stored with U+FFFD in place of
 * what the client sent; here it is refused before parsing, and parsing is Fastify's
 * (prototype-poisoning protection included).
 */
export function registerJsonBodyParser(app: App): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(badRequest('The request body must be valid UTF-8 text.'), undefined);
      return;
    }
    void parseJson(req, bytes.toString('utf8'), done);
  });
}
