// The dialogue as it happened, who said what, stored as the call's transcription so the
// post-call job can summarise it like a voicemail transcript.

import { redactCardNumbers } from '../../../dialogue/agent/card-guard.js';

export interface TranscriptLine {
  speaker: 'Agent' | 'Caller';
  text: string;
}

/** One line per turn: the agent's sentences (spoken one by one) are joined back up. */
export function formatTranscript(lines: TranscriptLine[]): string {
  const merged: TranscriptLine[] = [];
  for (const l of lines) {
    const last = merged.at(-1);
    if (last && last.speaker === l.speaker) last.text = `${last.text} ${l.text}`;
    else merged.push({ ...l });
  }
  // Issue 59: a card number a caller read out is never stored (dialogue/agent/card-guard.ts); after
  // the merge, so one read out over two turns is caught whole.
  return merged.map((l) => `${l.speaker}: ${redactCardNumbers(l.text)}`).join('\n');
}
