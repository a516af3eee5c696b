import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_VOICES, type Script } from '../../models/tts/index.js';
import { AGENT_LINES } from '../spoken/agent-lines.js';
import { fixedLines } from './fixed-lines.js';
import { ENGLISH_NAMES, LANGUAGES } from './languages.js';

const SCRIPT_LETTERS: Record<Script, RegExp> = {
  Latin: /\p{Script=Latin}/u,
  Arabic: /\p{Script=Arabic}/u,
  Gurmukhi: /\p{Script=Gurmukhi}/u,
};

/** The share of a text's letters that are in `script` (marks and punctuation aside). */
function shareIn(script: Script, text: string): number {
  const letters = [...text].filter((c) => /\p{L}/u.test(c));
  return letters.filter((c) => SCRIPT_LETTERS[script].test(c)).length / letters.length;
}

const OTHERS = LANGUAGES.filter((l) => l !== 'en');

describe('the fixed lines in every language (issue 42)', () => {
  it.each(OTHERS)('%s has every fixed line, written for it rather than left in English', (lang) => {
    const t = fixedLines(lang);
    for (const key of Object.keys(AGENT_LINES) as (keyof typeof AGENT_LINES)[]) {
      expect(t.lines[key], `${ENGLISH_NAMES[lang]} ${key}`).toMatch(/\S/);
      expect(t.lines[key], `${ENGLISH_NAMES[lang]} ${key}`).not.toBe(AGENT_LINES[key]);
    }
    expect(Object.keys(t.lines).sort()).toEqual(Object.keys(AGENT_LINES).sort());
    expect(t.switched).toMatch(/\S/);
    expect(t.switched).not.toBe(fixedLines('en').switched);
  });

  it.each(LANGUAGES)("%s's disclosure (said after an owner's recorded greeting) is the very sentence its greeting discloses with", (lang) => {
    const t = fixedLines(lang);
    expect(t.greeting('Acme Plumbing')).toContain(t.disclosure);
    expect(t.greeting(null)).toContain(t.disclosure);
  });

  it.each(OTHERS)("%s's greeting names the business, or thanks the caller without a name, and its goodbye likewise", (lang) => {
    const t = fixedLines(lang);
    expect(t.greeting('Acme Plumbing')).toContain('Acme Plumbing');
    expect(t.greeting(null)).not.toMatch(/undefined|null/);
    expect(t.greeting('  ')).toBe(t.greeting(null));
    expect(t.goodbye('Acme Plumbing')).toContain('Acme Plumbing');
    expect(t.goodbye(undefined)).not.toMatch(/undefined|null|the business/);
  });

  it('English is the agent lines themselves', () => {
    expect(fixedLines('en').lines).toBe(AGENT_LINES);
    expect(fixedLines('en').greeting('Acme')).toMatch(/automated assistant, and this call is recorded/);
  });
});

describe('a voice for every language that can read its script', () => {
  it.each(OTHERS)('%s: every line is in its script, and each of its voices reads that script', (lang) => {
    const v = LANGUAGE_VOICES[lang];
    expect(v, `no voice for ${ENGLISH_NAMES[lang]}`).toBeDefined();
    expect(v!.reads.espeak).toBe(v!.script);
    if (v!.piper) expect(v!.reads.piper).toBe(v!.script);
    const t = fixedLines(lang);
    for (const line of [...Object.values(t.lines), t.greeting(null), t.goodbye(null), t.switched]) {
      expect(shareIn(v!.script, line), line).toBe(1);
    }
  });

  it('Urdu is read from Arabic script and Panjabi from Gurmukhi, both by espeak-ng (Piper has neither)', () => {
    expect(LANGUAGE_VOICES.ur).toMatchObject({ script: 'Arabic', reads: { espeak: 'Arabic' } });
    expect(LANGUAGE_VOICES.ur!.piper).toBeUndefined();
    expect(LANGUAGE_VOICES.pa).toMatchObject({ script: 'Gurmukhi', reads: { espeak: 'Gurmukhi' } });
    expect(LANGUAGE_VOICES.pa!.piper).toBeUndefined();
  });

  it.each(OTHERS)("%s's espeak-ng voice is installed and is that language's", (lang) => {
    const name = LANGUAGE_VOICES[lang]!.espeak.male;
    const listed = execFileSync('espeak-ng', [`--voices=${name}`], { encoding: 'utf8' });
    // The language column of `espeak-ng --voices=<lang>`: the voice exists and speaks it (not English's).
    expect(listed.split('\n').slice(1).some((row) => row.trim().split(/\s+/)[1] === name || row.trim().split(/\s+/)[1]?.startsWith(`${name}-`))).toBe(true);
  });

  it.each(OTHERS.filter((l) => LANGUAGE_VOICES[l]!.piper))("%s's Piper voices are that language's models", (lang) => {
    const prefix = { pl: 'pl_PL-', ro: 'ro_RO-', pt: 'pt_PT-', es: 'es_ES-', cy: 'cy_GB-' }[lang as 'pl'];
    for (const name of Object.values(LANGUAGE_VOICES[lang]!.piper!)) expect(name.startsWith(prefix)).toBe(true);
  });
});
