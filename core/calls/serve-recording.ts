import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { App } from '../http/fastify-types.js';

/** Where recordings live; only a stored file's base name is ever joined to it, so "../x" cannot escape. */
function recordingsDir(dataDir: string): string {
  return path.join(dataDir, 'recordings');
}

/** The path of a call's recording. */
function recordingPath(dataDir: string, recordingFile: string): string {
  return path.join(recordingsDir(dataDir), path.basename(recordingFile));
}

/**
 * Gives this scope `reply.sendFile` for recordings without serving the folder as
 * routes: @fastify/static (via @fastify/send) answers Range, If-Range, 416 and
 * ETags with linear-time parsing, so no hand-written range code is left to get wrong.
 */
export async function registerRecordingFiles(app: App): Promise<void> {
  await app.register(fastifyStatic, { root: recordingsDir(app.services.config.dataDir), serve: false });
}

/**
 * Streams a recording with Range support (the browser's player seeks with it).
 * Returns false when the file is missing, so the caller can answer its own 404.
 */
export async function sendRecording(reply: FastifyReply, dataDir: string, recordingFile: string, downloadName: string): Promise<boolean> {
  const file = recordingPath(dataDir, recordingFile);
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (!stat?.isFile()) return false;
  const ext = path.extname(file).toLowerCase();
  reply
    // Recordings are personal data: never kept by shared caches.
    .header('cache-control', 'private, no-cache')
    .header('content-disposition', `inline; filename="${downloadName}${ext}"`);
  reply.sendFile(path.basename(file), recordingsDir(dataDir), { cacheControl: false, acceptRanges: true, etag: true, lastModified: true });
  return true;
}
