import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Mic, Play, Square, Trash2, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { LANGUAGE_NAMES, type AgentLanguage } from '../../../../contract/languages';
import { keys } from '../../api/keys';
import { deleteGreetingRecording, greetingRecordingUrl, putGreetingRecording } from '../../api/settings';
import { Button } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { startWavRecording, type WavRecording } from '../../lib/wav-recorder';
import { toast } from '../../toast/use-toast';
import { AudioClip } from '../../components/AudioClip';
import { Confirm } from '../booking/Confirm';

/** The longest a recording runs before it stops itself: the server takes 30 s. */
const MAX_RECORDING_MS = 30_000;

/**
 * Beside each greeting language, the owner's own recording of its line (issue 42): Record (in
 * the page), Upload a WAV file, Play, Remove (asked first: the recording is deleted). A recorded
 * line is followed on calls by the project's disclosure sentence in that language, which the
 * hint says. A recording for a language ticked but not yet saved saves the ticks first
 * (`saveTicks`), so it is never refused for a tick the owner can see.
 */
export function GreetingRecordings({ languages, recorded, saveTicks }: { languages: readonly string[]; recorded: readonly string[]; saveTicks?: () => Promise<void> }) {
  const shown = languages.filter((c): c is AgentLanguage => c in LANGUAGE_NAMES);
  return (
    <fieldset className="grid gap-3 border-t border-slate-100 px-5 pb-5 pt-4 dark:border-slate-800">
      <legend className="sr-only">Recorded greetings</legend>
      <h3 className="text-sm font-semibold">Your own greeting</h3>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Record the greeting line in your own voice (up to 30 seconds), or upload a WAV file. Callers then hear your recording, followed by a short notice that the assistant is automated and the call is recorded.
      </p>
      {shown.map((language) => (
        <GreetingRecorder
          key={language}
          name={LANGUAGE_NAMES[language]}
          url={greetingRecordingUrl(language)}
          put={(wav) => putGreetingRecording(language, wav)}
          del={() => deleteGreetingRecording(language)}
          has={recorded.includes(language)}
          saveTicks={saveTicks}
        />
      ))}
    </fieldset>
  );
}

/** Where one recording lives: its name in the page's words, its URL to play, and how it is saved and removed. */
export interface RecordingTarget {
  name: string;
  url: string;
  put: (wav: Blob) => Promise<unknown>;
  del: () => Promise<unknown>;
}

/** One recording's Record, Upload, Play and Remove: a greeting line's (above) or the voicemail greeting's (VoicemailGreetingRecording). */
export function GreetingRecorder({ name, url, put, del, has, saveTicks }: RecordingTarget & { has: boolean; saveTicks?: () => Promise<void> }) {
  const qc = useQueryClient();
  const file = useRef<HTMLInputElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const recording = useRef<WavRecording | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [isRecording, setRecording] = useState(false);
  const [ready, setReady] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const done = () => void qc.invalidateQueries({ queryKey: keys.me });
  const save = useMutation({
    mutationFn: async (wav: Blob) => {
      await saveTicks?.();
      return put(wav);
    },
    onSuccess: () => {
      done();
      toast({ title: `${name} greeting recording saved` });
    },
    onError: (e) => toast({ variant: 'destructive', title: `Could not save the ${name} recording`, description: messageOr(e, 'Please try again.') }),
  });
  const remove = useMutation({
    mutationFn: del,
    onSuccess: () => {
      done();
      setReady(false);
      toast({ title: `${name} greeting is spoken again` });
    },
    onError: (e) => toast({ variant: 'destructive', title: `Could not remove the ${name} recording`, description: messageOr(e, 'Please try again.') }),
  });
  const stop = async () => {
    if (timer.current) clearTimeout(timer.current);
    const r = recording.current;
    recording.current = null;
    setRecording(false);
    if (r) save.mutate(await r.stop());
  };
  const start = async () => {
    try {
      recording.current = await startWavRecording();
      setRecording(true);
      timer.current = setTimeout(() => void stop(), MAX_RECORDING_MS);
    } catch (e) {
      toast({ variant: 'destructive', title: 'Could not use the microphone', description: messageOr(e, 'Allow the microphone for this site in the browser, or upload a WAV file.') });
    }
  };
  const play = () => {
    const el = audio.current;
    if (!el) return;
    setReady(true);
    // A new query string each time: the file was just replaced, and the browser must not replay the old one.
    el.src = `${url}?t=${Date.now()}`;
    el.play().catch(() => undefined); // the controls stay there to press play
  };
  return (
    <div className="grid gap-2">
      <p className="text-sm text-slate-800 dark:text-slate-200">
        {name}: {has ? 'your recording' : 'spoken greeting line'}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void (isRecording ? stop() : start())} disabled={save.isPending} aria-label={isRecording ? `Stop recording the ${name} greeting` : `Record the ${name} greeting`}>
          {isRecording ? <Square className="h-4 w-4" aria-hidden /> : <Mic className="h-4 w-4" aria-hidden />} {isRecording ? 'Stop' : 'Record'}
        </Button>
        <Button variant="outline" onClick={() => file.current?.click()} disabled={save.isPending || isRecording} aria-label={`Upload a WAV file for the ${name} greeting`}>
          <Upload className="h-4 w-4" aria-hidden /> Upload a WAV file
        </Button>
        {has && (
          <>
            <Button variant="outline" onClick={play} aria-label={`Play your ${name} greeting recording`}>
              <Play className="h-4 w-4" aria-hidden /> Play
            </Button>
            <Button variant="outline" onClick={() => setConfirming(true)} disabled={remove.isPending} aria-label={`Remove your ${name} greeting recording`}>
              <Trash2 className="h-4 w-4" aria-hidden /> Remove
            </Button>
          </>
        )}
      </div>
      <input
        ref={file}
        type="file"
        accept=".wav,audio/wav"
        className="hidden"
        aria-label={`WAV file for the ${name} greeting`}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) save.mutate(f);
        }}
      />
      <Confirm
        open={confirming}
        title={`Remove your ${name} greeting recording?`}
        description={`The recording is deleted, and callers hear the ${name} greeting line spoken again. To use your voice again, record it again.`}
        confirmLabel="Remove recording"
        keepLabel="Keep it"
        onConfirm={() => remove.mutateAsync()}
        onClose={() => setConfirming(false)}
      />
      <AudioClip ref={audio} controls preload="none" aria-label={`Your ${name} greeting recording`} className={ready && has ? 'h-11 w-full min-w-0' : 'hidden'} />
    </div>
  );
}
