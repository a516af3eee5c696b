// A pure reader for RIFF/WAVE headers. Used to learn a prompt's duration and to check
// that what an engine produced is the 8 kHz mono 16-bit PCM that Asterisk's format_wav
// plays without transcoding (it maps `.wav` to signed-linear 8 kHz).

export interface WavInfo {
  /** 1 = PCM, 0xFFFE = WAVE_FORMAT_EXTENSIBLE (its sub-format is not inspected). */
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
  byteRate: number;
  /** Offset of the first audio byte in the file. */
  dataOffset: number;
  /** Audio bytes, clamped to what the file really holds when its size is known. */
  dataBytes: number;
  durationMs: number;
}

export class WavFormatError extends Error {
  /**
   * @param notWav true when the bytes are no WAV at all (no RIFF/WAVE header), false when they
   *   start as one but the header is damaged: an owner is told one or the other in plain words.
   */
  constructor(message: string, readonly notWav = false) {
    super(message);
    this.name = 'WavFormatError';
  }
}

/**
 * Parses the header at the start of `buf` (the first few KB of a file are enough).
 * `fileSize`, when given, clamps the data size: streaming writers (espeak-ng to stdout,
 * an interrupted recorder) leave 0 or 0xFFFFFFFF in the size fields.
 */
export function parseWavHeader(buf: Uint8Array, fileSize?: number): WavInfo {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const tag = (at: number) => String.fromCharCode(buf[at]!, buf[at + 1]!, buf[at + 2]!, buf[at + 3]!);
  if (buf.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') {
    throw new WavFormatError('not a WAV file (no RIFF/WAVE header)', true);
  }
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes' | 'durationMs'> | undefined;
  let at = 12;
  while (at + 8 <= buf.byteLength) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > buf.byteLength) throw new WavFormatError('WAV fmt chunk is truncated');
      fmt = {
        audioFormat: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        byteRate: view.getUint32(body + 8, true),
        blockAlign: view.getUint16(body + 12, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
      if (fmt.channels === 0 || fmt.sampleRate === 0 || fmt.blockAlign === 0) {
        throw new WavFormatError('WAV fmt chunk has zero channels, rate or block size');
      }
    } else if (id === 'data') {
      if (!fmt) throw new WavFormatError('WAV data chunk comes before its fmt chunk');
      const available = (fileSize ?? Number.POSITIVE_INFINITY) - body;
      let dataBytes = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
      if (!Number.isFinite(dataBytes)) throw new WavFormatError('WAV data size is unknown; pass the file size');
      dataBytes = Math.max(0, dataBytes - (dataBytes % fmt.blockAlign));
      const frames = dataBytes / fmt.blockAlign;
      return { ...fmt, dataOffset: body, dataBytes, durationMs: Math.round((frames * 1000) / fmt.sampleRate) };
    }
    // RIFF chunks are word-aligned: an odd-sized chunk is followed by a pad byte.
    at = body + size + (size % 2);
  }
  throw new WavFormatError(fmt ? 'WAV data chunk not found in the header bytes' : 'WAV fmt chunk not found');
}

/** True for the telephone format the prompt cache promises: PCM, 8 kHz, mono, 16-bit. */
export function isTelephoneWav(info: WavInfo): boolean {
  return info.audioFormat === 1 && info.sampleRate === 8000 && info.channels === 1 && info.bitsPerSample === 16;
}

/** Builds a canonical 44-byte PCM header (for tests, doubles and writers of raw audio). */
export function buildWavHeader(opts: { sampleRate: number; channels: number; bitsPerSample: number; dataBytes: number }): Buffer {
  const blockAlign = (opts.channels * opts.bitsPerSample) / 8;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + opts.dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(opts.channels, 22);
  h.writeUInt32LE(opts.sampleRate, 24);
  h.writeUInt32LE(opts.sampleRate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(opts.bitsPerSample, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(opts.dataBytes, 40);
  return h;
}
