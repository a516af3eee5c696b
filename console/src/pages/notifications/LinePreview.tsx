import { useMutation, useQuery } from '@tanstack/react-query';
import { Volume2 } from 'lucide-react';
import { useRef, useState } from 'react';
import type { VoicePreference } from '../../../../contract/api';
import { LANGUAGE_NAMES, PREVIEW_LINES, type AgentLanguage, type PreviewLine } from '../../../../contract/languages';
import { keys } from '../../api/keys';
import { getAgentVoices, previewLine } from '../../api/settings';
import { Button, Field, Select } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { AudioClip } from '../../components/AudioClip';

/**
 * Hear any of the agent's fixed lines in any ticked caller language, in either voice or any voice
 * installed for the language (GET /api/agent/voices, as the voice pickers offer): the
 * project's own wording, spoken by that language's voice (Piper or espeak-ng) through the
 * phone path's prompt cache (POST /api/agent/line-preview), so it is what a caller hears.
 */
export function LinePreview({ languages, defaultVoice }: { languages: readonly string[]; defaultVoice: VoicePreference }) {
  const choices = languages.filter((c): c is AgentLanguage => c in LANGUAGE_NAMES);
  const [language, setLanguage] = useState<string>(choices.find((c) => c !== 'en') ?? 'en');
  const [line, setLine] = useState<PreviewLine>('greeting');
  // Female or male (the default rule), or one of the language's installed voices by its id.
  const [voice, setVoice] = useState<string>(defaultVoice);
  const installed = useQuery({ queryKey: keys.agentVoices, queryFn: getAgentVoices, staleTime: Infinity }).data?.languages;
  const [heard, setHeard] = useState<{ text: string; language: string } | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const chosen = choices.includes(language as AgentLanguage) ? language : 'en';
  const voices = installed?.[chosen] ?? [];
  const rule = voice === 'female' || voice === 'male' ? voice : undefined;
  // A voice of the language left before falls back to the owner's own.
  const asked = rule ?? (voices.some((v) => v.id === voice) ? voice : defaultVoice);
  const play = useMutation({
    mutationFn: () => previewLine({ language: chosen, line, ...(asked === 'female' || asked === 'male' ? { voice: asked } : { languageVoice: asked }) }),
    onSuccess: ({ text, audioUrl }) => {
      setHeard({ text, language: chosen });
      const el = audio.current;
      if (!el) return;
      el.src = audioUrl;
      el.play().catch(() => undefined); // the controls stay there to press play
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Could not play the line', description: messageOr(e, 'Please try again.') }),
  });
  return (
    <div className="grid gap-3 border-t border-slate-100 px-5 pb-5 pt-4 dark:border-slate-800">
      <h3 className="text-sm font-semibold">Hear a line</h3>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Language">
          <Select value={chosen} onChange={(e) => setLanguage(e.target.value)}>
            {choices.map((c) => (
              <option key={c} value={c}>
                {LANGUAGE_NAMES[c]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Line">
          <Select value={line} onChange={(e) => setLine(e.target.value as PreviewLine)}>
            {(Object.keys(PREVIEW_LINES) as PreviewLine[]).map((k) => (
              <option key={k} value={k}>
                {PREVIEW_LINES[k]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Voice">
          <Select value={asked} onChange={(e) => setVoice(e.target.value)}>
            <option value="female">Female</option>
            <option value="male">Male</option>
            {voices.map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={() => play.mutate()} disabled={play.isPending}>
          <Volume2 className="h-4 w-4" aria-hidden /> {play.isPending ? 'Preparing line...' : 'Play line'}
        </Button>
        <AudioClip ref={audio} controls preload="none" aria-label="Line" className={heard ? 'h-11 w-full min-w-0 flex-1' : 'hidden'} />
      </div>
      {heard && (
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          Callers hear: “
          <span lang={heard.language} dir="auto">
            {heard.text}
          </span>
          ”
        </p>
      )}
    </div>
  );
}
