// Learning from the owner's website (issue 55, docs/website.md), through the real service: the
// website-crawl job on the test server, the real crawler (through the real SSRF guard, loopback
// opened by the test seam) and the real drafter on the LLM pool at background priority, against
// a 200-page fixture site on loopback and the Ollama double answering after a nominal delay.
// Prints figures, never pass/fail:
//   1. a first crawl with WEBSITE_CRAWL_PAUSE_MS 0 and with the default 500 ms: wall time, pages
//      read, model calls, drafts made; then a second crawl with nothing changed (model calls 0).
//   2. live agent turns (the agent's own reply streamer, live priority, each call admitted as the
//      phone flow admits it) with and without a crawl running, side by side in one run: p50/p95
//      of the time to the reply's first piece, on one Ollama slot (a small box: the worst case)
//      and on the default four.
// Run: npx tsx bench/website-crawl.ts [pages=200] [draftMs=1500] [turnMs=300] [calls=12]
// (BENCH_WEBSITE_LIVE_ONLY=1: part 2 alone.)
import { eq } from 'drizzle-orm';
import { WEBSITE_LIMITS } from '../contract/rules.js';
import { createAgentReplies } from '../core/engines/agent-engines.js';
import { tablesOf } from '../core/db/schema.js';
import { startOllamaDouble, type OllamaDouble, type OllamaRequest } from '../test/doubles/ollama/server.js';
import { activeCustomer } from '../test/helpers/accounts.js';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { startFixtureSite, type FixtureSite } from '../test/website/fixture-site.js';
import { machine, percentile, report } from './lib/report.js';

const PAGES = Number(process.argv[2] ?? 200);
// In part 2 a draft holds its slot longer than a turn: it asks for up to 8 pairs of JSON, far
// more tokens than an agent turn's sentence. Part 1 uses the nominal delay the agent benches use.
const DRAFT_MS = Number(process.argv[3] ?? 1500);
const TURN_MS = Number(process.argv[4] ?? 300);
let draftMs = TURN_MS;
const CALLS = Number(process.argv[5] ?? 12);
const TURNS_PER_CALL = 4;
// The caller speaking between two turns, and the pause between two calls.
const CALLER_MS = 400;
const BETWEEN_CALLS_MS = 300;

const isDraft = (req: OllamaRequest) => Array.isArray(req.body.format?.required) && req.body.format.required.includes('pairs');

/** The double's answers: a grounded pair quoting each page's own sentence, or the agent's JSON reply. */
function answerLikeAModel(ollama: OllamaDouble): void {
  ollama.replier = (req) => {
    if (!isDraft(req)) return JSON.stringify({ intent: 'question', answered: true, answer: 'We are open from 8am to 6pm. Is there anything else?' });
    const text = String((req.body.messages as Array<{ content: string }>).at(-1)?.content ?? '');
    const quote = /Plumbing note number \d+:[^\n]*?stopcock before you call us\./.exec(text)?.[0] ?? /A boiler service costs £85[^\n]*/.exec(text)?.[0];
    if (!quote) return JSON.stringify({ pairs: [] });
    const n = /number (\d+)/.exec(quote)?.[1];
    const pair = n
      ? { question: `What does note ${n} cover?`, answer: `Note ${n} covers how to bleed a radiator and check the boiler pressure.`, quote, topic: 'other' }
      : { question: 'How much is a boiler service?', answer: 'A boiler service costs £85.', quote, topic: 'other' };
    return JSON.stringify({ pairs: [pair] });
  };
  // The double holds each request for `always.delayMs`; it reads `always` just after recording
  // the request, so the delay can follow what was asked (a draft, or an agent turn).
  Object.defineProperty(ollama, 'always', { get: () => ({ delayMs: isDraft(ollama.requests.at(-1)!) ? draftMs : TURN_MS }), configurable: true });
}

interface Bench {
  server: TestServer;
  ollama: OllamaDouble;
  site: FixtureSite;
  client: Awaited<ReturnType<typeof activeCustomer>>['client'];
  userId: number;
}

