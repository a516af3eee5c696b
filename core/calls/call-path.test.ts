import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { calls, phoneNumbers, unansweredQuestions, users } from '../../test/helpers/tables.js';
import { defaultCallHandling, saveCallHandling } from '../call-handling/index.js';
import { ownerMember } from '../team/store.js';
import { createCallPath } from './call-path.js';
import type { CallPath } from '../ports/call-path.js';
import { waitUntil } from '../../test/helpers/wait.js';

let handle: DatabaseHandle;
let path: CallPath;
let userId: number;
const quiet = { info() {}, warn() {}, error() {} };

beforeEach(async () => {
  handle = openDatabase(':memory:');
  path = createCallPath(handle.db, quiet);
  userId = (await handle.db
    .insert(users)
    .values({ email: 'o@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Acme Heating', aiMode: 'agent', voicePreference: 'male', knowledgeBase: 'Q: Hours?\nA: 8 to 6.', industry: 'Plumbing & Heating' })
    .returning())[0]!.id;
  await handle.db.insert(phoneNumbers).values({ phoneNumber: '+447700900001', provider: 'static', providerSid: 'a', userId, assignedAt: new Date() });
});
afterEach(() => handle.close());

describe('call path', () => {
  it('names the call’s person and what routing did; the last write wins', async () => {
    const sarah = await ownerMember(handle.db, userId);
    const { call } = await path.openCall({ userId, channelId: 'c-team', fromNumber: '+447700900777', toNumber: '+447700900001', mode: 'agent', createdAt: new Date() });
    await path.attributeCall(call.id, sarah.id, 'Asked for Owner: the caller hung up while their phone rang');
    await path.attributeCall(call.id, sarah.id, 'Asked for Owner: put through');
    expect(await path.findCall(call.id)).toMatchObject({ staffId: sarah.id, routingNote: 'Asked for Owner: put through' });
  });

  it('routing facts: a number is new on its first call (the call in progress does not count), known on its second; closed outside the hours', async () => {
    const first = (await path.openCall({ userId, channelId: 'r1', fromNumber: '+447700900555', toNumber: '+447700900001', mode: 'agent', createdAt: new Date() })).call;
    const sunday = new Date('2026-12-06T12:00:00Z');
    expect(await path.routingFacts(userId, first.id, sunday)).toEqual({ knownCaller: false, closed: false });
    const second = (await path.openCall({ userId, channelId: 'r2', fromNumber: '+447700900555', toNumber: '+447700900001', mode: 'agent', createdAt: new Date() })).call;
    const weekdays = { ...defaultCallHandling(), hoursEnabled: true };
    await saveCallHandling(handle.db, userId, weekdays, new Date());
    expect(weekdays.hours.sun).toEqual([]);
    expect(await path.routingFacts(userId, second.id, sunday)).toEqual({ knownCaller: true, closed: true });
    const withheld = (await path.openCall({ userId, channelId: 'r3', fromNumber: 'anonymous', toNumber: '+447700900001', mode: 'agent', createdAt: new Date() })).call;
    expect((await path.routingFacts(userId, withheld.id, sunday)).knownCaller).toBeNull();
  });

  it('looks a DID up with everything routing and the flows need about its owner', async () => {
    const { number, owner } = await path.lookupDid('+447700900001');
    expect(number).toMatchObject({ userId, releasedAt: null });
    expect(owner).toEqual({
      id: userId,
      accountStatus: 'active',
      trialExpiresAt: null,
      aiMode: 'agent',
      businessName: 'Acme Heating',
      callGreeting: null,
      voice: 'male',
      knowledgeBase: 'Q: Hours?\nA: 8 to 6.',
      industry: 'Plumbing & Heating',
      // The caller languages the owner allows (issue 42); null: every language the box speaks.
      agentLanguages: null,
      greetingLanguages: null,
      languageVoices: null,
      greetingRecordings: null,
    });
    expect(await path.lookupDid('+447700900999')).toEqual({ number: undefined, owner: undefined });
  });

  it("lands the agent's writes on the call: transcript, urgency, unanswered question", async () => {
    const { call } = await path.openCall({ userId, channelId: 'c1', fromNumber: '07700 900777', toNumber: '+447700900001', mode: 'agent', createdAt: new Date() });
    await path.saveAgentTranscript(call.id, 'Agent: Hello.\nCaller: Hi.');
    await path.flagUrgent(call.id, 'The caller said it was urgent.');
    await path.recordUnansweredQuestion({ userId, callId: call.id, question: 'Pool heaters?', callerNumber: '07700 900777', aiResponse: 'I do not know.' });
    expect(await path.findCall(call.id)).toMatchObject({ transcription: 'Agent: Hello.\nCaller: Hi.', transcriptionStatus: 'done', urgency: 'urgent', urgencyReason: 'The caller said it was urgent.' });
    expect(await handle.db.select().from(unansweredQuestions).where(eq(unansweredQuestions.callId, call.id))).toMatchObject([{ question: 'Pool heaters?', callerNumber: '+447700900777' }]);
  });

  it('names the person a call went to and what routing did, and keeps it when the call is finished', async () => {
    const { call } = await path.openCall({ userId, channelId: 'c3', fromNumber: '+447700900777', toNumber: '+447700900001', mode: 'voicemail', createdAt: new Date() });
    const owner = await ownerMember(handle.db, userId);
    await path.attributeCall(call.id, null, 'Rang the team: nobody answered');
    await path.attributeCall(call.id, owner.id, 'Answered by Owner');
    await path.finishCall(call.id, { status: 'answered', duration: 30, endedAt: new Date(), recordingFile: null });
    expect(await path.findCall(call.id)).toMatchObject({ staffId: owner.id, routingNote: 'Answered by Owner', status: 'answered' });
  });

  it('finishes a call once and names a retried recording only when the row has none', async () => {
    const { call } = await path.openCall({ userId, channelId: 'c2', fromNumber: '+447700900777', toNumber: '+447700900001', mode: 'voicemail', createdAt: new Date() });
    const result = { status: 'voicemail' as const, duration: 12, endedAt: new Date(), recordingFile: null };
    expect(await path.finishCall(call.id, result)).toBe(true);
    expect(await path.finishCall(call.id, result)).toBe(false);
    await path.recordingStored(call.id, 'call-x.wav');
    await path.recordingStored(call.id, 'call-y.wav');
    expect((await handle.db.select().from(calls).where(eq(calls.id, call.id)).limit(1))[0]?.recordingFile).toBe('call-x.wav');
    expect(await path.openCalls()).toEqual([]);
  });

  it("tags a call with its node; a recording left on one node's Asterisk is fetched by that node's worker only", async () => {
    const a = createCallPath(handle.db, quiet, undefined, 'a');
    const b = createCallPath(handle.db, quiet, undefined, 'b');
    const { call } = await a.openCall({ userId, channelId: 'a-1', fromNumber: '+447700900777', toNumber: '+447700900001', mode: 'voicemail', createdAt: new Date() });
    expect(call.node).toBe('a');
    expect(await b.openCalls()).toEqual([]);
    const ran: string[] = [];
    const backoff = { baseMs: 10, maxMs: 10 };
    const onB = b.recordingJobs({ run: async () => void ran.push('b'), backoff, pollMs: 5 });
    const onA = a.recordingJobs({ run: async () => void ran.push('a'), backoff, pollMs: 5 });
    await onA.queue({ callId: call.id, name: 'rec-a-1', fileName: 'call-a-1.wav' }, { runAt: new Date(Date.now() - 1000), maxAttempts: 3 });
    onB.start();
    onB.kick();
    onA.start();
    await waitUntil(() => expect(ran).toContain('a'), 10_000);
    await Promise.all([onA.stop(), onB.stop()]);
    expect(ran).toEqual(['a']);
  });
});
