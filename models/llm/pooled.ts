import type { EnginePool, Priority } from '../pool/engine-pool.js';
import type { ChatMessage, LanguageModel, ReplyStreamer } from './language-model.js';

/** One client per endpoint, made on first use. */
function perEndpoint<T>(make: (host: string) => T): (host: string) => T {
  const made = new Map<string, T>();
  return (host) => made.get(host) ?? made.set(host, make(host)).get(host)!;
}

/** A language model over the pool's endpoints: each chat takes a slot at `priority`. */
export function pooledLanguageModel(pool: EnginePool, priority: Priority, make: (host: string) => LanguageModel): LanguageModel {
  const client = perEndpoint(make);
  return {
    name: `${client(pool.stats().endpoints[0]!.url).name} (pool of ${pool.stats().endpoints.length})`,
    chat: (messages, opts = {}) => pool.run(priority, (host, signal) => client(host).chat(messages, { ...opts, signal }), opts.signal),
  };
}

/**
 * A streamed reply over the pool: the slot is held until the stream ends. An endpoint that
 * fails before its first piece is taken out and the turn goes to another one at once, so a
 * caller whose engine died mid-conversation loses no more than that wait; once pieces have
 * been spoken a failure is the turn's (the agent says so) and is not retried.
 */
export function pooledReplyStreamer(pool: EnginePool, priority: Priority, make: (host: string) => ReplyStreamer): ReplyStreamer {
  const client = perEndpoint(make);
  return {
    name: `${client(pool.stats().endpoints[0]!.url).name} (pool of ${pool.stats().endpoints.length})`,
    async *stream(messages: ChatMessage[], opts: { signal?: AbortSignal } = {}) {
      const endpoints = pool.stats().endpoints.length;
      for (let attempt = 1; ; attempt++) {
        const lease = await pool.acquire(priority, opts.signal);
        let pieces = 0;
        let failure: unknown;
        try {
          for await (const piece of client(lease.url).stream(messages, opts)) {
            pieces++;
            yield piece;
          }
          return;
        } catch (err) {
          failure = err;
          const fault = !opts.signal?.aborted && pool.isFault(err);
          if (!fault) failure = undefined;
          if (!fault || pieces > 0 || attempt >= endpoints || pool.capacity() === 0) throw err;
        } finally {
          lease.done(failure);
        }
      }
    },
  };
}
