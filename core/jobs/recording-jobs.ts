import { DEFAULT_NODE } from '../config/config.js';
/**
 * A recording that could not be stored when its call ended (disk full, Asterisk refusing
 * the fetch) stays on Asterisk and gets a durable `store-recording` job in the jobs table.
 * The PBX runs those jobs on its own JobWorker (only it can reach Asterisk: pbx/recordings/recording-retries.ts);
 * the post-call job waits for one before transcribing, and is run again once it lands.
 */
const STORE_RECORDING_JOB = 'store-recording';
export const storeRecordingKey = (callId: number) => `store-recording:${callId}`;

/**
 * The job kind for recordings left on `node`'s Asterisk: only that node's core can fetch
 * them. The default node keeps the plain kind, so jobs queued before nodes had names run.
 */
export function storeRecordingKind(node: string): string {
  return node === DEFAULT_NODE ? STORE_RECORDING_JOB : `${STORE_RECORDING_JOB}@${node}`;
}

export interface StoreRecordingPayload {
  callId: number;
  /** The recording's name on Asterisk. */
  name: string;
  /** The file name it gets in $DATA_DIR/recordings. */
  fileName: string;
}
