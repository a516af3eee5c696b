import { afterEach, describe, expect, it } from 'vitest';
import { CallEnded, CallSession, StepTimeout } from './call-session.js';
import type { AriEvent } from './ari/types.js';

const channel = {
  id: '1700000000.1',
  name: 'PJSIP/trunk-1',
  state: 'Ring',
  caller: { name: '', number: '+447700900999' },
  dialplan: { context: 'from-trunk', exten: '+447700900001' },
  creationtime: '2026-03-01T12:00:00.000+0000',
};
const ev = (type: string, extra: Partial<AriEvent> = {}, ts = '2026-03-01T12:00:05.000+0000'): AriEvent => ({ type, timestamp: ts, ...extra });

describe('CallSession', () => {
  it('finds an event that arrived before the wait was registered', async () => {
    const s = new CallSession(channel, '+447700900001');
    s.deliver(ev('PlaybackFinished', { playback: { id: 'p1', state: 'done', media_uri: 'sound:beep', target_uri: 'channel:1' } }));
    const e = await s.waitFor((x) => x.playback?.id === 'p1', { what: 'p1', timeoutMs: 100 });
    expect(e.type).toBe('PlaybackFinished');
  });

  it('still delivers RecordingFinished sent between the hang-up request and StasisEnd', async () => {
    const s = new CallSession(channel, '+447700900001');
    const wait = s.waitFor((x) => x.type === 'RecordingFinished', { what: 'rec', timeoutMs: 1000 });
    s.deliver(ev('ChannelHangupRequest', {}, '2026-03-01T12:00:31.400+0000'));
    s.deliver(ev('RecordingFinished', { recording: { name: 'r', state: 'done', target_uri: 'channel:1', talking_duration: 4 } }));
    s.deliver(ev('StasisEnd', {}, '2026-03-01T12:00:31.500+0000'));
    expect((await wait).recording?.talking_duration).toBe(4);
    // The call's length runs from channel creation to the hang-up request, on Asterisk's clock.
    expect((s.endedAt! - s.startedAt) / 1000).toBe(31.4);
  });

  it('fails pending steps with CallEnded once the channel leaves the app, and times out stuck steps', async () => {
    const s = new CallSession(channel, '+447700900001');
    const stuck = s.waitFor(() => false, { what: 'never', timeoutMs: 20 });
    await expect(stuck).rejects.toBeInstanceOf(StepTimeout);
    const pending = s.waitFor((x) => x.type === 'PlaybackFinished', { what: 'p', timeoutMs: 1000 });
    s.deliver(ev('StasisEnd'));
    await expect(pending).rejects.toBeInstanceOf(CallEnded);
    await expect(s.waitFor(() => true, { what: 'late', timeoutMs: 10 })).resolves.toBeDefined(); // history still answers
  });

  it('a wait the call ends under, while its REST request is still out, is not an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    stopListening = () => process.off('unhandledRejection', onUnhandled);
    const s = new CallSession(channel, '+447700900001');
    const finished = s.waitFor((x) => x.type === 'PlaybackFinished', { what: 'greeting', timeoutMs: 1000 });
    s.deliver(ev('StasisEnd')); // the caller hangs up while POST /play is in flight
    await new Promise((r) => setTimeout(r, 20)); // the request returns a little later
    expect(unhandled).toEqual([]);
    await expect(finished).rejects.toBeInstanceOf(CallEnded);
  });
});

let stopListening: (() => void) | undefined;
afterEach(() => stopListening?.());
