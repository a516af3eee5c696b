/**
 * What one Web Push message carries (issue 54): the box encrypts it per RFC 8291 for one device,
 * and the console's service worker reads it to show the notification and act on its buttons.
 * One shape for both ends, so the worker never guesses at what the server meant.
 */

/** What made the alert; each device chooses which of these alert it (Notification Settings). */
export const PUSH_ALERT_KINDS = ['call', 'urgent', 'booking', 'caller-text'] as const;
export type PushAlertKind = (typeof PUSH_ALERT_KINDS)[number];

/** The notification's buttons, as the service worker names them in `actions`. */
export const PUSH_ACTIONS = ['call-back', 'mark-done', 'reply', 'listen'] as const;
export type PushAction = (typeof PUSH_ACTIONS)[number];

export interface PushAlert {
  /** The payload's version: a worker meeting a newer one shows title and body and offers no buttons. */
  v: 1;
  /** One id per alert sent: the worker reports it opened, which may stop a delayed text. */
  alertId: string;
  kind: PushAlertKind;
  /** The notification's title: the caller as the console names them (name, or the number). */
  title: string;
  /** The summary's first line, with the urgency said in words when urgent. */
  body: string;
  urgent: boolean;
  /** Alerts with one tag replace each other on the device (one per call). */
  tag: string;
  /** The call it is about, when it is about one. */
  callId?: number;
  /** The number Call back rings (E.164), only when the owner may ring it back. */
  callBack?: string;
  /** Console path Reply opens (the caller's text thread), only when the caller can be texted. */
  replyUrl?: string;
  /** The call is still in progress: Listen opens it on the Live page. */
  live?: boolean;
  /** Console path a tap on the notification opens. */
  url: string;
  /** When the box sent it (ISO 8601). */
  sentAt: string;
}

/** The route the worker posts to when an alert is opened or one of its buttons pressed. */
export function pushOpenedPath(alertId: string): string {
  return `/api/user/push/alerts/${encodeURIComponent(alertId)}/opened`;
}

/** Which calls alert a device: every call, urgent ones only, or none (bookings and caller texts are switched apart). */
export const PUSH_CALL_CHOICES = ['all', 'urgent', 'none'] as const;
export type PushCallChoice = (typeof PUSH_CALL_CHOICES)[number];

/** Where an alert stands: queued (or waiting to be retried), taken by the push service, or given up. */
export const PUSH_ALERT_STATUSES = ['pending', 'sent', 'failed'] as const;

/** The longest "text me only if the push was not opened within N minutes" (a text later than this is no fallback). */
export const PUSH_TEXT_DELAY_MAX_MINUTES = 60;
