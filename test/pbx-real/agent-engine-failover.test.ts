// Two Ollama servers as one pool, on a real Asterisk (issue 27's "Proven by"): one is killed
// while two conversations are in progress, one of them waiting on it for an answer. That caller
// still hears the answer to the question they asked (the reply goes to the other server at
// once), both conversations go on on the survivor, the dead server is taken out of the pool and,
// once it is back, probed back in (the project's back-off) and given requests again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { knowledgeBaseReplier } from '../doubles/ollama/knowledge-base-replier.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { waitUntil } from '../helpers/wait.js';
import { askAgent, hearsAgent } from './agent-caller.js';
import { ANSWERS_ONLY, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import type { SipCall } from './sipp.js';

const real = realPbxAvailability();

const HOURS = 'We are open from eight in the morning to six in the evening, Monday to Friday.';
const BOILERS = 'Yes, we repair and service all makes of gas boiler.';
const AREAS = 'We cover Leeds, York and Harrogate.';
const KB = `Q: What are your opening hours?\nA: ${HOURS}\n\nQ: Do you fix boilers?\nA: ${BOILERS}\n\nQ: What areas do you cover?\nA: ${AREAS}`;
/** '' when `parts` all appear in `text` in this order, else the first one missing. */
const inOrder = (text: string, parts: string[]) => {
  let at = 0;
  for (const part of parts) {
    const i = text.indexOf(part, at);
    if (i < 0) return `missing, in order: ${part}`;
    at = i + part.length;
  }
  return '';
};
/** Quiet after a line before the caller speaks: under load a line arrives with gaps, and a caller who speaks into one barges in. */
const QUIET_MS = 1500;

describe.skipIf(!real.ok)('agent mode on two Ollama servers, one killed mid-call, on a real Asterisk', { timeout: 300_000 }, () => {
  let h: RealPbx;
  let first: OllamaDouble;
  let second: OllamaDouble;
  let restarted: OllamaDouble | undefined;
  beforeAll(async () => {
    first = await startOllamaDouble();
    second = await startOllamaDouble();
    for (const d of [first, second]) d.replier = knowledgeBaseReplier('unused');
    h = await startRealPbx({ agent: true, env: { ...ANSWERS_ONLY, OLLAMA_URL: `${first.url},${second.url}`, OLLAMA_SLOTS: '2' } });
  });
  afterAll(async () => {
    await h?.close();
    await Promise.all([first, second, restarted].map((d) => d?.close()));
  });

  it('the conversations carry on on the other server within the turn; the dead one is taken out, then probed back in', async () => {
    const pool = h.server.services.agentEngines.pools.llm;
    const endpoint = (url: string) => pool.stats().endpoints.find((e) => e.url === url)!;
    const owners = await Promise.all(['Hale Plumbing', 'Dale Heating'].map((businessName) => h.business({ businessName, aiMode: 'agent', knowledgeBase: KB })));
    const batch = await h.calls(owners.map(({ did }) => ({ did })));
    const [one, two] = batch.calls as [SipCall, SipCall];
    await Promise.all([hearsAgent(h, one, 0, agentGreeting('Hale Plumbing'), QUIET_MS), hearsAgent(h, two, 0, agentGreeting('Dale Heating'), QUIET_MS)]);

    // The first server holds its answers: the first caller's question is in progress there when
    // it dies. The second caller's goes to the least busy server, the other one.
    first.always = { delayMs: 600_000 };
    const before = first.requests.length;
    const asked = askAgent(h, one, 'What are your opening hours?');
    await waitUntil(() => expect(first.requests.length).toBeGreaterThan(before), 30_000, 20);
    const q1 = await Promise.all([asked, askAgent(h, two, 'What are your opening hours?')]);
    expect(endpoint(first.url).inUse).toBeGreaterThan(0); // a reply is being waited for there
    await first.close();
    await Promise.all([one, two].map((call, i) => hearsAgent(h, call, q1[i]!.endedAt, HOURS, QUIET_MS)));
    expect(endpoint(first.url)).toMatchObject({ healthy: false });
    expect(endpoint(first.url).faults).toBeGreaterThanOrEqual(1);

    // Both conversations go on, on the survivor, while the dead server stays out.
    const servedBefore = second.requests.length;
    const q2 = await Promise.all([one, two].map((call) => askAgent(h, call, 'Do you fix boilers?')));
    await Promise.all([one, two].map((call, i) => hearsAgent(h, call, q2[i]!.endedAt, BOILERS, QUIET_MS)));
    expect(second.requests.length).toBeGreaterThan(servedBefore);
    expect(endpoint(first.url).healthy).toBe(false);

    // It comes back on the same address: the pool's probe takes it back in, and it serves again.
    // The probe waits out the back-off (2 s, 4 s, 8 s… after each failed probe), longer than a
    // caller stays silent before "Are you still there?" and a goodbye: the callers keep asking,
    // as callers would, and the survivor keeps answering.
    restarted = await startOllamaDouble({ port: Number(new URL(first.url).port) });
    restarted.replier = knowledgeBaseReplier('unused');
    const probedBackBy = performance.now() + 120_000;
    while (!endpoint(first.url).healthy) {
      if (performance.now() > probedBackBy) throw new Error('the restarted server was not probed back into the pool within 120 s');
      const again = await Promise.all([one, two].map((call) => askAgent(h, call, 'Do you fix boilers?')));
      await Promise.all([one, two].map((call, i) => hearsAgent(h, call, again[i]!.endedAt, BOILERS, QUIET_MS)));
    }
    const q3 = await Promise.all([one, two].map((call) => askAgent(h, call, 'What areas do you cover?')));
    await Promise.all([one, two].map((call, i) => hearsAgent(h, call, q3[i]!.endedAt, AREAS, QUIET_MS)));
    expect(restarted.requests.length).toBeGreaterThan(0);

    await Promise.all([one, two].map((call) => call.hangUp()));
    for (const { did } of owners) {
      const row = await h.finishedRow(did, 60_000);
      expect(row).toMatchObject({ status: 'answered', agentStalled: false });
      // Every question answered, in the order asked (the boilers question perhaps more than once).
      expect(inOrder(row.transcription!, [`Caller: What are your opening hours?\nAgent: ${HOURS}`, `Caller: Do you fix boilers?\nAgent: ${BOILERS}`, `Caller: What areas do you cover?\nAgent: ${AREAS}`]), row.transcription!).toBe('');
    }
    batch.kill();
  });
});
