import { parseWavHeader } from '../../models/audio/wav-header.js';

/**
 * Asterisk writes a WAV's RIFF and data sizes only when the recording closes: killed
 * mid-recording (SIGKILL, power cut) it leaves both at 0 although the audio bytes are there,
 * and readers such as sox then see an empty file. Rewrites both sizes from the bytes the
 * file really holds; a file whose sizes are already right is returned as it is.
 */
export function repairWavSizes(file: Buffer): Buffer {
  let info;
  try {
    info = parseWavHeader(file, file.length);
  } catch {
    return file; // not a WAV we can read: stored as it came, never made worse
  }
  const sizeAt = info.dataOffset - 4;
  const riffSize = file.length - 8;
  const dataSize = file.length - info.dataOffset;
  if (file.readUInt32LE(4) === riffSize && file.readUInt32LE(sizeAt) === dataSize) return file;
  // A size that names fewer bytes than follow (a chunk after the audio) is left alone.
  if (file.readUInt32LE(sizeAt) !== 0 && file.readUInt32LE(sizeAt) !== 0xffffffff && file.readUInt32LE(sizeAt) <= dataSize) return file;
  const fixed = Buffer.from(file);
  fixed.writeUInt32LE(riffSize, 4);
  fixed.writeUInt32LE(dataSize, sizeAt);
  return fixed;
}
