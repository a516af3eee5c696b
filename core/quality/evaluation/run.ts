import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildAgentSystemPrompt } from '../../../dialogue/agent/agent-prompt.js';
import type { ResponderEvent } from '../../../dialogue/agent/agent-responder.js';
import { askAgent } from '../../../dialogue/agent/agent-responder.js';
import { answerTurn } from '../../../dialogue/agent/agent-turn.js';
import { summarise } from '../../../dialogue/summary/summarise.js';
import type { ChatMessage, LanguageModel, ReplyStreamer } from '../../../models/llm/language-model.js';
import type { SpeechToText } from '../../../models/stt/speech-to-text.js';
import type { TextToSpeech } from '../../../models/tts/tts.js';
import type { Recording } from './audio.js';
import type { EvalConversation, EvalMessage } from './set.js';

// Runs the set through the engines exactly as the product uses them: a recording through
// speech-to-text, its transcript through the summary the owner is texted (dialogue/summary),
// each conversation turn through the agent's prompt, streamed reply and turn rules
// (dialogue/agent), and what the agent says through text-to-speech. Nothing is scored here:
// the outputs and timings go to report.ts.

export interface EvalEngines {
  stt: SpeechToText;
  /** The summaries' model. */
  llm: LanguageModel;
  /** The agent's streamed replies. */
  replies: ReplyStreamer;
  tts: TextToSpeech;
}

export interface MessageOutput {
  id: string;
  transcript: string | null;
  sttMs: number | null;
  summary: { text: string; urgency: string } | null;
  summaryMs: number | null;
  /** Why a step gave nothing: the engine's error, or the summary check's reason. */
  error: string | null;
}

export interface TurnRun {
  conversation: string;
  turn: number;
  intent: string;
  /** The model's sentences the caller hears. */
  spoken: string[];
  /** Everything said this turn, fixed lines included. */
  said: string;
  firstSentenceMs: number | null;
  replyMs: number | null;
  ttsMs: number | null;
  error: string | null;
}

export interface RunOutputs {
  messages: MessageOutput[];
  turns: TurnRun[];
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** One message at a time and one turn at a time: latencies are the engines' own, not a queue's. */
export async function runSet(engines: EvalEngines, set: { messages: EvalMessage[]; conversations: EvalConversation[] }, recordings: Recording[], onProgress: (line: string) => void = () => undefined): Promise<RunOutputs> {
  const messages: MessageOutput[] = [];
  for (const [i, m] of set.messages.entries()) {
    messages.push(await runMessage(engines, m, recordings[i]!.file));
    onProgress(`message ${i + 1}/${set.messages.length}`);
  }
  const turns: TurnRun[] = [];
  const ttsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'eval-tts-'));
  try {
    for (const [i, c] of set.conversations.entries()) {
      turns.push(...(await runConversation(engines, c, ttsDir)));
      onProgress(`conversation ${i + 1}/${set.conversations.length}`);
    }
  } finally {
    await fs.rm(ttsDir, { recursive: true, force: true });
  }
  return { messages, turns };
}

export async function runMessage(engines: EvalEngines, m: EvalMessage, file: string): Promise<MessageOutput> {
  const out: MessageOutput = { id: m.id, transcript: null, sttMs: null, summary: null, summaryMs: null, error: null };
  let t = performance.now();
  try {
    out.transcript = (await engines.stt.transcribe(file)).text;
    out.sttMs = performance.now() - t;
  } catch (err) {
    out.error = `speech-to-text: ${errorText(err)}`;
    return out;
  }
  t = performance.now();
  try {
    // The summary of what the engine heard, as the owner would get it; the voicemail prompt.
    const s = await summarise(engines.llm, { transcript: out.transcript, callerNumber: m.callerId, businessName: null, mode: 'voicemail' });
    out.summaryMs = performance.now() - t;
    if (s.ok) out.summary = { text: s.text, urgency: s.urgency };
    else out.error = `summary rejected: ${s.reason}`;
  } catch (err) {
    out.error = `summary: ${errorText(err)}`;
  }
  return out;
}

async function runConversation(engines: EvalEngines, c: EvalConversation, ttsDir: string): Promise<TurnRun[]> {
  const system = buildAgentSystemPrompt({ businessName: c.businessName, knowledgeBase: c.knowledgeBase });
  const history: ChatMessage[] = [];
  const runs: TurnRun[] = [];
  for (const [k, turn] of c.turns.entries()) {
    const run: TurnRun = { conversation: c.id, turn: k + 1, intent: 'question', spoken: [], said: '', firstSentenceMs: null, replyMs: null, ttsMs: null, error: null };
    runs.push(run);
    const t = performance.now();
    try {
      const events = tap(askAgent(engines.replies, { system, history, callerText: turn.caller }), (ev) => {
        if (ev.type === 'done') run.intent = ev.reply.intent;
      });
      const answer = await answerTurn(events, c.businessName, (sentence) => {
        run.firstSentenceMs ??= performance.now() - t;
        run.spoken.push(sentence);
      });
      run.replyMs = performance.now() - t;
      run.said = answer.said;
      history.push({ role: 'user', content: turn.caller }, answer.historyReply);
    } catch (err) {
      run.error = `agent: ${errorText(err)}`;
      // The conversation cannot go on without this turn's reply in its history.
      break;
    }
    if (run.spoken.length) {
      const s = performance.now();
      try {
        await engines.tts.synthesize(run.spoken.join(' '), 'female', path.join(ttsDir, `${c.id}-${k + 1}.wav`));
        run.ttsMs = performance.now() - s;
      } catch (err) {
        run.error = `text-to-speech: ${errorText(err)}`;
      }
    }
  }
  return runs;
}

/** The same events, each shown to `see` on its way through. */
export async function* tap(events: AsyncIterable<ResponderEvent>, see: (ev: ResponderEvent) => void): AsyncGenerator<ResponderEvent> {
  for await (const ev of events) {
    see(ev);
    yield ev;
  }
}
