import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentRange, parseByteRange } from './byte-range.js';

const AUDIO_TYPES: Record<string, string> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.gsm': 'audio/x-gsm',
};

/** Where a call's recording lives. Only the base name is used, so a stored "../x" cannot escape. */
export function recordingPath(dataDir: string, recordingFile: string): string {
  return path.join(dataDir, 'recordings', path.basename(recordingFile));
}

/**
 * Sends an audio file with Range support so the browser's player can seek:
 * 200 for the whole file, 206 for one range, 416 for a range past the end.
 * If-Range with a stale validator gets the whole file (RFC 9110 §13.1.5).
 * Returns false when the file is missing, so the caller can answer 404.
 */
export async function sendRecording(
  req: FastifyRequest,
  reply: FastifyReply,
  file: string,
  downloadName: string,
): Promise<boolean> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    return false;
  }
  if (!stat.isFile()) return false;
  const size = stat.size;
  const etag = `"${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const lastModified = stat.mtime.toUTCString();
  const ifRange = req.headers['if-range'];
  const rangeHeader = ifRange && ifRange !== etag && ifRange !== lastModified ? undefined : req.headers.range;
  const range = parseByteRange(rangeHeader, size);

  reply
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('last-modified', lastModified)
    // Recordings are personal data: never kept by shared caches.
    .header('cache-control', 'private, no-cache')
    .header('x-content-type-options', 'nosniff');

  if (range.kind === 'unsatisfiable') {
    await reply.code(416).header('content-range', contentRange(size)).send({ message: 'The requested range is outside the recording.' });
    return true;
  }
  reply
    .header('content-type', AUDIO_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream')
    .header('content-disposition', `inline; filename="${downloadName}${path.extname(file).toLowerCase()}"`);
  if (range.kind === 'partial') {
    reply.code(206).header('content-range', contentRange(size, range)).header('content-length', range.end - range.start + 1);
    await reply.send(fs.createReadStream(file, { start: range.start, end: range.end }));
  } else {
    reply.code(200).header('content-length', size);
    await reply.send(fs.createReadStream(file));
  }
  return true;
}
