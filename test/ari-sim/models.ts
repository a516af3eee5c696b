/** JSON shapes exactly as Asterisk serialises them (see api-docs/*.json models). */

/** Asterisk's ast_json_timeval format: 2024-01-01T12:00:00.123+0000. */
export function asteriskTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+0000');
}

export interface ChannelJson {
  id: string;
  protocol_id: string;
  name: string;
  state: string;
  caller: { name: string; number: string };
  connected: { name: string; number: string };
  accountcode: string;
  dialplan: { context: string; exten: string; priority: number; app_name: string; app_data: string };
  creationtime: string;
  language: string;
}

export interface PlaybackJson {
  id: string;
  media_uri: string;
  next_media_uri?: string;
  target_uri: string;
  language: string;
  state: 'queued' | 'playing' | 'continuing' | 'done' | 'failed';
}

export interface LiveRecordingJson {
  name: string;
  format: string;
  target_uri: string;
  state: 'queued' | 'recording' | 'paused' | 'done' | 'failed' | 'canceled';
  duration?: number;
  talking_duration?: number;
  silence_duration?: number;
  cause?: string;
}
