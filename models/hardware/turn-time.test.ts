import { describe, expect, it } from 'vitest';
import { generationMs, promptReadMs, sttMs, ttsMs } from './engine-time.js';
import { hardwareProfile } from './hardware-profiles.js';
import { summaryTime, turnTime } from './turn-time.js';

describe('an agent turn on a box', () => {
  const box = hardwareProfile('igpu-mini-pc');
  const choice = { box, llm: '8b' as const, whisper: 'small.en' as const };
  const load = { audioSeconds: 3, promptTokens: 3400, tokensToFirstSentence: 30, replyTokens: 60, firstSentence: 'Yes, we service all makes of gas boiler.' };

  it('adds the waited silence, STT, prompt read, first sentence and its speech', () => {
    const t = turnTime(choice, load, 200);
    const llm = box.llm['8b'];
    expect(t.stt).toBeCloseTo(sttMs(box.stt['small.en'], 3), 6);
    expect(t.promptRead).toBeCloseTo((3400 / 253.57) * 1000, 6);
    expect(t.firstSentence).toBeCloseTo(generationMs(llm, 30), 6);
    expect(t.tts).toBeCloseTo(ttsMs(box.tts, load.firstSentence), 6);
    expect(t.total).toBeCloseTo(200 + t.stt + t.promptRead + t.firstSentence + t.tts, 6);
    // The model is held for the whole reply, not only its first sentence.
    expect(t.busy.llm).toBeCloseTo(promptReadMs(llm, 3400) + generationMs(llm, 60), 6);
  });

  it('times a voicemail summary as STT of the message, then the summary prompt and reply', () => {
    const s = summaryTime(choice, { audioSeconds: 30, promptTokens: 500, replyTokens: 70 });
    expect(s.stt).toBeCloseTo(sttMs(box.stt['small.en'], 30), 6);
    expect(s.total).toBeCloseTo(s.stt + promptReadMs(box.llm['8b'], 500) + generationMs(box.llm['8b'], 70), 6);
  });
});
