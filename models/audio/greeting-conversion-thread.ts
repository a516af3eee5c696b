// The worker thread a greeting recording is checked and converted in (greeting-converter.ts):
// one recording per thread, its answer posted back, then the thread ends.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { GreetingRecordingRefused, prepareGreetingRecording } from './greeting-recording.js';
import type { ConversionAnswer, ConversionRequest } from './greeting-converter.js';

// On Linux a nice value is a thread's own (setpriority on the calling thread): this one yields
// the CPU to the event loop that runs the calls whenever both want it. Elsewhere it would be the
// whole process's, so it is left alone.
if (process.platform === 'linux') os.setPriority(os.constants.priority.PRIORITY_LOW);

const { body, language } = workerData as ConversionRequest;
let answer: ConversionAnswer;
try {
  const prepared = prepareGreetingRecording(Buffer.from(body), language);
  answer = { prepared };
} catch (err) {
  answer = err instanceof GreetingRecordingRefused ? { refused: err.message } : { failed: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
parentPort!.postMessage(answer);
