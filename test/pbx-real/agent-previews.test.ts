// Issue 24: console previews never slow a live call, proven where it matters, at the caller on
// a real Asterisk. Four owners keep the voice engine busy with previews (two greeting previews
// and two agent previews, the global caps of each) whose synthesis is held until the test lets
// it go; a caller on a live agent call asks a question meanwhile and must hear the answer. The
// stall bounds are pushed past any turn (ANSWERS_ONLY), so an answer stuck behind the previews
// would never be heard: the test asserts what was heard, never how soon.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { createPromptCache, createTextToSpeech, type TextToSpeech } from '../../models/tts/index.js';
import { activeCustomer } from '../helpers/accounts.js';
import { waitUntil } from '../helpers/wait.js';
import { askAgent, hearsAgent } from './agent-caller.js';
import { ANSWERS_ONLY, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();

const HOURS = 'We are open from eight in the morning to six in the evening, Monday to Friday.';
const KB = `Q: What are your opening hours?\nA: ${HOURS}`;
/** Every preview's words carry it; the voice engine holds their synthesis until released. */
const MARK = 'held preview';
const reply = (answer: string) => JSON.stringify({ intent: 'question', answered: true, answer });

describe.skipIf(!real.ok)('console previews beside a live agent call on a real Asterisk', { timeout: 240_000 }, () => {
  let h: RealPbx;
  /** Previews whose synthesis has started and waits for the test, by text. */
  const held = new Map<string, () => void>();

  beforeAll(async () => {
    h = await startRealPbx({
      agent: true,
      env: ANSWERS_ONLY,
      // The appliance's own speech cache and pool, over the real espeak-ng, except that a
      // preview's words wait in the engine until the test releases them.
      services: (s) => {
        const espeak = createTextToSpeech(s.config.tts);
        const tts: TextToSpeech = {
          engine: espeak.engine,
          async synthesize(text, voice, outFile) {
            if (text.includes(MARK)) await new Promise<void>((release) => held.set(text, release));
            await espeak.synthesize(text, voice, outFile);
          },
        };
        s.agentEngines = { ...s.agentEngines, speech: createPromptCache({ dataDir: s.config.dataDir, tts, pool: s.agentEngines.pools.tts, folder: s.agentEngines.promptFolder }) };
      },
    });
    h.ollama.replier = (req) => {
      const last = (req.body.messages as Array<{ content: string }>).at(-1)?.content ?? '';
      if (last.includes(MARK)) return reply(`Yes, we can help with that, ${MARK}.`);
      if (/opening hours/i.test(last)) return reply(HOURS);
      return reply('Goodbye.');
    };
  });
  afterAll(async () => {
    for (const release of held.values()) release();
    await h?.close();
  });

  it('a caller hears the answer to their question while previews fill the voice engine, and the previews finish afterwards', async () => {
    const { did } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB });
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));

    const owners = await Promise.all([0, 1, 2, 3].map(() => activeCustomer(h.server)));
    const previews = [
      owners[0]!.client.post('/api/greeting/preview', { callGreeting: `Thanks for calling Ash Roofing, ${MARK} one.` }),
      owners[1]!.client.post('/api/greeting/preview', { callGreeting: `Thanks for calling Birch Glazing, ${MARK} two.` }),
      owners[2]!.client.post('/api/agent/preview', { question: `Do you fit skylights? ${MARK}`, knowledgeBase: KB }),
      owners[3]!.client.post('/api/agent/preview', { question: `Do you clear gutters? ${MARK}`, knowledgeBase: KB }),
    ];
    // Every preview is in the voice engine or waiting for it (the two agent previews share one
    // answer text, synthesised once): the engine is as busy as the preview caps allow.
    const pool = h.server.services.agentEngines.pools.tts;
    await waitUntil(() => {
      const stats = pool.stats();
      const inEngine = held.size + stats.waiting.background;
      if (inEngine < 3) throw new Error(`${held.size} previews held, ${stats.waiting.background} waiting`);
    }, 60_000, 50);
    expect(held.size).toBeGreaterThan(0);

    const q = await askAgent(h, call, 'What are your opening hours?');
    await hearsAgent(h, call, q.endedAt, HOURS);
    // Still held while the caller was answered: the answer did not wait for them.
    expect([...held.keys()].every((t) => t.includes(MARK))).toBe(true);
    expect(held.size).toBeGreaterThan(0);

    await call.hangUp();
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'answered', mode: 'agent', agentStalled: false });
    expect(row.transcription).toContain(`Caller: What are your opening hours?\nAgent: ${HOURS}`);

    // The previews were only waiting: released (and those queued behind them as they start),
    // each one finishes with its audio.
    let settled = false;
    const answers = Promise.all(previews).finally(() => (settled = true));
    await waitUntil(() => {
      for (const [text, release] of held) {
        held.delete(text);
        release();
      }
      if (!settled) throw new Error('previews still running');
    }, 60_000, 50);
    for (const res of await answers) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.audioUrl).toMatch(/^\/api\/agent\/preview\/audio\//);
    }
  });
});