async function start(env: Record<string, string>): Promise<Bench> {
  const ollama = await startOllamaDouble();
  answerLikeAModel(ollama);
  // The fixture's five pages, and notes to make up the site's 200.
  const site = await startFixtureSite({ extraPages: Math.max(0, PAGES - 5) });
  const server = await startTestServer({
    env: { OLLAMA_URL: ollama.url, OLLAMA_MODEL: 'llama3.2:3b', WEBSITE_DAILY_CRAWLS: '1000', ...env },
    website: { guard: { allowLoopback: true }, pollMs: 50 },
    background: { website: true },
  });
  const { client, user } = await activeCustomer(server);
  // Saved in the table, not by PUT: the route refuses an IP literal on loopback, as it should.
  const { websiteSites } = tablesOf(server.database.db);
  await server.database.db.insert(websiteSites).values({ userId: user.id, url: `${site.url}/`, weekly: false, nextCrawlAt: null, updatedAt: new Date() });
  return { server, ollama, site, client, userId: user.id };
}

async function close(b: Bench): Promise<void> {
  await b.server.close();
  await b.site.close();
  await b.ollama.close();
}

interface CrawlFigures {
  wallMs: number;
  pagesRead: number;
  pagesUnchanged: number;
  modelCalls: number;
  draftsMade: number;
  draftsDropped: number;
  state: string;
  problems: number;
}

const drafts = (o: OllamaDouble) => o.requests.filter(isDraft).length;

/** Starts a crawl through the route, without waiting for it. */
async function startCrawl(b: Bench): Promise<number> {
  const res = await b.client.post('/api/knowledge/website/crawl');
  if (res.status !== 202) throw new Error(`crawl refused: ${res.status} ${res.text}`);
  const { websiteCrawls } = tablesOf(b.server.database.db);
  const rows = await b.server.database.db.select().from(websiteCrawls).where(eq(websiteCrawls.userId, b.userId));
  return Math.max(...rows.map((r) => r.id));
}

