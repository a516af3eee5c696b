import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../models/llm/language-model.js';
import { AGENT_LINES, agentGreeting } from '../../../dialogue/spoken/agent-lines.js';
import { buildWavHeader } from '../../../models/audio/wav-header.js';
import { PacedPlayer } from '../../media/paced-player.js';
import { AgentConversation } from './conversation.js';
import type { ConversationDeps } from './conversation-ports.js';
import type { ConversationTiming } from './conversation-timing.js';
import type { TurnMetrics } from './turn-metrics.js';
import { BookingWalk } from '../../../dialogue/agent/booking-walk.js';
import { BOOKING_LINES } from '../../../dialogue/spoken/booking-lines.js';
import { BOILER_SERVICE, fakeSlots, FakeBookingDesk } from '../../../test/helpers/fake-booking-desk.js';

// The conversation driven frame by frame with scripted engines: every engine answer is
// released by the test, so the order of caller speech, speculation and commit is exact.
// (test/agent has the same cases end to end, with real audio over RTP.)

interface Pending<T> {
  resolve(v: T): void;
  signal: AbortSignal;
}

function pending<T>(signal: AbortSignal, into: Array<Pending<T> & { promise: Promise<T> }>, extra: object = {}): Promise<T> {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    signal.addEventListener('abort', () => rej(signal.reason), { once: true });
  });
  into.push({ resolve, signal, promise, ...extra });
  return promise;
}

let dir: string;
let sent: Int16Array[];
let player: PacedPlayer;
let stt: Array<Pending<string> & { promise: Promise<string> }>;
let llm: Array<Pending<string> & { promise: Promise<string>; messages: ChatMessage[] }>;
let unanswered: string[];
let metrics: TurnMetrics[];
let feed: (frame: Int16Array) => void;
let stalled: number;
const levels = new Map<string, number>();

const reply = (answered: boolean, answer: string) => JSON.stringify({ intent: 'question', answered, answer });

function start(timing: Partial<ConversationTiming> = {}, extra: Partial<ConversationDeps> = {}) {
  const conversation = new AgentConversation(
    {
      media: {
        sampleRate: 16000,
        onFrame: (fn) => {
          feed = fn;
          return () => undefined;
        },
        player,
      },
      engines: {
        stt: { name: 'scripted', transcribe: (_file, opts) => pending(opts!.signal!, stt).then((text) => ({ text })) },
        replies: {
          name: 'scripted',
          async *stream(messages, opts) {
            yield await pending(opts!.signal!, llm, { messages });
          },
        },
        speech: {
          // Each line is 60 ms of its own constant level, so what was sent says what was said.
          async get(text) {
            if (!levels.has(text)) levels.set(text, 1000 + levels.size * 100);
            const file = path.join(dir, `line-${levels.get(text)}.wav`);
            const pcm = Buffer.alloc(960 * 2);
            for (let i = 0; i < 960; i++) pcm.writeInt16LE(levels.get(text)!, i * 2);
            fs.writeFileSync(file, Buffer.concat([buildWavHeader({ sampleRate: 16000, channels: 1, bitsPerSample: 16, dataBytes: pcm.length }), pcm]));
            return { file, mediaUri: `sound:${file}`, durationMs: 60 };
          },
        },
      },
      vad: { name: 'scripted', isSpeech: (f) => f[0] !== 0, close: () => undefined },
      workDir: dir,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      timing: { silencePromptMs: 600_000, ...timing },
      onUnanswered: (q) => unanswered.push(q),
      onTurnMetrics: (m) => metrics.push(m),
      onStalled: () => stalled++,
      ...extra,
    },
    { businessName: 'Acme Plumbing', knowledgeBase: 'Q: Visits?\nA: Any weekday.', voice: 'female', callerNumber: '+447700900777' },
  );
  const hangup = new AbortController();
  const done = conversation.run(hangup.signal);
  return { done, hangup };
}

