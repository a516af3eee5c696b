import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '../../../contract/log.js';
import type { ForwardingChecks, ForwardingCheckStartResult } from '../../../core/ports/forwarding-check.js';
import type { AriRest } from '../../ari/types.js';
import { hangUp } from '../steps.js';
import { dialOwner, OWNER_LEG_ARG, OWNER_LEG_PREFIX, type TransferDeps } from '../transfer/put-through.js';

// "Check my forwarding", the call out: the owner's business line is rung over the outbound
// trunk (the same leg registry, toll-fraud rules and daily minutes as a put-through) showing
// their own appliance number, so that a line that forwards sends it straight back to the box,
// where check-leg.ts takes it. This side waits for the check's row to change, since the call
// may come back to another core sharing the database, then hangs up its leg.

/** How often the waiting side looks at the check's row. */
const POLL_MS = 250;

export interface ForwardingCheckCall {
  userId: number;
  /** The owner's business line, E.164. */
  line: string;
  /** Their appliance number, E.164: the caller ID the check shows and the number it must come back to. */
  did: string;
  waitSeconds: number;
}

export interface ForwardingCheckDeps {
  rest: AriRest;
  log: Log;
  transfer: TransferDeps;
  checks: ForwardingChecks;
  now: () => Date;
}

/** Places the check's call; resolves once it is out (or could not be), the waiting carries on alone. */
export async function placeForwardingCheck(deps: ForwardingCheckDeps, c: ForwardingCheckCall): Promise<ForwardingCheckStartResult> {
  const { rest, log, transfer, checks } = deps;
  const startedAt = deps.now();
  const id = await checks.open({ userId: c.userId, did: c.did, line: c.line, startedAt, endsAt: new Date(startedAt.getTime() + c.waitSeconds * 1000) });
  const legId = `${OWNER_LEG_PREFIX}forwarding-check-${id}`;
  const leg = transfer.legs.open(legId, c.line);
  const end = async () => {
    await hangUp({ session: leg, rest }).catch((err) => log.warn({ err, checkId: id }, 'forwarding check: could not hang up the call to the owner’s line'));
    transfer.legs.close(legId);
    await checks.unreached(id, deps.now());
  };
  const { placed, answer } = await dialOwner(rest, transfer, leg, { userId: c.userId, to: c.line, ringSeconds: c.waitSeconds, callerId: `"Forwarding check" <${c.did}>`, appArgs: `${OWNER_LEG_ARG},forwarding-check` }, log);
  if (!placed) {
    await end();
    return { kind: 'not-placed' };
  }
  log.info({ checkId: id, userId: c.userId }, 'forwarding check: calling the owner’s line');
  let answered = false;
  void answer.then((r) => (answered = r === 'answered'), () => undefined);
  void (async () => {
    const deadline = Date.now() + c.waitSeconds * 1000;
    // A busy or unanswered line may still forward (the network does it): only an answer ends the wait early.
    while (Date.now() < deadline && !answered && (await checks.state(id).catch(() => 'calling')) === 'calling') await sleep(POLL_MS);
    if (answered) log.info({ checkId: id }, 'forwarding check: the owner’s line answered, so the call was not forwarded');
    await end();
    log.info({ checkId: id, state: await checks.state(id).catch(() => undefined) }, 'forwarding check: finished');
  })().catch((err: unknown) => log.error({ err, checkId: id }, 'forwarding check failed'));
  return { kind: 'started', id };
}
