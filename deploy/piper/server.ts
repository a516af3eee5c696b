// The Piper service (docker-compose.yml's `piper`): Piper's voices over HTTP for the core
// (models/tts/piper-http.ts). One Piper process per voice, started on its first sentence (or at
// start for PIPER_PRELOAD's) and kept: Piper's --json-input mode reads one JSON line per
// sentence and prints the WAV's path when it is written, so a sentence never pays the model's
// load again. Run by Node 24's type stripping (`node server.ts`): node: imports only.
//
//   POST /synthesize {"text": "...", "voice": "en_GB-alan-medium"} → audio/wav at the voice's rate
//   GET  /voices → {"voices": [...]}   the voices installed in PIPER_VOICES_DIR
//   GET  /health → {"status": "ok", "voices": n}
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const BIN = process.env.PIPER_BIN ?? '/opt/piper/piper';
const VOICES_DIR = process.env.PIPER_VOICES_DIR ?? '/voices';
const PORT = Number(process.env.PORT ?? 5000);
const HOST = process.env.HOST ?? '0.0.0.0';
// A greeting is a few hundred characters; a longer text is a mistake, and would hold the voice for minutes.
const MAX_TEXT_CHARS = Number(process.env.PIPER_MAX_TEXT_CHARS ?? 2000);
const MAX_BODY_BYTES = 64 * 1024;
// A sentence on a busy small CPU takes seconds; this is a stuck process, killed and started again.
const SENTENCE_TIMEOUT_MS = Number(process.env.PIPER_TIMEOUT_MS ?? 60_000);

/** The voices whose model and config are both in VOICES_DIR. */
function installedVoices(): string[] {
  const files = new Set(fs.readdirSync(VOICES_DIR));
  return [...files].filter((f) => f.endsWith('.onnx') && files.has(`${f}.json`)).map((f) => f.slice(0, -'.onnx'.length)).sort();
}
const voices = installedVoices();

interface Pending {
  file: string;
  resolve: () => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** One voice's Piper process: sentences in order, each answered by the path Piper prints. */
class VoiceProcess {
  private child: ChildProcessWithoutNullStreams;
  private queue: Pending[] = [];
  private stderr = '';
  private out = '';
  dead = false;
  readonly voice: string;

  // No parameter properties: type stripping runs only erasable TypeScript.
  constructor(voice: string) {
    this.voice = voice;
    const model = path.join(VOICES_DIR, `${voice}.onnx`);
    this.child = spawn(BIN, ['--model', model, '--json-input'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.out += chunk;
      let nl: number;
      while ((nl = this.out.indexOf('\n')) >= 0) {
        const line = this.out.slice(0, nl).trim();
        this.out = this.out.slice(nl + 1);
        const head = this.queue[0];
        if (head && line === head.file) {
          this.queue.shift();
          clearTimeout(head.timer);
          head.resolve();
        }
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-2000)));
    this.child.on('error', (err) => this.fail(`could not start ${BIN}: ${err.message}`));
    this.child.on('close', (code, signal) => this.fail(`Piper (${voice}) exited with ${code ?? signal}: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}`));
    this.child.stdin.on('error', () => {}); // a dead process's EPIPE is reported through 'close'
  }

  private fail(message: string): void {
    if (this.dead) return;
    this.dead = true;
    processes.delete(this.voice);
    for (const p of this.queue.splice(0)) {
      clearTimeout(p.timer);
      p.reject(new Error(message));
    }
    this.child.kill('SIGKILL');
  }

  stop(): void {
    this.dead = true;
    this.child.kill('SIGTERM');
  }

  speak(text: string, file: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(`Piper (${this.voice}) did not finish a sentence within ${SENTENCE_TIMEOUT_MS} ms; it is started again`), SENTENCE_TIMEOUT_MS);
      this.queue.push({ file, resolve, reject, timer });
      this.child.stdin.write(`${JSON.stringify({ text, output_file: file })}\n`);
    });
  }
}

const processes = new Map<string, VoiceProcess>();
function processFor(voice: string): VoiceProcess {
  let p = processes.get(voice);
  if (!p || p.dead) {
    p = new VoiceProcess(voice);
    processes.set(voice, p);
  }
  return p;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
  });
}

/** The request's text and voice, or what is wrong with it (a 400's message). */
function parseRequest(raw: Buffer | undefined): { text: string; voice: string } | string {
  if (!raw) return `the request is over ${MAX_BODY_BYTES} bytes: send one text of at most ${MAX_TEXT_CHARS} characters`;
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return 'the body must be JSON: {"text": "...", "voice": "<an installed voice>"}';
  }
  const { text, voice } = (body ?? {}) as { text?: unknown; voice?: unknown };
  if (typeof voice !== 'string' || !voices.includes(voice)) {
    return `unknown voice ${JSON.stringify(voice ?? null)}: installed are ${voices.join(', ') || 'none'} (GET /voices)`;
  }
  if (typeof text !== 'string' || !text.trim()) return 'text is empty: send the sentence to speak';
  if (text.length > MAX_TEXT_CHARS) return `text is too long: at most ${MAX_TEXT_CHARS} characters (got ${text.length})`;
  return { text: text.replace(/\s+/g, ' ').trim(), voice };
}

/**
 * The sentence's WAV once all of it is on disk. Piper prints the path before its file stream is
 * closed (src/cpp/main.cpp: the ofstream flushes at the end of its block, after the `cout`), so
 * a read can come early; the header it writes first holds the whole size (RIFF), which decides.
 */
async function readWholeWav(file: string): Promise<Buffer> {
  for (let tries = 0; ; tries++) {
    const wav = await fs.promises.readFile(file);
    if (wav.length >= 8 && wav.readUInt32LE(4) + 8 <= wav.length) return wav;
    if (tries >= 200) throw new Error(`Piper's WAV stayed incomplete (${wav.length} bytes of ${wav.length >= 8 ? wav.readUInt32LE(4) + 8 : 'unknown'})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function synthesize(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const parsed = parseRequest(await readBody(req));
  if (typeof parsed === 'string') return sendJson(res, 400, { error: parsed });
  const file = path.join(os.tmpdir(), `piper-${process.pid}-${randomBytes(6).toString('hex')}.wav`);
  try {
    await processFor(parsed.voice).speak(parsed.text, file);
    const wav = await readWholeWav(file);
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
    res.end(wav);
  } catch (err) {
    sendJson(res, 500, { error: err instanceof Error ? err.message : String(err) });
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}

const server = http.createServer((req, res) => {
  const route = `${req.method} ${(req.url ?? '').split('?')[0]}`;
  if (route === 'GET /health') return sendJson(res, 200, { status: 'ok', voices: voices.length });
  if (route === 'GET /voices') return sendJson(res, 200, { voices });
  if (route === 'POST /synthesize') {
    synthesize(req, res).catch((err: unknown) => sendJson(res, 500, { error: String(err) }));
    return;
  }
  sendJson(res, 404, { error: `no route ${route}: POST /synthesize, GET /voices, GET /health` });
});

for (const voice of (process.env.PIPER_PRELOAD ?? '').split(',').map((v) => v.trim()).filter(Boolean)) {
  if (voices.includes(voice)) processFor(voice);
  else console.error(`PIPER_PRELOAD names ${voice}, which is not installed: it is loaded on its first sentence if it ever is`);
}
server.listen(PORT, HOST, () => console.log(`piper service on ${HOST}:${PORT}: ${voices.length} voice(s): ${voices.join(', ')}`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    for (const p of processes.values()) p.stop();
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
