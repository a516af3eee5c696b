import { describe, expect, it } from 'vitest';
import { pushOpenedPath, type PushAlert } from '../../../contract/push-alert';
import { FALLBACK_TITLE, alertActions, consolePath, markDoneRequest, notificationFor, parsePayload, planClick, readAlert, replyTarget } from './alert-actions';

const base: PushAlert = {
  v: 1,
  alertId: 'a-1',
  kind: 'call',
  title: 'Jane Smith',
  body: 'Boiler leaking in the kitchen',
  urgent: false,
  tag: 'call-7',
  url: '/dashboard/calls/7',
  sentAt: '2026-12-03T18:00:00.000Z',
};
const full: PushAlert = { ...base, callId: 7, callBack: '+447700900123', replyUrl: '/dashboard/texts?caller=%2B447700900123' };
const payload = (a: object) => ({ ...a }) as Record<string, unknown>;

describe('the buttons an alert offers', () => {
  it('offers Call back, then Mark done, then Reply, cut to the two Chrome shows', () => {
    expect(alertActions(full, 2)).toEqual(['call-back', 'mark-done']);
    expect(alertActions(full, 4)).toEqual(['call-back', 'mark-done', 'reply']);
  });

  it('puts Listen first while the call is live', () => {
    expect(alertActions({ ...full, live: true }, 2)).toEqual(['listen', 'call-back']);
    expect(alertActions({ ...full, live: true }, 4)).toEqual(['listen', 'call-back', 'mark-done', 'reply']);
  });

  it('offers only what the alert allows: no Call back without a number, no Mark done or Listen without a call', () => {
    expect(alertActions({ ...base, replyUrl: '/dashboard/texts?caller=x' }, 2)).toEqual(['reply']);
    expect(alertActions({ ...base, live: true }, 2)).toEqual([]);
    expect(alertActions({ ...base, callId: 7 }, 2)).toEqual(['mark-done']);
    expect(alertActions({ ...base, callId: 7, replyUrl: '/dashboard/texts?caller=x' }, 2)).toEqual(['mark-done', 'reply']);
  });

  it('assumes two buttons when the browser does not say, and none when it shows none', () => {
    expect(alertActions(full, Number.NaN)).toEqual(['call-back', 'mark-done']);
    expect(alertActions(full, 0)).toEqual([]);
  });
});

describe('reading a push', () => {
  it('reads JSON objects only', () => {
    expect(parsePayload('{"v":1}')).toEqual({ v: 1 });
    expect(parsePayload('not json')).toBeNull();
    expect(parsePayload('[1]')).toBeNull();
    expect(parsePayload(null)).toBeNull();
  });

  it('keeps a version-1 alert, dropping only the optional fields that are malformed', () => {
    expect(readAlert(payload(full))).toEqual(full);
    const bad = readAlert(payload({ ...full, callBack: 'ring me', replyUrl: 'https://evil.example/x', callId: -3, live: 'yes' }));
    expect(bad).toEqual(base);
  });

  it('refuses another version, a missing title and a page on another site', () => {
    expect(readAlert(payload({ ...base, v: 2 }))).toBeNull();
    expect(readAlert(payload({ ...base, title: '' }))).toBeNull();
    expect(readAlert(payload({ ...base, url: '//evil.example/' }))).toBeNull();
    expect(readAlert(payload({ ...base, kind: 'fax' }))).toBeNull();
  });

  it('accepts only paths on this origin as pages', () => {
    expect(consolePath('/dashboard')).toBe('/dashboard');
    expect(consolePath('//evil.example')).toBeNull();
    expect(consolePath('/\\evil.example')).toBeNull();
    expect(consolePath('https://evil.example')).toBeNull();
    expect(consolePath(3)).toBeNull();
  });
});

describe('the notification shown', () => {
  it('shows the caller, the summary line, the tag and the labelled buttons', () => {
    const n = notificationFor(payload({ ...full, live: true }), 2);
    expect(n.title).toBe('Jane Smith');
    expect(n.body).toBe('Boiler leaking in the kitchen');
    expect(n.tag).toBe('call-7');
    expect(n.actions).toEqual([
      { action: 'listen', title: 'Listen' },
      { action: 'call-back', title: 'Call back' },
    ]);
    expect(n.data).toEqual({ alert: { ...full, live: true }, alertId: 'a-1', url: '/dashboard/calls/7' });
  });

  it('shows a garbled push as a plain "New call" with no buttons', () => {
    const n = notificationFor(parsePayload('garbage'), 2);
    expect(n.title).toBe(FALLBACK_TITLE);
    expect(n.actions).toEqual([]);
    expect(n.data).toEqual({ alert: null, alertId: null, url: '/dashboard' });
  });

  it('shows a newer version with its own title and body but no buttons (contract/push-alert.ts)', () => {
    const n = notificationFor(payload({ ...full, v: 2, title: 'Sam', body: 'Call me' }), 2);
    expect(n).toMatchObject({ title: 'Sam', body: 'Call me', tag: 'call-7', actions: [] });
    expect(n.data).toEqual({ alert: null, alertId: 'a-1', url: '/dashboard/calls/7' });
    expect(notificationFor(payload({ v: 2 }), 2).title).toBe(FALLBACK_TITLE);
  });
});

describe('what a click does', () => {
  const shown = notificationFor(payload({ ...full, live: true }), 4).data;
  const opened = pushOpenedPath('a-1');

  it('opens the alert page on a tap of the body, and reports every click opened', () => {
    expect(planClick('', shown)).toEqual({ open: '/dashboard/calls/7', markDone: null, reportOpened: opened });
  });

  it('rings the caller on Call back', () => {
    expect(planClick('call-back', shown)).toEqual({ open: 'tel:+447700900123', markDone: null, reportOpened: opened });
  });

  it('marks the call done without opening anything', () => {
    expect(planClick('mark-done', shown)).toEqual({ open: null, markDone: 7, reportOpened: opened });
    expect(markDoneRequest(7)).toEqual({
      path: '/api/call-logs/7/called-back',
      init: { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"calledBack":true}', credentials: 'same-origin' },
    });
  });

  it('opens the thread with the reply box asked for on Reply', () => {
    expect(planClick('reply', shown).open).toBe('/dashboard/texts?caller=%2B447700900123&reply=1');
    expect(replyTarget('/dashboard/texts?caller=%2B447700900123&reply=1')).toBe('/dashboard/texts?caller=%2B447700900123&reply=1');
  });

  it('opens the live call on Listen', () => {
    expect(planClick('listen', shown).open).toBe('/dashboard/live?call=7');
  });

  it('opens the alert page for a button the alert did not carry, and a plain notification reports nothing without an id', () => {
    const noNumber = notificationFor(payload(base), 2).data;
    expect(planClick('call-back', noNumber)).toEqual({ open: '/dashboard/calls/7', markDone: null, reportOpened: pushOpenedPath('a-1') });
    expect(planClick('reply', notificationFor(null, 2).data)).toEqual({ open: '/dashboard', markDone: null, reportOpened: null });
  });
});
