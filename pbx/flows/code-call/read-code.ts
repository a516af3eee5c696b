import type { Log } from '../../../contract/log.js';
import type { CodeCallRequest, CodeCallResult } from '../../../core/ports/code-call.js';
import type { PromptCache, Voice } from '../../../models/tts/index.js';
import type { AriRest } from '../../ari/types.js';
import { codeCallLine } from '../../../dialogue/spoken/code-call.js';
import { FALLBACK_SOUNDS } from '../../../dialogue/spoken/sounds.js';
import { hangUp, say } from '../steps.js';
import { dialOwner, OWNER_LEG_ARG, OWNER_LEG_PREFIX, type TransferDeps } from '../transfer/put-through.js';

// A team member's landline confirmed by a call (issue 58 item 1): a landline takes no texts, so
// the appliance rings it as it rings a phone for a put-through (the same leg registry, toll-fraud
// rules and daily minutes: dialOwner) from the business's own number, and reads the code out with
// the box's voice. Whoever answers hears the line twice, then the call ends; nobody is connected.

/** How long the landline rings: a desk phone may be across the room, but no longer than a put-through's ring. */
const CODE_CALL_RING_SECONDS = 30;

export interface CodeCallPlan extends CodeCallRequest {
  /** The business's appliance number: the caller ID, so the member sees who is calling. */
  callerId: string;
  businessName: string | null;
  voice: Voice;
}

export interface CodeCallDeps {
  rest: AriRest;
  prompts: PromptCache;
  log: Log;
  transfer: TransferDeps;
}

let seq = 0;

/** Places the call; resolves once Asterisk has taken it (or it could not be placed), the code is then read out on its own. */
export async function placeCodeCall(deps: CodeCallDeps, c: CodeCallPlan): Promise<CodeCallResult> {
  const { rest, log, transfer } = deps;
  const legId = `${OWNER_LEG_PREFIX}code-${Date.now()}-${++seq}`;
  const leg = transfer.legs.open(legId, c.to);
  const legDeps = { session: leg, rest, prompts: deps.prompts, log };
  const end = async () => {
    await hangUp(legDeps).catch(() => undefined);
    transfer.legs.close(legId);
  };
  const line = codeCallLine(c.businessName, c.code);
  // Made while the phone rings, so whoever answers hears the code at once rather than silence.
  void deps.prompts.get(line, c.voice).catch(() => undefined);
  let dialled: Awaited<ReturnType<typeof dialOwner>>;
  try {
    dialled = await dialOwner(rest, transfer, leg, { userId: c.userId, to: c.to, ringSeconds: CODE_CALL_RING_SECONDS, callerId: c.callerId, appArgs: `${OWNER_LEG_ARG},code-call` }, log);
  } catch (err) {
    await end();
    throw err;
  }
  if (!dialled.placed) {
    await end();
    return { kind: 'not-placed' };
  }
  void (async () => {
    const rang = await dialled.answer;
    if (rang !== 'answered') return log.info({ channelId: legId, outcome: rang }, 'code call: the landline did not answer');
    // Twice: whoever picked up may have missed the start while lifting the receiver.
    for (let i = 0; i < 2; i++) await say(legDeps, line, c.voice, FALLBACK_SOUNDS.goodbye);
    log.info({ channelId: legId, userId: c.userId }, 'code call: the code was read out');
  })()
    .catch((err: unknown) => log.info({ err: String(err), channelId: legId }, 'code call ended early'))
    .finally(end);
  return { kind: 'calling' };
}

/**
 * The PBX's CodeCall (core/ports/code-call.ts): the business's appliance number and voice, then
 * the call, placed by `place` (the Stasis app's, which holds the outbound legs).
 */
export function codeCallThrough(o: {
  owner: (userId: number) => Promise<{ businessName: string | null; voice: Voice } | undefined>;
  ownerDid: (userId: number) => Promise<string | undefined>;
  connected: () => boolean;
  place: (plan: CodeCallPlan) => Promise<CodeCallResult>;
}): (c: CodeCallRequest) => Promise<CodeCallResult> {
  return async (c) => {
    const [owner, did] = await Promise.all([o.owner(c.userId), o.ownerDid(c.userId)]);
    if (!owner || !did) return { kind: 'no-phone-number' };
    if (!o.connected()) return { kind: 'pbx-down' };
    return o.place({ ...c, callerId: did, businessName: owner.businessName, voice: owner.voice });
  };
}
