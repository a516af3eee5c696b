// "Call my line" through a real TURN server: Debian's coturn, checking the time-limited
// credentials the box hands out with TURN_URL / TURN_SECRET (core/call-my-line/turn.ts), and a
// Chromium page allowed to use relay candidates only, as a browser behind a NAT that lets
// nothing else through would be. The call reaching the greeting and the message being stored
// show the box's credentials were accepted and the audio went both ways through coturn.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import { businessGreeting } from '../../dialogue/spoken/greeting.js';
import { ensureConsoleBuilt } from '../e2e/support/build-console.js';
import { waitUntil } from '../helpers/wait.js';
import { hearsAudio } from '../pbx-real/agent-caller.js';
import { envelopeMatch, RATE, readWavSamples, speech } from '../pbx-real/audio.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { launchWithMicrophone, microphoneFile, openCallMyLine, selectedCandidateTypes } from './browser-caller.js';
import { Coturn } from './coturn.js';
import { ownerWithLine } from './owner-line.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 150_000 });

describe.skipIf(!real.ok)('Call my line relayed through coturn', () => {
  let h: RealPbx;
  let turn: Coturn;
  let browser: Browser | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'call-my-line-turn-'));
  beforeAll(async () => {
    turn = await Coturn.start();
    h = await startRealPbx({ consoleDir: ensureConsoleBuilt(), env: { TURN_URL: turn.url, TURN_SECRET: turn.secret } });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await turn?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a relay-only browser hears the greeting and leaves its message, its audio carried by coturn both ways', async () => {
    onTestFailed(() => console.log(`coturn's log:\n${turn.log().slice(-6000)}`));
    const owner = await ownerWithLine(h.server, '+447700900813', { businessName: 'Hale Plumbing' });
    const greeting = readWavSamples(await h.promptFile(businessGreeting('Hale Plumbing')));
    const words = speech('Hello, this is Sam from number twelve. My boiler is leaking, please call me back this afternoon.');
    browser = await launchWithMicrophone(microphoneFile(path.join(dir, 'message.wav'), words, greeting.length + 4 * RATE));
    const { page, audio } = await openCallMyLine(browser, h.server.url, owner.client, { relayOnly: true });
    await page.getByRole('button', { name: 'Call my line' }).click();
    await hearsAudio(h, audio, 0, [greeting], 'the greeting, in the relay-only page');
    expect(await selectedCandidateTypes(page)).toMatchObject({ local: 'relay' });

    const row = await h.finishedRow(owner.did, 90_000);
    expect(row).toMatchObject({ status: 'voicemail', testCall: true, userId: owner.user.id });
    const stored = readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!));
    expect(envelopeMatch(words, stored).score).toBeGreaterThan(0.8);
    await expect.poll(() => page.getByTestId('call-my-line-state').textContent(), { timeout: 30_000 }).toBe('Call ended');
    await audio.stop();

    // The allocations close with the call; coturn then logs their figures under the user name
    // the box made (expiry:label, the label being the owner: owner-<id>). Chromium allocates
    // once per network interface, and ICE may pick one relay for each direction (seen under
    // load: the page sending through one allocation while Asterisk answered to the other), so
    // the owner's sessions together must have carried seconds of G.711 each way at 50 packets
    // a second (the greeting to the page, the message from it).
    await waitUntil(() => {
      const sessions = turn.usage().filter((u) => u.username === `${u.username.split(':')[0]}:owner-${owner.user.id}`);
      const fromPage = sessions.reduce((n, u) => n + u.receivedPackets, 0);
      const toPage = sessions.reduce((n, u) => n + u.sentPackets, 0);
      if (!(fromPage > 200 && toPage > 200)) {
        throw new Error(`coturn logged no closed sessions that carried the call both ways for the box's credentials: ${JSON.stringify(sessions)}`);
      }
    }, 30_000);
  });
});
