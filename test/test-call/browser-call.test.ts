// "Call my line" in Debian's Chromium against the real Asterisk 20.17.0 on loopback: the
// console's card places a WebRTC call (JsSIP, SIP over the core's WebSocket, DTLS-SRTP, G.711)
// with a fake microphone fed from an espeak-ng WAV; voicemail mode stores what it said.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { phoneNumbers } from '../../core/db/schema.js';
import { businessGreeting } from '../../dialogue/spoken/greeting.js';
import { activeCustomer } from '../helpers/accounts.js';
import { adoptSession } from '../e2e/support/browser.js';
import { ensureConsoleBuilt } from '../e2e/support/build-console.js';
import { envelopeMatch, RATE, readWavSamples, speech, writeWav } from '../pbx-real/audio.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(!real.ok)('Call my line from the console, in Chromium', () => {
  let h: RealPbx;
  let browser: Browser | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'call-my-line-'));
  beforeAll(async () => {
    h = await startRealPbx({ consoleDir: ensureConsoleBuilt() });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('voicemail mode: greeting, beep, and the spoken message stored, the call tagged a test call', async () => {
    const owner = await activeCustomer(h.server, { businessName: 'Hale Plumbing' });
    const did = '+447700900811';
    await h.server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: owner.user.id, assignedAt: new Date() });
    // Chromium plays the file once (%noloop) from when the call takes the microphone: quiet
    // through the greeting and beep, then the message, then quiet until the silence stop.
    const greeting = readWavSamples(await h.promptFile(businessGreeting('Hale Plumbing')));
    const words = speech('Hello, this is Sam from number twelve. My boiler is leaking, please call me back this afternoon.');
    const lead = greeting.length + 4 * RATE;
    const mic = new Int16Array(lead + words.length + 8 * RATE);
    mic.set(words, lead);
    const wav = path.join(dir, 'mic.wav');
    writeWav(wav, mic);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}%noloop`, '--allow-loopback-in-peer-connection'],
    });
    const ctx = await browser.newContext({ baseURL: h.server.url });
    await ctx.grantPermissions(['microphone'], { origin: h.server.url });
    const page = await ctx.newPage();
    await adoptSession(page, owner.client, h.server.url);
    await page.goto('/dashboard/phone-numbers');
    await page.getByRole('button', { name: 'Call my line' }).click();
    await expect.poll(() => page.getByTestId('test-call-state').textContent(), { timeout: 30_000 }).toBe('In call');

    const row = await h.finishedRow(did, 90_000);
    expect(row).toMatchObject({ status: 'voicemail', mode: 'voicemail', testCall: true, userId: owner.user.id });
    const stored = readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!));
    // The browser's own processing (gain control, noise suppression) reshapes the envelope a
    // little, so the check is relative too: the message matches far better than other words.
    const said = envelopeMatch(words, stored).score;
    const other = envelopeMatch(speech('Good morning, I would like to book a table for four people on Friday evening at eight.'), stored).score;
    // Measured 0.80 against 0.64 for the other sentence (24 November 2026).
    expect(said).toBeGreaterThan(0.7);
    expect(said - other).toBeGreaterThan(0.1);
    await expect.poll(() => page.getByTestId('test-call-state').textContent(), { timeout: 30_000 }).toBe('Call ended');

    await page.goto('/dashboard');
    await page.getByText('Test call').first().waitFor();
  });
});
