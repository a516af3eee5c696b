import type { LanguageModel } from '../../models/llm/language-model.js';
import type { CallClass } from './call-class.js';
import { buildSummaryPrompt, checkSummary, parseSummaryReply, SUMMARY_SCHEMA, withBookingWish, type SummaryInput, type Urgency } from './summary.js';

export type Summarised = { ok: true; text: string; urgency: Urgency; urgencyReason: string | null; callClass: CallClass | null; wantsBooking: boolean } | { ok: false; reason: string };

/**
 * One summary from the model: the prompt, the call and the checks the owner's text gets.
 * The post-call pipeline and the quality evaluation (eval/) both summarise through this,
 * so the evaluation measures what owners receive. A reply the checks reject is `ok: false`
 * with the reason; an engine failure throws.
 */
export async function summarise(llm: LanguageModel, input: SummaryInput, signal?: AbortSignal): Promise<Summarised> {
  const raw = await llm.chat(buildSummaryPrompt(input), { signal, maxTokens: 220, temperature: 0.2, format: SUMMARY_SCHEMA as unknown as Record<string, unknown> });
  const reply = parseSummaryReply(raw);
  const checked = checkSummary(reply.summary, { transcript: input.transcript, callerNumber: input.callerNumber });
  if (!checked.ok) return checked;
  return { ok: true, text: withBookingWish(checked.text, reply.wantsBooking), urgency: reply.urgency, urgencyReason: reply.urgencyReason, callClass: reply.callClass, wantsBooking: reply.wantsBooking };
}
