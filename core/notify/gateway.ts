import { RetryableError } from '../jobs/retryable.js';
import type { InboundChannel } from '../../contract/enums.js';

/** The channels a text goes out on: the ones an owner can also text commands in on. */
export type Channel = InboundChannel;

export interface OutgoingMessage {
  channel: Channel;
  /** E.164, without any channel prefix. */
  to: string;
  /** The business's own number (E.164), used as sender unless a sender is configured. */
  businessNumber: string;
  body: string;
  /** Stable per call and channel: lets a gateway recognise a message it already took. */
  key: string;
  /** Where the provider reports delivery (Twilio's StatusCallback); texts to callers only. */
  statusCallback?: string;
}

interface SendResult {
  providerId: string;
}

/** What a stale 'sending' record turned out to be after a crash. */
type Reconciliation = { sent: true; providerId: string } | { sent: false } | 'unknown';

/** Where notifications go: Twilio's Messaging API, or the outbox folder when Twilio is not configured. */
export interface MessageGateway {
  readonly name: string;
  send(msg: OutgoingMessage, opts?: { signal?: AbortSignal }): Promise<SendResult>;
  /** Did a send with this key reach the provider? Asked only after a crash between send and record. */
  reconcile(msg: OutgoingMessage, since: Date): Promise<Reconciliation>;
}

/**
 * A failed send. `retryable` as elsewhere; `permanent` failures (invalid or non-mobile
 * number, Twilio 21211/21614) are reported on the call and never retried.
 */
export class NotifyError extends RetryableError {
  constructor(
    message: string,
    retry: boolean | { httpStatus: number },
    readonly code?: number,
    options?: { cause?: unknown },
  ) {
    super(message, retry, options);
  }
}
