import { maskUrl } from '../../contract/mask-url.js';

/** One line of `POST /api/pull`'s NDJSON progress: a layer's bytes while it downloads, a status otherwise. */
export interface PullProgress {
  status: string;
  digest?: string;
  total?: number;
  completed?: number;
}

const base = (host: string) => host.replace(/\/+$/, '');

/**
 * Whether `model` is among the models an Ollama server has (`GET /api/tags`). A name without a
 * tag means `:latest`, as Ollama itself reads it. Throws with what to do when the server does not answer.
 */
export async function ollamaHasModel(host: string, model: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  let res: Response;
  try {
    res = await fetchImpl(`${base(host)}/api/tags`, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new Error(`Ollama is unreachable at ${maskUrl(host)} (${(err as Error).message}): check that the ollama service is running`, { cause: err });
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`Ollama at ${maskUrl(host)} answered ${res.status} when asked for its models`);
  }
  const body = (await res.json()) as { models?: { name?: string; model?: string }[] };
  const wanted = withTag(model);
  return (body.models ?? []).some((m) => withTag(m.name ?? m.model ?? '') === wanted);
}

function withTag(name: string): string {
  return name.includes(':') ? name : `${name}:latest`;
}

/**
 * Pulls `model` onto an Ollama server (`POST /api/pull`, streamed), reporting each progress
 * line; resolves once Ollama says "success". Ollama reports a failure as a `{"error"}` line
 * inside a 200 stream (or as a non-2xx answer): both throw with Ollama's words.
 */
export async function ollamaPull(host: string, model: string, onProgress: (p: PullProgress) => void, opts: { signal?: AbortSignal; fetch?: typeof fetch } = {}): Promise<void> {
  const fetchImpl = opts.fetch ?? fetch;
  let res: Response;
  try {
    res = await fetchImpl(`${base(host)}/api/pull`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true }),
      signal: opts.signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new Error(`Ollama is unreachable at ${maskUrl(host)} (${(err as Error).message})`, { cause: err });
  }
  if (!res.ok || !res.body) {
    const text = await res.text().catch(() => '');
    throw new Error(`Ollama refused to pull ${model}: ${errorOf(text) ?? `HTTP ${res.status}`}`);
  }
  let done = false;
  const decoder = new TextDecoder();
  let buffered = '';
  const handle = (line: string) => {
    if (!line.trim()) return;
    let parsed: PullProgress & { error?: string };
    try {
      parsed = JSON.parse(line) as PullProgress & { error?: string };
    } catch {
      return; // a line Ollama's protocol does not have: progress is only a report
    }
    if (parsed.error) throw new Error(`Ollama could not pull ${model}: ${parsed.error}`);
    if (parsed.status === 'success') done = true;
    onProgress(parsed);
  };
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      handle(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  }
  handle(buffered);
  if (!done) throw new Error(`Ollama stopped pulling ${model} before it finished (the connection closed early)`);
}

function errorOf(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { error?: string }).error;
  } catch {
    return text.trim() || undefined;
  }
}
