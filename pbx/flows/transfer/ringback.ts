import { AriNotFoundError } from '../../ari/types.js';
import { CallEnded } from '../../call-session.js';
import type { FlowContext } from '../types.js';

const RINGBACK = 'tone:ring;tonezone=uk';
let seq = 0;

export interface Ringback {
  stop(): Promise<void>;
}

/**
 * Ringback on the caller's line until stopped (a playback of Asterisk's UK ring tone): what a
 * caller hears while a phone is rung for them, so they know the call is going somewhere.
 */
export async function startRingback(ctx: Pick<FlowContext, 'session' | 'rest' | 'log' | 'callId'>): Promise<Ringback> {
  const id = `ringback-${ctx.session.channelId}-${++seq}`;
  let playing = true;
  try {
    await ctx.rest.play(ctx.session.channelId, RINGBACK, id);
  } catch (err) {
    if (ctx.session.hangupRequested) throw new CallEnded('caller hung up');
    // Quiet instead of ringback is worse, not fatal: the ringing goes on.
    ctx.log.warn({ err, callId: ctx.callId }, 'transfer: no ringback tone');
    playing = false;
  }
  return {
    async stop() {
      if (!playing) return;
      playing = false;
      await ctx.rest.stopPlayback(id).catch((err) => {
        if (!(err instanceof AriNotFoundError)) ctx.log.warn({ err, callId: ctx.callId }, 'transfer: could not stop the ringback');
      });
    },
  };
}
