import { useMutation } from '@tanstack/react-query';
import { Volume2 } from 'lucide-react';
import { useRef, useState } from 'react';
import type { VoicePreference } from '../../../../contract/api';
import { previewGreeting } from '../../api/settings';
import { Button } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { AudioClip } from '../../components/AudioClip';

/**
 * Plays the greeting as callers will hear it, from the form as it is now (saved or not): the
 * server applies the phone path's wording rule and voice (POST /api/greeting/preview).
 */
export function PlayGreeting({ businessName, callGreeting, voice }: { businessName: string | null; callGreeting: string | null; voice: VoicePreference }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [heard, setHeard] = useState<string | null>(null);
  const play = useMutation({
    mutationFn: () => previewGreeting({ businessName, callGreeting, voice }),
    onSuccess: ({ text, audioUrl }) => {
      setHeard(text);
      const el = audio.current;
      if (!el) return;
      el.src = audioUrl;
      // The browser may refuse to start sound on its own; the controls stay there to press play.
      el.play().catch(() => undefined);
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Could not play the greeting', description: messageOr(e, 'Please try again.') }),
  });
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={() => play.mutate()} disabled={play.isPending}>
          <Volume2 className="h-4 w-4" aria-hidden /> {play.isPending ? 'Preparing greeting...' : 'Play greeting'}
        </Button>
        <AudioClip ref={audio} controls preload="none" aria-label="Greeting" className={heard ? 'h-11 w-full min-w-0 flex-1' : 'hidden'} />
      </div>
      {heard && (
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          Callers hear: “{heard}”
        </p>
      )}
    </div>
  );
}
