import type twilio from 'twilio';
import type { Twilio } from 'twilio';
import type { Config } from '../config/config.js';
import { twilioSdk } from './sdk.js';

/** Every Twilio REST call gives up after this long, so a stalled provider never hangs a request or a job. */
const TWILIO_TIMEOUT_MS = 15_000;

type RequestOptions = twilio.RequestClient extends { request(opts: infer O): unknown } ? O : never;

interface HttpResponse {
  statusCode: number;
  body: unknown;
  headers: unknown;
}

/**
 * Moves an SDK request URI (https://api.twilio.com/…, https://api.dublin.ie1.twilio.com/…)
 * onto `apiBase`, keeping path and query. A path in apiBase becomes a prefix.
 */
export function rewriteUri(uri: string, apiBase: string): string {
  const from = new URL(uri);
  const to = new URL(apiBase);
  const prefix = to.pathname.replace(/\/+$/, '');
  return `${to.origin}${prefix}${from.pathname}${from.search}`;
}

/**
 * The httpClient handed to the SDK when TWILIO_API_BASE is set: it only rewrites the origin
 * and delegates to the SDK's own RequestClient, so auth, form encoding, paging and error
 * mapping (RestException) stay exactly the SDK's.
 */
function redirectingHttpClient(apiBase: string, timeoutMs = TWILIO_TIMEOUT_MS) {
  const real = new (twilioSdk().RequestClient)({ timeout: timeoutMs });
  return {
    request(opts: RequestOptions): Promise<HttpResponse> {
      return real.request({ ...opts, uri: rewriteUri(opts.uri, apiBase) }) as Promise<HttpResponse>;
    },
  };
}

/**
 * The one place the product builds a Twilio client (messaging, numbers, usage).
 * Throws when the account SID or token is missing: callers only ask when Twilio is configured.
 */
export function createTwilioClient(cfg: Config['twilio'], timeoutMs = TWILIO_TIMEOUT_MS): Twilio {
  if (!cfg.accountSid || !cfg.authToken) {
    throw new Error('Twilio is not configured: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
  }
  const httpClient = cfg.apiBase
    ? (redirectingHttpClient(cfg.apiBase, timeoutMs) as unknown as twilio.RequestClient)
    : new (twilioSdk().RequestClient)({ timeout: timeoutMs });
  return twilioSdk()(cfg.accountSid, cfg.authToken, { httpClient });
}
