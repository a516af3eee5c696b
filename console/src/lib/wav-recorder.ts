// Records the microphone in the page and encodes a 16-bit mono WAV there (Web Audio), so the
// server only ever reads a plain WAV header: no codec to decode (issue 42's recorded greeting).

/** A recording in progress: `stop()` gives the WAV. */
export interface WavRecording {
  stop(): Promise<Blob>;
}

export async function startWavRecording(): Promise<WavRecording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
  const ctx = new AudioContext();
  const source = ctx.createMediaStreamSource(stream);
  // ScriptProcessor rather than an AudioWorklet: a worklet's module would need a script URL
  // the console's content security policy does not allow, and a greeting is seconds long.
  const processor = ctx.createScriptProcessor(4096, 1, 1);
  const chunks: Float32Array[] = [];
  processor.onaudioprocess = (e) => chunks.push(new Float32Array(e.inputBuffer.getChannelData(0)));
  source.connect(processor);
  processor.connect(ctx.destination);
  return {
    async stop() {
      processor.disconnect();
      source.disconnect();
      for (const t of stream.getTracks()) t.stop();
      const rate = ctx.sampleRate;
      await ctx.close();
      return encodeWav(chunks, rate);
    },
  };
}

/** 16-bit PCM mono WAV of float samples (-1..1). */
function encodeWav(chunks: readonly Float32Array[], sampleRate: number): Blob {
  const frames = chunks.reduce((n, c) => n + c.length, 0);
  const buf = new ArrayBuffer(44 + frames * 2);
  const v = new DataView(buf);
  const ascii = (at: number, s: string) => [...s].forEach((ch, i) => v.setUint8(at + i, ch.charCodeAt(0)));
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + frames * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, frames * 2, true);
  let at = 44;
  for (const c of chunks) {
    for (const s of c) {
      v.setInt16(at, Math.round(Math.max(-1, Math.min(1, s)) * 32767), true);
      at += 2;
    }
  }
  return new Blob([buf], { type: 'audio/wav' });
}
