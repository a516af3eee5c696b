import path from 'node:path';
import { buildAgentSystemPrompt } from '../../dialogue/agent/agent-prompt.js';
import { askAgent } from '../../dialogue/agent/agent-responder.js';
import { answerTurn } from '../../dialogue/agent/agent-turn.js';
import type { ChatMessage, ReplyStreamer } from '../../models/llm/language-model.js';
import type { SpeechToText } from '../../models/stt/speech-to-text.js';
import { tap, type TurnRun } from '../quality/evaluation/run.js';
import type { EvalConversation } from '../quality/evaluation/set.js';

// The agent's turns as a call times them, without the phone: from the end of the caller's
// turn (its recording handed to speech-to-text) to the first audio the caller would hear (the
// model's first sentence synthesised), while the rest of the reply streams on. The agent is
// asked with the turn's written words, as `npm run eval` asks it, so its answers score the
// same way; the transcription is timed, its text not used.

export interface TurnEngines {
  stt: SpeechToText;
  replies: ReplyStreamer;
  /** Synthesises `text` into `file` (the self-test's own slot on the voice engine). */
  speak(text: string, file: string): Promise<void>;
}

export interface TimedTurn extends TurnRun {
  /** End of the caller's turn → the first sentence's audio ready to play; null when it never came. */
  firstAudioMs: number | null;
}

export async function runTimedConversation(engines: TurnEngines, c: EvalConversation, recordings: Map<string, string>, workDir: string, beforeTurn: () => Promise<void>): Promise<TimedTurn[]> {
  const system = buildAgentSystemPrompt({ businessName: c.businessName, knowledgeBase: c.knowledgeBase });
  const history: ChatMessage[] = [];
  const runs: TimedTurn[] = [];
  for (const [k, turn] of c.turns.entries()) {
    await beforeTurn();
    const run: TimedTurn = { conversation: c.id, turn: k + 1, intent: 'question', spoken: [], said: '', firstSentenceMs: null, replyMs: null, ttsMs: null, error: null, firstAudioMs: null };
    runs.push(run);
    const t0 = performance.now();
    let firstAudio: Promise<void> | undefined;
    try {
      await engines.stt.transcribe(recordings.get(turnRecordingId(c.id, k))!);
      const asked = performance.now();
      const events = tap(askAgent(engines.replies, { system, history, callerText: turn.caller }), (ev) => {
        if (ev.type === 'done') run.intent = ev.reply.intent;
      });
      const answer = await answerTurn(events, c.businessName, (sentence) => {
        run.spoken.push(sentence);
        if (firstAudio) return;
        run.firstSentenceMs = performance.now() - asked;
        const s = performance.now();
        firstAudio = engines.speak(sentence, path.join(workDir, `${c.id}-${k + 1}.wav`)).then(() => {
          run.ttsMs = performance.now() - s;
          run.firstAudioMs = performance.now() - t0;
        });
      });
      run.replyMs = performance.now() - asked;
      run.said = answer.said;
      history.push({ role: 'user', content: turn.caller }, answer.historyReply);
    } catch (err) {
      run.error = `agent: ${err instanceof Error ? err.message : String(err)}`;
      await firstAudio?.catch(() => undefined);
      // The conversation cannot go on without this turn's reply in its history.
      break;
    }
    try {
      await firstAudio;
    } catch (err) {
      run.error = `text-to-speech: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return runs;
}

/** The recording id of a conversation's turn `k` (0-based). */
export function turnRecordingId(conversation: string, k: number): string {
  return `${conversation}-turn-${k + 1}`;
}
