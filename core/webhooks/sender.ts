import https from 'node:https';
import net from 'node:net';
import { RetryableError } from '../jobs/retryable.js';
import { bareHost, pinnedLookup, type ResolvedAddress } from './address-guard.js';
import { networkErrorWords } from '../outbound/network-words.js';

export interface WebhookRequest {
  url: URL;
  /** The address the guard checked: the connection goes there and nowhere else. */
  address: ResolvedAddress;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra trusted CA (a test receiver's self-signed certificate); production trusts Node's store only. */
  ca?: string;
}

/**
 * A delivery attempt that did not get a 2xx; `retryable` is what the job queue reads: worth
 * another attempt when the receiver is down or busy (5xx, 408, 429). Other answers will not change.
 */
export class WebhookDeliveryError extends RetryableError {}

/** Only this much of a receiver's answer is read (for the log); the rest is discarded. */
const MAX_ANSWER_BYTES = 512;

/**
 * One HTTPS POST to the checked address. `lookup` is overridden, so Node never resolves the
 * name again (TLS still checks the certificate against the URL's host name); redirects are
 * not followed (node:https never does); the whole exchange is bounded by `timeoutMs`.
 */
export function postWebhook(req: WebhookRequest): Promise<{ status: number }> {
  const host = bareHost(req.url.hostname);
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  return new Promise((resolve, reject) => {
    const r = https.request(
      req.url,
      {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        lookup: pinnedLookup(req.address),
        // SNI carries a name, never an IP literal.
        servername: net.isIP(host) ? undefined : host,
        agent: false,
        signal,
        ca: req.ca,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (answer.length < MAX_ANSWER_BYTES) answer += chunk.slice(0, MAX_ANSWER_BYTES - answer.length);
        });
        res.on('end', () => {
          if (status >= 200 && status < 300) return resolve({ status });
          const moved = status >= 300 && status < 400 ? ` (redirects are not followed${res.headers.location ? `: ${String(res.headers.location).slice(0, 200)}` : ''})` : '';
          const said = answer.trim() ? `: ${answer.trim().replace(/\s+/g, ' ').slice(0, 200)}` : '';
          reject(new WebhookDeliveryError(`the receiver answered HTTP ${status}${moved}${said}`, { httpStatus: status }));
        });
        res.on('error', (err) => reject(networkError(err, timeout)));
      },
    );
    r.on('error', (err) => reject(networkError(err, timeout)));
    r.end(req.body);
  });
}

function networkError(err: Error, timeout: AbortSignal): WebhookDeliveryError {
  if (timeout.aborted) return new WebhookDeliveryError('the receiver did not answer in time', true);
  return new WebhookDeliveryError(`could not reach the receiver: ${networkErrorWords(err)}`, true);
}
