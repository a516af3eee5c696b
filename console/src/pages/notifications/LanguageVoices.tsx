import { useMutation, useQuery } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { useRef, useState } from 'react';
import type { VoicePreference } from '../../../../contract/api';
import { LANGUAGE_NAMES, type AgentLanguage } from '../../../../contract/languages';
import { keys } from '../../api/keys';
import { getAgentVoices, previewLine } from '../../api/settings';
import { Button, Field, Select } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { AudioClip } from '../../components/AudioClip';

/**
 * The owner's voice for each ticked caller language but English (issue 42): one of the voices
 * the box has installed for it (GET /api/agent/voices: the server knows which can read the
 * language's script), or the default (the Voice under Greeting), each with a "Play" of the
 * greeting line in it through the line preview, so the owner hears what a caller would.
 */
export function LanguageVoices({
  languages,
  value,
  onChange,
  defaultVoice,
}: {
  languages: readonly string[];
  value: Readonly<Record<string, string>>;
  onChange: (v: Record<string, string>) => void;
  defaultVoice: VoicePreference;
}) {
  const voices = useQuery({ queryKey: keys.agentVoices, queryFn: getAgentVoices, staleTime: Infinity });
  const others = languages.filter((c): c is AgentLanguage => c !== 'en' && c in LANGUAGE_NAMES);
  if (!others.length) return null;
  const choose = (language: string, id: string) => {
    const next = { ...value };
    if (id) next[language] = id;
    else delete next[language];
    onChange(next);
  };
  return (
    <fieldset className="grid gap-3 border-t border-slate-100 px-5 pb-5 pt-4 dark:border-slate-800">
      <legend className="sr-only">Voices</legend>
      <h3 className="text-sm font-semibold">Voices</h3>
      <p className="text-sm text-slate-600 dark:text-slate-400">The voice each language is spoken in. English uses the Voice chosen under Greeting.</p>
      {voices.isError && <p className="text-sm text-red-700 dark:text-red-400">{messageOr(voices.error, 'Could not load the voices. Reload the page to try again.')}</p>}
      {others.map((language) => (
        <VoiceRow
          key={language}
          language={language}
          options={voices.data?.languages[language] ?? []}
          value={value[language] ?? ''}
          onChange={(id) => choose(language, id)}
          defaultVoice={defaultVoice}
        />
      ))}
    </fieldset>
  );
}

function VoiceRow({
  language,
  options,
  value,
  onChange,
  defaultVoice,
}: {
  language: AgentLanguage;
  options: ReadonlyArray<{ id: string; label: string }>;
  value: string;
  onChange: (id: string) => void;
  defaultVoice: VoicePreference;
}) {
  const name = LANGUAGE_NAMES[language];
  const audio = useRef<HTMLAudioElement>(null);
  const [ready, setReady] = useState(false);
  // A saved voice no longer installed is still shown, so the owner sees why it is not heard.
  const missing = value && !options.some((o) => o.id === value);
  const play = useMutation({
    mutationFn: () => previewLine({ language, line: 'greeting', ...(value ? { languageVoice: value } : { voice: defaultVoice }) }),
    onSuccess: ({ audioUrl }) => {
      setReady(true);
      const el = audio.current;
      if (!el) return;
      el.src = audioUrl;
      el.play().catch(() => undefined); // the controls stay there to press play
    },
    onError: (e) => toast({ variant: 'destructive', title: `Could not play the ${name} voice`, description: messageOr(e, 'Please try again.') }),
  });
  return (
    <div className="grid gap-2 sm:grid-cols-[minmax(0,20rem)_auto_minmax(0,1fr)] sm:items-end">
      <Field label={`${name} voice`}>
        <Select value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">Default ({defaultVoice === 'male' ? 'Male' : 'Female'})</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
          {missing && <option value={value}>{value} (not installed: the default is used)</option>}
        </Select>
      </Field>
      <Button variant="outline" onClick={() => play.mutate()} disabled={play.isPending} aria-label={`Play the ${name} greeting in this voice`}>
        <Play className="h-4 w-4" aria-hidden /> {play.isPending ? 'Preparing...' : 'Play'}
      </Button>
      <AudioClip ref={audio} controls preload="none" aria-label={`${name} voice sample`} className={ready ? 'h-11 w-full min-w-0' : 'hidden'} />
    </div>
  );
}
