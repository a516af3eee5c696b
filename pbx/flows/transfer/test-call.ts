import type { TransferOutcome } from '../../../contract/call-handling.js';
import type { PromptCache, Voice } from '../../../models/tts/index.js';
import type { AriRest } from '../../ari/types.js';
import { FALLBACK_SOUNDS } from '../messages.js';
import { hangUp, say } from '../steps.js';
import type { FlowLog } from '../types.js';
import { briefingText } from './briefing.js';
import { askOwner, DEFAULT_TRANSFER_TIMING, OWNER_LEG_ARG, OWNER_LEG_PREFIX, ringOwner, type TransferDeps } from './put-through.js';

// "Test transfer" in the console: the owner's phone rings as it would for a put-through call
// and they hear what a briefing sounds like, with a sample caller. Nobody else is on the line.

export const TEST_INTRO = 'This is a test call from your answering service. When a caller asks for you, you will hear this:';
export const TEST_DONE = 'That is all: calls can be put through to you. Goodbye.';
/** Ofcom's drama range: a caller number that can never be real. */
const SAMPLE_CALLER = '+447700900123';

export interface TestCallOwner {
  userId: number;
  to: string;
  ringSeconds: number;
  businessName: string | null;
  voice: Voice;
  /** The appliance's number the test call shows as its caller ID. */
  callerId: string;
}

let seq = 0;

/** Rings the owner; resolves as soon as the phone answered or gave up, the briefing then plays on its own. */
export async function ringOwnerForTest(
  deps: { rest: AriRest; prompts: PromptCache; log: FlowLog; transfer: TransferDeps },
  owner: TestCallOwner,
): Promise<'answered' | TransferOutcome> {
  const legId = `${OWNER_LEG_PREFIX}test-${Date.now()}-${++seq}`;
  const leg = deps.transfer.legs.open(legId, owner.to);
  const legDeps = { session: leg, rest: deps.rest, prompts: deps.prompts, log: deps.log };
  const done = async () => {
    await hangUp(legDeps).catch(() => undefined);
    deps.transfer.legs.close(legId);
  };
  let rang: 'answered' | TransferOutcome;
  try {
    rang = await ringOwner(deps.rest, deps.transfer, leg, { userId: owner.userId, to: owner.to, ringSeconds: owner.ringSeconds, callerId: owner.callerId, appArgs: `${OWNER_LEG_ARG},test` }, deps.log);
  } catch (err) {
    await done();
    throw err;
  }
  if (rang !== 'answered') {
    await done();
    return rang;
  }
  void (async () => {
    await say(legDeps, TEST_INTRO, owner.voice, FALLBACK_SOUNDS.briefing);
    const key = await askOwner(legDeps, owner.voice, briefingText({ businessName: owner.businessName, callerNumber: SAMPLE_CALLER, callerWords: 'My boiler is leaking, can someone come today?' }), { ...DEFAULT_TRANSFER_TIMING, ...deps.transfer.timing });
    if (key !== 'hung-up') await say(legDeps, TEST_DONE, owner.voice, FALLBACK_SOUNDS.goodbye);
  })()
    .catch((err) => deps.log.info({ err: String(err), channelId: legId }, 'test transfer call ended early'))
    .finally(done);
  return 'answered';
}
