import fs from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../../config/paths.js';
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { OneOf } from '../../../contract/schemas/shared.js';
import { URGENCIES } from '../../../dialogue/summary/summary.js';

// The evaluation set (eval/set/*.json, described in eval/set/README.md): the caller messages
// whose recordings audio.ts makes, and the agent conversations. Read and checked here,
// so a mistake in an added entry is named before any engine is asked anything.

// The set is data beside the evaluation's CLI (eval/set), found from the project root whether run from source or dist/.
const SET_DIR = path.join(projectRoot(), 'eval', 'set');

const Urgency = OneOf(URGENCIES);

const MessageSchema = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9-]+$' }),
  /** An espeak-ng voice, UK English, with an optional variant: "en-gb-x-rp+f2". */
  voice: Type.String({ pattern: '^en-gb[a-z-]*(\\+[a-z0-9]+)?$' }),
  /** espeak-ng's words per minute. */
  speed: Type.Integer({ minimum: 80, maximum: 260 }),
  /** Background noise mixed under the speech: sox's synth colour and its amplitude (0..1). */
  noise: Type.Union([Type.Null(), Type.Object({ colour: Type.Union([Type.Literal('whitenoise'), Type.Literal('pinknoise'), Type.Literal('brownnoise')]), level: Type.Number({ exclusiveMinimum: 0, maximum: 0.5 }) })]),
  /** The caller ID the network delivered (E.164), or "" when withheld: what the summary prompt is given. */
  callerId: Type.String(),
  /** What the caller says, spoken by espeak-ng as written: the reference transcript. */
  transcript: Type.String({ minLength: 1 }),
  facts: Type.Object({
    callerName: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
    /** The number the caller asked to be rung back on, as written: null when they gave none. */
    callbackNumber: Type.Union([Type.String({ pattern: '^0[0-9 ]+$' }), Type.Null()]),
    /** Words a summary must carry to say what the caller wants; each matches a word it begins ("servic" → "service", "servicing"). */
    wants: Type.Array(Type.String({ minLength: 2 }), { minItems: 1 }),
    urgency: Urgency,
    /** Whether the caller wants a visit or an appointment booked. */
    booking: Type.Boolean(),
  }),
});

const EXPECTATIONS = ['answer', 'refuse', 'human', 'urgent', 'message', 'goodbye'] as const;

const TurnSchema = Type.Object({
  caller: Type.String({ minLength: 1 }),
  /** answer: the knowledge base covers it; refuse: it does not (the agent must say it does not know); the rest: the intent the reply must carry. */
  expect: OneOf(EXPECTATIONS),
  /** Phrases a right answer holds (numbers in any written form). */
  mustContain: Type.Array(Type.String({ minLength: 1 })),
  /** Phrases the agent must never say here: promises, prices or times not in the knowledge base. */
  mustNeverSay: Type.Array(Type.String({ minLength: 1 })),
});

const ConversationSchema = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9-]+$' }),
  business: Type.String(),
  turns: Type.Array(TurnSchema, { minItems: 1 }),
});

const MessagesFile = Type.Object({ messages: Type.Array(MessageSchema, { minItems: 1 }) });
const ConversationsFile = Type.Object({
  businesses: Type.Record(Type.String(), Type.Object({ name: Type.String({ minLength: 1 }), knowledgeBase: Type.String({ minLength: 1 }) })),
  conversations: Type.Array(ConversationSchema, { minItems: 1 }),
});

export type EvalMessage = Static<typeof MessageSchema>;
export type EvalTurn = Static<typeof TurnSchema>;
export type EvalConversation = Static<typeof ConversationSchema> & { businessName: string; knowledgeBase: string };

export interface EvalSet {
  messages: EvalMessage[];
  conversations: EvalConversation[];
}

/** Reads and checks the set; an entry that breaks the format is named with what is wrong. */
export async function loadEvalSet(dir = SET_DIR): Promise<EvalSet> {
  const messages = checked(MessagesFile, await readJson(path.join(dir, 'messages.json')), 'messages.json').messages;
  const convFile = checked(ConversationsFile, await readJson(path.join(dir, 'conversations.json')), 'conversations.json');
  const conversations = convFile.conversations.map((c) => {
    const b = convFile.businesses[c.business];
    if (!b) throw new Error(`eval/set/conversations.json: conversation ${c.id} names business "${c.business}", which "businesses" does not define`);
    return { ...c, businessName: b.name, knowledgeBase: b.knowledgeBase };
  });
  for (const [what, ids] of [['messages.json', messages.map((m) => m.id)], ['conversations.json', conversations.map((c) => c.id)]] as const) {
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup) throw new Error(`eval/set/${what}: the id "${dup}" is used twice; give each entry its own`);
  }
  return { messages, conversations };
}

/** `n` items spread evenly over `list` (every kind of entry, not just the first few). */
export function spread<T>(list: T[], n: number): T[] {
  if (n >= list.length) return list;
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`eval/set: cannot read ${file}: ${(err as Error).message}`);
  }
}

function checked<T extends TSchema>(schema: T, data: unknown, name: string): Static<T> {
  if (Value.Check(schema, data)) return data as Static<T>;
  const first = [...Value.Errors(schema, data)][0];
  throw new Error(`eval/set/${name} is not in the set's format at ${first?.instancePath || '/'}: ${first?.message ?? 'invalid'}`);
}
