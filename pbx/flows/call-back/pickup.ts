import type { Log } from '../../../contract/log.js';
import type { PromptCache, Voice } from '../../../models/tts/index.js';
import type { MediaPath } from '../agent/media-path.js';
import { sentenceAudio } from '../agent/speech-audio.js';
import { MachineRule, type Pickup } from './machine-rule.js';

// Who picked up a call-back, heard on the agent's media path before it says a word
// (machine-rule.ts), and the message left when it was a machine.

/** Past the rule's own bound (12 s) something is wrong with the audio: in doubt, a person. */
const LISTEN_BOUND_MS = 15_000;

/** Listens to the called party's first seconds; a hang-up or a bridge that sends nothing counts as a person (nothing is lost). */
export function whoPickedUp(media: MediaPath, gone: Promise<boolean>): Promise<Pickup> {
  const rule = new MachineRule({ sampleRate: media.endpoint.info.sampleRate });
  return new Promise((resolve) => {
    const done = (p: Pickup) => {
      clearTimeout(timer);
      off();
      resolve(p);
    };
    const timer = setTimeout(() => done({ kind: 'person' }), LISTEN_BOUND_MS);
    const off = media.endpoint.onFrame((frame) => {
      const verdict = rule.push(frame);
      if (verdict) done(verdict);
    });
    void gone.then((g) => g && done({ kind: 'person' }));
  });
}

/** Says `message` on the call (the answering machine's) and resolves when its last frame has left. */
export async function leaveMessage(media: MediaPath, speech: PromptCache, voice: Voice, message: string, log: Log): Promise<void> {
  const audio = await sentenceAudio(speech, message, voice, media.endpoint.info.sampleRate);
  const played = await media.player.play(audio);
  if (played !== 'played') log.warn({ played }, 'call-back: the answering machine message was not played whole');
}
