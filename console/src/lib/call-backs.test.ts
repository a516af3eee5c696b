import { describe, expect, it } from 'vitest';
import { CALL_BACK_STATES } from '../../../contract/call-backs';
import { CALL_BACK_STATE_WORDS, callBackDoneByLine, callBackTriesLine, canCancelCallBack, canTakeCallBack, showCallBackTracker } from './call-backs';

describe('the call-back tracker in words', () => {
  it('names every state with the words of docs/call-backs.md', () => {
    expect(CALL_BACK_STATES.map((s) => CALL_BACK_STATE_WORDS[s].label)).toEqual(['Waiting', 'Calling', 'Answered', 'No answer', 'Done', 'Cancelled']);
  });

  it('says the tries and how the last went', () => {
    expect(callBackTriesLine({ tries: 0, lastOutcome: null })).toBe('No tries yet');
    expect(callBackTriesLine({ tries: 1, lastOutcome: 'no-answer' })).toBe('1 try: no answer');
    expect(callBackTriesLine({ tries: 1, lastOutcome: 'machine' })).toBe('1 try: answering machine, message left');
    expect(callBackTriesLine({ tries: 2, lastOutcome: 'busy' })).toBe('2 tries: last busy');
    expect(callBackTriesLine({ tries: 2, lastOutcome: null })).toBe('2 tries');
  });

  it('says when the owner closed it', () => {
    expect(callBackDoneByLine({ state: 'done', doneBy: 'owner' })).toBe('Closed by you');
    expect(callBackDoneByLine({ state: 'answered', doneBy: 'agent' })).toBeNull();
  });

  it('offers Cancel on a waiting call-back only, and Take it myself where the server allows it', () => {
    expect(CALL_BACK_STATES.filter((state) => canCancelCallBack({ state }))).toEqual(['waiting']);
    expect(CALL_BACK_STATES.filter((state) => canTakeCallBack({ state }))).toEqual(['waiting', 'no-answer', 'cancelled']);
  });

  it('is shown when the assistant rings back, or when there are call-backs to show', () => {
    expect(showCallBackTracker('owner', 0)).toBe(false);
    expect(showCallBackTracker(undefined, 0)).toBe(false);
    expect(showCallBackTracker('owner', 1)).toBe(true);
    expect(showCallBackTracker(undefined, 2)).toBe(true);
    expect(showCallBackTracker('agent-after', 0)).toBe(true);
    expect(showCallBackTracker('agent-at-time', 0)).toBe(true);
  });
});
