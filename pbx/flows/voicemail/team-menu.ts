import { FALLBACK_SOUNDS } from '../../../dialogue/spoken/sounds.js';
import { messageForLine, teamMenuLine } from '../../../dialogue/spoken/team-menu.js';
import { say } from '../steps.js';
import { putThrough } from '../transfer/put-through.js';
import { callTeam } from '../transfer/team-first.js';
import { pressedNote, type PressedOutcome } from '../transfer/team-notes.js';
import type { FlowContext } from '../types.js';
import { menuChoices, type MenuChoice } from './menu-choices.js';
import { sayVoicemailGreeting } from './voicemail-greeting.js';

// Voicemail's "press 1 for Sarah, 2 for Tom" (issue 58): offered after the greeting when two or
// more current members have a confirmed phone and the box can call out (OUTBOUND_ENDPOINT). A
// key pressed during the greeting or the menu puts the caller through to that person, as the
// agent's warm transfer does (briefing, 1 to take the call), when they are working now; else,
// or when they do not take the call, the caller leaves the message for them. The call row names
// the person and what happened (routing_note). No key: voicemail exactly as without a team.

/** The greeting said, and whether the caller goes on to leave a message or was put through (the call is over). */
export async function greetWithTeamMenu(ctx: FlowContext): Promise<'record' | 'connected'> {
  const { owner, session } = ctx;
  const choices = ctx.resumed || !ctx.transfer ? [] : menuChoices(await callTeam(ctx));
  if (choices.length === 0) {
    await sayVoicemailGreeting(ctx);
    return 'record';
  }
  let listening = true;
  let pressed: MenuChoice | undefined;
  const key = session
    .waitFor((e) => listening && e.type === 'ChannelDtmfReceived' && choices.some((c) => c.digit === e.digit), { what: 'a key from the team menu', timeoutMs: 60 * 60_000 })
    .then(async (e) => {
      pressed = choices.find((c) => c.digit === e.digit);
      // The rest of the greeting would only hold the caller back from the person they chose.
      for (const id of session.playbacksInProgress()) await ctx.rest.stopPlayback(id).catch(() => undefined);
    })
    .catch(() => undefined);
  try {
    await sayVoicemailGreeting(ctx, () => pressed !== undefined);
    if (!pressed) await say(ctx, teamMenuLine(choices.map((c) => ({ digit: c.digit, name: c.member.name }))), owner.voice, FALLBACK_SOUNDS.greeting);
  } finally {
    listening = false;
  }
  if (pressed) await key;
  return pressed ? forMember(ctx, pressed) : 'record';
}

async function forMember(ctx: FlowContext, { digit, member }: MenuChoice): Promise<'record' | 'connected'> {
  const note = (outcome: PressedOutcome) =>
    ctx.callPath.attributeCall(ctx.callId, member.id, pressedNote(digit, member.name, outcome)).catch((err) => ctx.log.warn({ err, callId: ctx.callId }, 'voicemail menu: could not note the choice on the call'));
  if (member.working) {
    const { ringSeconds } = await callTeam(ctx);
    const { outcome } = await putThrough(ctx, ctx.transfer!, { to: member.phone, ringSeconds });
    if (outcome === 'connected') {
      await note('put-through');
      return 'connected';
    }
    await note('no-answer');
  } else {
    ctx.log.info({ callId: ctx.callId, staffId: member.id }, 'voicemail menu: the member chosen is not working now; taking a message for them');
    await note('not-working');
  }
  await say(ctx, messageForLine(member.name, member.working), ctx.owner.voice, FALLBACK_SOUNDS.greeting);
  return 'record';
}
