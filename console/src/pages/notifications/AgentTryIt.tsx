// The "try the agent" panel of Notification Settings: the owner types what a caller would say
// and reads (and hears) exactly what the agent answers from the knowledge base being edited.
// The server runs the phone path's own prompt builder, model call, turn rules and booking walk
// (on a desk that writes nothing), in a short-lived conversation it keeps: the turns are listed
// here, and "Start again" begins a new one (as does the server saying the old one expired).
import { useMutation } from '@tanstack/react-query';
import { Bot, RotateCcw, Send } from 'lucide-react';
import { useId, useState } from 'react';
import type { AgentPreviewResult, VoicePreference } from '../../../../contract/api';
import { useSession } from '../../api/session';
import { Badge, Button, Input } from '../../components/ui';
import { PlainCard, type CardFrame } from '../../components/card-frame';
import { messageOr } from '../../lib/errors';
import { ApiError } from '../../api/client';
import { previewAgent } from '../../api/settings';
import { AudioClip } from '../../components/AudioClip';

interface Turn {
  question: string;
  reply: AgentPreviewResult;
}

/** What the badge says when a booking walk ended: nothing is ever written by the preview. */
const ENDED: Record<NonNullable<AgentPreviewResult['ended']>, string> = {
  booked: 'Booked (preview: nothing was saved)',
  moved: 'Moved (preview: nothing was saved)',
  cancelled: 'Cancelled (preview: nothing was saved)',
  kept: 'Booking kept',
  request: 'Booking request (preview: you were not told)',
};

export default function AgentTryIt(props: {
  aiMode: 'voicemail' | 'agent';
  /** The unsaved form values; the saved settings are used when the page does not pass them. */
  knowledgeBase?: string | null;
  businessName?: string | null;
  voicePreference?: VoicePreference;
  /** How the panel is framed: a plain card unless the page makes it one a phone can close. */
  Frame?: CardFrame;
}) {
  const Frame = props.Frame ?? PlainCard;
  const { user } = useSession();
  const [question, setQuestion] = useState('');
  const [sessionId, setSessionId] = useState<string | undefined>();
  const [turns, setTurns] = useState<Turn[]>([]);
  const inputId = useId();
  const ask = useMutation({
    mutationFn: (asked: string) =>
      previewAgent({
        question: asked,
        knowledgeBase: props.knowledgeBase ?? user?.knowledgeBase ?? '',
        businessName: props.businessName !== undefined ? props.businessName : (user?.businessName ?? null),
        voice: props.voicePreference ?? user?.voicePreference,
        ...(sessionId && { sessionId }),
      }),
    onSuccess: (reply, asked) => {
      setSessionId(reply.sessionId);
      setTurns((t) => [...t, { question: asked, reply }]);
      setQuestion('');
    },
    onError: (err) => {
      // The server forgot the conversation (idle too long): its message shows, the next question starts a new one.
      if (err instanceof ApiError && err.status === 404) startAgain(false);
    },
  });
  const startAgain = (clearError = true) => {
    setSessionId(undefined);
    setTurns([]);
    if (clearError) ask.reset();
  };

  if (props.aiMode !== 'agent') return null;

  // Not a <form>: the panel sits inside the settings form, and a nested form would submit that one.
  const submit = () => {
    if (question.trim() && !ask.isPending) ask.mutate(question.trim());
  };

  return (
    <Frame
      title="Try Your AI Agent"
      description="Ask a question the way a caller would and see exactly what the agent would say."
      summary={turns.length > 0 ? `${turns.length} ${turns.length === 1 ? 'question' : 'questions'} asked: start again from here` : 'Ask a question as a caller would'}
      keepOpen={ask.isPending || ask.isError}
    >
      <div className="grid gap-4 p-5">
        <label htmlFor={inputId} className="text-sm font-medium">
          Caller's question
        </label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                submit();
              }
            }}
            placeholder="e.g. What are your opening hours?" maxLength={1000} />
          <Button type="button" onClick={submit} disabled={!question.trim() || ask.isPending}>
            <Send className="h-4 w-4" aria-hidden />
            {ask.isPending ? 'Asking...' : 'Ask'}
          </Button>
        </div>
        {ask.isError && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {messageOr(ask.error, 'The agent could not answer. Please try again.')}
          </p>
        )}
        {turns.length > 0 && (
          <>
            <ol className="grid gap-3" aria-label="Your conversation with the agent" aria-live="polite">
              {turns.map((t, i) => (
                <li key={i} className="grid gap-3">
                  <p className="justify-self-end rounded-lg bg-indigo-50 px-3 py-2 text-sm dark:bg-indigo-950/60">
                    <span className="sr-only">You: </span>
                    {t.question}
                  </p>
                  <div className="grid gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-900/60">
                    <div className="flex flex-wrap items-center gap-2">
                      <Bot className="h-4 w-4 text-indigo-600" aria-hidden />
                      <span className="text-sm font-medium">The agent would say</span>
                      {t.reply.ended ? (
                        <Badge tone="indigo" wraps>{ENDED[t.reply.ended]}</Badge>
                      ) : t.reply.answered ? (
                        <Badge tone="green" wraps>Answered from your knowledge base</Badge>
                      ) : (
                        <Badge tone="amber" wraps>Not in your knowledge base</Badge>
                      )}
                    </div>
                    <p data-testid="agent-answer" className="text-sm">
                      {t.reply.answer}
                    </p>
                    {!t.reply.answered && (
                      <p className="text-xs text-slate-500 dark:text-slate-400">On a real call this question would appear under AI Questions so you can add the answer.</p>
                    )}
                    {t.reply.audioUrl && <AudioClip controls src={t.reply.audioUrl} className="w-full" aria-label={i === turns.length - 1 ? 'Hear the answer' : `Hear answer ${i + 1}`} />}
                  </div>
                </li>
              ))}
            </ol>
            <div>
              <Button type="button" variant="secondary" onClick={() => startAgain()} disabled={ask.isPending}>
                <RotateCcw className="h-4 w-4" aria-hidden />
                Start again
              </Button>
            </div>
          </>
        )}
      </div>
    </Frame>
  );
}
