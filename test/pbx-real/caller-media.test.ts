// The test caller's ear (caller-media.ts): when has what it hears stopped? Measured as a phone
// plays it, by Asterisk's media clock (RTP timestamps), not by when packets reached a test
// process that a loaded machine held up. In the knee bench, callers took a 0.4 s pause between
// the greeting's sentences, stretched to 0.7 s on arrival, for the greeting's end and spoke over
// it, and their messages were counted lost.
import dgram from 'node:dgram';
import { afterEach, expect, it } from 'vitest';
import { FRAME } from './audio.js';
import { CallerMedia } from './caller-media.js';
import { ulawEncode, ULAW_SILENCE } from './g711.js';
import { waitUntil } from '../helpers/wait.js';

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

/** Sends 20 ms RTP frames to `media`, numbered on one media clock, whenever the test says. */
async function asterisk(media: CallerMedia) {
  const socket = dgram.createSocket('udp4');
  opened.push(socket);
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const loud = ulawEncode(Int16Array.from({ length: FRAME }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 400 * i) / 8000))));
  const quiet = Buffer.alloc(FRAME, ULAW_SILENCE);
  let seq = 0;
  return {
    address: `127.0.0.1:${socket.address().port}`,
    /** `n` frames of sound or quiet, the next `n` × 20 ms of media time, sent `spacingMs` apart. */
    async send(n: number, sound: boolean, spacingMs = 0) {
      for (let i = 0; i < n; i++, seq++) {
        if (spacingMs) await new Promise((r) => setTimeout(r, spacingMs));
        const h = Buffer.alloc(12);
        h[0] = 0x80;
        h.writeUInt16BE(seq & 0xffff, 2);
        h.writeUInt32BE((seq * FRAME) >>> 0, 4);
        h.writeUInt32BE(0x1234, 8);
        await new Promise<void>((r) => socket.send(Buffer.concat([h, sound ? loud : quiet]), media.port, '127.0.0.1', () => r()));
      }
      await waitUntil(() => expect(media.heardFrames).toHaveLength(seq), 5000, 5);
    },
  };
}

it('a 0.4 s pause between sentences that arrives late is not the end of what the caller hears', async () => {
  const media = await CallerMedia.open();
  opened.push(media);
  const far = await asterisk(media);
  await far.send(50, true); // a sentence
  // The pause: 21 frames (0.42 s), each read 40 ms after the one before (a loaded machine), so
  // the last is read 0.84 s after the sentence ended, though never 0.7 s without a frame.
  await far.send(21, false, 40);
  await far.send(50, true); // the next sentence
  expect(media.heardFrames.at(-51)!.at - media.heardFrames.at(-72)!.at).toBeGreaterThan(700);
  expect(media.silenceStartedAfter(0, 700)).toBeUndefined();
});

it('quiet frames, then nothing at all: silent once 0.7 s of both have passed', async () => {
  const media = await CallerMedia.open();
  opened.push(media);
  const far = await asterisk(media);
  await far.send(50, true);
  const lastSound = media.heardFrames.at(-1)!.at;
  await far.send(10, false);
  expect(media.silenceStartedAfter(0, 700)).toBeUndefined();
  // Asterisk stops sending (the greeting is over): the silence began after the last sound.
  expect(await waitUntil(() => media.silenceStartedAfter(0, 700) ?? Promise.reject(new Error('not silent yet')), 5000, 10)).toBe(lastSound + 20);
});

it("another call's RTCP reaching this caller's socket first does not decide where the caller sends its audio", async () => {
  const media = await CallerMedia.open();
  opened.push(media);
  // Another call's Asterisk reports (RTCP sender report) to its caller's port + 1: this socket.
  const otherCallsRtcp = dgram.createSocket('udp4');
  opened.push(otherCallsRtcp);
  await new Promise<void>((r) => otherCallsRtcp.bind(0, '127.0.0.1', r));
  const report = Buffer.alloc(28);
  report[0] = 0x80;
  report[1] = 200; // SR
  report.writeUInt16BE(6, 2);
  await new Promise<void>((r) => otherCallsRtcp.send(report, media.port, '127.0.0.1', () => r()));
  // Then this caller's own call is answered and its greeting arrives.
  const far = await asterisk(media);
  await far.send(5, true);
  expect(media.endpoints.sendsTo).toBe(far.address);
});
