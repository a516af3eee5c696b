import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { ChatMessage } from '../../../models/llm/language-model.js';
import { agentGreeting } from '../../../dialogue/spoken/agent-lines.js';
import { buildWavHeader } from '../../../models/audio/wav-header.js';
import { PacedPlayer } from '../../media/paced-player.js';
import { AgentConversation } from './conversation.js';
import type { ConversationDeps } from './conversation-ports.js';
import type { ConversationTiming } from './conversation-timing.js';
import type { TurnMetrics } from './turn-metrics.js';

// The conversation driven frame by frame with scripted engines, for its tests
// (conversation*.test.ts): every engine answer is released by the test, so the order of caller
// speech, speculation and commit is exact. Each test starts afresh (the hooks below).

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
export let sent: Int16Array[];
export let player: PacedPlayer;
export let stt: Array<Pending<string> & { promise: Promise<string> }>;
export let llm: Array<Pending<string> & { promise: Promise<string>; messages: ChatMessage[] }>;
export let unanswered: string[];
export let metrics: TurnMetrics[];
let feed: (frame: Int16Array) => void;
export let stalled: number;
export const levels = new Map<string, number>();

export const reply = (answered: boolean, answer: string) => JSON.stringify({ intent: 'question', answered, answer });

export function start(timing: Partial<ConversationTiming> = {}, extra: Partial<ConversationDeps> = {}) {
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
export async function caller(pattern: string): Promise<void> {
  for (const c of pattern) {
    feed(new Int16Array(320).fill(c === 'S' ? 3000 : 0));
    await new Promise((r) => setImmediate(r));
  }
}
export const speech = (ms: number) => 'S'.repeat(ms / 20);
export const silence = (ms: number) => '.'.repeat(ms / 20);
export const heard = (text: string) => sent.some((f) => f[0] === levels.get(text));

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

export async function greeted() {
  await vi.waitFor(() => expect(heard(agentGreeting('Acme Plumbing')) && !player.busy).toBe(true));
}
