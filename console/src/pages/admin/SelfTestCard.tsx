import type { ApiSelfTestStatus } from '../../../../contract/api';
import { useAcceptAgentMode, useQualityReports } from '../../api/quality';
import { Button, Card, CardHeader } from '../../components/ui';

const STATE_TEXT: Record<ApiSelfTestStatus['state'], string> = {
  off: 'The self-test is turned off (SELF_TEST=off).',
  waiting: 'The self-test runs once Whisper and the language model answer.',
  running: 'The self-test is running on this box (between calls).',
  done: '',
  failed: 'The last self-test failed.',
};

const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
const percent = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${Math.round(x * 100)} %`);

/** The box's self-test of its own engines (core/self-test), beside the AI Quality card: figures, plain advice, and the operator's acceptance of agent mode. */
export default function SelfTestCard() {
  const q = useQualityReports();
  const accept = useAcceptAgentMode();
  const s = q.data?.selfTest;
  if (!s) return null;
  const r = s.report;
  const fields = r ? Object.values(r.figures.summary.fields) : [];
  const fieldsRight = fields.reduce((n, f) => n + f.correct, 0);
  const fieldsTotal = fields.reduce((n, f) => n + f.total, 0);
  const audio = r?.figures.latency.agentFirstAudio;
  return (
    <Card className="mb-6">
      <CardHeader title="Self-test on this box" description="A short test of this box's own engines, run when a model, voice or engine address changes (docs/quality.md)." />
      <div className="space-y-3 p-4 text-sm">
        {STATE_TEXT[s.state] && <p>{STATE_TEXT[s.state]}</p>}
        {s.error && <p role="alert">{s.error.message}</p>}
        {r && (
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            <dt>Word error rate</dt>
            <dd>{percent(r.figures.transcription.wordErrorRate)}</dd>
            <dt>Summary fields right</dt>
            <dd>{fieldsTotal ? `${fieldsRight} of ${fieldsTotal}` : '–'}</dd>
            <dt>Grounded answers</dt>
            <dd>{percent(r.figures.agent.groundedRate)}</dd>
            <dt>Invented facts</dt>
            <dd>{r.figures.agent.inventedFacts}</dd>
            <dt>First audio p50 / p95</dt>
            <dd>
              {seconds(audio?.p50Ms)} / {seconds(audio?.p95Ms)}
            </dd>
            <dt>Run</dt>
            <dd>{new Date(r.createdAt).toLocaleString('en-GB')}</dd>
          </dl>
        )}
        {s.advice && <p className="font-medium">{s.advice.text}</p>}
        {s.agentMode.newOwnersKeptInVoicemail && (
          <div className="flex flex-wrap items-center gap-3">
            <p>New owners start in voicemail mode: {s.agentMode.reason}</p>
            <Button size="sm" variant="secondary" disabled={accept.isPending} onClick={() => accept.mutate()}>
              Accept agent mode anyway
            </Button>
          </div>
        )}
        {s.agentMode.accepted && <p>Agent mode accepted by {s.agentMode.accepted.by}.</p>}
      </div>
    </Card>
  );
}
