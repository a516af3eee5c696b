import type { GreetingSettings } from '../core/ports/pbx-host.js';
import { chooseGreeting, GENERIC_GREETING } from '../dialogue/spoken/greeting.js';
import { normalisePromptText, type PromptCache, type PromptStore, type Voice } from '../models/tts/index.js';

type Owner = { callGreeting: string | null; businessName: string | null; voice: Voice };

export interface GreetingPromptDeps {
  /** Makes the prompt (a test may stand in a failing engine). */
  prompts: PromptCache;
  /** Forgets a prompt: the cache over the same folder and engine. */
  store: PromptStore;
  owner(userId: number): Owner | undefined | Promise<Owner | undefined>;
  log: { warn(obj: object, msg: string): void };
}

/** The words and voice a greeting is made from, as a comparable pair. */
const greetingOf = (s: { callGreeting: string | null; businessName: string | null }, voice: Voice) => ({ text: chooseGreeting(s), voice });

/**
 * The settingsChanged listener: makes the owner's greeting before their next caller needs it,
 * and deletes the one it replaced (once no live call is playing it), so repeated saves never
 * pile up files. The generic greeting is everyone's who has neither greeting nor business name:
 * it stays.
 */
export function keepGreetingCurrent(deps: GreetingPromptDeps): (userId: number, before?: GreetingSettings) => void {
  const update = async (userId: number, before?: GreetingSettings) => {
    const owner = await deps.owner(userId);
    if (!owner) return;
    const now = greetingOf(owner, owner.voice);
    deps.prompts.get(now.text, now.voice, 'background').catch((err: unknown) => deps.log.warn({ err, userId }, 'could not pre-make the greeting'));
    if (!before) return;
    const old = greetingOf(before, before.voicePreference);
    const same = normalisePromptText(old.text) === normalisePromptText(now.text) && old.voice === now.voice;
    if (same || old.text === GENERIC_GREETING) return;
    await deps.store.discard(old.text, old.voice);
  };
  return (userId, before) => {
    update(userId, before).catch((err: unknown) => deps.log.warn({ err, userId }, 'could not remove the replaced greeting'));
  };
}
