// A team member's landline confirmed by a call (issue 58 item 1) on a real Asterisk 20.17.0: the
// owner saves a desk phone for Sarah; the appliance rings it over the outbound trunk from the
// business's own number (a SIPp user agent server plays the landline), and reads the code out
// with the box's voice. Nothing is texted, so the code cannot come from the SMS outbox: the test
// takes it from what the core asked its speech engine to say, checks that this very prompt is
// what Asterisk played on that call and what the phone heard, and confirms Sarah's phone with it;
// the team rung first for a caller then reaches her desk phone.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEEKDAYS } from '../../contract/call-handling.js';
import type { ApiTeamMember } from '../../contract/team.js';
import type { PromptCache } from '../../models/tts/index.js';
import { activeCustomer } from '../helpers/accounts.js';
import { textsTo } from '../helpers/destinations.js';
import { outboundCalls, phoneNumbers } from '../helpers/tables.js';
import { waitUntil } from '../helpers/wait.js';
import { startAriTap, type AriTap } from './ari-tap.js';
import { envelopeMatch, readWavSamples } from './audio.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import { saidAndHeard } from './staff-phones.js';

const real = realPbxAvailability();

/** Ofcom's drama range for London (020 7946 0xxx): a landline that is never real; the last digit 1 makes the SIPp phone answer. */
const LANDLINE = '+442079460011';
const CODE_LINE = /^This is Hale Plumbing's answering service\. Your code is (\d), (\d), (\d), (\d), (\d), (\d)\. Again: \1, \2, \3, \4, \5, \6\.$/;

describe.skipIf(!real.ok)('a team member’s landline confirmed by a call that reads the code, on a real Asterisk', () => {
  let h: RealPbx;
  let tap: AriTap | undefined;
  /** Every line the PBX asked its speech engine for, with the prompt it got back. */
  const spoken: Array<{ text: string; mediaUri: string; file: string }> = [];
  beforeAll(async () => {
    let inner: PromptCache | undefined;
    const recording: PromptCache = {
      get: async (text, ...rest) => {
        const prompt = await inner!.get(text, ...rest);
        spoken.push({ text, mediaUri: prompt.mediaUri, file: prompt.file });
        return prompt;
      },
      voiceName: (...a) => inner!.voiceName?.(...a),
      voices: (...a) => inner!.voices?.(...a) ?? [],
    };
    h = await startRealPbx({
      ownerPhone: true,
      pbx: { prompts: recording },
      services: (s) => void (inner = s.agentEngines.speech),
      // Every ARI request and event, to read what Asterisk was asked to play on the landline's call.
      ariVia: async (url) => (tap = await startAriTap(url)).url,
    });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await tap?.close();
  });

  it('rings the landline from the appliance number, reads the code twice, hangs up; the code heard confirms Sarah’s phone, which is then rung like anyone’s', async () => {
    const owner = await activeCustomer(h.server, { businessName: 'Hale Plumbing' });
    const did = `+4477008${String(process.pid % 1000).padStart(3, '0')}77`;
    await h.server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: owner.user.id, assignedAt: new Date() });
    const added = await owner.client.post<{ member: ApiTeamMember }>('/api/user/team', { name: 'Sarah' });
    expect(added.status, added.text).toBe(201);
    const sarah = added.body.member;

    const sent = await owner.client.post(`/api/user/team/${sarah.id}/phone`, { phone: '020 7946 0011' });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toEqual({ message: 'We are calling 020 7946 0011 now to read out a code.' });

    // The landline rings and answers; the leg Asterisk placed shows the appliance number.
    const desk = await h.ownerPhone!.nextCall(LANDLINE);
    const legStart = await waitUntil(() => tap!.log.find((e) => e.kind === 'event' && e.what === 'StasisStart' && e.channel?.startsWith('owner-leg-code-')) ?? Promise.reject(new Error('the landline’s leg has not entered Stasis yet')), 30_000, 50);
    expect(legStart.detail).toBe(did);

    // What the speech engine was asked to say is the code line; Asterisk played exactly that prompt on the call, twice.
    const said = await waitUntil(() => spoken.find((s) => CODE_LINE.test(s.text)) ?? Promise.reject(new Error('no code line synthesised yet')), 30_000, 50);
    const code = CODE_LINE.exec(said.text)!.slice(1).join('');
    await waitUntil(() => {
      const played = tap!.log.filter((e) => e.kind === 'event' && e.what === 'PlaybackFinished' && e.channel === legStart.channel);
      expect(played.map((e) => e.detail)).toEqual([`${said.mediaUri} done`, `${said.mediaUri} done`]);
    }, 60_000, 100);
    expect(tap!.log.filter((e) => e.kind === 'request' && e.what === 'POST /channels/{id}/play' && e.channel === legStart.channel).map((e) => e.detail)).toEqual([said.mediaUri, said.mediaUri]);
    // Then the call ends by itself.
    await waitUntil(async () => expect(await h.asterisk.ariGet<unknown[]>('/channels')).toEqual([]), 30_000, 100);

    // The phone heard it: seconds of sound over RTP, the prompt's own shape, not silence.
    expect(desk.media.soundMs()).toBeGreaterThan(3000);
    const prompt = readWavSamples(said.file);
    expect(envelopeMatch(prompt, desk.media.heard()).score).toBeGreaterThan(0.8);

    // Nothing was texted: the code's only way out was the call.
    expect(textsTo(h.server, LANDLINE)).toEqual([]);
    const outbox = path.join(h.server.dataDir, 'outbox', 'sms');
    const texted = fs.existsSync(outbox) ? fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8')) : [];
    expect(texted.filter((t) => t.includes(code))).toEqual([]);

    const confirmed = await owner.client.post<{ member: ApiTeamMember; message: string }>(`/api/user/team/${sarah.id}/phone/confirm`, { code });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.message).toBe(`Sarah's phone is confirmed: ${LANDLINE}.`);
    expect(confirmed.body.member).toMatchObject({ phone: LANDLINE, pendingPhone: null });
    // The call counted towards the business's day of outbound minutes, as a put-through does.
    await waitUntil(async () => expect(await h.server.database.db.select().from(outboundCalls).where(eq(outboundCalls.userId, owner.user.id))).toHaveLength(1), 15_000);

    // Confirmed, the desk phone is rung like anyone's: the team first, Sarah answers and has the caller.
    const allWeek = Object.fromEntries(WEEKDAYS.map((d) => [d, [{ open: '00:00', close: '23:59' }]]));
    expect((await owner.client.request('PUT', `/api/user/team/${sarah.id}`, { hours: allWeek })).status).toBe(200);
    expect((await owner.client.request('PUT', '/api/user/team/settings', { ringFirst: 'all', ringSeconds: 30 })).status).toBe(200);
    const caller = await h.call(did);
    const answered = await h.ownerPhone!.nextCall(LANDLINE);
    await saidAndHeard(answered.media, caller.media, 'Good morning, Sarah speaking.');
    await answered.hangUp();
    expect((await caller.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ status: 'answered', transferOutcome: 'connected', staffId: sarah.id, routingNote: 'Answered by Sarah' });
  }, 180_000);
});
