import { maskUrl } from '../../contract/mask-url.js';
import client from 'prom-client';
import type { EnginePools } from '../engines/engine-pools.js';

/**
 * The engine pools' figures, read at scrape time like the database counts: slots and slots in
 * use per endpoint, whether it is in the pool, the faults that took it out, requests waiting,
 * how long they waited (a summary: sum and count), and agent calls refused per engine.
 */
export function registerEngineMetrics(registry: client.Registry, pools: EnginePools): void {
  const all = () => [pools.llm, pools.stt, pools.tts].filter((p) => p !== undefined).map((p) => p.stats());
  const perEndpoint = (name: string, help: string, value: (e: ReturnType<typeof all>[number]['endpoints'][number]) => number) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['engine', 'endpoint'],
      registers: [registry],
      collect() {
        this.reset();
        for (const p of all()) for (const e of p.endpoints) this.set({ engine: p.engine, endpoint: maskUrl(e.url) }, value(e));
      },
    });
  perEndpoint('appliance_engine_slots', 'Requests an engine endpoint serves at once (OLLAMA_SLOTS, WHISPER_SLOTS, TTS_SLOTS)', (e) => e.slots);
  perEndpoint('appliance_engine_slots_in_use', 'Slots of an engine endpoint serving a request now', (e) => e.inUse);
  perEndpoint('appliance_engine_endpoint_up', '1 while the endpoint is in its pool, 0 while taken out after a fault', (e) => (e.healthy ? 1 : 0));
  perEndpoint('appliance_engine_endpoint_faults', 'Requests the endpoint failed (unreachable, timed out, 5xx), since start', (e) => e.faults);

  const perPriority = (name: string, help: string, value: (p: ReturnType<typeof all>[number], priority: 'live' | 'background') => number) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['engine', 'priority'],
      registers: [registry],
      collect() {
        this.reset();
        for (const p of all()) for (const priority of ['live', 'background'] as const) this.set({ engine: p.engine, priority }, value(p, priority));
      },
    });
  perPriority('appliance_engine_waiting', 'Requests waiting for a slot now (live calls before the post-call pipeline)', (p, pr) => p.waiting[pr]);
  perPriority('appliance_engine_queue_wait_seconds_sum', 'Seconds requests waited for a slot, summed since start', (p, pr) => p.waited[pr].seconds);
  perPriority('appliance_engine_queue_wait_seconds_count', 'Requests that waited for a slot, since start', (p, pr) => p.waited[pr].count);

  new client.Gauge({
    name: 'appliance_agent_refusals',
    help: 'Agent calls turned to voicemail because this engine had no room for another conversation, since start',
    labelNames: ['engine'],
    registers: [registry],
    collect() {
      this.reset();
      for (const p of all()) if (p.engine !== 'tts') this.set({ engine: p.engine }, p.refusals);
    },
  });
  new client.Gauge({
    name: 'appliance_agent_conversations',
    help: 'Agent conversations in progress (each holds its share of the engines to the end of the call)',
    registers: [registry],
    collect() {
      this.set(pools.llm.stats().conversations);
    },
  });
}
