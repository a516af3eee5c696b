import { describe, expect, it } from 'vitest';
import { linearToUlaw, ulawToLinear } from '../../models/audio/g711.js';
import { decodePayload, encodePayload, resample } from './codecs.js';
import { JitterBuffer } from './jitter-buffer.js';
import { buildRtp, parseRtp, seqDelta } from './rtp-packet.js';

describe('RTP packets', () => {
  it('round-trips the fixed header and payload', () => {
    const payload = Buffer.from([1, 2, 3, 4]);
    const buf = buildRtp({ payloadType: 118, marker: true, sequence: 65535, timestamp: 0xfffffff0, ssrc: 0xdeadbeef, payload });
    expect(buf.length).toBe(16);
    expect(buf[0]).toBe(0x80);
    expect(parseRtp(buf)).toEqual({ payloadType: 118, marker: true, sequence: 65535, timestamp: 0xfffffff0, ssrc: 0xdeadbeef, payload });
  });
  it('skips CSRCs and header extensions, removes padding, rejects non-RTP and RTCP', () => {
    const b = Buffer.from([0xb1, 0x00, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, /* csrc */ 9, 9, 9, 9, /* ext */ 0xbe, 0xde, 0, 1, 7, 7, 7, 7, /* payload */ 5, 6, /* pad */ 0, 2]);
    expect(parseRtp(b)?.payload).toEqual(Buffer.from([5, 6]));
    expect(parseRtp(Buffer.from('hello world!!'))).toBeNull();
    expect(parseRtp(Buffer.from([0x80, 200, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull(); // RTCP SR
  });
  it('measures sequence distance across the wrap', () => {
    expect(seqDelta(65535, 0)).toBe(1);
    expect(seqDelta(0, 65535)).toBe(-1);
    expect(seqDelta(100, 103)).toBe(3);
  });
});

describe('codecs', () => {
  it('carries slin16 as big-endian L16', () => {
    const s = Int16Array.from([1, -2, 32767, -32768]);
    const p = encodePayload('slin16', s);
    expect([...p.subarray(0, 4)]).toEqual([0, 1, 0xff, 0xfe]);
    expect([...decodePayload('slin16', p)]).toEqual([...s]);
  });
  it('µ-law: silence is 0xFF and round trips stay within quantisation error', () => {
    expect(linearToUlaw(0)).toBe(0xff);
    for (const v of [0, 100, -100, 1000, -5000, 20000, -32000]) {
      expect(Math.abs(ulawToLinear(linearToUlaw(v)) - v)).toBeLessThanOrEqual(Math.max(8, Math.abs(v) * 0.07));
    }
  });
  it('resamples 8 → 16 kHz to twice the length', () => {
    const up = resample(Int16Array.from([0, 100, 200, 300]), 8000, 16000);
    expect(up.length).toBe(8);
    expect(up[1]).toBe(50);
  });
});

describe('JitterBuffer', () => {
  const silent = () => 'loss';
  it('releases in order despite reordering', () => {
    const jb = new JitterBuffer<string>(silent, 3);
    const out = [...jb.push(10, 'a'), ...jb.push(12, 'c'), ...jb.push(11, 'b'), ...jb.push(13, 'd')];
    expect(out).toEqual(['a', 'b', 'c', 'd']);
    expect(jb.stats.reordered).toBe(1);
  });
  it('conceals a lost packet once depth later ones arrived, and drops it if it comes late', () => {
    const jb = new JitterBuffer<string>(silent, 3);
    const out = [...jb.push(1, 'a'), ...jb.push(3, 'c'), ...jb.push(4, 'd')];
    expect(out).toEqual(['a']);
    expect(jb.push(5, 'e')).toEqual(['loss', 'c', 'd', 'e']);
    expect(jb.push(2, 'b-late')).toEqual([]);
    expect(jb.stats).toMatchObject({ lost: 1, late: 1 });
  });
  it('drops duplicates, survives the 16-bit wrap and flushes the tail', () => {
    const jb = new JitterBuffer<string>(silent, 3);
    expect([...jb.push(65534, 'x'), ...jb.push(0, 'z'), ...jb.push(0, 'z'), ...jb.push(65535, 'y')]).toEqual(['x', 'y', 'z']);
    expect(jb.stats.duplicate).toBe(1);
    expect(jb.push(65535, 'y-again')).toEqual([]); // already played: late
    expect(jb.push(2, 'late-tail')).toEqual([]);
    expect(jb.flush()).toEqual(['loss', 'late-tail']);
  });
});
