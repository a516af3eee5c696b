import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { readWav } from '../ari-sim/wav.js';
import { eq } from 'drizzle-orm';
import { calls, notifications } from '../helpers/tables.js';
import { signInAdmin } from '../helpers/accounts.js';
import { adminHealth } from '../helpers/health.js';
import { reply, startAgentHarness, SUMMARY, type AgentHarness } from './harness.js';

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness({ pipeline: true });
});
afterAll(async () => {
  await h?.close();
});

const KB = 'Q: What are your opening hours?\nA: We are open 8am to 6pm, Monday to Friday.\n\nQ: Do you do emergency call-outs?\nA: Yes, 24 hours a day.';
const ANSWER = 'We are open 8am to 6pm, Monday to Friday.';
const GOODBYE = 'Thank you for calling Acme Plumbing. Goodbye.';

describe('agent call: a question the knowledge base answers', { timeout: 120_000 }, () => {
  it('greets with the disclosure, answers from the knowledge base, says goodbye and stores the dialogue as an answered call', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB, voicePreference: 'female', smsEnabled: true, notificationNumber: '+447700900111' });
    h.replies([
      [/open/i, reply('question', true, ANSWER)],
      [/goodbye/i, reply('goodbye', true, GOODBYE)],
    ]);
    const { channelId, outcome, session } = await h.call(biz.did, [
      { after: { agentQuietMs: 1000 }, say: 'What time do you open?', onSpeak: () => (h.whisper.defaultTranscript = 'What time do you open?') },
      { after: { agentQuietMs: 1000 }, say: 'Thank you, goodbye.', onSpeak: () => (h.whisper.defaultTranscript = 'Thank you, goodbye.') },
      { after: { ms: 20_000 }, hangUp: true },
    ]);

    expect(outcome.hungUpBy).toBe('app'); // the agent closed the call after its goodbye
    const row = await h.finishedRow(channelId);
    expect(row).toMatchObject({ userId: biz.userId, mode: 'agent', status: 'answered', transcriptionStatus: 'done', recordingFile: `call-${row.id}.wav` });
    expect(row.transcription).toBe(
      [`Agent: ${agentGreeting('Acme Plumbing')}`, 'Caller: What time do you open?', `Agent: ${ANSWER}`, 'Caller: Thank you, goodbye.', `Agent: ${GOODBYE}`].join('\n'),
    );

    // What the caller heard: the greeting and the answer, sample for sample.
    expect(session.heardAudio(await h.agentAudio(agentGreeting('Acme Plumbing')))).toBe(true);
    expect(session.heardAudio(await h.agentAudio(ANSWER))).toBe(true);
    expect(await h.unanswered(biz.userId)).toEqual([]);

    // The model got the knowledge base in the system prompt and the caller's words.
    const chat = h.ollama.requests.find((r) => JSON.stringify(r.body.messages).includes('What time do you open?'))!;
    expect(chat.body.stream).toBe(true);
    expect(chat.body.messages[0].content).toContain(`A: ${ANSWER}`);
    // The Whisper adapter received each caller turn as 16 kHz audio.
    expect(h.whisper.requests.length).toBeGreaterThanOrEqual(2);
    expect(h.whisper.requests[0]!.file?.sampleRate).toBe(16000);

    // The bridge recording (both sides) was fetched from Asterisk into the recordings folder.
    const wav = readWav(path.join(h.server.dataDir, 'recordings', row.recordingFile!));
    expect(wav.durationMs).toBeGreaterThan(5000);
    expect(fs.existsSync(path.join(h.server.dataDir, 'recordings', row.recordingFile!))).toBe(true);
    expect(h.protocolProblems()).toEqual([]);
    await signInAdmin(h.server);
    const health = await (await adminHealth(h.server.url))();
    expect(health.components['agent-media']).toMatchObject({ ok: true });

    // The post-call job summarises the dialogue (not a re-transcription of the mix) and notifies the owner.
    const summarised = await vi.waitFor(
      async () => {
        const r = (await h.server.database.db.select().from(calls).where(eq(calls.id, row.id)).limit(1))[0]!;
        if (r.summaryStatus !== 'done') throw new Error('not summarised yet');
        return r;
      },
      { timeout: 20_000 },
    );
    expect(summarised).toMatchObject({ aiSummary: SUMMARY, status: 'answered', transcription: row.transcription });
    const summaryRequest = h.ollama.requests.find((r) => String(r.body.messages[0].content).startsWith('You summarise'))!;
    expect(JSON.stringify(summaryRequest.body.messages)).toContain('Caller: What time do you open?');
    await vi.waitFor(async () => {
      const sent = await h.server.database.db.select().from(notifications).where(eq(notifications.callId, row.id));
      expect(sent.length).toBeGreaterThan(0);
    });
  });
});
