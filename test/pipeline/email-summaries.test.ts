// E-mail summaries, the third channel: the real pipeline sends each call's summary through
// nodemailer to a real SMTP server (smtp-server), beside the texts to the Twilio double, once
// per call whatever is retried.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { notifications, users } from '../helpers/tables.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { audioKey, startWhisperDouble, type WhisperDouble } from '../doubles/whisper/server.js';
import { startSmtpServer, type SmtpDouble } from '../helpers/smtp.js';
import { speakToWav } from './audio.js';
import { startHarness, type Harness } from './harness.js';

const PUBLIC_URL = 'https://calls.example.co.uk';
const SPOKEN = "It's Dan at 4 Mill Lane. Water is coming through the kitchen ceiling, please come <now>.";
const SUMMARY = 'Dan at 4 Mill Lane has water coming through the kitchen ceiling & asks you to come now.';
// 14:05 BST on a Wednesday: the e-mail gives UK time.
const AT = new Date('2026-07-15T13:05:00Z');

let dir: string;
let wav: string;
let whisper: WhisperDouble;
let ollama: OllamaDouble;
let smtp: SmtpDouble;
let h: Harness | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'email-summaries-'));
  wav = speakToWav(dir, 'dan', 'Water is coming through the kitchen ceiling.');
  whisper = await startWhisperDouble();
  ollama = await startOllamaDouble();
  whisper.transcripts.set(await audioKey(wav), SPOKEN);
  ollama.replier = () => JSON.stringify({ summary: SUMMARY, urgency: 'urgent', urgencyReason: 'water coming through the ceiling' });
});
afterAll(async () => {
  await whisper.close();
  await ollama.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await h?.close();
  await smtp?.close();
  h = undefined;
});

async function start(owner: Parameters<typeof startHarness>[0] extends infer O ? (O extends { owner?: infer U } ? U : never) : never) {
  smtp = await startSmtpServer();
  h = await startHarness({
    env: { WHISPER_URL: whisper.url, OLLAMA_URL: ollama.url, OLLAMA_MODEL: 'llama3.2:3b', SMTP_URL: smtp.url, PUBLIC_URL },
    owner: { emailSummariesEnabled: true, ...owner },
  });
  return h;
}
const accountEmail = async () => (await h!.server.database.db.select().from(users).where(eq(users.id, h!.ownerId)).limit(1))[0]!.email;
const emailRows = async (callId: number) =>
  await h!.server.database.db.select().from(notifications).where(and(eq(notifications.callId, callId), eq(notifications.channel, 'email')));
const waitForJob = (callId: number) => vi.waitFor(async () => expect((await h!.jobOf(callId))?.status).toBe('done'), { timeout: 15_000, interval: 20 });

