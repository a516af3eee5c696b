import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadedEngine, type EngineLoad, type LoadedEngine } from '../engine-load.js';
import { listen, readBody, sendJson, sleep } from '../ollama/http-util.js';
import { sttMs } from '../../../models/hardware/engine-time.js';
import type { SttRates } from '../../../models/hardware/hardware-profiles.js';

/**
 * A double of whisper.cpp's `whisper-server` (examples/server/server.cpp): `POST /inference`
 * takes multipart form data with the audio in `file` plus options such as `response_format`,
 * `language` and `temperature`; `response_format=json` answers `{"text": "..."}`, `text`
 * answers the bare text; `verbose_json` answers as whisper.cpp v1.7.6+ does, with the task,
 * `language` (full name), duration, segments and the detection pass's `detected_language`,
 * `detected_language_probability` and `language_probabilities` (by code, those above 0.001),
 * the language being what `languageOf` says of the transcript. Like the real server it reads WAV only and only at 16 kHz (it has
 * no resampler without --convert), answering `{"error": ...}` for audio it cannot read.
 * `GET /health` answers `{"status":"ok"}`.
 */
interface WhisperRequest {
  fields: Record<string, string>;
  file?: { name: string; bytes: number; sha256: string; sampleRate?: number; channels?: number; bitsPerSample?: number };
  /** What the audio cost on the simulated box while `profile` was set (ms before its scale). */
  timing?: { audioSeconds: number; ms: number };
}

/** A simulated box's Whisper (models/hardware): each request held for its audio's encode windows and decoded tokens; `scale` shrinks the delay (a test's 0.01). */
interface SttProfile {
  rates: SttRates;
  scale?: number;
}

interface WhisperFailure {
  status?: number;
  body?: unknown;
  /** Hold the request this long before answering (timeouts). */
  delayMs?: number;
  /** Close the socket without an answer (a crashed server). */
  drop?: boolean;
  /** Answer 200 with this body as text/html: a proxy's error page, a half-started server. */
  raw?: string;
}

export interface WhisperDouble {
  url: string;
  requests: WhisperRequest[];
  /** Transcripts by the sha256 of the WAV as received (see `audioKey`). */
  transcripts: Map<string, string>;
  /** The answer for any other audio. Setting it drops transcriptFor. */
  defaultTranscript: string;
  /**
   * Words by the length of the audio sent (ms), before defaultTranscript: what a caller said in
   * two parts transcribes as both when the turn holds both, as the second alone when it does not.
   * `voicedMs` is how much of it is sound (20 ms frames above line silence): a question that
   * reached the engine in fragments has less of it than the question spoken.
   */
  transcriptFor: ((audioMs: number, voicedMs: number) => string) | null;
  /** Consumed one per /inference request before any transcript is given. */
  failures: WhisperFailure[];
  /** Every request fails like this until cleared (an engine that stays down). */
  alwaysFail: WhisperFailure | null;
  delayMs: number;
  /** The language whisper would hear in a transcript, and how sure it is (verbose_json only); default English at 0.97. */
  languageOf: (text: string) => { language: string; probability: number };
  /** Answer verbose_json as whisper.cpp v1.7.4 did: `language` only, no detection pass. */
  noLanguageProbabilities: boolean;
  /** Set to behave like a loaded engine: slots, a queue beyond them, slower batches (test/doubles/engine-load.ts). */
  load: EngineLoad | null;
  readonly engine: LoadedEngine | null;
  /** Set to transcribe at a simulated box's speed, from the audio's length; unset (the default): `delayMs` alone. */
  profile: SttProfile | null;
  close(): Promise<void>;
}

