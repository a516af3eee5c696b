import type { TransferOutcome } from '../../../contract/call-handling.js';
import type { PromptCache, Voice } from '../../../models/tts/index.js';
import type { AriRest } from '../../ari/types.js';
import { FALLBACK_SOUNDS } from '../../../dialogue/spoken/sounds.js';
import { briefingText, TEST_SAMPLE_CALLER, TEST_DONE, TEST_INTRO } from '../../../dialogue/spoken/transfer.js';
import { hangUp, say } from '../steps.js';
import type { Log } from '../../../contract/log.js';
import { askOwner, DEFAULT_TRANSFER_TIMING, OWNER_LEG_ARG, OWNER_LEG_PREFIX, ringOwner, type TransferDeps } from './put-through.js';

// "Test transfer" in the console: the owner's phone rings as it would for a put-through call
// and they hear what a briefing sounds like, with a sample caller. Nobody else is on the line.

export interface TestTransferOwner {
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
  deps: { rest: AriRest; prompts: PromptCache; log: Log; transfer: TransferDeps },
  owner: TestTransferOwner,
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
    const key = await askOwner(legDeps, owner.voice, briefingText({ businessName: owner.businessName, callerNumber: TEST_SAMPLE_CALLER.number, callerWords: TEST_SAMPLE_CALLER.words }), { ...DEFAULT_TRANSFER_TIMING, ...deps.transfer.timing });
    if (key !== 'hung-up') await say(legDeps, TEST_DONE, owner.voice, FALLBACK_SOUNDS.goodbye);
  })()
    .catch((err) => deps.log.info({ err: String(err), channelId: legId }, 'test transfer call ended early'))
    .finally(done);
  return 'answered';
}
