import type { FastifyRequest } from 'fastify';

/**
 * Paths whose last part is a secret or personal data: the console's reset link carries the
 * token, and caller erasure carries the caller's number. Matched on the decoded path, so
 * `/%72eset-password/…` or `%2B44…` are caught as well.
 */
const SENSITIVE_PREFIXES: readonly string[][] = [['reset-password'], ['api', 'user', 'callers']];

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The request URL as it may be logged: secret path parts and every query value replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const pathPart = q === -1 ? url : url.slice(0, q);
  const segments = pathPart.split('/');
  const decoded = segments.map((s) => decode(s).toLowerCase());
  for (const prefix of SENSITIVE_PREFIXES) {
    // segments[0] is the empty string before the leading slash.
    if (prefix.every((p, i) => decoded[i + 1] === p) && segments.length > prefix.length + 1) {
      segments.splice(prefix.length + 1, segments.length, '[redacted]');
      break;
    }
  }
  const query =
    q === -1
      ? ''
      : `?${url
          .slice(q + 1)
          .split('&')
          .map((pair) => `${pair.split('=')[0]}=[redacted]`)
          .join('&')}`;
  return segments.join('/') + query;
}

/** Fastify's request serializer with the URL redacted (its default logs req.url as sent). */
export const LOG_SERIALIZERS = {
  req(req: FastifyRequest) {
    return {
      method: req.method,
      url: redactUrl(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
};
