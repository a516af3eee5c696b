/**
 * A recording that could not be stored when its call ended (disk full, Asterisk refusing
 * the fetch) stays on Asterisk and gets a durable `store-recording` job in the jobs table.
 * The PBX runs those jobs on its own JobWorker (only it can reach Asterisk: pbx/recordings/recording-retries.ts);
 * the post-call job waits for one before transcribing, and is run again once it lands.
 */
export const STORE_RECORDING_JOB = 'store-recording';
export const storeRecordingKey = (callId: number) => `store-recording:${callId}`;

export interface StoreRecordingPayload {
  callId: number;
  /** The recording's name on Asterisk. */
  name: string;
  /** The file name it gets in $DATA_DIR/recordings. */
  fileName: string;
}
