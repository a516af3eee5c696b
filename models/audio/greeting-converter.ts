import { moduleWorker } from '../threads/module-worker.js';
import { GreetingRecordingRefused, type PreparedGreetingRecording } from './greeting-recording.js';

// An owner's uploaded greeting is mixed down, resampled and checked for silence in a worker
// thread, not on the event loop that runs the calls: done in place, six 5 MB uploads at once
// held that loop for over a second (bench/greeting-uploads.ts, /healthz p95 6 ms → 1,123 ms).

/** Conversions running at once, box-wide; more wait their turn (the rate limits bound the queue). */
const MAX_CONVERSIONS = 2;

export interface ConversionRequest {
  body: Uint8Array;
  language: string;
}

export type ConversionAnswer = { prepared: PreparedGreetingRecording } | { refused: string } | { failed: string };

let running = 0;
const waiting: Array<() => void> = [];

/** Checks and converts `body` off the event loop; rejects with GreetingRecordingRefused (words for the owner) as prepareGreetingRecording does. */
export async function convertGreetingRecording(body: Buffer, language: string): Promise<PreparedGreetingRecording> {
  if (running >= MAX_CONVERSIONS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await inThread(body, language);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function inThread(body: Buffer, language: string): Promise<PreparedGreetingRecording> {
  // A copy of its own (the request's buffer may be a slice of a shared pool), handed over, not copied again.
  const own = Uint8Array.prototype.slice.call(body);
  const request: ConversionRequest = { body: own, language };
  const worker = moduleWorker(import.meta.url, 'greeting-conversion-thread', { workerData: request, transferList: [own.buffer], lowPriority: true });
  return new Promise((resolve, reject) => {
    let answered = false;
    worker.once('message', (answer: ConversionAnswer) => {
      answered = true;
      if ('prepared' in answer) {
        const { wav } = answer.prepared; // a Uint8Array once it has crossed threads
        resolve({ ...answer.prepared, wav: Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength) });
      } else if ('refused' in answer) reject(new GreetingRecordingRefused(answer.refused));
      else reject(new Error(`the greeting recording could not be converted: ${answer.failed}`));
    });
    worker.once('error', (err) => {
      answered = true;
      reject(new Error(`the greeting recording's conversion thread failed: ${err.message}`, { cause: err }));
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the greeting recording's conversion thread ended (code ${code}) without an answer`));
    });
  });
}
