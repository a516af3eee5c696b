import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/config/paths.js';
import { encodeWav } from '../ari-sim/wav.js';
import { waitUntil } from '../helpers/wait.js';
import { freeTcpPort } from '../pbx-real/ports.js';

// deploy/piper/server.ts as its image runs it (`node server.ts`, Node 24's type stripping),
// over the Piper CLI double (test/doubles/piper/piper-cli.sh), whose "voice" is a short WAV.
const ROOT = projectRoot();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'piper-server-'));
const voicesDir = path.join(dir, 'voices');
const loads = path.join(dir, 'loads.log');
const VOICE = 'en_GB-alan-medium';
const wav = encodeWav(Buffer.alloc(22_050), { sampleRate: 22_050, channels: 1, bitsPerSample: 16 });
let server: ChildProcess;
let url: string;
let output = '';

const synthesize = (body: unknown) =>
  fetch(`${url}/synthesize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const loadCount = () => (fs.existsSync(loads) ? fs.readFileSync(loads, 'utf8').trim().split('\n').length : 0);

beforeAll(async () => {
  fs.mkdirSync(voicesDir);
  fs.writeFileSync(path.join(voicesDir, `${VOICE}.onnx`), wav);
  fs.writeFileSync(path.join(voicesDir, `${VOICE}.onnx.json`), '{"audio":{"sample_rate":22050}}');
  // A model without its config is no voice.
  fs.writeFileSync(path.join(voicesDir, 'pl_PL-gosia-medium.onnx'), wav);
  const port = await freeTcpPort();
  url = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [path.join(ROOT, 'deploy', 'piper', 'server.ts')], {
    env: {
      ...process.env,
      PIPER_BIN: path.join(ROOT, 'test', 'doubles', 'piper', 'piper-cli.sh'),
      PIPER_VOICES_DIR: voicesDir,
      PIPER_DOUBLE_LOG: loads,
      PIPER_MAX_TEXT_CHARS: '100',
      HOST: '127.0.0.1',
      PORT: String(port),
    },
  });
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  await waitUntil(async () => {
    const res = await fetch(`${url}/health`).catch(() => undefined);
    if (!res?.ok) throw new Error(`the piper service is not up yet: ${output}`);
  }, 30_000, 100);
}, 60_000);
afterAll(() => {
  server?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Piper service (deploy/piper/server.ts)', () => {
  it('answers the whole WAV when Piper prints its path before the file is all written', async () => {
    const res = await synthesize({ text: 'A LATE sentence.', voice: VOICE });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(wav)).toBe(true);
  });

  it('lists the installed voices: those with both the model and its config', async () => {
    expect(await (await fetch(`${url}/voices`)).json()).toEqual({ voices: [VOICE] });
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', voices: 1 });
  });

  it("answers each sentence with the voice's WAV, from one Piper process kept loaded", async () => {
    for (const text of ['Hello.', 'Thank you for calling.', 'Goodbye.']) {
      const res = await synthesize({ text, voice: VOICE });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/wav');
      expect(Buffer.from(await res.arrayBuffer()).equals(wav)).toBe(true);
    }
    expect(loadCount()).toBe(1);
  });

  it.each([
    [{ text: 'Hello', voice: 'pl_PL-gosia-medium' }, `unknown voice "pl_PL-gosia-medium": installed are ${VOICE} (GET /voices)`],
    [{ text: 'Hello' }, `unknown voice null: installed are ${VOICE} (GET /voices)`],
    [{ text: '   ', voice: VOICE }, 'text is empty: send the sentence to speak'],
    [{ text: 'x'.repeat(101), voice: VOICE }, 'text is too long: at most 100 characters (got 101)'],
    ['not json', 'the body must be JSON: {"text": "...", "voice": "<an installed voice>"}'],
  ])('refuses %j with a 400 saying why', async (body, error) => {
    const res = await synthesize(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error });
  });

  it('a Piper process that dies fails its sentence with why, and the next sentence starts a new one', async () => {
    const before = loadCount();
    const res = await synthesize({ text: 'CRASH now', voice: VOICE });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toMatch(new RegExp(`^Piper \\(${VOICE}\\) exited with 4: .*crashed on purpose`));
    const again = await synthesize({ text: 'Hello again.', voice: VOICE });
    expect(again.status).toBe(200);
    expect(loadCount()).toBe(before + 1);
  });
});
