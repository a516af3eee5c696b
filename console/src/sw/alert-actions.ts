// What the service worker does with one push (issue 54): which notification to show, which buttons
// it offers and in what order, and what a tap on each one does. Pure, so the rules are tested
// without a browser; console/src/sw/service-worker.ts only carries them out.
import { calledBackPath } from '../api/paths';
import { PUSH_ACTIONS, PUSH_ALERT_KINDS, pushOpenedPath, type PushAction, type PushAlert } from '../../../contract/push-alert';

/** The title of an alert the worker cannot read (garbled, or a newer payload without a title). */
export const FALLBACK_TITLE = 'New call';
/** Where a tap goes when the alert names no page: the call list. */
const FALLBACK_URL = '/dashboard';
/** Chrome shows two buttons today (Notification.maxActions); assume that when the browser does not say. */
const DEFAULT_MAX_ACTIONS = 2;

const ACTION_TITLES: Record<PushAction, string> = {
  'call-back': 'Call back',
  'mark-done': 'Mark done',
  reply: 'Reply',
  listen: 'Listen',
};

/** What the notification carries in `data`, so a click knows what was shown without the push. */
export interface ShownAlert {
  /** The whole alert when it was understood (version 1); null for a plain notification. */
  alert: PushAlert | null;
  /** The alert id to report opened, when the payload had one. */
  alertId: string | null;
  /** Where a tap on the body goes. */
  url: string;
}

export interface AlertNotification {
  title: string;
  body: string;
  tag?: string;
  data: ShownAlert;
  actions: { action: PushAction; title: string }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** A console path on this origin: a push must never send the owner to another site. */
export function consolePath(v: unknown): string | null {
  return isString(v) && v.startsWith('/') && !v.startsWith('//') && !v.includes('\\') ? v : null;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** The push's JSON, or null when it is not an object (no payload, or not JSON). */
export function parsePayload(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The payload as a version-1 alert, or null when it is another version or misses what a notification needs. */
export function readAlert(payload: Record<string, unknown> | null): PushAlert | null {
  if (!payload || payload.v !== 1) return null;
  const { alertId, kind, title, body, urgent, tag, url, sentAt } = payload;
  if (!isString(alertId) || !isString(title) || typeof body !== 'string' || typeof urgent !== 'boolean' || !isString(tag) || !isString(sentAt)) return null;
  if (!(PUSH_ALERT_KINDS as readonly unknown[]).includes(kind)) return null;
  const page = consolePath(url);
  if (!page) return null;
  const alert: PushAlert = { v: 1, alertId, kind: kind as PushAlert['kind'], title, body, urgent, tag, url: page, sentAt };
  // The optional fields are kept only when well formed: a bad one costs its button, not the alert.
  if (typeof payload.callId === 'number' && Number.isSafeInteger(payload.callId) && payload.callId > 0) alert.callId = payload.callId;
  if (typeof payload.callBack === 'string' && E164.test(payload.callBack)) alert.callBack = payload.callBack;
  const replyUrl = consolePath(payload.replyUrl);
  if (replyUrl) alert.replyUrl = replyUrl;
  if (payload.live === true) alert.live = true;
  return alert;
}

/**
 * The buttons an alert offers, most useful first, cut to what the browser shows. A live call's
 * Listen comes first (it is only worth anything now); then ringing back, which is what most
 * alerts are for; then ticking the call off; then a text.
 */
export function alertActions(alert: PushAlert, maxActions: number = DEFAULT_MAX_ACTIONS): PushAction[] {
  const offered: PushAction[] = [];
  if (alert.live && alert.callId !== undefined) offered.push('listen');
  if (alert.callBack) offered.push('call-back');
  if (alert.callId !== undefined) offered.push('mark-done');
  if (alert.replyUrl) offered.push('reply');
  const max = Number.isInteger(maxActions) && maxActions >= 0 ? maxActions : DEFAULT_MAX_ACTIONS;
  return offered.slice(0, max);
}

/**
 * The notification for a push's payload. A version-1 alert gets its buttons; anything else
 * (a newer version, garbage) still shows: with its title and body when it has them, as the
 * contract asks of a newer version, else as "New call", and with no buttons.
 */
export function notificationFor(payload: Record<string, unknown> | null, maxActions?: number): AlertNotification {
  const alert = readAlert(payload);
  if (alert) {
    return {
      title: alert.title,
      body: alert.body,
      tag: alert.tag,
      data: { alert, alertId: alert.alertId, url: alert.url },
      actions: alertActions(alert, maxActions).map((action) => ({ action, title: ACTION_TITLES[action] })),
    };
  }
  const title = payload && isString(payload.title) ? payload.title : FALLBACK_TITLE;
  const body = payload && typeof payload.body === 'string' ? payload.body : 'Open the console to see it.';
  const tag = payload && isString(payload.tag) ? payload.tag : undefined;
  return {
    title,
    body,
    ...(tag ? { tag } : {}),
    data: { alert: null, alertId: payload && isString(payload.alertId) ? payload.alertId : null, url: consolePath(payload?.url) ?? FALLBACK_URL },
    actions: [],
  };
}

/** What a click does: a page or a `tel:` to open, a call to mark called back, the alert to report opened. */
export interface ClickPlan {
  open: string | null;
  markDone: number | null;
  reportOpened: string | null;
}

/** The Reply button's page: the caller's thread, with the reply box focused (CallerTexts reads `reply=1`). */
export function replyTarget(replyUrl: string): string {
  const url = new URL(replyUrl, 'https://console.invalid');
  url.searchParams.set('reply', '1');
  return `${url.pathname}${url.search}${url.hash}`;
}

function livePath(callId: number): string {
  return `/dashboard/live?call=${callId}`;
}

/** A click on the notification (action '') or on one of its buttons. A button the alert did not offer opens the alert's page. */
export function planClick(action: string, shown: ShownAlert): ClickPlan {
  const reportOpened = shown.alertId ? pushOpenedPath(shown.alertId) : null;
  const plan: ClickPlan = { open: shown.url, markDone: null, reportOpened };
  const alert = shown.alert;
  if (!alert || !(PUSH_ACTIONS as readonly string[]).includes(action)) return plan;
  switch (action as PushAction) {
    case 'call-back':
      return alert.callBack ? { ...plan, open: `tel:${alert.callBack}` } : plan;
    case 'mark-done':
      return alert.callId !== undefined ? { ...plan, open: null, markDone: alert.callId } : plan;
    case 'reply':
      return alert.replyUrl ? { ...plan, open: replyTarget(alert.replyUrl) } : plan;
    case 'listen':
      return alert.live && alert.callId !== undefined ? { ...plan, open: livePath(alert.callId) } : plan;
  }
}

/** The request Mark done sends: the console's own "Mark called back" (core/calls/routes.ts). */
export function markDoneRequest(callId: number): { path: string; init: RequestInit } {
  return {
    path: calledBackPath(callId),
    init: { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ calledBack: true }), credentials: 'same-origin' },
  };
}
