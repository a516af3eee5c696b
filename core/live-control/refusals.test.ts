import { describe, expect, it } from 'vitest';
import { actorName, liveRefusal, spokenName, type LiveCallFacts } from './refusals.js';

const live = { endedAt: null, mode: 'agent' as const, channelId: 'ch-1', node: 'node-1', takenOverBy: null };
const facts = (over: Partial<LiveCallFacts> = {}, call: Partial<NonNullable<LiveCallFacts['call']>> = {}): LiveCallFacts => ({ call: { ...live, ...call }, node: 'node-1', pbx: true, full: undefined, ...over });

describe('whether a live call may be listened to or taken over', () => {
  it('lets the business’s own agent call in progress be listened to and taken over', () => {
    expect(liveRefusal('listen', facts())).toBeUndefined();
    expect(liveRefusal('take-over', facts())).toBeUndefined();
  });

  it('answers another business’s call as a missing one (404), whatever it asks', () => {
    expect(liveRefusal('listen', facts({ call: undefined }))).toEqual({ status: 404, message: 'Call not found.' });
    expect(liveRefusal('take-over', facts({ call: undefined }))).toEqual({ status: 404, message: 'Call not found.' });
  });

  it('refuses an ended call, a call on another node and a core without a PBX', () => {
    expect(liveRefusal('listen', facts({}, { endedAt: new Date() }))).toEqual({ status: 409, message: 'This call has ended.' });
    expect(liveRefusal('listen', facts({}, { node: 'node-2' }))?.status).toBe(409);
    expect(liveRefusal('listen', facts({}, { node: 'node-2' }))?.message).toContain('node-2');
    expect(liveRefusal('listen', facts({ pbx: false }))).toEqual({ status: 503, message: 'Calls cannot be listened to here: the core is not connected to the phone system (ARI_URL).' });
  });

  it('refuses plainly (503) when the node is at its admission limit', () => {
    expect(liveRefusal('listen', facts({ full: '4 calls in progress (limit 4)' }))).toEqual({ status: 503, message: 'The box is at its limit of calls just now, so it cannot add a listener. Try again in a minute.' });
    expect(liveRefusal('take-over', facts({ full: 'x' }))?.message).toBe('The box is at its limit of calls just now, so it cannot put the call through to you. Try again in a minute.');
  });

  it('takes over only an agent call nobody has taken over, and says why the agent cannot hand over', () => {
    expect(liveRefusal('take-over', facts({}, { mode: 'voicemail' }))).toEqual({ status: 409, message: 'Only a call the assistant is answering can be taken over.' });
    expect(liveRefusal('take-over', facts({}, { takenOverBy: 'Sarah' }))).toEqual({ status: 409, message: 'This call has already been taken over by Sarah.' });
    expect(liveRefusal('listen', facts({}, { takenOverBy: 'Sarah' }))).toBeUndefined();
    expect(liveRefusal('take-over', facts({ agent: 'This call is already being taken over.' }))).toEqual({ status: 409, message: 'This call is already being taken over.' });
  });

  it('names who acted and whom the agent announces', () => {
    expect(actorName(null)).toBe('the owner');
    expect(actorName({ name: ' Sarah ' })).toBe('Sarah');
    expect(spokenName(null, 'Hale Plumbing')).toBe('Hale Plumbing');
    expect(spokenName({ name: 'Sarah' }, 'Hale Plumbing')).toBe('Sarah');
    expect(spokenName(null, null)).toBe('the owner');
  });
});
