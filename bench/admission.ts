// What the agent-mode admission decision costs a call at answer (issue 27: "decided in under
// 20 ms"): the engine pools' admitConversation() as the core builds them from its
// configuration (three Ollama servers of 4 slots, two whisper.cpp servers of 2), timed while
// the pools fill from empty to full and once full (every call turned away). It reads counters
// only; nothing here touches a network. Prints figures; asserts nothing.
// Run: npx tsx bench/admission.ts
import { loadConfig } from '../core/config/config.js';
import { createEnginePools } from '../core/engines/engine-pools.js';
import type { Admission } from '../models/pool/engine-pool.js';
import { percentile, report } from './lib/report.js';

const ROUNDS = 2_000;
const pools = createEnginePools(
  loadConfig({
    OLLAMA_URL: 'http://127.0.0.1:9/a,http://127.0.0.1:9/b,http://127.0.0.1:9/c',
    OLLAMA_SLOTS: '4',
    WHISPER_URL: 'http://127.0.0.1:9/w1,http://127.0.0.1:9/w2',
    WHISPER_SLOTS: '2',
  }),
);

const admitted: number[] = [];
const refused: number[] = [];
let capacity = 0;
for (let round = 0; round < ROUNDS; round++) {
  const held: Admission[] = [];
  for (;;) {
    const t = performance.now();
    const slot = pools.admitConversation();
    const ms = performance.now() - t;
    if (!slot) {
      refused.push(ms);
      break;
    }
    admitted.push(ms);
    held.push(slot);
  }
  capacity = held.length;
  for (const slot of held) slot.release();
}
pools.close();

const us = (samples: number[], p: number) => `${(percentile(samples, p) * 1000).toFixed(1)} µs`;
console.log(`conversations the pools admit: ${capacity}; ${admitted.length} admissions and ${refused.length} refusals timed`);
for (const [what, samples] of [['admitted', admitted], ['turned away (pools full)', refused]] as const) {
  const line = `p50 ${us(samples, 50)}, p99 ${us(samples, 99)}, max ${us(samples, 100)}`;
  console.log(`admission decision, ${what}: ${line}`);
  report({ bench: 'agent admission', measure: `decision at answer, ${what}: p50 / p99 / max`, value: `${us(samples, 50)} / ${us(samples, 99)} / ${us(samples, 100)}`, budget: '< 20 ms' });
}
