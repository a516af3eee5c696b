import { describe, expect, it } from 'vitest';
import { inspectSip, sipResponse } from './sip-guard.js';

const request = (method: string, callId: string, to = '<sip:+447700900801@x.invalid>') =>
  [`${method} sip:+447700900801@x.invalid SIP/2.0`, 'Via: SIP/2.0/WSS a.invalid;branch=z9hG4bK1', `To: ${to}`, 'From: <sip:tc-1@x.invalid>;tag=f', `Call-ID: ${callId}`, `CSeq: 1 ${method}`, 'Content-Length: 0', '', ''].join('\r\n');

describe('the Call my line proxy’s SIP guard', () => {
  it('lets one call through: its INVITE, the INVITE re-sent with credentials, and in-dialog requests', () => {
    const first = inspectSip(request('INVITE', 'a'), undefined);
    expect(first).toEqual({ forward: true, callId: 'a' });
    expect(inspectSip(request('INVITE', 'a'), 'a')).toEqual({ forward: true, callId: 'a' });
    expect(inspectSip(request('BYE', 'a', '<sip:+447700900801@x.invalid>;tag=t'), 'a')).toEqual({ forward: true });
    expect(inspectSip('SIP/2.0 200 OK\r\nCall-ID: a\r\n\r\n', 'a')).toEqual({ forward: true });
  });

  it('refuses a second call on the same socket with 403, answered to its own transaction', () => {
    const v = inspectSip(request('INVITE', 'b'), 'a');
    expect(v.forward).toBe(false);
    const reply = !v.forward ? v.reply! : '';
    expect(reply.split('\r\n')[0]).toBe('SIP/2.0 403 One test call at a time');
    expect(reply).toContain('Call-ID: b');
    expect(reply).toMatch(/^To: <sip:\+447700900801@x\.invalid>;tag=\w+$/m);
  });

  it('refuses what a call does not use (REGISTER, MESSAGE, SUBSCRIBE) and what is not SIP', () => {
    for (const m of ['REGISTER', 'MESSAGE', 'SUBSCRIBE', 'REFER']) {
      const v = inspectSip(request(m, 'a'), undefined);
      expect(v.forward).toBe(false);
      expect(!v.forward && v.reply?.split('\r\n')[0]).toBe('SIP/2.0 405 Method Not Allowed');
    }
    expect(inspectSip('GET / HTTP/1.1\r\n\r\n', undefined)).toMatchObject({ forward: false, reply: null });
    expect(sipResponse('INVITE x SIP/2.0\r\n\r\n', 403, 'No')).toBeNull();
  });
});
