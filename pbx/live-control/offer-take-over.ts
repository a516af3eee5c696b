import { dialOwner, OWNER_LEG_ARG, OWNER_LEG_PREFIX, personLegCallerId } from '../flows/transfer/put-through.js';
import { hangUp } from '../flows/steps.js';
import type { FlowContext } from '../flows/types.js';
import type { AgentCalls, OwnerPhoneLeg } from './agent-calls.js';

/** What of the agent's conversation a take-over needs (pbx/flows/agent/conversation.ts). */
export interface HandingOver {
  handOver(line: string): Promise<void>;
  readonly lang: { lines: { handover(name: string): string } };
  readonly transfer: { inProgress: boolean };
}

/**
 * Offers an agent call for take-over while the agent holds it (issue 54): called once by the
 * agent flow after its conversation is made; the returned function withdraws the offer.
 */
export function offerTakeOver(
  agents: AgentCalls | undefined,
  ctx: FlowContext,
  c: { conversation: HandingOver; bridgeId: string; leaveMedia(): Promise<void> },
): () => void {
  if (!agents) return () => undefined;
  const { session, callId, owner } = ctx;
  const phone = ctx.transfer && ctx.ownerPhone ? { transfer: ctx.transfer, ...ctx.ownerPhone } : undefined;
  return agents.register({
    callId,
    userId: owner.userId,
    bridgeId: c.bridgeId,
    caller: session,
    busy: () => (c.conversation.transfer.inProgress ? 'The assistant is putting this caller through to a phone just now: try again in a moment.' : undefined),
    async handOver(spokenName) {
      await c.conversation.handOver(c.conversation.lang.lines.handover(spokenName));
      // For good: the agent's media channel leaves the bridge; the bridge (and its recording) stays.
      await c.leaveMedia();
    },
    // The transfer flow's own dialling: the outbound permit (daily minutes, toll-fraud rules) is checked as it dials.
    dialOwnerPhone: phone
      ? async (): Promise<OwnerPhoneLeg | undefined> => {
          const legId = `${OWNER_LEG_PREFIX}${callId}-take-over`;
          const leg = phone.transfer.legs.open(legId, phone.to);
          const close = async () => {
            await hangUp({ session: leg, rest: ctx.rest }).catch(() => undefined);
            phone.transfer.legs.close(legId);
          };
          try {
            const shown = await personLegCallerId(ctx, phone.transfer);
            const dialled = await dialOwner(ctx.rest, phone.transfer, leg, { userId: owner.userId, to: phone.to, ringSeconds: phone.ringSeconds, ...shown, appArgs: `${OWNER_LEG_ARG},${session.channelId}` }, ctx.log);
            if ((await dialled.answer) === 'answered') return { session: leg, close };
          } catch (err) {
            await close();
            throw err;
          }
          await close();
          return undefined;
        }
      : undefined,
  });
}
