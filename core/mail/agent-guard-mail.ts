// The slow-box guard's notices (issue 60 item 4): plain UK English, one function per message, no I/O.
import { secondsText } from '../../contract/seconds.js';
import type { Brand, MailMessage } from './templates.js';

const signOff = (b: Brand) => `\nThe ${b.productName} box\n`;

/** To each admin when the guard closes on `node`. */
export function agentPausedAdminMail(b: Brand, to: string, f: { node: string; p50Ms: number; limitMs: number; windowTurns: number }): MailMessage {
  return {
    to,
    subject: `Agent mode is paused on ${f.node}`,
    text:
      `Agent mode is paused on ${f.node}: the assistant took ${secondsText(f.p50Ms, 'up')} to start answering (median of the last ${f.windowTurns} turns; the limit is ${secondsText(f.limitMs)}). ` +
      `New agent-mode calls are answered in voicemail mode with each owner's greeting until it recovers.\n\n` +
      `Calls already in a conversation carry on. One new agent call in a few is let through to measure again, and agent mode comes back by itself once the assistant answers in time. ` +
      `The owners whose callers get voicemail meanwhile are told once.\n\n` +
      `If it keeps happening, the box is too slow for its language model: use a smaller model (OLLAMA_MODEL), give the engines more hardware, or keep owners in voicemail mode. ` +
      `The admin dashboard shows the state: ${b.publicUrl}/dashboard/admin\n` +
      signOff(b),
  };
}

/** To each admin when the guard opens again on `node`. */
export function agentRecoveredAdminMail(b: Brand, to: string, f: { node: string; p50Ms: number; limitMs: number }): MailMessage {
  return {
    to,
    subject: `Agent mode is back on ${f.node}`,
    text:
      `Agent mode is back on ${f.node}: the assistant starts answering in ${secondsText(f.p50Ms)} again (median of the turns since it paused; the limit is ${secondsText(f.limitMs)}). ` +
      `New agent-mode calls get the assistant again.\n` +
      signOff(b),
  };
}

/** To an owner at their first call answered in voicemail mode by the guard in an episode. */
export function agentPausedOwnerMail(b: Brand, to: string, businessName: string | null): MailMessage {
  return {
    to,
    subject: 'Your assistant is paused for now',
    text:
      `Hello${businessName ? ` ${businessName}` : ''},\n\n` +
      `Your assistant is paused: this box is answering too slowly, so your callers hear your greeting and leave a message. Nothing is lost; it will resume by itself.\n\n` +
      `You will find the messages under Call Logs as usual.\n` +
      `\nIf you have any questions, reply to this e-mail or write to ${b.supportName} at ${b.supportEmail}.\n\nThe ${b.productName} team\n`,
  };
}
