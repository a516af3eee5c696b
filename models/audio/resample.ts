/**
 * Linear-interpolation resampler: good enough for speech between 8 and 16 kHz (the agent's
 * turns and the voicemail recordings Whisper reads both go through it).
 */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const n = Math.floor((samples.length * to) / from);
  const out = new Int16Array(n);
  const step = from / to;
  for (let i = 0; i < n; i++) {
    const x = i * step;
    const i0 = Math.floor(x);
    const i1 = Math.min(i0 + 1, samples.length - 1);
    const f = x - i0;
    out[i] = Math.round(samples[i0]! * (1 - f) + samples[i1]! * f);
  }
  return out;
}