describe('e-mail summaries', () => {
  it('mails the summary, transcript, caller, UK time and a link to the call, beside the text, to the account e-mail', async () => {
    await start({});
    const id = await h!.finishedCall({ recording: wav, createdAt: AT });
    h!.fireCallFinished(id);
    await waitForJob(id);

    expect(smtp.received).toHaveLength(1);
    const { to, mail } = smtp.received[0]!;
    expect(to).toEqual([await accountEmail()]);
    expect(mail.subject).toBe('URGENT: New voicemail from +44 770 090 0123 at 14:05');
    expect(mail.text).toBe(
      'New voicemail from +44 770 090 0123 on Wednesday 15 July 2026 at 14:05 (UK time).\n\n' +
        `Summary:\n${SUMMARY}\n\n` +
        `Transcript:\n${SPOKEN}\n\n` +
        'From: +44 770 090 0123\nTo: +44 770 090 0001\nTime: Wednesday 15 July 2026 at 14:05 (UK time)\nDuration: 0:12\nUrgency: Urgent: water coming through the ceiling\n\n' +
        `Open the call in CallKeeper: ${PUBLIC_URL}/dashboard?call=${id}\n` +
        'Call them back: tel:+447700900123\n',
    );
    // The HTML part escapes what the caller and the model said.
    expect(mail.html).toContain('please come &lt;now&gt;.');
    expect(mail.html).toContain('the kitchen ceiling &amp; asks you');
    expect(mail.html).toContain(`<a href="${PUBLIC_URL}/dashboard?call=${id}" style="color:#2563eb">Open the call in CallKeeper</a>`);
    expect(h!.twilio.messages).toHaveLength(1);
    // The row keeps the subject, not the transcript (retention clears transcripts from calls only).
    expect(await emailRows(id)).toMatchObject([{ kind: 'summary', status: 'sent', to: await accountEmail(), body: mail.subject }]);
    expect((await h!.call(id)).notificationSent).toBe(true);
  });

  it('sends the e-mail once when the job is retried because the SMS provider failed', async () => {
    await start({});
    h!.twilio.failNext('Messages', { status: 503, code: 20500, message: 'Service unavailable' });
    const id = await h!.finishedCall({ status: 'missed', createdAt: AT });
    h!.fireCallFinished(id);
    await waitForJob(id);

    expect((await h!.jobOf(id)).attempts).toBe(2);
    expect(smtp.received.map((m) => m.mail.subject)).toEqual(['Missed call from +44 770 090 0123 at 14:05']);
    expect(h!.twilio.messages).toHaveLength(1);
    expect((await emailRows(id)).map((r) => r.status)).toEqual(['sent']);
  });

  it('retries the e-mail after the relay said "try later", and sends it and the text once each', async () => {
    await start({});
    smtp.refuseNext(451, 'Try again later');
    const id = await h!.finishedCall({ status: 'missed', createdAt: AT });
    h!.fireCallFinished(id);
    await waitForJob(id);

    expect((await h!.jobOf(id)).attempts).toBe(2);
    expect(smtp.received).toHaveLength(1);
    expect(h!.twilio.messages).toHaveLength(1);
    expect((await emailRows(id)).map((r) => [r.status, r.error])).toEqual([
      ['failed', expect.stringContaining('Try again later')],
      ['sent', null],
    ]);
  });

  it('e-mails the chosen address alone when SMS and WhatsApp are off', async () => {
    await start({ smsEnabled: false, whatsappEnabled: false, summaryEmail: 'office@example.co.uk' });
    const id = await h!.finishedCall({ status: 'missed', createdAt: AT });
    h!.fireCallFinished(id);
    await waitForJob(id);

    expect(smtp.received.map((m) => m.to)).toEqual([['office@example.co.uk']]);
    expect(smtp.received[0]!.mail.text).toContain('Summary:\nThe caller rang off without leaving a message.\n');
    expect(h!.twilio.messages).toHaveLength(0);
    expect(await h!.call(id)).toMatchObject({ notificationSent: true, notificationError: null });
  });

  it('sends no e-mail while e-mail summaries are off', async () => {
    await start({ emailSummariesEnabled: false });
    const id = await h!.finishedCall({ status: 'missed', createdAt: AT });
    h!.fireCallFinished(id);
    await waitForJob(id);
    expect(h!.twilio.messages).toHaveLength(1);
    expect(smtp.received).toHaveLength(0);
    expect(await emailRows(id)).toHaveLength(0);
  });

  it('does not resend an e-mail a crash interrupted mid-send: it is reported on the call instead', async () => {
    await start({});
    const id = await h!.finishedCall({ status: 'missed', createdAt: AT });
    await h!.server.database.db.insert(notifications).values({ callId: id, userId: h!.ownerId, channel: 'email', to: await accountEmail(), body: 'x', status: 'sending' });
    h!.fireCallFinished(id);
    await waitForJob(id);

    expect(smtp.received).toHaveLength(0);
    expect(h!.twilio.messages).toHaveLength(1);
    expect((await emailRows(id)).map((r) => r.status)).toEqual(['failed']);
    expect((await h!.call(id)).notificationError).toMatch(/^E-mail: the appliance stopped while this e-mail was being sent/);
  });
});
