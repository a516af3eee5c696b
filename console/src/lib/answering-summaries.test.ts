import { describe, expect, it } from 'vitest';
import { answeringSummaries } from './answering-summaries';

const base = { aiMode: 'agent' as const, knowledgeBase: '', agentLanguages: ['en'], greetingLanguages: ['en'], greetingRecordings: [], voicemailGreetingRecording: false };

describe('answeringSummaries', () => {
  it('names the mode and whose voice greets', () => {
    expect(answeringSummaries({ ...base, aiMode: 'voicemail' }).mode).toBe('Voicemail Only · spoken greeting');
    expect(answeringSummaries(base).mode).toBe('AI Voice Agent · spoken greeting');
    expect(answeringSummaries({ ...base, greetingRecordings: ['en'] }).mode).toBe('AI Voice Agent · greeting in your voice');
    // An agent language's recording is not the voicemail greeting; the voicemail recording is.
    expect(answeringSummaries({ ...base, aiMode: 'voicemail', greetingRecordings: ['en'] }).mode).toBe('Voicemail Only · spoken greeting');
    expect(answeringSummaries({ ...base, aiMode: 'voicemail', voicemailGreetingRecording: true }).mode).toBe('Voicemail Only · greeting in your voice');
    expect(answeringSummaries({ ...base, voicemailGreetingRecording: true }).mode).toBe('AI Voice Agent · spoken greeting');
  });

  it('counts the knowledge base entries by their "Q:"', () => {
    expect(answeringSummaries(base).knowledgeBase).toBe('Empty: the agent can only take messages');
    expect(answeringSummaries({ ...base, knowledgeBase: 'Q: Open Sundays?\nA: No.\n\nq: Parking?\nA: Yes.' }).knowledgeBase).toBe('2 questions answered');
    expect(answeringSummaries({ ...base, knowledgeBase: 'Q: Open Sundays?\nA: No.' }).knowledgeBase).toBe('1 question answered');
    expect(answeringSummaries({ ...base, knowledgeBase: 'We open at nine.' }).knowledgeBase).toBe('16 characters, no "Q:" entries yet');
  });

  it('lists the languages, English first', () => {
    expect(answeringSummaries(base).languages).toBe('Answers in English · greeting in English');
    expect(answeringSummaries({ ...base, agentLanguages: ['pl', 'cy'], greetingLanguages: ['en', 'pl'] }).languages).toBe('Answers in English, Polish and Welsh · greeting in English and Polish');
  });
});
