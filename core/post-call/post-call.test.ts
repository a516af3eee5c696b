import { describe, expect, it } from 'vitest';
import type { Call, User } from '../db/schema.js';
import type { CallNotifier } from '../notify/notifier.js';
import { mergeUrgency, notifyAndSettle, type Attempt, type PostCallDeps } from './post-call.js';

// The post-call job's steps one by one, on a call held in memory (the pipeline tests in
// test/pipeline run them together on a real database and real doubles).

const call = (fields: Partial<Call> = {}): Call => ({ id: 7, userId: 1, fromNumber: '+447700900123', status: 'voicemail', mode: 'voicemail', screenedBy: null, callerTag: null, callClass: null, urgency: 'normal', urgencyReason: null, ...fields }) as Call;

function attempt(fields: Partial<Attempt> = {}): Attempt {
  return { callId: 7, call: call(), owner: { id: 1 } as User, number: 1, last: false, signal: new AbortController().signal, waiting: [], alertFailed: null, translationFailed: null, ...fields };
}

function deps() {
  const texted: Call[] = [];
  const settled: Call[] = [];
  const notifier = { notify: async (c: Call) => void texted.push(c) } as unknown as CallNotifier;
  const d = {
    notifier,
    log: { info: () => {}, warn: () => {} },
    notifyAnywayFromAttempt: 3,
    callSettled: (c: Call) => void settled.push(c),
  } as unknown as PostCallDeps;
  return { d, texted, settled };
}

describe('mergeUrgency', () => {
  it('keeps a call the live flow flagged urgent urgent, with the flow’s reason, whatever the model says', () => {
    expect(mergeUrgency({ urgency: 'urgent', urgencyReason: 'gas leak' }, { urgency: 'normal', urgencyReason: null })).toEqual({ urgency: 'urgent', urgencyReason: 'gas leak' });
  });
  it('otherwise takes the model’s urgency and reason', () => {
    expect(mergeUrgency({ urgency: 'normal', urgencyReason: null }, { urgency: 'low', urgencyReason: 'a brochure' })).toEqual({ urgency: 'low', urgencyReason: 'a brochure' });
    expect(mergeUrgency({ urgency: 'urgent', urgencyReason: 'flow' }, { urgency: 'urgent', urgencyReason: 'model' })).toEqual({ urgency: 'urgent', urgencyReason: 'model' });
  });
});

describe('notifyAndSettle', () => {
  it('texts and settles a call nothing is waiting for', async () => {
    const { d, texted, settled } = deps();
    await notifyAndSettle(d, attempt());
    expect([texted.length, settled.length]).toEqual([1, 1]);
  });

  it('holds the text back and leaves the call unsettled while an engine may still work', async () => {
    const { d, texted, settled } = deps();
    await notifyAndSettle(d, attempt({ waiting: [new Error('whisper down')] }));
    expect([texted.length, settled.length]).toEqual([0, 0]);
  });

  it('texts a VIP, and anyone from the notify-anyway attempt on, without settling while an engine may still work', async () => {
    const { d, texted, settled } = deps();
    await notifyAndSettle(d, attempt({ call: call({ callerTag: 'vip' }), waiting: [new Error('down')] }));
    await notifyAndSettle(d, attempt({ number: 3, waiting: [new Error('down')] }));
    expect([texted.length, settled.length]).toEqual([2, 0]);
  });

  it('on the last attempt texts and settles even with an engine still down', async () => {
    const { d, texted, settled } = deps();
    await notifyAndSettle(d, attempt({ last: true, waiting: [new Error('down')] }));
    expect([texted.length, settled.length]).toEqual([1, 1]);
  });

  it('never texts a screened call, but settles it', async () => {
    const { d, texted, settled } = deps();
    await notifyAndSettle(d, attempt({ call: call({ screenedBy: 'summary', callClass: 'sales' }) }));
    expect([texted.length, settled.length]).toEqual([0, 1]);
  });

  it('settles even when the text fails, and lets the failure end the attempt', async () => {
    const { d, settled } = deps();
    d.notifier = { notify: async () => Promise.reject(new Error('provider refused')) } as unknown as CallNotifier;
    await expect(notifyAndSettle(d, attempt())).rejects.toThrow('provider refused');
    expect(settled).toHaveLength(1);
  });
});

