import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { tablesOf, type NewUser } from '../../core/db/schema.js';
import { createPromptCache, createTextToSpeech, type PromptCache, type Voice } from '../../models/tts/index.js';
import type { Pbx, PbxOptions } from '../../pbx/index.js';
import type { Services } from '../../core/services.js';
import { eventShapeProblems } from '../ari-sim/event-shapes.js';
import { AriSimulator } from '../ari-sim/simulator.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

export const APP = 'call-answering';
export const CALLER = '+447700900999';

export interface Harness {
  sim: AriSimulator;
  server: TestServer;
  pbx: Pbx;
  prompts: PromptCache;
  finished: number[];
  /** Adds a business (user row) and assigns it a DID. */
  business(fields?: Partial<NewUser>, did?: string): Promise<{ userId: number; did: string }>;
  prompt(text: string, voice: Voice): Promise<string>;
  recordingsDir: string;
  /** Event shape problems and REST violations seen so far (both must stay empty). */
  protocolProblems(): string[];
  close(): Promise<void>;
}

let didSeq = 100;

/**
 * The real core (temp SQLite, real HTTP server) with the PBX connected through the real
 * events socket and REST client (pbx/ari/) to the ARI simulator, and real espeak-ng prompts the simulator plays from
 * $DATA_DIR/prompts exactly as Asterisk would from its mounted sounds folder.
 */
export async function startHarness(
  opts: { timeScale?: number; pbx?: PbxOptions; beforePbx?: (sim: AriSimulator, services: Services) => Promise<void> } = {},
): Promise<Harness> {
  const sim = new AriSimulator({ timeScale: opts.timeScale ?? 10 });
  await sim.start();
  const finished: number[] = [];
  let prompts!: PromptCache;
  const server = await startTestServer({
    env: { ARI_URL: sim.url, ARI_USERNAME: sim.credentials.username, ARI_PASSWORD: sim.credentials.password, ARI_APP: APP, TTS_ENGINE: 'espeak-ng' },
    setup: async (services) => {
      sim.mountSounds('appliance', path.join(services.config.dataDir, 'prompts'));
      prompts = createPromptCache({ dataDir: services.config.dataDir, tts: createTextToSpeech(services.config.tts) });
      services.hooks.callFinished.push((id) => finished.push(id));
      await opts.beforePbx?.(sim, services);
    },
    pbx: () => ({ prompts, backoff: { baseMs: 100, maxMs: 1000 }, ...opts.pbx }),
  });
  const pbx = server.appliance.pbx!;
  await vi.waitFor(() => {
    if (!sim.appConnected(APP) || pbx.link.state !== 'connected') throw new Error('PBX not connected yet');
  }, { timeout: 15_000 });
  return {
    sim,
    server,
    pbx,
    prompts,
    finished,
    recordingsDir: path.join(server.dataDir, 'recordings'),
    async business(fields = {}, did = `+4477009${String(++didSeq).padStart(5, '0')}`) {
      const { phoneNumbers, users } = tablesOf(server.database.db);
      const user = (await server.database.db
        .insert(users)
        .values({ email: `owner${didSeq}-${Math.random().toString(36).slice(2, 8)}@example.co.uk`, passwordHash: 'x', accountStatus: 'active', ...fields })
        .returning())[0]!;
      await server.database.db
        .insert(phoneNumbers)
        .values({ phoneNumber: did, provider: 'static', providerSid: did, userId: user.id, assignedAt: new Date() });
      return { userId: user.id, did };
    },
    async prompt(text, voice) {
      return (await prompts.get(text, voice)).mediaUri;
    },
    protocolProblems() {
      const problems = sim.violations.map((v) => `REST ${v.method} ${v.path}: ${v.status} ${v.message}`);
      for (const e of sim.sentEvents) {
        if (sim.spec.eventTypes.has(String(e.type))) problems.push(...eventShapeProblems(sim.spec, e));
      }
      return problems;
    },
    async close() {
      await server.close();
      await sim.stop();
      fs.rmSync(path.join(server.dataDir), { recursive: true, force: true });
    },
  };
}
