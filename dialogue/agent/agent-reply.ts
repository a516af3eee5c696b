// The structured-output contract between the agent and the language model.
// The model answers every caller turn with one JSON object, keys in this order:
//   {"intent": "question"|"message"|"human"|"urgent"|"goodbye", "answered": true|false, "answer": "…"}
// intent and answered come first on purpose: when the reply is streamed, the agent knows
// whether the knowledge base covered the question before the first word of the answer
// arrives, so it can start speaking the answer at once (or switch to the admission).
// With a booking desk (issue 41) the model may also say "book" and, after those three keys,
// what the caller chose in the booking step it was shown: "choice" (an id from the list it was
// given: never a time), "name", "number", "yes". Code decides every time; see booking-walk.ts.

const AGENT_INTENTS = ['question', 'message', 'human', 'urgent', 'goodbye', 'book'] as const;
export type AgentIntent = (typeof AGENT_INTENTS)[number];

export interface AgentReply {
  intent: AgentIntent;
  /** True only when the knowledge base covered what the caller asked. */
  answered: boolean;
  /** What to say to the caller (may be empty when the agent uses a fixed line). */
  answer: string;
  /** False when the model's output could not be read: the agent treats it as not answered. */
  wellFormed: boolean;
  /** What the caller chose in a booking step; absent when the model did not say. */
  booking?: BookingChoice;
}

/** The model's reading of a booking turn: only ids it was shown, the caller's name and digits, a yes or no. */
export interface BookingChoice {
  /** An id from the list in the prompt ("s1", "v2", "cancel", …), or "other" / "none". */
  choice?: string;
  name?: string;
  number?: string;
  yes?: boolean;
}

/** JSON schema handed to engines that support constrained output (Ollama `format`). */
export const AGENT_REPLY_SCHEMA = {
  type: 'object',
  properties: {
    intent: { type: 'string', enum: [...AGENT_INTENTS] },
    answered: { type: 'boolean' },
    answer: { type: 'string' },
    // Optional: only a prompt with a booking desk asks for them.
    choice: { type: 'string' },
    name: { type: 'string' },
    number: { type: 'string' },
    yes: { type: 'boolean' },
  },
  required: ['intent', 'answered', 'answer'],
} as const;

const NOT_ANSWERED: AgentReply = { intent: 'question', answered: false, answer: '', wellFormed: false };

function asBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no') return false;
  return undefined;
}

function asIntent(v: unknown): AgentIntent {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return (AGENT_INTENTS as readonly string[]).includes(s) ? (s as AgentIntent) : 'question';
}

/**
 * Reads the model's whole reply. Tolerates code fences, prose around the object and
 * string booleans; anything unreadable falls back to "not answered", so a confused
 * model makes the agent admit it does not know rather than invent something.
 */
export function parseAgentReply(raw: string): AgentReply {
  const start = raw.indexOf('{');
  const end = raw.lastIndexOf('}');
  if (start < 0 || end <= start) return { ...NOT_ANSWERED };
  let obj: unknown;
  try {
    obj = JSON.parse(raw.slice(start, end + 1));
  } catch {
    return { ...NOT_ANSWERED };
  }
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return { ...NOT_ANSWERED };
  const o = obj as Record<string, unknown>;
  const answer = typeof o.answer === 'string' ? o.answer.trim() : '';
  const answered = asBoolean(o.answered);
  const intent = asIntent(o.intent);
  const booking = bookingChoice(o);
  if (answered === undefined) return { ...NOT_ANSWERED, intent, answer, ...(booking ? { booking } : {}) };
  // "Answered" with nothing to say is not an answer.
  return { intent, answered: answered && answer.length > 0, answer, wellFormed: true, ...(booking ? { booking } : {}) };
}

function bookingChoice(o: Record<string, unknown>): BookingChoice | undefined {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined);
  const choice = text(o.choice)?.toLowerCase();
  const name = text(o.name);
  const number = text(o.number);
  const yes = asBoolean(o.yes);
  if (choice === undefined && name === undefined && number === undefined && yes === undefined) return undefined;
  return { ...(choice !== undefined && { choice }), ...(name !== undefined && { name }), ...(number !== undefined && { number }), ...(yes !== undefined && { yes }) };
}

