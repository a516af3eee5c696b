import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PromptCache, Voice } from '../../../models/tts/index.js';
import { buildWavHeader, parseWavHeader } from '../../../models/audio/wav-header.js';
import { resample } from '../../media/codecs.js';

/** A sentence as PCM at the media rate: synthesised once per (engine, voice, language, text) by the prompt cache. */
export async function sentenceAudio(speech: PromptCache, text: string, voice: Voice, sampleRate: number, language?: string): Promise<Int16Array> {
  const prompt = await speech.get(text, voice, 'call', language);
  return wavFileAudio(prompt.file, sampleRate);
}

/** A stored 16-bit mono WAV (a prompt, an owner's recorded greeting) as PCM at the media rate. */
export async function wavFileAudio(file: string, sampleRate: number): Promise<Int16Array> {
  const buf = await fs.readFile(file);
  const info = parseWavHeader(buf, buf.length);
  if (info.bitsPerSample !== 16 || info.channels !== 1) throw new Error(`prompt ${file} is not 16-bit mono PCM`);
  const bytes = buf.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
  const pcm = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < pcm.length; i++) pcm[i] = bytes.readInt16LE(i * 2);
  return resample(pcm, info.sampleRate, sampleRate);
}

/**
 * Writes one caller turn as a mono 16-bit WAV for the speech-to-text adapter, under a name of
 * its own: each turn's file is removed once transcribed, and two calls' turns named by time and
 * turn number (as they once were) met in the same millisecond: the first to finish removed the
 * file the other's transcription was still to read, and that caller was offered voicemail.
 */
export async function writeTurnWav(dir: string, pcm: Int16Array, sampleRate: number): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `turn-${randomUUID()}.wav`);
  const data = Buffer.alloc(pcm.length * 2);
  for (let i = 0; i < pcm.length; i++) data.writeInt16LE(pcm[i]!, i * 2);
  const h = buildWavHeader({ sampleRate, channels: 1, bitsPerSample: 16, dataBytes: data.length });
  await fs.writeFile(file, Buffer.concat([h, data]));
  return file;
}

/**
 * The tone before a caller's message, played by the agent on its own media: Asterisk's beep
 * as deploy/asterisk/sounds.sh makes it (0.25 s of 1 kHz at half volume), so a message taken
 * by the agent starts with the tone a voicemail does.
 */
export function recordTone(sampleRate: number): Int16Array {
  const tone = new Int16Array(Math.round(sampleRate / 4));
  for (let i = 0; i < tone.length; i++) tone[i] = Math.round(0.5 * 32767 * Math.sin((2 * Math.PI * 1000 * i) / sampleRate));
  return tone;
}
