// The ARI events WebSocket dropping in the middle of an agent turn (issue 8, fault tests).
// The conversation's audio runs over RTP, not the events socket, so the caller must keep
// hearing the agent; what the drop loses is ARI's word on the call (StasisEnd, recording
// events). Each test ends with: the call row final, the recording kept, the post-call job
// done, exactly one text to the owner, and no channel left open on Asterisk.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calls, jobs, notifications } from '../helpers/tables.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { reply, startAgentHarness, type AgentHarness } from '../agent/harness.js';

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness({ pipeline: true });
});
afterAll(async () => {
  await h?.close();
});

const OWNER_MOBILE = '+447700900333';
const KB = 'Q: What are your opening hours?\nA: We are open 8am to 6pm, Monday to Friday.';
const ANSWER = 'We are open 8am to 6pm, Monday to Friday.';
const GOODBYE = 'Thank you for calling Drop Plumbing. Goodbye.';

function pbxConnected(): boolean {
  return h.pbx.link.state === 'connected' && h.sim.appConnected('call-answering');
}

/** Cuts the events socket and lets it back in once the core has noticed the cut. */
async function dropAndRestore(until?: () => Promise<unknown>): Promise<void> {
  h.sim.dropWebSocket();
  await vi.waitFor(() => expect(h.pbx.link.state).not.toBe('connected'), { timeout: 10_000 });
  await until?.();
  h.sim.restoreWebSocket();
  await vi.waitFor(() => expect(pbxConnected()).toBe(true), { timeout: 15_000 });
}

/** A sentence's audio without its trailing silence (a hang-up may fall in the quiet after the last word). */
function spoken(audio: Int16Array): Int16Array {
  const FRAME = 320;
  let end = audio.length;
  while (end > FRAME) {
    const frame = audio.subarray(end - FRAME, end);
    if (Math.sqrt(frame.reduce((sum, x) => sum + x * x, 0) / FRAME) > 100) break;
    end -= FRAME;
  }
  return audio.subarray(0, end);
}

/** Nothing lost, nothing sent twice: the row final with its recording, the job done, one text. */
async function expectSettled(channelId: string) {
  const row = await h.finishedRow(channelId);
  expect(h.finished.filter((id) => id === row.id)).toHaveLength(1);
  expect(row).toMatchObject({ mode: 'agent', status: 'answered', recordingFile: `call-${row.id}.wav` });
  expect(fs.existsSync(path.join(h.server.dataDir, 'recordings', row.recordingFile!))).toBe(true);
  // Copied, then removed from Asterisk: the deletion follows the row's final write.
  await vi.waitFor(() => expect(h.sim.storedRecordingNames()).not.toContain(`call-${row.id}`), { timeout: 10_000 });
  const db = h.server.database.db;
  await vi.waitFor(async () => expect((await db.select().from(jobs).where(eq(jobs.key, postCallKey(row.id))).limit(1))[0]?.status).toBe('done'), { timeout: 30_000 });
  const texts = await db.select().from(notifications).where(eq(notifications.callId, row.id));
  expect(texts.map((t) => [t.channel, t.status, t.to])).toEqual([['sms', 'sent', OWNER_MOBILE]]);
  expect((await db.select().from(calls).where(eq(calls.id, row.id)).limit(1))[0]).toMatchObject({ notificationSent: true, summaryStatus: 'done' });
  // Never an open line: the caller's channel, the media channel and the bridge are all gone.
  await vi.waitFor(() => {
    expect(h.sim.liveChannelIds()).toEqual([]);
    expect(h.media.bridges()).toEqual([]);
  });
  return row;
}

describe('ARI WebSocket dropped mid-agent-turn', { timeout: 120_000 }, () => {
  it('while the agent is thinking: the caller still hears the answer, the agent closes the call, one answered row and one text', async () => {
    const biz = await h.business({ businessName: 'Drop Plumbing', knowledgeBase: KB, smsEnabled: true, notificationNumber: OWNER_MOBILE });
    h.replies([
      [/open/i, reply('question', true, ANSWER)],
      [/goodbye/i, reply('goodbye', true, GOODBYE)],
    ]);
    // The model takes a while over the question: the socket drops while the caller waits for it.
    h.ollama.script.push({ delayMs: 1500 });
    const asked = h.ollama.requests.length;
    const placed = h.call(biz.did, [
      { after: { agentQuietMs: 1000 }, say: 'What time do you open?', onSpeak: () => (h.whisper.defaultTranscript = 'What time do you open?') },
      { after: { agentQuietMs: 1000 }, say: 'Thank you, goodbye.', onSpeak: () => (h.whisper.defaultTranscript = 'Thank you, goodbye.') },
      { after: { ms: 30_000 }, hangUp: true },
    ]);
    await vi.waitFor(() => expect(h.ollama.requests.slice(asked).some((r) => JSON.stringify(r.body).includes('What time do you open?'))).toBe(true), {
      timeout: 30_000,
    });
    await dropAndRestore();

    const { channelId, outcome, session } = await placed;
    expect(outcome.hungUpBy).toBe('app'); // the agent said goodbye and hung up: not cut off, not left waiting
    const row = await expectSettled(channelId);
    expect(row.transcription).toBe(
      [`Agent: ${agentGreeting('Drop Plumbing')}`, 'Caller: What time do you open?', `Agent: ${ANSWER}`, 'Caller: Thank you, goodbye.', `Agent: ${GOODBYE}`].join('\n'),
    );
    expect(session.heardAudio(await h.agentAudio(ANSWER))).toBe(true);
    // The agent speaks sentence by sentence: the goodbye's last word is on the line before the hang-up.
    expect(session.heardAudio(await h.agentAudio('Thank you for calling Drop Plumbing.'))).toBe(true);
    expect(session.heardAudio(spoken(await h.agentAudio('Goodbye.')))).toBe(true);
    expect(h.protocolProblems()).toEqual([]);
  });

  it('while the agent is speaking and the caller hangs up in the blackout: after the reconnect the call is finished once, recording and text kept', async () => {
    const LONG = 'We cover Leeds, York and Harrogate. Our engineers carry parts for most boilers. A visit is usually arranged within two working days.';
    const biz = await h.business({ businessName: 'Blackout Boilers', knowledgeBase: `Q: Areas?\nA: ${LONG}`, smsEnabled: true, notificationNumber: OWNER_MOBILE });
    h.replies([[/areas/i, reply('question', true, LONG)]]);
    const asked = h.ollama.requests.length;
    const placed = h.call(biz.did, [
      { after: { agentQuietMs: 1000 }, say: 'What areas do you cover?', onSpeak: () => (h.whisper.defaultTranscript = 'What areas do you cover?') },
      { after: { agentAudioMs: 1500 }, hangUp: true },
    ]);
    await vi.waitFor(() => expect(h.ollama.requests.slice(asked).some((r) => JSON.stringify(r.body).includes('What areas do you cover?'))).toBe(true), {
      timeout: 30_000,
    });
    // Down before the answer plays; back only after the caller has gone (StasisEnd and the
    // recording's end are lost for good).
    const { channelId, outcome } = await (async () => {
      let result: Awaited<typeof placed> | undefined;
      await dropAndRestore(async () => {
        result = await placed;
      });
      return result!;
    })();
    expect(outcome.hungUpBy).toBe('caller');
    const row = await expectSettled(channelId);
    expect(row.transcription).toMatch(/^Agent: .*\nCaller: What areas do you cover\?\nAgent: We cover Leeds/s);
    expect(h.protocolProblems()).toEqual([]);
  });
});
