import https from 'node:https';
import webpush from 'web-push';
import { RetryableError } from '../jobs/retryable.js';
import { networkErrorWords } from '../outbound/network-words.js';
import { pinnedLookup, type ResolvedAddress } from '../webhooks/address-guard.js';
import type { VapidKeys } from './vapid-keys.js';

/** One device's subscription as web-push takes it. */
interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushRequest {
  target: PushTarget;
  /** The address the guard checked: the connection goes there and nowhere else. */
  address: ResolvedAddress;
  payload: string;
  vapid: VapidKeys;
  /** mailto: of the operator (SUPPORT_EMAIL): the push service's contact for this box. */
  subject: string;
  /** How long the push service keeps an alert for a device that is offline. */
  ttlSeconds: number;
  urgency: 'normal' | 'high';
  timeoutMs: number;
  /** Extra trusted CA (a test push service's self-signed certificate); production trusts Node's store only. */
  ca?: string;
}

/**
 * A push the push service did not take. `gone`: the subscription no longer exists (404 or 410,
 * RFC 8030 §7.3), so the device is removed; `retryable` as everywhere (5xx, 408, 429, network).
 */
export class PushDeliveryError extends RetryableError {
  constructor(
    message: string,
    retry: boolean | { httpStatus: number },
    readonly gone = false,
  ) {
    super(message, retry);
  }
}

/**
 * Sends one encrypted push (RFC 8291 aes128gcm, VAPID per RFC 8292) with web-push. The agent
 * pins the connection to the checked address (Node never resolves the name again; TLS still
 * checks the certificate against the endpoint's host).
 */
export async function sendPush(req: PushRequest): Promise<void> {
  // Node names the server (SNI) from the endpoint's host itself, and never an IP literal.
  const agent = new https.Agent({ lookup: pinnedLookup(req.address), ca: req.ca, keepAlive: false });
  try {
    await webpush.sendNotification({ endpoint: req.target.endpoint, keys: { p256dh: req.target.p256dh, auth: req.target.auth } }, req.payload, {
      vapidDetails: { subject: req.subject, publicKey: req.vapid.publicKey, privateKey: req.vapid.privateKey },
      TTL: req.ttlSeconds,
      urgency: req.urgency,
      timeout: req.timeoutMs,
      agent,
      contentEncoding: 'aes128gcm',
    });
  } catch (err) {
    throw pushError(err);
  } finally {
    agent.destroy();
  }
}

function pushError(err: unknown): PushDeliveryError {
  if (err instanceof webpush.WebPushError) {
    const status = err.statusCode;
    const said = typeof err.body === 'string' && err.body.trim() ? `: ${err.body.trim().replace(/\s+/g, ' ').slice(0, 200)}` : '';
    if (status === 404 || status === 410) return new PushDeliveryError(`the push service says this device is no longer subscribed (HTTP ${status})`, false, true);
    return new PushDeliveryError(`the push service answered HTTP ${status}${said}`, { httpStatus: status });
  }
  if (err instanceof Error && err.message === 'Socket timeout') return new PushDeliveryError('the push service did not answer in time', true);
  if (err instanceof Error && 'code' in err) return new PushDeliveryError(`could not reach the push service: ${networkErrorWords(err)}`, true);
  // web-push's own refusals (a bad key) will not change on another attempt.
  return new PushDeliveryError(`the alert could not be sent: ${err instanceof Error ? err.message : String(err)}`, false);
}
