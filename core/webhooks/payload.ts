import type { Call } from '../db/schema.js';

/** The call as a webhook receiver sees it: the same JSON for every tool (Zapier maps its fields). */
interface WebhookCall {
  id: number;
  startedAt: string;
  endedAt: string | null;
  caller: string | null;
  did: string;
  status: Call['status'];
  mode: Call['mode'];
  durationSeconds: number;
  summary: string | null;
  transcript: string | null;
  urgency: Call['urgency'];
  urgencyReason: string | null;
  consoleUrl: string;
}

export interface WebhookEvent {
  event: 'call.finished' | 'webhook.test';
  /** The same on every attempt of one delivery: receivers de-duplicate retries with it. */
  deliveryId: number;
  /** A test event carries a made-up call of the real shape, so a tool can map its fields. */
  test: boolean;
  call: WebhookCall;
}

const consoleUrl = (publicUrl: string, callId: number) => `${publicUrl.replace(/\/+$/, '')}/dashboard?call=${callId}`;

export function callFinishedEvent(deliveryId: number, call: Call, publicUrl: string): WebhookEvent {
  return {
    event: 'call.finished',
    deliveryId,
    test: false,
    call: {
      id: call.id,
      startedAt: call.createdAt.toISOString(),
      endedAt: call.endedAt ? call.endedAt.toISOString() : null,
      caller: call.fromNumber.trim() || null,
      did: call.toNumber,
      status: call.status,
      mode: call.mode,
      durationSeconds: call.duration,
      summary: call.aiSummary,
      transcript: call.transcription,
      urgency: call.urgency,
      urgencyReason: call.urgencyReason,
      consoleUrl: consoleUrl(publicUrl, call.id),
    },
  };
}

export function testEvent(deliveryId: number, now: Date, publicUrl: string): WebhookEvent {
  const started = new Date(now.getTime() - 60_000);
  return {
    event: 'webhook.test',
    deliveryId,
    test: true,
    call: {
      id: 0,
      startedAt: started.toISOString(),
      endedAt: now.toISOString(),
      caller: '+447700900123',
      did: '+447700900000',
      status: 'voicemail',
      mode: 'voicemail',
      durationSeconds: 42,
      summary: 'This is a test event from CallKeeper: Sam asks for a quote to fix a dripping kitchen tap this week.',
      transcript: "Hi, it's Sam. Could you give me a quote for fixing a dripping kitchen tap this week? Thanks.",
      urgency: 'normal',
      urgencyReason: 'wants a quote',
      consoleUrl: `${publicUrl.replace(/\/+$/, '')}/dashboard`,
    },
  };
}