export async function startWhisperDouble(opts: { port?: number } = {}): Promise<WhisperDouble> {
  const aborts = new AbortController();
  let engine: LoadedEngine | null = null;
  let load: EngineLoad | null = null;
  let defaultTranscript = 'Hello, this is a test message.';
  const state: Omit<WhisperDouble, 'url' | 'close'> = {
    requests: [],
    transcripts: new Map(),
    get defaultTranscript() {
      return defaultTranscript;
    },
    set defaultTranscript(text: string) {
      defaultTranscript = text;
      this.transcriptFor = null;
    },
    transcriptFor: null,
    failures: [],
    alwaysFail: null,
    delayMs: 0,
    languageOf: () => ({ language: 'en', probability: 0.97 }),
    noLanguageProbabilities: false,
    profile: null,
    get load() {
      return load;
    },
    set load(l: EngineLoad | null) {
      load = l;
      engine = l ? loadedEngine(l) : null;
    },
    get engine() {
      return engine;
    },
  };
  const { url, close } = await listen(async (req, res) => {
    if (req.method === 'GET' && req.url === '/health') return sendJson(res, 200, { status: 'ok' });
    // The server's page, which the compose healthcheck (and the pool's probe) asks for.
    if (req.method === 'GET' && req.url === '/') return (res.writeHead(200, { 'content-type': 'text/html' }), res.end('<html>Whisper.cpp Server</html>'));
    if (req.method !== 'POST' || req.url !== '/inference') return sendJson(res, 404, { error: 'Not Found' });
    const raw = await readBody(req);
    const form = await new Response(raw, { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData().catch(() => null);
    const record: WhisperRequest = { fields: {} };
    state.requests.push(record);
    if (!form) return sendJson(res, 400, { error: 'invalid multipart body' });
    let audio: Buffer | null = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') record.fields[name] = value;
      else if (name === 'file') {
        audio = Buffer.from(await value.arrayBuffer());
        record.file = { name: value.name, bytes: audio.length, sha256: sha256(audio), ...wavFormat(audio) };
      }
    }
    const failure = state.failures.shift() ?? state.alwaysFail;
    const release = engine ? await engine.serve(aborts.signal) : undefined;
    if (release) {
      if (res.destroyed) release();
      else res.on('close', release);
    }
    const delay = failure?.delayMs ?? state.delayMs;
    if (delay) await sleep(delay, aborts.signal);
    if (failure?.drop) return void res.socket?.destroy();
    if (failure?.raw !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(failure.raw);
    }
    if (failure?.status) return sendJson(res, failure.status, failure.body ?? { error: 'scripted failure' });
    if (!audio || !record.file) return sendJson(res, 200, { error: "no 'file' field in the request" });
    if (record.file.sampleRate !== 16000) {
      // whisper.cpp: "WAV file '...' must be 16 kHz" and the request answers with an error body.
      return sendJson(res, 200, { error: 'failed to read WAV file' });
    }
    if (state.profile) {
      const audioSeconds = wavMs(audio, record.file) / 1000;
      record.timing = { audioSeconds, ms: sttMs(state.profile.rates, audioSeconds) };
      await sleep(record.timing.ms * (state.profile.scale ?? 1), aborts.signal);
      if (res.destroyed) return;
    }
    const text = state.transcripts.get(record.file.sha256) ?? state.transcriptFor?.(wavMs(audio, record.file), voicedMs(audio, record.file)) ?? state.defaultTranscript;
    const format = record.fields.response_format ?? 'json';
    if (format === 'text') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(`${text}\n`);
    }
    if (format === 'verbose_json') return sendJson(res, 200, verboseJson(text, wavMs(audio, record.file), state.languageOf(text), state.noLanguageProbabilities));
    // The real server prefixes segments with a space; clients are expected to trim.
    return sendJson(res, 200, { text: ` ${text}\n` });
  }, opts.port);
  return Object.assign(state, {
    url,
    close: async () => {
      aborts.abort();
      await close();
    },
  });
}

/**
 * The key the double files a recording's transcript under: the hash of the 16 kHz mono WAV the
 * adapter sends. Written here on its own rather than through the adapter's code, so the double
 * does not share its bugs: a telephone recording (8 kHz mono 16-bit PCM, what Asterisk records)
 * is doubled by linear interpolation (each sample kept, the mean of each pair between them, the
 * last repeated) behind a plain 44-byte header, as models/stt/resample.ts promises (issue 47);
 * anything else by the conversion whisper.cpp's documentation asks for (sox to 16 kHz mono
 * 16-bit, no dither).
 */
