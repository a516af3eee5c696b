import type { Log } from '../../../contract/log.js';
import type { ForwardingChecks } from '../../../core/ports/forwarding-check.js';
import type { AriRest } from '../../ari/types.js';
import type { CallSession } from '../../call-session.js';

// "Check my forwarding", the call back: the check's own call, forwarded by the owner's line to
// their appliance number. It is answered (the carrier sees the forwarded call taken) and ended
// at once: never a call row, so never a message, a text, a transfer, a ring-first or a figure in
// analytics, and nothing in it can start another check. The Diversion header says which
// condition forwarded it; reading it needs res_pjsip_header_funcs (modules.conf), which keeps
// every header of the INVITE on the channel for PJSIP_HEADER(read,…).

export async function takeForwardingCheck(
  deps: { rest: AriRest; log: Log; checks: ForwardingChecks; now: () => Date },
  session: CallSession,
  check: { id: number; userId: number },
): Promise<void> {
  const { rest, log } = deps;
  const diversion = await rest.getVariable(session.channelId, 'PJSIP_HEADER(read,Diversion)').catch((err: unknown) => {
    log.warn({ err, checkId: check.id }, 'forwarding check: could not read the Diversion header');
    return null;
  });
  await session.answer(rest).catch(() => undefined);
  const counted = await deps.checks.arrived(check.id, [diversion], deps.now());
  log.info({ checkId: check.id, userId: check.userId, diversion, counted }, counted ? 'forwarding check: the call came back forwarded' : 'forwarding check: the call came back after the check ended');
}
