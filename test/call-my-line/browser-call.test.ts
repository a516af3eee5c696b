// "Call my line" in Debian's Chromium against the real Asterisk 20.17.0 on loopback: the
// console's card places a WebRTC call (JsSIP, SIP over the core's WebSocket, DTLS-SRTP, G.711)
// with a fake microphone fed from an espeak-ng WAV, and what the page plays is recorded in the
// page (page-audio.ts) and matched as test/pbx-real matches what a SIPp caller hears.
// Voicemail mode stores what the microphone said; agent mode answers the question it asked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { businessGreeting } from '../../dialogue/spoken/greeting.js';
import { ensureConsoleBuilt } from '../e2e/support/build-console.js';
import { hearsAgent, hearsAudio } from '../pbx-real/agent-caller.js';
import { envelopeMatch, RATE, readWavSamples, speech } from '../pbx-real/audio.js';
import { ANSWERS_ONLY, realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { launchWithMicrophone, microphoneFile, openCallMyLine } from './browser-caller.js';
import { ownerWithLine } from './owner-line.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 150_000 });

const QUESTION = 'What time do you open on Saturdays?';
const ANSWER = 'On Saturdays we open at nine in the morning and close at one.';

describe.skipIf(!real.ok)('Call my line from the console, in Chromium', () => {
  let h: RealPbx;
  const browsers: Browser[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'call-my-line-'));
  beforeAll(async () => {
    h = await startRealPbx({ consoleDir: ensureConsoleBuilt(), agent: true, env: ANSWERS_ONLY });
  }, 240_000);
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('voicemail mode: the greeting heard in the page, the spoken message stored, the call tagged a test call', async () => {
    const owner = await ownerWithLine(h.server, '+447700900811', { businessName: 'Hale Plumbing' });
    // Chromium plays the file once from when the call takes the microphone: quiet through the
    // greeting and beep, then the message, then quiet until the silence stop.
    const greeting = readWavSamples(await h.promptFile(businessGreeting('Hale Plumbing')));
    const words = speech('Hello, this is Sam from number twelve. My boiler is leaking, please call me back this afternoon.');
    const browser = await launchWithMicrophone(microphoneFile(path.join(dir, 'message.wav'), words, greeting.length + 4 * RATE));
    browsers.push(browser);
    const { page, audio } = await openCallMyLine(browser, h.server.url, owner.client);
    await page.getByRole('button', { name: 'Call my line' }).click();
    await hearsAudio(h, audio, 0, [greeting], 'the greeting, in the page');
    expect(await page.getByTestId('call-my-line-state').textContent()).toBe('In call');

    const row = await h.finishedRow(owner.did, 90_000);
    expect(row).toMatchObject({ status: 'voicemail', mode: 'voicemail', testCall: true, userId: owner.user.id });
    const stored = readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!));
    // The message matches as well as test/pbx-real asks of a SIPp caller's (0.8), and clearly
    // better than other sentences of its length do (≈ 0.65: the matcher's floor for any speech).
    const said = envelopeMatch(words, stored).score;
    const others = [
      'Good morning, I would like to book a table for four people on Friday evening at eight.',
      'Hi, it is Jo from the flat upstairs. The water is coming through my ceiling, ring me back soon.',
      'This is a message for the office about the delivery we expected on Tuesday, please ring me.',
    ];
    const other = Math.max(...others.map((t) => envelopeMatch(speech(t), stored).score));
    console.log(`Call my line, voicemail: the message matches ${said.toFixed(2)}, other speech at most ${other.toFixed(2)}`);
    expect(said).toBeGreaterThan(0.8);
    expect(said - other).toBeGreaterThan(0.15);
    await expect.poll(() => page.getByTestId('call-my-line-state').textContent(), { timeout: 30_000 }).toBe('Call ended');
    await audio.stop();

    await page.goto('/dashboard');
    await page.getByText('Test call').first().waitFor();
  });

  it('agent mode: the question asked into the microphone is answered, the answer heard in the page and in the transcript', async () => {
    const KB = `Q: ${QUESTION}\nA: ${ANSWER}\n\nQ: Do you cover York?\nA: Yes, we cover York and Harrogate.`;
    const owner = await ownerWithLine(h.server, '+447700900812', { businessName: 'Hale Plumbing' }, { aiMode: 'agent', knowledgeBase: KB });
    h.whisper.defaultTranscript = QUESTION;
    h.ollama.replier = (req) => {
      const last = (req.body.messages as Array<{ content: string }>).at(-1)?.content ?? '';
      return JSON.stringify(/saturdays/i.test(last) ? { intent: 'question', answered: true, answer: ANSWER } : { intent: 'question', answered: false, answer: '' });
    };
    // The question comes well after the greeting (which must not be barged in on): the
    // greeting's length plus 5 s for the call to connect and the agent to start speaking.
    const greeting = readWavSamples(await h.promptFile(agentGreeting('Hale Plumbing')));
    const browser = await launchWithMicrophone(microphoneFile(path.join(dir, 'question.wav'), speech(QUESTION), greeting.length + 5 * RATE));
    browsers.push(browser);
    const { page, audio } = await openCallMyLine(browser, h.server.url, owner.client);
    await page.getByRole('button', { name: 'Call my line' }).click();

    const greeted = await hearsAgent(h, { media: audio }, 0, agentGreeting('Hale Plumbing'));
    await hearsAgent(h, { media: audio }, greeted, ANSWER);
    await page.getByRole('button', { name: 'Hang up' }).click();
    await expect.poll(() => page.getByTestId('call-my-line-state').textContent(), { timeout: 30_000 }).toBe('Call ended');
    await audio.stop();

    const row = await h.finishedRow(owner.did, 60_000);
    expect(row).toMatchObject({ status: 'answered', mode: 'agent', testCall: true, userId: owner.user.id });
    expect(row.transcription).toContain(`Caller: ${QUESTION}\nAgent: ${ANSWER}`);
  });
});