export async function audioKey(file: string): Promise<string> {
  const wav = await fs.readFile(file);
  const f = wavFormat(wav);
  const data = dataChunk(wav);
  if (f.sampleRate === 8000 && f.channels === 1 && f.bitsPerSample === 16 && wav.readUInt16LE(20) === 1 && data) {
    const n = Math.floor(data.length / 2);
    const out = Buffer.alloc(44 + n * 4);
    out.write('RIFF', 0, 'ascii');
    out.writeUInt32LE(36 + n * 4, 4);
    out.write('WAVEfmt ', 8, 'ascii');
    out.writeUInt32LE(16, 16);
    out.writeUInt16LE(1, 20);
    out.writeUInt16LE(1, 22);
    out.writeUInt32LE(16000, 24);
    out.writeUInt32LE(32000, 28);
    out.writeUInt16LE(2, 32);
    out.writeUInt16LE(16, 34);
    out.write('data', 36, 'ascii');
    out.writeUInt32LE(n * 4, 40);
    for (let i = 0; i < n; i++) {
      const a = data.readInt16LE(i * 2);
      const b = i + 1 < n ? data.readInt16LE(i * 2 + 2) : a;
      out.writeInt16LE(a, 44 + i * 4);
      out.writeInt16LE(Math.round((a + b) / 2), 46 + i * 4);
    }
    return sha256(out);
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'whisper-key-'));
  try {
    const out = path.join(dir, 'k.wav');
    await promisify(execFile)('sox', ['-V1', '-D', file, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', out]);
    return sha256(await fs.readFile(out));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The audio bytes of a RIFF file's data chunk (whole samples only), or undefined. */
function dataChunk(b: Buffer): Buffer | undefined {
  let at = 12;
  while (at + 8 <= b.length) {
    const id = b.toString('ascii', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'data') {
      const end = size === 0 || size === 0xffffffff ? b.length : Math.min(b.length, at + 8 + size);
      return b.subarray(at + 8, end - ((end - at - 8) % 2));
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** whisper.cpp's full names (whisper_lang_str_full) of the languages tests speak. */
const FULL_NAMES: Record<string, string> = {
  en: 'english',
  pl: 'polish',
  ro: 'romanian',
  pa: 'punjabi',
  ur: 'urdu',
  pt: 'portuguese',
  es: 'spanish',
  cy: 'welsh',
  de: 'german',
  la: 'latin',
};

/** examples/server/server.cpp's verbose_json: one segment here; the rest of the probability goes to English (or Welsh, for English). */
function verboseJson(text: string, audioMs: number, heard: { language: string; probability: number }, noProbabilities: boolean): Record<string, unknown> {
  const name = FULL_NAMES[heard.language] ?? heard.language;
  const body: Record<string, unknown> = {
    task: 'transcribe',
    language: name,
    duration: audioMs / 1000,
    text: ` ${text}\n`,
    segments: [{ id: 0, text: ` ${text}`, start: 0, end: audioMs / 1000 }],
  };
  if (noProbabilities) return body;
  const other = heard.language === 'en' ? 'cy' : 'en';
  return {
    ...body,
    detected_language: name,
    detected_language_probability: heard.probability,
    language_probabilities: { [heard.language]: heard.probability, [other]: Math.max(0, 1 - heard.probability) },
  };
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

/** The length of a PCM WAV's audio (the 44-byte header aside), in ms. */
function wavMs(b: Buffer, f: { sampleRate?: number; channels?: number; bitsPerSample?: number }): number {
  const bytesPerMs = ((f.sampleRate ?? 16000) * (f.channels ?? 1) * ((f.bitsPerSample ?? 16) / 8)) / 1000;
  return Math.max(0, b.length - 44) / bytesPerMs;
}

/** Milliseconds of 20 ms frames louder than line silence (RMS 300), for 16-bit mono PCM after the 44-byte header. */
function voicedMs(b: Buffer, f: { sampleRate?: number; channels?: number; bitsPerSample?: number }): number {
  if (f.bitsPerSample !== 16 || f.channels !== 1 || !f.sampleRate) return 0;
  const pcm = new Int16Array(b.buffer.slice(b.byteOffset + 44, b.byteOffset + b.length - ((b.length - 44) % 2)));
  const frame = f.sampleRate / 50;
  let loud = 0;
  for (let i = 0; i + frame <= pcm.length; i += frame) {
    let sum = 0;
    for (let n = i; n < i + frame; n++) sum += pcm[n]! * pcm[n]!;
    if (Math.sqrt(sum / frame) > 300) loud++;
  }
  return loud * 20;
}

/** Reads the RIFF/WAVE `fmt ` chunk; undefined fields when the bytes are not a WAV. */
function wavFormat(b: Buffer): { sampleRate?: number; channels?: number; bitsPerSample?: number } {
  if (b.length < 12 || b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE') return {};
  let off = 12;
  while (off + 8 <= b.length) {
    const id = b.toString('ascii', off, off + 4);
    const size = b.readUInt32LE(off + 4);
    if (id === 'fmt ' && off + 24 <= b.length) {
      return { channels: b.readUInt16LE(off + 10), sampleRate: b.readUInt32LE(off + 12), bitsPerSample: b.readUInt16LE(off + 22) };
    }
    off += 8 + size + (size % 2);
  }
  return {};
}
