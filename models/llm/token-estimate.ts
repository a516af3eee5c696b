// A dependency-free estimate of how many tokens a language model reads for a text: one token
// per 4 characters, rounded up. Llama 3's tokenizer (a 128k-entry BPE, the models Ollama runs
// here) takes about 4 characters per token on English prose, as OpenAI's ~4 characters per
// token rule of thumb for a vocabulary of that size; digits, £ signs and JSON punctuation cost
// more per character, so prompts heavy with them are estimated a little low. Used for bounds
// and benches, never for billing: a bound of N estimated tokens is a bound of 4N characters.

const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
