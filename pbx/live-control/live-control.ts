import type { Log } from '../../contract/log.js';
import type { LiveCallControl, LiveLine, LiveLines } from '../../core/ports/live-listen.js';
import { seg, type AriHttp } from '../ari/http.js';
import type { AriEvent, AriRest, ChannelSnapshot } from '../ari/types.js';
import { CallSession } from '../call-session.js';
import type { AgentCallHandle, AgentCalls } from './agent-calls.js';

// Listen in and take over on the PBX (issue 54). The owner's browser rings its line (an lt-
// endpoint, context [live-line]) into this app; the core's registry says which call the line is
// bound to and what for, and this module bridges it:
//
// - listen: a snoop on the caller's channel (ARI POST /channels/{id}/snoop, spy=both,
//   whisper=none: it hears both directions and can say nothing) in a mixing bridge of its own
//   with the browser's leg, whose input is muted as well. The caller's own bridge and channel
//   are not touched: the caller hears nothing different. Channels: the browser's leg and the
//   snoop, one beyond the leg itself; the snoop dies with the caller's channel, and the leg with it.
// - take over: the agent says its handover line and leaves (agent-calls.ts), and the owner's leg
//   (the browser's, or the owner's phone dialled out) joins the agent's bridge, whose recording
//   carries on. Either side hanging up ends the call.

/** The Stasis argument of a live line's call ([live-line] in extensions.conf), and of its snoop. */
const LIVE_LINE_ARG = 'live-line';
const LIVE_SNOOP_ARG = 'live-snoop';

/** Asterisk puts a snoop into the app within milliseconds; past this it is not coming. */
const SNOOP_START_MAX_MS = 5000;
const FOREVER_MS = 24 * 3600_000;

export interface LiveControlDeps {
  app: string;
  rest: AriRest;
  http: AriHttp;
  log: Log;
  lines: LiveLines;
  agents: AgentCalls;
  /** The node's admission rule for new callers, with the live legs counted: why it says no, or undefined. */
  full(liveLegs: number): string | undefined;
}

/** `PJSIP/lt-…-0000002a` → `lt-…`: the endpoint Asterisk authenticated, never what the browser wrote. */
export function liveLineEndpointOf(channelName: string): string | undefined {
  return /^PJSIP\/(lt-[0-9a-f]+)-[0-9a-f]+$/.exec(channelName)?.[1];
}

