import { CALL_CLASSES } from '../../contract/enums.js';

export type CallClass = (typeof CALL_CLASSES)[number];

/**
 * How far into the caller's words a recorded message's signs count: about the first ten seconds
 * of speech (people speak some 2.5 words a second). A customer who says "press one" late in a
 * real message ("I tried to press one but...") is not a robot; a robocall says it up front.
 */
const OPENING_WORDS = 25;

/**
 * What a recorded or automated message says up front (UK robocalls and IVR diallers): a menu
 * choice, or it announcing itself. Matched on the caller's words lower-cased with punctuation gone.
 */
const RECORDED_SIGNS: readonly RegExp[] = [
  /\bpress (?:one|two|three|nine|zero|1|2|3|9|0)\b/,
  /\bthis is an? (?:automated|recorded|pre ?recorded) (?:message|call)\b/,
  /\byou may be entitled to\b/,
  /\bto speak to an? (?:advisor|adviser|agent|operator)\b/,
];

/** The caller's words only: an agent call's transcript has "Caller:" and "Agent:" lines. */
export function callerWords(transcript: string): string {
  const lines = transcript.split(/\r?\n/);
  const labelled = lines.some((l) => /^\s*(caller|agent|receptionist)\s*:/i.test(l));
  if (!labelled) return transcript;
  return lines
    .filter((l) => /^\s*caller\s*:/i.test(l))
    .map((l) => l.replace(/^\s*caller\s*:/i, ''))
    .join(' ');
}

/** The first words the caller said, lower-cased, punctuation turned to spaces. */
function opening(words: string): string {
  return words
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, OPENING_WORDS)
    .join(' ');
}

/** The rules' own verdict from the transcript, whatever the model says; null when they have none. */
export function ruleClass(transcript: string): CallClass | null {
  const words = callerWords(transcript).trim();
  // No speech at all: a silent dialler (or an open line). Whisper's "[BLANK_AUDIO]" style
  // markers and lone punctuation are not speech either.
  if (!/[a-z0-9]/i.test(words.replace(/\[[^\]]*\]|\([^)]*\)/g, ''))) return 'silent';
  const first = opening(words);
  if (RECORDED_SIGNS.some((sign) => sign.test(first))) return 'recorded';
  return null;
}

/** The model's word for the class, read leniently; anything outside the five is unknown (null). */
export function parseCallClass(raw: unknown): CallClass | null {
  if (typeof raw !== 'string') return null;
  const word = raw.trim().toLowerCase().replace(/[\s_]+/g, '-');
  const aliases: Record<string, CallClass> = { 'recorded-message': 'recorded', wrong: 'wrong-number', spam: 'sales' };
  const c = aliases[word] ?? word;
  return (CALL_CLASSES as readonly string[]).includes(c) ? (c as CallClass) : null;
}

/**
 * The call's class: the rules first (they see what the model may miss, and cannot be talked
 * out of it), then the model's answer, genuine when it gave none. An urgent call is always
 * genuine: a caller in an emergency wrongly screened would be the worst mistake this can make.
 */
export function classifyCall(input: { transcript: string; modelClass: CallClass | null; urgent: boolean }): CallClass {
  if (input.urgent) return 'genuine';
  return ruleClass(input.transcript) ?? input.modelClass ?? 'genuine';
}

/** A call of this class is screened: kept in the log, never texted to the owner or back to the caller. */
export function isScreenedClass(c: CallClass | null | undefined): boolean {
  return !!c && c !== 'genuine';
}