async function crawlEnd(b: Bench, crawlId: number, modelCallsBefore: number): Promise<CrawlFigures> {
  const { websiteCrawls } = tablesOf(b.server.database.db);
  const bound = Date.now() + WEBSITE_LIMITS.crawlMs + 60_000;
  for (;;) {
    const [row] = await b.server.database.db.select().from(websiteCrawls).where(eq(websiteCrawls.id, crawlId));
    if (row && (row.state === 'done' || row.state === 'failed')) {
      return {
        wallMs: row.finishedAt!.getTime() - row.startedAt!.getTime(),
        pagesRead: row.pagesRead,
        pagesUnchanged: row.pagesUnchanged,
        modelCalls: drafts(b.ollama) - modelCallsBefore,
        draftsMade: row.draftsMade,
        draftsDropped: row.draftsDropped,
        state: row.state,
        problems: row.problems.length,
      };
    }
    if (Date.now() > bound) throw new Error(`crawl ${crawlId} did not end`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function crawl(b: Bench): Promise<CrawlFigures> {
  const before = drafts(b.ollama);
  return crawlEnd(b, await startCrawl(b), before);
}

/**
 * Agent calls as the phone flow makes them: admitted at answer (the pools' claim), then turns at
 * live priority through the agent's own reply streamer, the caller speaking between them.
 * Each turn's time to the reply's first piece.
 */
async function liveCalls(b: Bench): Promise<number[]> {
  const { pools } = b.server.services.agentEngines;
  const replies = createAgentReplies(b.server.config, pools);
  const waits: number[] = [];
  for (let c = 0; c < CALLS; c++) {
    const admission = pools.admitConversation();
    if (!admission) throw new Error('the pools turned a call away');
    try {
      for (let t = 0; t < TURNS_PER_CALL; t++) {
        const started = performance.now();
        let first: number | undefined;
        for await (const piece of replies.stream([{ role: 'user', content: 'What time do you open on Monday?' }])) if (first === undefined && piece) first = performance.now() - started;
        waits.push(first ?? NaN);
        await new Promise((r) => setTimeout(r, CALLER_MS));
      }
    } finally {
      admission.release();
    }
    await new Promise((r) => setTimeout(r, BETWEEN_CALLS_MS));
  }
  return waits;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const row = (name: string, f: CrawlFigures) =>
  `${name.padEnd(34)} ${s(f.wallMs).padStart(8)} ${String(f.pagesRead).padStart(6)} ${String(f.pagesUnchanged).padStart(10)} ${String(f.modelCalls).padStart(12)} ${String(f.draftsMade).padStart(7)} ${String(f.draftsDropped).padStart(8)}  ${f.state} (${f.problems} problems)`;

console.log(`website-crawl on ${machine()}`);
console.log(`fixture site of ${PAGES} pages on loopback; Ollama double: a draft ${TURN_MS} ms (part 1) or ${DRAFT_MS} ms (part 2), an agent turn ${TURN_MS} ms (whole reply)`);

// 1. The crawl: pause 0 and the default, then a second crawl with nothing changed.
const crawls: Array<[string, CrawlFigures]> = [];
for (const pauseMs of process.env.BENCH_WEBSITE_LIVE_ONLY ? [] : [0, WEBSITE_LIMITS.defaultPauseMs]) {
  const b = await start({ WEBSITE_CRAWL_PAUSE_MS: String(pauseMs) });
  try {
    crawls.push([`first crawl, pause ${pauseMs} ms`, await crawl(b)]);
    crawls.push([`again, nothing changed, pause ${pauseMs} ms`, await crawl(b)]);
  } finally {
    await close(b);
  }
}
console.log('\ncrawl                               wall    pages  unchanged  model calls  drafts  dropped  end');
for (const [name, f] of crawls) console.log(row(name, f));
for (const [name, f] of crawls) report({ bench: 'website-crawl', measure: `${name}: wall time, pages read, model calls, drafts made`, value: `${s(f.wallMs)}, ${f.pagesRead}, ${f.modelCalls}, ${f.draftsMade}` });

// 2. Live agent turns with and without a crawl running, on the same server.
draftMs = DRAFT_MS;
const p = (xs: number[], q: number) => percentile(xs, q).toFixed(0);
console.log(`\nlive agent turns, time to the reply's first piece (${CALLS} calls × ${TURNS_PER_CALL} turns each way), ms`);
console.log('Ollama slots  crawl running     p50    p95    max   first turns p95   draft requests during the calls (stopped ones included)');
for (const slots of [1, 4]) {
  const b = await start({ WEBSITE_CRAWL_PAUSE_MS: '0', OLLAMA_SLOTS: String(slots) });
  try {
    const quiet = await liveCalls(b);
    const before = drafts(b.ollama);
    await startCrawl(b);
    // Live calls start once the crawl is drafting, so each call can meet a draft in flight.
    while (drafts(b.ollama) === before) await new Promise((r) => setTimeout(r, 20));
    const busy = await liveCalls(b);
    // The crawl is left running: the server's close stops it. Its own figures are part 1's.
    const during = drafts(b.ollama) - before;
    const firsts = (xs: number[]) => xs.filter((_, i) => i % TURNS_PER_CALL === 0);
    for (const [name, xs] of [['no', quiet], ['yes', busy]] as const) {
      console.log(`${String(slots).padStart(12)}  ${name.padEnd(13)} ${p(xs, 50).padStart(6)} ${p(xs, 95).padStart(6)} ${p(xs, 100).padStart(6)} ${p(firsts(xs), 95).padStart(17)}   ${name === 'yes' ? String(during) : ''}`);
      report({ bench: 'website-crawl', measure: `live agent turn, first piece p50 / p95, ${slots} Ollama slot${slots > 1 ? 's' : ''}, ${name === 'yes' ? 'while a crawl runs' : 'no crawl'}`, value: `${p(xs, 50)} / ${p(xs, 95)} ms`, budget: `turn ${TURN_MS} ms, draft ${DRAFT_MS} ms` });
    }
  } finally {
    await close(b);
  }
}
process.exit(0);