/** 'S' = 20 ms of caller speech, '.' = 20 ms of silence; each frame its own event, as off the socket. */
async function caller(pattern: string): Promise<void> {
  for (const c of pattern) {
    feed(new Int16Array(320).fill(c === 'S' ? 3000 : 0));
    await new Promise((r) => setImmediate(r));
  }
}
const speech = (ms: number) => 'S'.repeat(ms / 20);
const silence = (ms: number) => '.'.repeat(ms / 20);
const heard = (text: string) => sent.some((f) => f[0] === levels.get(text));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conversation-test-'));
  sent = [];
  player = new PacedPlayer({ frameSamples: 320, send: (f) => sent.push(f) });
  stt = [];
  llm = [];
  unanswered = [];
  metrics = [];
  stalled = 0;
});
afterEach(() => {
  player.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function greeted() {
  await vi.waitFor(() => expect(heard(agentGreeting('Acme Plumbing')) && !player.busy).toBe(true));
}

describe('AgentConversation: speculative turn-taking', () => {
  it('a speculation the caller talks over is cancelled: its model call aborted, nothing said, logged or counted', async () => {
    const { done, hangup } = start();
    await greeted();
    await caller(speech(600) + silence(200)); // the pause: transcription starts
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve("I'd like to book a visit for");
    await vi.waitFor(() => expect(llm).toHaveLength(1)); // the model was asked at once
    await caller(silence(900)); // past the usual 700 ms: a dangling "for" holds the turn
    expect(stt).toHaveLength(1);
    await caller(speech(60)); // the caller goes on
    expect(llm[0]!.signal.aborted).toBe(true);
    llm[0]!.resolve(reply(false, '')); // too late: nobody listens any more

    await caller(speech(400) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve("I'd like to book a visit for next Tuesday.");
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    expect(llm[1]!.messages.at(-1)).toEqual({ role: 'user', content: "I'd like to book a visit for next Tuesday." });
    llm[1]!.resolve(reply(true, 'Tuesday is fine.'));
    await caller(silence(300)); // 500 ms in all: a finished sentence commits
    await vi.waitFor(() => expect(heard('Tuesday is fine.') && !player.busy).toBe(true));

    hangup.abort();
    const result = await done;
    expect(result.transcript.map((l) => `${l.speaker}: ${l.text}`)).toEqual([
      `Agent: ${agentGreeting('Acme Plumbing')}`,
      "Caller: I'd like to book a visit for next Tuesday.",
      'Agent: Tuesday is fine.',
    ]);
    expect(unanswered).toEqual([]);
    expect(metrics).toHaveLength(1);
    expect(metrics[0]).toMatchObject({ turn: 1, speculated: true, speculativeLlmCalls: 2, commitSilenceMs: 500 });
  });

  it('speech while a committed reply is being prepared holds it; a real turn drops it unheard and joins the next turn', async () => {
    const { done, hangup } = start();
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('My boiler is leaking.');
    await vi.waitFor(() => expect(llm).toHaveLength(1));
    await caller(silence(300)); // 500 ms: the turn commits while the model is still answering
    await caller(speech(100)); // ...and the caller carries on
    llm[0]!.resolve(reply(true, 'We can come today.'));
    await vi.waitFor(() => expect(player.busy).toBe(true)); // the answer is queued, on hold
    expect(heard('We can come today.')).toBe(false);
    await caller(speech(500)); // a real turn, not "mm"
    expect(player.busy).toBe(false);

    await caller(silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve('Can someone come out this afternoon?');
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    // The interrupted turn's words are carried into this one.
    expect(llm[1]!.messages.at(-1)!.content).toBe('My boiler is leaking. Can someone come out this afternoon?');
    expect(JSON.stringify(llm[1]!.messages)).not.toContain('We can come today.'); // never said, so not in the history
    llm[1]!.resolve(reply(true, 'Yes, this afternoon.'));
    await caller(silence(300));
    await vi.waitFor(() => expect(heard('Yes, this afternoon.') && !player.busy).toBe(true));

    hangup.abort();
    const result = await done;
    expect(heard('We can come today.')).toBe(false);
    expect(result.transcript.map((l) => l.text)).not.toContain('We can come today.');
  });

  it('a short sound while a committed reply is being prepared lets it play', async () => {
    const { done, hangup } = start();
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('What time do you open?');
    await vi.waitFor(() => expect(llm).toHaveLength(1));
    await caller(silence(300) + speech(100)); // committed, then "mm"
    llm[0]!.resolve(reply(true, 'We open at 8am.'));
    await vi.waitFor(() => expect(player.busy).toBe(true));
    expect(heard('We open at 8am.')).toBe(false);
    await caller(silence(240)); // it was only a short sound
    await vi.waitFor(() => expect(heard('We open at 8am.') && !player.busy).toBe(true));
    hangup.abort();
    await done;
    expect(stt).toHaveLength(1);
  });
});

describe('AgentConversation: engines that stall mid-call', () => {
  const stall = { holdMs: 900, voicemailMs: 2500 };
  /** When `text` first reached the wire (index of its first frame), or -1. */
  const firstSent = (text: string) => sent.findIndex((f) => f[0] === levels.get(text));
  const toneAt = () => sent.findIndex((f) => Math.max(...f) > 16000);
  const holding = () => AGENT_LINES.holding;

  it('a model that never answers: the holding phrase, then the voicemail offer and the tone; the message ends the call and the partial transcript is kept', async () => {
    const { done } = start({ stall });
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('Do you fix boilers?');
    await caller(silence(300)); // committed; the model is asked and never answers
    await vi.waitFor(() => expect(firstSent(holding())).toBeGreaterThan(-1));
    expect(firstSent(AGENT_LINES.engineFailure)).toBe(-1);
    await vi.waitFor(() => expect(toneAt()).toBeGreaterThan(-1), { timeout: 5000 });
    expect(firstSent(AGENT_LINES.engineFailure)).toBeGreaterThan(firstSent(holding()));
    expect(toneAt()).toBeGreaterThan(firstSent(AGENT_LINES.engineFailure));
    expect(llm.every((r) => r.signal.aborted)).toBe(true); // the stuck request gives its slot back
    expect(stalled).toBe(1);
    await vi.waitFor(() => expect(player.busy).toBe(false));

    await caller(speech(1000) + silence(2000)); // the message
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve('This is Sam, please call me back.');
    const result = await done;
    expect(result.endedBy).toBe('agent');
    expect(result.transcript.map((l) => `${l.speaker}: ${l.text}`)).toEqual([
      `Agent: ${agentGreeting('Acme Plumbing')}`,
      'Caller: Do you fix boilers?',
      `Agent: ${AGENT_LINES.engineFailure}`,
      'Caller: This is Sam, please call me back.',
      `Agent: ${AGENT_LINES.voicemailThanks}`,
    ]);
  });

  it('a model that is only slow: the holding phrase, then its answer, and the conversation goes on', async () => {
    const { done, hangup } = start({ stall });
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('Do you fix boilers?');
    await caller(silence(300));
    await vi.waitFor(() => expect(firstSent(holding())).toBeGreaterThan(-1));
    llm[0]!.resolve(reply(true, 'Yes, we fix boilers.'));
    await vi.waitFor(() => expect(heard('Yes, we fix boilers.') && !player.busy).toBe(true));
    expect(firstSent('Yes, we fix boilers.')).toBeGreaterThan(firstSent(holding()));

    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve('What time do you open?');
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    llm[1]!.resolve(reply(true, 'We open at 8am.'));
    await caller(silence(300));
    await vi.waitFor(() => expect(heard('We open at 8am.') && !player.busy).toBe(true));
    hangup.abort();
    const result = await done;
    expect(stalled).toBe(0);
    expect(heard(AGENT_LINES.engineFailure)).toBe(false);
    expect(result.transcript.map((l) => l.text)).toEqual([agentGreeting('Acme Plumbing'), 'Do you fix boilers?', 'Yes, we fix boilers.', 'What time do you open?', 'We open at 8am.']);
  });

  it('the caller speaks again after the holding phrase: the slow turn is dropped and the new one answered', async () => {
    const { done, hangup } = start({ stall });
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('What areas do you cover?');
    await caller(silence(300));
    await vi.waitFor(() => expect(firstSent(holding())).toBeGreaterThan(-1));
    await vi.waitFor(() => expect(player.busy).toBe(false));
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    expect(llm[0]!.signal.aborted).toBe(true);
    stt[1]!.resolve('Sorry, what are your opening hours?');
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    llm[1]!.resolve(reply(true, 'We open at 8am.'));
    await caller(silence(300));
    await vi.waitFor(() => expect(heard('We open at 8am.') && !player.busy).toBe(true));
    hangup.abort();
    const result = await done;
    expect(stalled).toBe(0);
    expect(result.transcript.map((l) => l.text)).toEqual([agentGreeting('Acme Plumbing'), 'What areas do you cover?', 'Sorry, what are your opening hours?', 'We open at 8am.']);
  });

  it('the caller barges in on an answer that followed the holding phrase: it stops, and their new turn is answered', async () => {
    const { done, hangup } = start({ stall });
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('What areas do you cover?');
    await caller(silence(300));
    await vi.waitFor(() => expect(firstSent(holding())).toBeGreaterThan(-1));
    llm[0]!.resolve(reply(true, 'We cover Leeds. We cover York. We cover Harrogate. We cover Wakefield.'));
    await vi.waitFor(() => expect(heard('We cover Leeds.')).toBe(true));
    await caller(speech(600)); // over the answer
    expect(player.busy).toBe(false);
    await caller(silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve('Sorry, what are your opening hours?');
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    llm[1]!.resolve(reply(true, 'We open at 8am.'));
    await caller(silence(300));
    await vi.waitFor(() => expect(heard('We open at 8am.') && !player.busy).toBe(true));
    hangup.abort();
    await done;
    expect(heard('We cover Wakefield.')).toBe(false);
  });
});

describe('AgentConversation: booking (issue 41)', () => {
  it('a "book" reply asks the diary within the turn and says its times; the next model call is shown the step with its ids', async () => {
    const times = ["Tuesday the 3rd of December at ten o'clock", "Tuesday the 3rd of December at eleven o'clock"];
    const desk = new FakeBookingDesk({ slots: fakeSlots(times) });
    const walk = new BookingWalk({ desk, services: [BOILER_SERVICE], callId: 1, callerId: '+447700900777' });
    const { done, hangup } = start({}, { booking: walk });
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('Can I book a boiler service on Tuesday?');
    await vi.waitFor(() => expect(llm).toHaveLength(1));
    expect(llm[0]!.messages[0]!.content).toContain('set intent to "book"');
    expect(llm[0]!.messages[0]!.content).not.toContain('BOOKING IN PROGRESS');
    llm[0]!.resolve(JSON.stringify({ intent: 'book', answered: true, answer: '' }));
    await caller(silence(300));
    const offers = `I can do ${times[0]}, or ${times[1]}. Which would suit you?`;
    await vi.waitFor(() => expect(heard(offers) && !player.busy).toBe(true));
    expect(desk.offers).toEqual([{ serviceId: 1, wish: 'Can I book a boiler service on Tuesday?' }]);

    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve("Eleven o'clock please.");
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    expect(llm[1]!.messages[0]!.content).toContain(`BOOKING IN PROGRESS:\nYou offered these times: s1 = ${times[0]}; s2 = ${times[1]}.`);
    llm[1]!.resolve(JSON.stringify({ intent: 'book', answered: true, answer: '', choice: 's2' }));
    await caller(silence(300));
    await vi.waitFor(() => expect(heard(BOOKING_LINES.askName) && !player.busy).toBe(true));

    hangup.abort();
    const result = await done;
    expect(result.transcript.map((l) => `${l.speaker}: ${l.text}`).slice(1)).toEqual([
      'Caller: Can I book a boiler service on Tuesday?',
      `Agent: ${offers}`,
      "Caller: Eleven o'clock please.",
      `Agent: ${BOOKING_LINES.askName}`,
    ]);
    expect(unanswered).toEqual([]);
    expect(metrics.map((m) => m.kind)).toEqual(['book', 'book']);
  });
});
