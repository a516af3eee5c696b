// The project's Asterisk configuration as shipped, booted on the real Asterisk 20.17.0:
// every module it lists loads, the boot is clean, the image builds exactly what loads, and
// every sound the code can ask for is there.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEEP, FALLBACK_SOUNDS } from '../../dialogue/spoken/sounds.js';
import { listedModules, menuselectModules, moduleStates } from '../deploy/asterisk-modules.js';
import { findAsterisk } from './asterisk-install.js';
import { AsteriskInstance } from './asterisk-instance.js';
import { realPbxAvailability } from './harness.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('the shipped Asterisk configuration on Asterisk 20.17.0', () => {
  let asterisk: AsteriskInstance;
  beforeAll(async () => {
    const found = findAsterisk();
    if (!found.ok) throw new Error(found.why);
    asterisk = await AsteriskInstance.start({ root: found.root });
  });
  afterAll(async () => {
    await asterisk?.destroy();
  });

  it('loads every module modules.conf lists, and each one’s dependencies (ARI answers, Stasis exists)', async () => {
    const running = moduleStates(asterisk.cli('module show'));
    const notRunning = listedModules().filter((m) => running.get(m) !== 'Running');
    expect(notRunning).toEqual([]);
    expect(asterisk.log).not.toMatch(/Error loading module|missing dependency/);
    const info = await asterisk.ariGet<{ system: { version: string } }>('/asterisk/info');
    expect(info.system.version).toBe('20.17.0');
    expect(asterisk.cli('core show application Stasis')).toMatch(/Invoke a Stasis application/);
    // Bridge recording's Recorder channel (chan_bridge_media) and externalMedia's UnicastRTP (chan_rtp).
    expect(asterisk.cli('core show channeltypes')).toMatch(/Recorder[\s\S]*UnicastRTP|UnicastRTP[\s\S]*Recorder/);
  });

  it('boots without a single ERROR or WARNING line', () => {
    const noisy = asterisk.log.split('\n').filter((l) => /\b(ERROR|WARNING)\[/.test(l) || /included more than once/.test(l));
    expect(noisy).toEqual([]);
    expect(asterisk.messagesLog()).not.toMatch(/\b(ERROR|WARNING)\[/);
  });

  it('the image builds exactly the modules it loads, and the Asterisk build has each of them', () => {
    expect([...menuselectModules()].sort()).toEqual([...listedModules()].sort());
    const found = findAsterisk();
    if (!found.ok) throw new Error(found.why);
    const built = new Set(fs.readdirSync(path.join(found.root, 'lib', 'asterisk', 'modules')).map((f) => f.replace(/\.so$/, '')));
    expect(listedModules().filter((m) => !built.has(m))).toEqual([]);
  });

  it('every built-in sound the flows and the dialplan can ask for is in the rendered sounds folders', () => {
    const dialplan = fs.readFileSync(path.join(asterisk.etc, 'extensions.conf'), 'utf8');
    const fromDialplan = [...dialplan.matchAll(/Playback\(([^)]+)\)/g)].map((m) => m[1]!);
    const fromCode = [...Object.values(FALLBACK_SOUNDS), BEEP].map((uri) => uri.replace(/^sound:/, ''));
    const wanted = [...new Set([...fromCode, ...fromDialplan])];
    expect(wanted.length).toBeGreaterThanOrEqual(5);
    const missing = wanted.filter((name) => !fs.existsSync(path.join(asterisk.soundsDir, 'en', `${name}.wav`)));
    expect(missing).toEqual([]);
  });
});
