/** The reply's text so far, from the complete NDJSON lines of an Ollama /api/chat stream. */
const textOf = (ndjson: string) =>
  ndjson
    .split('\n')
    .slice(0, -1)
    .map((l) => (JSON.parse(l) as { message: { content: string } }).message.content)
    .join('');

/**
 * Reads a streamed /api/chat answer until its text so far includes `phrase` (or the stream ends):
 * that text, and the reader, which the test cancels when it is done with the rest.
 */
export async function streamedUntil(res: Response, phrase: string): Promise<{ text: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let streamed = '';
  while (!textOf(streamed).includes(phrase)) {
    const { value, done } = await reader.read();
    if (done) break;
    streamed += decoder.decode(value, { stream: true });
  }
  return { text: textOf(streamed), reader };
}
