import { describe, expect, it } from 'vitest';
import { MachineRule, toneIn, type Pickup } from './machine-rule.js';
import { refusalIn, refusalInFirstTurns } from './refusal-words.js';
import { callBackDialler } from './dialler.js';
import { admitLeavingSpare, callBackRefusal } from './slot-reserve.js';

const RATE = 8000;
const FRAME = 160; // 20 ms

/** `ms` of a sine at `hz`. */
function tone(hz: number, ms: number, amp = 8000): Int16Array {
  const n = (ms * RATE) / 1000;
  return Int16Array.from({ length: n }, (_, i) => Math.round(amp * Math.sin((2 * Math.PI * hz * i) / RATE)));
}
const quiet = (ms: number) => new Int16Array((ms * RATE) / 1000);
/** A voice-like sound: a gliding pitch with many harmonics, as a spoken "Hello?" has. */
function voice(ms: number): Int16Array {
  const n = (ms * RATE) / 1000;
  let phase = 0;
  return Int16Array.from({ length: n }, (_, i) => {
    const f0 = 140 + (80 * i) / n;
    phase += (2 * Math.PI * f0) / RATE;
    let s = 0;
    for (let h = 1; h <= 12; h++) s += Math.sin(h * phase) / h;
    return Math.round(3000 * s);
  });
}
const join = (...parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
};

/** Feeds `audio` frame by frame; the verdict and when (ms after the answer) it came. */
function judge(audio: Int16Array): { verdict: Pickup | undefined; atMs: number } {
  const rule = new MachineRule({ sampleRate: RATE });
  for (let at = 0; at + FRAME <= audio.length; at += FRAME) {
    const v = rule.push(audio.subarray(at, at + FRAME));
    if (v) return { verdict: v, atMs: ((at + FRAME) * 1000) / RATE };
  }
  return { verdict: undefined, atMs: (audio.length * 1000) / RATE };
}

describe('machine detection in the first seconds of a call-back', () => {
  it('a 1 kHz and a 2 kHz tone are tones; a voice and quiet are not', () => {
    expect(toneIn(tone(1000, 20), RATE)).toBeCloseTo(1000, -2);
    expect(toneIn(tone(1950, 20), RATE)).toBeCloseTo(1950, -2);
    expect(toneIn(voice(20), RATE)).toBeUndefined();
    expect(toneIn(quiet(20), RATE)).toBeUndefined();
    expect(toneIn(tone(400, 20), RATE)).toBeUndefined();
  });

  it('a beep of 400 ms after a second of quiet: a machine, judged when the beep ends', () => {
    const r = judge(join(quiet(1000), tone(1400, 400), quiet(2000)));
    expect(r.verdict).toEqual({ kind: 'machine', why: 'beep' });
    expect(r.atMs).toBe(1420);
  });

  it('a recorded greeting (long speech) then its beep: a machine after the beep', () => {
    const r = judge(join(quiet(300), voice(3000), quiet(300), tone(1000, 500), quiet(1000)));
    expect(r.verdict).toEqual({ kind: 'machine', why: 'beep' });
    expect(r.atMs).toBe(4120);
  });

  it('a tone too short to be a beep (100 ms) is not one', () => {
    expect(judge(join(quiet(500), tone(1000, 100), voice(600), quiet(600))).verdict).toEqual({ kind: 'person' });
  });

  it('nothing said for 5 s: a machine (silence); not before', () => {
    expect(judge(quiet(4900)).verdict).toBeUndefined();
    const r = judge(quiet(6000));
    expect(r.verdict).toEqual({ kind: 'machine', why: 'silence' });
    expect(r.atMs).toBe(5000);
  });

  it('a person’s short "Hello?" then half a second of quiet: a person', () => {
    const r = judge(join(quiet(800), voice(600), quiet(1000)));
    expect(r.verdict).toEqual({ kind: 'person' });
    expect(r.atMs).toBe(1900);
  });

  it('long speech with no beep: in doubt, a person (never hung up on mid-sentence)', () => {
    expect(judge(join(voice(4000), quiet(3000))).verdict).toEqual({ kind: 'person' });
    expect(judge(voice(13_000)).verdict).toEqual({ kind: 'person' });
  });
});

