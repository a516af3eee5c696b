// The "try the agent" panel of Notification Settings: the owner types a question and reads
// (and hears) exactly what a caller would get from the knowledge base being edited. The
// server runs the phone path's own prompt builder, model call and turn rules.
import { useMutation } from '@tanstack/react-query';
import { Bot, Send } from 'lucide-react';
import { useId, useState } from 'react';
import type { VoicePreference } from '../../../../contract/api';
import { useSession } from '../../api/session';
import { Badge, Button, Card, CardHeader, Input } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { previewAgent } from '../../api/settings';

export default function AgentTryIt(props: {
  aiMode: 'voicemail' | 'agent';
  /** The unsaved form values; the saved settings are used when the page does not pass them. */
  knowledgeBase?: string | null;
  businessName?: string | null;
  voicePreference?: VoicePreference;
}) {
  const { user } = useSession();
  const [question, setQuestion] = useState('');
  const inputId = useId();
  const ask = useMutation({
    mutationFn: () =>
      previewAgent({
        question: question.trim(),
        knowledgeBase: props.knowledgeBase ?? user?.knowledgeBase ?? '',
        businessName: props.businessName !== undefined ? props.businessName : (user?.businessName ?? null),
        voice: props.voicePreference ?? user?.voicePreference,
      }),
  });

  if (props.aiMode !== 'agent') return null;

  // Not a <form>: the panel sits inside the settings form, and a nested form would submit that one.
  const submit = () => {
    if (question.trim() && !ask.isPending) ask.mutate();
  };

  return (
    <Card>
      <CardHeader title="Try Your AI Agent" description="Ask a question the way a caller would and see exactly what the agent would say." />
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
        {ask.data && (
          <div className="grid gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-900/60" aria-live="polite">
            <div className="flex items-center gap-2">
              <Bot className="h-4 w-4 text-indigo-600" aria-hidden />
              <span className="text-sm font-medium">The agent would say</span>
              {ask.data.answered ? <Badge tone="green">Answered from your knowledge base</Badge> : <Badge tone="amber">Not in your knowledge base</Badge>}
            </div>
            <p data-testid="agent-answer" className="text-sm">
              {ask.data.answer}
            </p>
            {!ask.data.answered && (
              <p className="text-xs text-slate-500 dark:text-slate-400">On a real call this question would appear under AI Questions so you can add the answer.</p>
            )}
            {ask.data.audioUrl && <audio controls src={ask.data.audioUrl} className="w-full" aria-label="Hear the answer" />}
          </div>
        )}
      </div>
    </Card>
  );
}
