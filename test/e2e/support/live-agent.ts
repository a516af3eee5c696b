import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { tablesOf } from '../../../core/db/schema.js';
import { eq } from 'drizzle-orm';
import { attachMediaSim, type CallerStep, type MediaSim } from '../../ari-sim/media/rtp-sim.js';
import { AriSimulator, type CallOutcome } from '../../ari-sim/simulator.js';
import { startOllamaDouble, type OllamaDouble } from '../../doubles/ollama/server.js';
import { startWhisperDouble, type WhisperDouble } from '../../doubles/whisper/server.js';
import { PUSH_SERVICE_CA, startPushService, type PushServiceDouble } from '../../doubles/web-push/push-service.js';
import { activeCustomer } from '../../helpers/accounts.js';
import type { ApiClient } from '../../helpers/client.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';
import { APP, agentOnSimulatorEnv } from '../../agent/harness.js';
import { CHROMIUM_ARGS, adoptSession } from './browser.js';
import { ensureConsoleBuilt } from './build-console.js';

// The e2e appliance with a phone line behind it (issue 54's Live page): the built console on the
// real core and PBX against the ARI simulator (real RTP, VAD and espeak-ng, the Ollama and Whisper
// doubles, as test/agent/harness.ts wires them), so a call in progress reaches the Live page by
// the path a real one takes; and the push-service double, whose loopback endpoints the devices'
// routes accept only with the test seam. startE2E has neither, so this starts its own.


export interface LiveAgentE2E {
  server: TestServer;
  browser: Browser;
  sim: AriSimulator;
  media: MediaSim;
  ollama: OllamaDouble;
  whisper: WhisperDouble;
  pushService: PushServiceDouble;
  /** A fresh browser context (service workers blocked, as startE2E's) and a page in it. */
  page(opts: { width: number; height?: number }): Promise<Page>;
  /** A signed-up owner whose line (`did`) is answered by the AI assistant. */
  agentOwner(businessName: string, did: string, knowledgeBase?: string): Promise<Awaited<ReturnType<typeof activeCustomer>> & { did: string }>;
  /** Rings `did` from `from`; the caller follows `steps`; resolves when the call is over. */
  call(did: string, from: string, steps: CallerStep[]): { channelId: string; done: Promise<CallOutcome> };
  /** A signed-in owner's page. */
  ownerPage(client: ApiClient, opts: { width: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

export async function startLiveAgentE2E(): Promise<LiveAgentE2E> {
  const consoleDir = ensureConsoleBuilt();
  const sim = new AriSimulator({ timeScale: 1 });
  await sim.start();
  const media = await attachMediaSim(sim);
  const ollama = await startOllamaDouble();
  const whisper = await startWhisperDouble();
  const pushService = await startPushService();
  const server = await startTestServer({
    consoleDir,
    env: agentOnSimulatorEnv(sim, ollama, whisper),
    // A caller who has said their piece stays on the line while the pages are checked: the
    // assistant's "Are you still there?" would otherwise close the call before End call is pressed.
    agent: () => ({ overrides: { timing: { silencePromptMs: 10 * 60_000 } } }),
    pbx: { backoff: { baseMs: 100, maxMs: 1000 } },
    push: { testPushService: { allowLoopback: true, ca: PUSH_SERVICE_CA } },
  });
  const pbx = server.appliance.pbx!;
  const agent = server.appliance.agent!;
  await waitUntil(() => {
    if (!sim.appConnected(APP) || pbx.link.state !== 'connected' || !sim.appConnected(agent.mediaApp.name)) throw new Error('PBX not connected yet');
  }, 30_000);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];

  const page: LiveAgentE2E['page'] = async ({ width, height = 900 }) => {
    const ctx = await browser.newContext({ viewport: { width, height }, baseURL: server.url, serviceWorkers: 'block' });
    contexts.push(ctx);
    const p = await ctx.newPage();
    p.setDefaultTimeout(10_000);
    return p;
  };

  return {
    server,
    browser,
    sim,
    media,
    ollama,
    whisper,
    pushService,
    page,
    async agentOwner(businessName, did, knowledgeBase) {
      const owner = await activeCustomer(server, { businessName });
      const { phoneNumbers, users } = tablesOf(server.database.db);
      await server.database.db.update(users).set({ aiMode: 'agent', ...(knowledgeBase ? { knowledgeBase } : {}) }).where(eq(users.id, owner.user.id));
      await server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: owner.user.id, assignedAt: new Date() });
      return { ...owner, did };
    },
    call(did, from, steps) {
      const placed = sim.call({ app: APP, from, did });
      media.script(placed.channelId, steps);
      return { channelId: placed.channelId, done: placed.done };
    },
    async ownerPage(client, opts) {
      const p = await page(opts);
      await adoptSession(p, client, server.url);
      return p;
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
      await server.close();
      media.close();
      await sim.stop();
      await ollama.close();
      await whisper.close();
      await pushService.close();
    },
  };
}