export class LiveControl implements LiveCallControl {
  /** Browser legs, snoops and owners' phones this module holds, by channel id: their events come here. */
  private readonly channels = new Map<string, CallSession>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: LiveControlDeps) {}

  full(): string | undefined {
    return this.deps.full(this.channels.size);
  }

  takeOverRefusal(callId: number): string | undefined {
    return this.deps.agents.refusal(callId);
  }

  /** One of this module's channels, or one an earlier run left (a snoop, a live line's leg): the Stasis app's reconcile leaves them be. */
  holds(channel: Pick<ChannelSnapshot, 'id' | 'name'>): boolean {
    return this.channels.has(channel.id) || channel.id.startsWith('live-snoop-') || liveLineEndpointOf(channel.name) !== undefined;
  }

  /** The Stasis app's first look at each event: true when it is one of this module's channels. */
  onEvent(e: AriEvent): boolean {
    if (e.type === 'StasisStart' && e.channel && e.args?.[0] === LIVE_LINE_ARG) {
      this.track(this.lineCalled(e.channel));
      return true;
    }
    const id = e.channel?.id;
    const held = id ? this.channels.get(id) : undefined;
    if (!held) return e.type === 'StasisStart' && e.args?.[0] === LIVE_SNOOP_ARG;
    held.deliver(e);
    return true;
  }

  async takeOverByPhone(callId: number, by: { name: string; spoken: string }): Promise<'dialling' | 'no-phone'> {
    const handle = this.deps.agents.get(callId);
    if (!handle?.dialOwnerPhone) return 'no-phone';
    const claimed = this.deps.agents.claim(callId);
    if (!claimed) return 'no-phone';
    this.track(
      (async () => {
        const owner = await claimed.dialOwnerPhone!().catch((err: unknown) => {
          this.deps.log.warn({ err, callId }, 'take-over: could not call the owner’s phone');
          return undefined;
        });
        // Not answered (or refused by the outbound rules): the agent carries on as if nothing happened.
        if (!owner) return this.deps.agents.unclaim(callId);
        try {
          await this.join(claimed, owner.session, { name: by.name, spoken: by.spoken, via: 'phone' });
        } finally {
          await owner.close();
        }
      })(),
    );
    return 'dialling';
  }

  /** A browser rang its live line: bridged to its call as the line says, or hung up. */
  private async lineCalled(channel: ChannelSnapshot): Promise<void> {
    const { rest, log, lines } = this.deps;
    const endpoint = liveLineEndpointOf(channel.name);
    const line = endpoint ? lines.lineOf(endpoint) : undefined;
    const leg = new CallSession(channel, '');
    this.channels.set(channel.id, leg);
    try {
      if (!line) {
        log.warn({ channel: channel.name }, 'live line: refused a call from a line the core did not issue or the browser did not claim');
        await rest.hangup(channel.id, 'rejected').catch(() => undefined);
        return;
      }
      if (line.purpose === 'listen') await this.listen(leg, line);
      else await this.takeOverInBrowser(leg, line);
    } catch (err) {
      log.warn({ err, callId: line?.callId, purpose: line?.purpose }, 'live line: ended on an error');
    } finally {
      await this.hangUp(leg);
      this.channels.delete(channel.id);
    }
  }

  private async listen(leg: CallSession, line: LiveLine): Promise<void> {
    const { rest, http, app, lines } = this.deps;
    await leg.answer(rest);
    // One way: what the browser sends goes nowhere (the snoop has no whisper either).
    await http.json('POST', `/channels/${seg(leg.channelId)}/mute`, { direction: 'in' });
    const snoopId = `live-snoop-${leg.channelId}`;
    const snoop = new CallSession({ ...leg.channel, id: snoopId, name: '' }, '');
    this.channels.set(snoopId, snoop);
    const bridgeId = `live-${leg.channelId}`;
    try {
      const started = snoop.waitFor((e) => e.type === 'StasisStart', { what: 'the snoop', timeoutMs: SNOOP_START_MAX_MS });
      started.catch(() => undefined);
      await http.json('POST', `/channels/${seg(line.callerChannelId)}/snoop`, { spy: 'both', whisper: 'none', app, appArgs: LIVE_SNOOP_ARG, snoopId });
      await started;
      await rest.createBridge(bridgeId);
      await rest.addToBridge(bridgeId, [snoopId, leg.channelId]);
      await lines.joined({ callId: line.callId, userId: line.userId, byName: line.byName, event: 'listen' }).catch((err: unknown) => this.deps.log.error({ err, callId: line.callId }, 'live line: could not record the listen in the call’s history'));
      this.deps.log.info({ callId: line.callId }, 'live line: listening in');
      // The caller hanging up takes the snoop with it; the browser hanging up ends the listen.
      await Promise.race([leg.whenGone(FOREVER_MS), snoop.whenGone(FOREVER_MS)]);
    } finally {
      await this.hangUp(snoop);
      this.channels.delete(snoopId);
      await rest.destroyBridge(bridgeId).catch(() => undefined);
    }
  }

  private async takeOverInBrowser(leg: CallSession, line: LiveLine): Promise<void> {
    const { rest, agents, log } = this.deps;
    const handle = agents.claim(line.callId);
    // The line is the core's word for which call; the call's own channel must agree.
    if (!handle || handle.caller.channelId !== line.callerChannelId) {
      log.info({ callId: line.callId }, 'take-over: the agent no longer holds the call (or another take-over has it)');
      await rest.hangup(leg.channelId, 'normal').catch(() => undefined);
      return;
    }
    await leg.answer(rest);
    await this.join(handle, leg, { name: line.byName, spoken: line.spokenName, via: 'browser' });
  }

  /** The agent leaves, the owner's leg joins the agent's (recorded) bridge, and the call goes on until either side hangs up. */
  private async join(handle: AgentCallHandle, owner: CallSession, by: { name: string; spoken: string; via: 'browser' | 'phone' }): Promise<void> {
    const { rest, lines, log } = this.deps;
    await handle.handOver(by.spoken);
    await rest.addToBridge(handle.bridgeId, [owner.channelId]);
    log.info({ callId: handle.callId, via: by.via }, 'take-over: the owner is on the call');
    await lines.joined({ callId: handle.callId, userId: handle.userId, byName: by.name, event: 'take-over', via: by.via }).catch((err: unknown) => log.error({ err, callId: handle.callId }, 'take-over: could not record it on the call'));
    await Promise.race([owner.whenGone(FOREVER_MS), handle.caller.whenGone(FOREVER_MS)]);
    // The owner hung up: the call is over for the caller too (the agent has gone for good).
    if (!handle.caller.gone) await rest.hangup(handle.caller.channelId, 'normal').catch(() => undefined);
  }

  private async hangUp(s: CallSession): Promise<void> {
    if (s.gone) return;
    await this.deps.rest.hangup(s.channelId, 'normal').catch(() => undefined);
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** Hangs up every live leg (the core stopping): their calls end as the callers' do. */
  async stop(): Promise<void> {
    for (const s of this.channels.values()) await this.hangUp(s);
    await Promise.allSettled([...this.running]);
  }
}
