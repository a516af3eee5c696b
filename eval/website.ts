import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { createPageDrafter } from '../core/website/draft/page-drafter.js';
import { parseDraftReply } from '../core/website/draft/draft-prompt.js';
import type { PageDraft } from '../core/website/parts.js';
import { buildAgentSystemPrompt } from '../dialogue/agent/agent-prompt.js';
import { askAgent, type ResponderEvent } from '../dialogue/agent/agent-responder.js';
import { answerTurn } from '../dialogue/agent/agent-turn.js';
import { appendKnowledgeEntry, formatKnowledgeEntry } from '../dialogue/agent/knowledge-base.js';
import type { LanguageModel, ReplyStreamer } from '../models/llm/language-model.js';
import { factsIn, scoreTurn } from '../core/quality/evaluation/score/agent-score.js';

// The website set (eval/set/website.json, issue 55): a plumber's site as the crawler would hand
// its pages over, the owner's knowledge base before it, and what callers ask. The pages go
// through the product's drafter (core/website/draft) on the configured model; every draft is
// approved as an owner tapping "Approve all" would; then each caller's question goes to the
// agent with that knowledge base, scored as the agent turns are (eval/score/agent-score.ts).

const WEBSITE_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'set', 'website.json');

const WebsiteSetSchema = Type.Object({
  business: Type.String({ minLength: 1 }),
  /** The owner's knowledge base before the crawl (a stale price in it makes a change proposal). */
  knowledgeBase: Type.String(),
  pages: Type.Array(Type.Object({ url: Type.String({ pattern: '^https?://' }), title: Type.String(), text: Type.String({ minLength: 1 }) }), { minItems: 1 }),
  questions: Type.Array(Type.Object({ caller: Type.String({ minLength: 1 }), mustContain: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }) }), { minItems: 1 }),
});
export type WebsiteSet = Static<typeof WebsiteSetSchema>;

export async function loadWebsiteSet(file = WEBSITE_FILE): Promise<WebsiteSet> {
  let data: unknown;
  try {
    data = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`eval/set: cannot read ${file}: ${(err as Error).message}`);
  }
  if (Value.Check(WebsiteSetSchema, data)) return data as WebsiteSet;
  const first = [...Value.Errors(WebsiteSetSchema, data)][0];
  throw new Error(`eval/set/website.json is not in the set's format at ${first?.instancePath || '/'}: ${first?.message ?? 'invalid'}`);
}

export interface WebsiteFigures {
  pages: number;
  /** Pairs the model proposed, all pages together. */
  proposed: number;
  /** Proposed pairs whose quote is on the page and holds every fact of the answer. */
  grounded: number;
  /** Pairs code dropped: a fact not in the cited sentence, or a quote not on the page. */
  dropped: number;
  /** Drafts offered to the owner, by kind. */
  offered: Record<PageDraft['kind'], number>;
  questions: number;
  /** Callers' questions the agent answered from the approved drafts, with every fact the site states. */
  answered: number;
  failed: number;
  /** Each question that was not answered, and what the agent said. */
  unanswered: { caller: string; said: string }[];
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function runWebsiteSet(engines: { llm: LanguageModel; replies: ReplyStreamer }, set: WebsiteSet, onProgress: (line: string) => void = () => undefined): Promise<WebsiteFigures> {
  let proposed = 0;
  // The drafter's own call, counted on its way back: how many pairs the model offered before code judged them.
  const counting: LanguageModel = {
    name: engines.llm.name,
    chat: async (messages, opts) => {
      const raw = await engines.llm.chat(messages, opts);
      proposed += parseDraftReply(raw).length;
      return raw;
    },
  };
  const drafter = createPageDrafter(counting);
  const fig: WebsiteFigures = { pages: set.pages.length, proposed: 0, grounded: 0, dropped: 0, offered: { new: 0, change: 0, hours: 0, areas: 0 }, questions: set.questions.length, answered: 0, failed: 0, unanswered: [] };
  let kb = set.knowledgeBase;
  for (const [i, page] of set.pages.entries()) {
    try {
      const out = await drafter(page, kb);
      fig.dropped += out.dropped;
      for (const d of out.drafts) {
        fig.offered[d.kind] += 1;
        kb = approve(kb, d);
      }
    } catch (err) {
      fig.failed += 1;
      fig.unanswered.push({ caller: `(drafting ${page.url})`, said: errorText(err) });
    }
    onProgress(`website page ${i + 1}/${set.pages.length}`);
  }
  fig.proposed = proposed;
  fig.grounded = proposed - fig.dropped;

  const system = buildAgentSystemPrompt({ businessName: set.business, knowledgeBase: kb });
  const known = factsIn(kb);
  for (const [i, q] of set.questions.entries()) {
    let said = '';
    let intent = 'question';
    const spoken: string[] = [];
    try {
      const events = watch(askAgent(engines.replies, { system, history: [], callerText: q.caller }), (ev) => {
        if (ev.type === 'done') intent = ev.reply.intent;
      });
      said = (await answerTurn(events, set.business, (s) => spoken.push(s))).said;
    } catch (err) {
      fig.failed += 1;
      said = `agent: ${errorText(err)}`;
    }
    const score = scoreTurn({ caller: q.caller, expect: 'answer', mustContain: q.mustContain, mustNeverSay: [] }, { spoken, intent }, new Set([...known, ...factsIn(q.caller)]));
    if (score.outcome === 'grounded') fig.answered += 1;
    else fig.unanswered.push({ caller: q.caller, said });
    onProgress(`website question ${i + 1}/${set.questions.length}`);
  }
  return fig;
}

/** The knowledge base after the owner approves a draft: a change replaces the entry it names, the rest are added. */
function approve(kb: string, d: PageDraft): string {
  if (d.kind === 'change' && d.currentQuestion && d.currentAnswer) {
    const current = formatKnowledgeEntry(d.currentQuestion, d.currentAnswer);
    if (kb.includes(current)) return kb.replace(current, formatKnowledgeEntry(d.question, d.answer));
  }
  return appendKnowledgeEntry(kb, d.question, d.answer);
}

async function* watch(events: AsyncIterable<ResponderEvent>, see: (ev: ResponderEvent) => void): AsyncGenerator<ResponderEvent> {
  for await (const ev of events) {
    see(ev);
    yield ev;
  }
}

const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)}%` : 'n/a');

export function renderWebsite(f: WebsiteFigures): string {
  const lines = [
    `Website drafts (${f.pages} pages${f.failed ? `, ${f.failed} failed` : ''})`,
    `  grounded drafts      ${pct(f.grounded, f.proposed)} (${f.grounded}/${f.proposed} proposed)`,
    `  dropped by code     ${f.dropped} (a fact not in the cited sentence, or a quote not on the page)`,
    `  offered              ${f.offered.new} new, ${f.offered.change} changes, ${f.offered.hours} hours, ${f.offered.areas} areas`,
    `  callers answered     ${pct(f.answered, f.questions)} (${f.answered}/${f.questions}) from the approved drafts`,
    ...f.unanswered.map((u) => `    not answered: ${u.caller} → ${u.said.slice(0, 120) || '(nothing said)'}`),
  ];
  return `${lines.join('\n')}\n`;
}