export type ReplyStreamEvent =
  | { type: 'intent'; intent: AgentIntent }
  | { type: 'answered'; answered: boolean }
  | { type: 'answer'; text: string };

/**
 * Incremental reader of the JSON reply while it streams in: reports intent and answered
 * as soon as their values are complete, and the answer string as it grows (decoded), so
 * the sentence splitter can hand the first sentence to TTS while the model still writes.
 * Anything it does not understand is ignored; the final word is parseAgentReply's.
 */
export class ReplyStreamReader {
  private state: 'before' | 'key' | 'colon' | 'value' | 'string' | 'literal' | 'after' | 'done' = 'before';
  private key = '';
  private token = '';
  private inKey = false;
  private escape: string | null = null;
  private depth = 0;
  private seen = new Set<string>();

  push(chunk: string): ReplyStreamEvent[] {
    const out: ReplyStreamEvent[] = [];
    for (const ch of chunk) this.step(ch, out);
    // Merge adjacent answer pieces of this chunk into one event.
    const merged: ReplyStreamEvent[] = [];
    for (const e of out) {
      const last = merged[merged.length - 1];
      if (e.type === 'answer' && last?.type === 'answer') last.text += e.text;
      else merged.push(e);
    }
    return merged;
  }

  private step(ch: string, out: ReplyStreamEvent[]): void {
    switch (this.state) {
      case 'before':
        if (ch === '{') this.state = 'key';
        return;
      case 'key':
        if (ch === '"') {
          this.inKey = true;
          this.token = '';
          this.state = 'string';
        } else if (ch === '}') this.state = 'done';
        return;
      case 'colon':
        if (ch === ':') this.state = 'value';
        return;
      case 'value':
        if (/\s/.test(ch)) return;
        if (ch === '"') {
          this.inKey = false;
          this.token = '';
          this.state = 'string';
        } else if (ch === '{' || ch === '[') {
          this.depth = 1;
          this.state = 'literal';
          this.token = ch;
        } else {
          this.state = 'literal';
          this.token = ch;
        }
        return;
      case 'literal':
        if (this.token.startsWith('{') || this.token.startsWith('[')) {
          // A nested value we do not use: skip to its end.
          if (ch === '{' || ch === '[') this.depth++;
          if (ch === '}' || ch === ']') this.depth--;
          this.token += ch;
          if (this.depth === 0) this.state = 'after';
          return;
        }
        if (ch === ',' || ch === '}' || /\s/.test(ch)) {
          this.finishLiteral(out);
          this.state = ch === ',' ? 'key' : ch === '}' ? 'done' : 'after';
          return;
        }
        this.token += ch;
        return;
      case 'after':
        if (ch === ',') this.state = 'key';
        else if (ch === '}') this.state = 'done';
        return;
      case 'string':
        this.stringChar(ch, out);
        return;
      case 'done':
        return;
    }
  }

  private stringChar(ch: string, out: ReplyStreamEvent[]): void {
    let decoded: string | null = null;
    if (this.escape !== null) {
      this.escape += ch;
      if (this.escape.startsWith('u')) {
        if (this.escape.length < 5) return;
        decoded = String.fromCharCode(parseInt(this.escape.slice(1), 16) || 32);
      } else {
        decoded = { n: '\n', t: '\t', r: '\r', b: '', f: '' }[this.escape] ?? this.escape;
      }
      this.escape = null;
    } else if (ch === '\\') {
      this.escape = '';
      return;
    } else if (ch === '"') {
      if (this.inKey) {
        this.key = this.token;
        this.state = 'colon';
      } else {
        this.finishString(out);
        this.state = 'after';
      }
      return;
    } else {
      decoded = ch;
    }
    this.token += decoded;
    if (!this.inKey && this.key === 'answer' && !this.seen.has('answer')) out.push({ type: 'answer', text: decoded });
  }

  private finishString(out: ReplyStreamEvent[]): void {
    const key = this.key;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (key === 'intent') out.push({ type: 'intent', intent: asIntent(this.token) });
    if (key === 'answered') {
      const b = asBoolean(this.token);
      if (b !== undefined) out.push({ type: 'answered', answered: b });
    }
  }

  private finishLiteral(out: ReplyStreamEvent[]): void {
    const key = this.key;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (key === 'answered') {
      const b = asBoolean(this.token);
      if (b !== undefined) out.push({ type: 'answered', answered: b });
    }
  }
}
