import fvadModule from '@echogarden/fvad-wasm/fvad.js';
import { rms } from './codecs.js';
import type { Log } from '../../contract/log.js';

// Voice activity detection, one 20 ms frame at a time. The real detector is WebRTC's VAD
// (libfvad compiled to WASM, shipped inside the npm package: no download at run time).
// An energy detector stays as a fallback should the WASM module ever fail to load.

export interface VoiceActivityDetector {
  readonly name: string;
  /** True when the frame (10, 20 or 30 ms of 16-bit mono PCM) holds speech. */
  isSpeech(frame: Int16Array): boolean;
  close(): void;
}

/** libfvad aggressiveness: 0 (most permissive) … 3 (most aggressive at rejecting non-speech). */
export type VadMode = 0 | 1 | 2 | 3;

interface FvadWasm {
  _fvad_new(): number;
  _fvad_free(h: number): void;
  _fvad_set_mode(h: number, mode: number): number;
  _fvad_set_sample_rate(h: number, rate: number): number;
  _fvad_process(h: number, ptr: number, samples: number): number;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  HEAP16: Int16Array;
}

let wasm: Promise<FvadWasm> | undefined;

/**
 * WebRTC's VAD is a spectral model with no notion of absolute level: it calls faint line
 * hiss speech. A level gate (about -46 dBFS by default) keeps that out.
 */
export async function createWebRtcVad(opts: { sampleRate: number; mode?: VadMode; frameSamples: number; minRms?: number }): Promise<VoiceActivityDetector> {
  const minRms = opts.minRms ?? 160;
  wasm ??= (fvadModule as unknown as () => Promise<FvadWasm>)();
  const m = await wasm;
  const handle = m._fvad_new();
  if (!handle) throw new Error('libfvad: out of memory');
  if (m._fvad_set_mode(handle, opts.mode ?? 2) !== 0 || m._fvad_set_sample_rate(handle, opts.sampleRate) !== 0) {
    m._fvad_free(handle);
    throw new Error(`libfvad does not support ${opts.sampleRate} Hz (use 8000, 16000, 32000 or 48000)`);
  }
  const ptr = m._malloc(opts.frameSamples * 2);
  let closed = false;
  return {
    name: `webrtc-vad(mode ${opts.mode ?? 2})`,
    isSpeech(frame) {
      if (closed) return false;
      // HEAP16 may be replaced when WASM memory grows: read it on every call.
      m.HEAP16.set(frame.subarray(0, opts.frameSamples), ptr >> 1);
      const voiced = m._fvad_process(handle, ptr, Math.min(frame.length, opts.frameSamples)) === 1;
      return voiced && rms(frame) >= minRms;
    },
    close() {
      if (closed) return;
      closed = true;
      m._free(ptr);
      m._fvad_free(handle);
    },
  };
}

/**
 * Fallback: speech when the level is well above the running noise floor and the zero-
 * crossing rate is speech-like (hiss crosses zero far more often than voiced sound).
 */
export function createEnergyVad(opts: { thresholdDb?: number } = {}): VoiceActivityDetector {
  let floor = 100;
  const margin = 10 ** ((opts.thresholdDb ?? 9) / 20);
  return {
    name: 'energy-vad',
    isSpeech(frame) {
      const level = rms(frame);
      let crossings = 0;
      for (let i = 1; i < frame.length; i++) if ((frame[i - 1]! >= 0) !== (frame[i]! >= 0)) crossings++;
      const zcr = crossings / frame.length;
      const speech = level > Math.max(300, floor * margin) && zcr < 0.35;
      // The floor follows quiet frames quickly and loud ones slowly.
      floor = speech ? floor * 0.999 + level * 0.001 : floor * 0.95 + level * 0.05;
      return speech;
    },
    close() {},
  };
}

/** The WebRTC VAD, or the energy fallback when the WASM module cannot load. */
export async function createVad(opts: { sampleRate: number; frameSamples: number; mode?: VadMode }, log?: Pick<Log, 'warn'>): Promise<VoiceActivityDetector> {
  try {
    return await createWebRtcVad(opts);
  } catch (err) {
    log?.warn({ err }, 'WebRTC VAD unavailable; using the energy detector');
    return createEnergyVad();
  }
}