describe('the called party turns the call-back down', () => {
  it('wrong number and "I didn’t ask" are a wrong number', () => {
    expect(refusalIn('Sorry, I think you have the wrong number.')).toBe('wrong-number');
    expect(refusalIn('I didn’t ask anyone to call me')).toBe('wrong-number');
    expect(refusalIn('I never asked for this')).toBe('wrong-number');
  });

  it('"not interested", "don’t call me" are not interested', () => {
    expect(refusalIn("No thanks, I'm not interested.")).toBe('not-interested');
    expect(refusalIn('Please don’t call this number again')).toBe('not-interested');
    expect(refusalIn('Stop calling me')).toBe('not-interested');
  });

  it('ordinary answers are neither', () => {
    expect(refusalIn('Hello?')).toBeUndefined();
    expect(refusalIn('Yes, it is about the boiler, can you come on Tuesday?')).toBeUndefined();
    expect(refusalIn('I called about a leak')).toBeUndefined();
  });

  it('only the first two turns are read', () => {
    expect(refusalInFirstTurns(['Hello?', 'wrong number, mate'])).toBe('wrong-number');
    expect(refusalInFirstTurns(['Hello?', 'Yes, the leak', "not interested in the upgrade though"])).toBeUndefined();
  });
});

describe('a call-back’s engine slot: inbound always wins', () => {
  /** Pools of `slots` slots, counters only. */
  function pools(slots: number) {
    let used = 0;
    return {
      get used() {
        return used;
      },
      admit: () => (used < slots ? (used++, { release: () => void used-- }) : null),
    };
  }

  it('takes a slot when one more stays free, and holds only its own', () => {
    const p = pools(3);
    p.admit();
    const slot = admitLeavingSpare(p.admit);
    expect(slot).not.toBeNull();
    expect(p.used).toBe(2);
  });

  it('refuses, holding nothing, when only one slot is free', () => {
    const p = pools(3);
    p.admit();
    p.admit();
    expect(admitLeavingSpare(p.admit)).toBeNull();
    expect(p.used).toBe(2);
  });

  it('refuses when none is free, and keeps a larger reserve when asked', () => {
    const full = pools(1);
    full.admit();
    expect(admitLeavingSpare(full.admit)).toBeNull();
    const p = pools(3);
    expect(admitLeavingSpare(p.admit, 2)).not.toBeNull();
    expect(admitLeavingSpare(p.admit, 2)).toBeNull();
    expect(p.used).toBe(1);
  });
});

describe('a busy node places no call-back: the admission rule, with room kept for a caller', () => {
  const limits = { maxCalls: 4, maxLoopLagMs: 200, maxJobsWaiting: 50 };
  const calm = { activeCalls: 0, loopLagMs: 5, jobsWaiting: 0 };

  it('places one while a caller arriving after it would still be answered', () => {
    expect(callBackRefusal({ ...calm, activeCalls: 2 }, limits)).toBeUndefined();
  });

  it('not when it would take the node to its last call', () => {
    expect(callBackRefusal({ ...calm, activeCalls: 3 }, limits)).toBe('4 calls in progress (limit 4)');
  });

  it('not while the node refuses new callers for lag or a queue of post-call jobs', () => {
    expect(callBackRefusal({ ...calm, loopLagMs: 450 }, limits)).toBe('event loop 450 ms behind (limit 200 ms)');
    expect(callBackRefusal({ ...calm, jobsWaiting: 50 }, limits)).toBe('50 post-call jobs waiting (limit 50)');
  });

  it('with every limit off, only the engine slots decide', () => {
    expect(callBackRefusal({ activeCalls: 500, loopLagMs: 9000, jobsWaiting: 9000 }, { maxCalls: 0, maxLoopLagMs: 0, maxJobsWaiting: 0 })).toBeUndefined();
  });
});

describe('the PBX dialler asks the node before an engine slot', () => {
  const dial = { callBackId: 7, userId: 1, to: '+447700900123', from: '+447700900050', businessName: 'Hale Plumbing', firstCallSummary: null, firstCallId: null };
  const quiet = { info: () => undefined, error: () => undefined } as unknown as Parameters<typeof callBackDialler>[0]['log'];

  it('a busy node: no slot taken, nothing placed, the call-back waits with no try counted', async () => {
    const asked: string[] = [];
    const dialler = callBackDialler({
      connected: () => true,
      busy: () => '4 calls in progress (limit 4)',
      agent: { admit: () => (asked.push('slot'), { release: () => undefined }), run: async () => undefined },
      place: async () => (asked.push('placed'), { outcome: 'answered', callId: 1 }),
      log: quiet,
    });
    expect(await dialler(dial)).toEqual({ placed: false, why: 'no-slot' });
    expect(asked).toEqual([]);
  });

  it('a calm node with a slot to spare places it and gives the slot back after', async () => {
    const asked: string[] = [];
    const dialler = callBackDialler({
      connected: () => true,
      busy: () => undefined,
      agent: { admit: () => (asked.push('slot'), { release: () => void asked.push('released') }), run: async () => undefined },
      place: async () => (asked.push('placed'), { outcome: 'answered', callId: 1 }),
      log: quiet,
    });
    expect(await dialler(dial)).toEqual({ placed: true, outcome: 'answered', callId: 1 });
    expect(asked).toEqual(['slot', 'placed', 'released']);
  });
});
