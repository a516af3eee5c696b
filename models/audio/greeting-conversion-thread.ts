// The worker thread a greeting recording is checked and converted in (greeting-converter.ts):
// one recording per thread (started below normal CPU priority), its answer posted back, then the thread ends.
import { parentPort, workerData } from 'node:worker_threads';
import { GreetingRecordingRefused, prepareGreetingRecording } from './greeting-recording.js';
import type { ConversionAnswer, ConversionRequest } from './greeting-converter.js';

const { body, language } = workerData as ConversionRequest;
let answer: ConversionAnswer;
try {
  const prepared = prepareGreetingRecording(Buffer.from(body), language);
  answer = { prepared };
} catch (err) {
  answer = err instanceof GreetingRecordingRefused ? { refused: err.message } : { failed: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
parentPort!.postMessage(answer);
