import { describe, expect, it } from 'vitest';
import { LanguageModelError } from './language-model.js';
import { createOllamaReplyStreamer } from './ollama-stream.js';

describe('createOllamaReplyStreamer failures', () => {
  const failing = (status: number): typeof fetch => async () => new Response(JSON.stringify({ error: `status ${status}` }), { status, headers: { 'content-type': 'application/json' } });
  async function failureOf(status: number): Promise<LanguageModelError> {
    const streamer = createOllamaReplyStreamer({ host: 'http://ollama.test', model: 'm', format: { type: 'object' }, fetch: failing(status) });
    try {
      for await (const _ of streamer.stream([{ role: 'user', content: 'hi' }])) void _;
    } catch (err) {
      return err as LanguageModelError;
    }
    throw new Error('the stream did not fail');
  }

  it.each([408, 429, 500, 503])('treats HTTP %i as worth retrying', async (status) => {
    const err = await failureOf(status);
    expect(err).toBeInstanceOf(LanguageModelError);
    expect(err.status).toBe(status);
    expect(err.retryable).toBe(true);
  });

  it.each([400, 404])('treats HTTP %i as permanent', async (status) => {
    const err = await failureOf(status);
    expect(err.status).toBe(status);
    expect(err.retryable).toBe(false);
  });
});
