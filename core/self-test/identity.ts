import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { EngineIdentity } from './fingerprint.js';

/** The engines this configuration calls with, as the fingerprint needs them; `ttsEngine` is the one the box picked. */
export async function engineIdentity(config: Config, ttsEngine: string): Promise<EngineIdentity> {
  return {
    ollamaModel: config.ollama.model,
    ollamaUrls: config.ollama.endpoints.map((e) => e.url),
    whisperUrls: config.whisper.endpoints.map((e) => e.url),
    whisperModel: config.whisper.model ?? null,
    ttsEngine,
    ttsLocation: ttsEngine !== 'piper' ? null : (config.tts.piperUrl ?? `${config.tts.piperBin} ${config.tts.piperVoicesDir ?? ''}`.trim()),
    voices: ttsEngine !== 'piper' ? [] : config.tts.piperUrl ? await serviceVoices(config.tts.piperUrl) : config.tts.piperVoicesDir ? await voiceFiles(config.tts.piperVoicesDir) : [],
  };
}

/** The Piper service's voices (deploy/piper: rebuilt with a voice added or removed); none while it does not answer. */
async function serviceVoices(url: string): Promise<string[]> {
  try {
    const res = await fetch(`${url.replace(/\/+$/, '')}/voices`, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json()) as { voices?: unknown };
    return res.ok && Array.isArray(body.voices) ? body.voices.filter((v): v is string => typeof v === 'string').sort() : [];
  } catch {
    return [];
  }
}

/** "en_GB-alba-medium.onnx 63201294": a changed or added voice changes the fingerprint. */
async function voiceFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.onnx'));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names.sort()) {
    const size = await fs.stat(path.join(dir, n)).then((s) => s.size, () => -1);
    out.push(`${n} ${size}`);
  }
  return out;
}
