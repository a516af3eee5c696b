import type { OllamaRequest } from './server.js';

/**
 * A replier for the Ollama double that answers a conversation from the knowledge base in its
 * system prompt (the first `A:` line of the business it was built for), so concurrent calls
 * to different businesses each get their own answer; a summary request (`stream: false`, the
 * post-call pipeline) gets `summary`.
 */
export function knowledgeBaseReplier(summary: string): (req: OllamaRequest) => string {
  return (req) => {
    if (req.body.stream === false) return summary;
    const system = String((req.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'system')?.content ?? '');
    const answer = system.match(/^\s*A: (.+)$/m)?.[1];
    return JSON.stringify(answer ? { intent: 'question', answered: true, answer } : { intent: 'question', answered: false, answer: '' });
  };
}
