import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';

// What the piper image's build fetches (deploy/piper/voices.sha256), made locally, because
// neither Piper's release nor its voices can be downloaded here: a "release" tarball whose
// piper/piper is the CLI double (test/doubles/piper/piper-cli.sh), and the two UK voices, each
// "model" a short WAV of real speech (espeak-ng's, at Piper's 22.05 kHz) that the double writes
// as every sentence's audio. Served on loopback to the build (which runs on the host network),
// with their hashes as the build's PIPER_SHA256. The same bytes every run, so the image's layers
// come from the build cache.

const UK_VOICES = { 'en_GB-jenny_dioco-medium': 'en/en_GB/jenny_dioco/medium', 'en_GB-alan-medium': 'en/en_GB/alan/medium' } as const;
/** The voice whose model the refusal check changes. */
export const CHANGED_FILE = 'en_GB-alan-medium.onnx';

export interface PiperFixtures {
  /** The build args, as .env lines give them to docker-compose.yml's piper build. */
  buildArgs: { PIPER_RELEASE_URL: string; PIPER_VOICES_URL: string; PIPER_SHA256: string };
  /** The same voices with one byte of CHANGED_FILE flipped: a build from it must refuse that file. */
  changedVoicesUrl: string;
  /** The fixture voice's audio (every sentence the double speaks). */
  voiceWav: string;
  close(): Promise<void>;
}

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

export async function startPiperFixtures(): Promise<PiperFixtures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-piper-fixtures-'));
  const serve = path.join(dir, 'serve');
  const pins: string[] = [];

  const release = path.join(serve, 'release');
  fs.mkdirSync(path.join(dir, 'piper'), { recursive: true });
  fs.mkdirSync(release, { recursive: true });
  fs.copyFileSync(path.join(projectRoot(), 'test', 'doubles', 'piper', 'piper-cli.sh'), path.join(dir, 'piper', 'piper'));
  fs.chmodSync(path.join(dir, 'piper', 'piper'), 0o755);
  const tarball = path.join(release, 'piper_linux_x86_64.tar.gz');
  execFileSync('sh', ['-c', `tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "${dir}" -cf - piper | gzip -n > "${tarball}"`]);
  pins.push(`piper_linux_x86_64.tar.gz=${sha256(tarball)}`);

  const voiceWav = path.join(dir, 'voice.wav');
  execFileSync('espeak-ng', ['-v', 'en-gb', '-s', '155', '-w', voiceWav, 'Thank you for calling. This is the fixture voice of the Piper service, speaking for every sentence.']);
  for (const [name, folder] of Object.entries(UK_VOICES)) {
    fs.mkdirSync(path.join(serve, 'voices', folder), { recursive: true });
    const model = path.join(serve, 'voices', folder, `${name}.onnx`);
    fs.copyFileSync(voiceWav, model);
    fs.writeFileSync(`${model}.json`, '{"audio":{"sample_rate":22050},"espeak":{"voice":"en-gb"}}\n');
    pins.push(`${name}.onnx=${sha256(model)}`, `${name}.onnx.json=${sha256(`${model}.json`)}`);
  }

  // The caller languages' voices voices.sha256 pins are not made here: unpinned by PIPER_SHA256
  // ("-"), the build leaves them out, as it does any voice without a hash.
  const ukFiles = new Set(Object.keys(UK_VOICES).flatMap((name) => [`${name}.onnx`, `${name}.onnx.json`]));
  for (const line of fs.readFileSync(path.join(projectRoot(), 'deploy', 'piper', 'voices.sha256'), 'utf8').split('\n')) {
    const [kind, , name] = line.trim().split(/\s+/);
    if (kind === 'voice' && name && !ukFiles.has(name)) pins.push(`${name}=-`);
  }

  const server = http.createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '').split('?')[0]!);
    const changed = url.startsWith('/changed-voices/');
    const file = path.resolve(serve, `.${changed ? url.replace(/^\/changed-voices/, '/voices') : url}`);
    if (!file.startsWith(`${serve}${path.sep}`) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const bytes = fs.readFileSync(file);
    if (changed && path.basename(file) === CHANGED_FILE) bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    buildArgs: { PIPER_RELEASE_URL: `${base}/release`, PIPER_VOICES_URL: `${base}/voices`, PIPER_SHA256: pins.join(',') },
    changedVoicesUrl: `${base}/changed-voices`,
    voiceWav,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
