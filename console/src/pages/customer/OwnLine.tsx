import { useState } from 'react';
import { AlertTriangle, CheckCircle2, PhoneForwarded, XCircle } from 'lucide-react';
import { LINE_TYPES, lineCodes, RING_DELAY, type LineCodes, type LineType } from '../../../../contract/forwarding-codes';
import type { ForwardingCondition } from '../../../../contract/schemas/forwarding-check';
import { useForwardingCheck, useStartForwardingCheck } from '../../api/forwarding-check';
import { useMeta } from '../../api/session';
import { useLineType } from '../../lib/line-type';
import { Button, Card, CardHeader, cx, Field, Select, Spinner, Table, tbodyRow, td, th, theadRow } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { CopyCode } from './CopyCode';
import { OperatorContact } from '../../components/OperatorContact';

// Phone Numbers, under the spec's guide: the codes for the owner's own kind of line (issue 28),
// and "Check my forwarding", which calls their line and waits for the call to come back.

const DELAYS = Array.from({ length: (RING_DELAY.max - RING_DELAY.min) / RING_DELAY.step + 1 }, (_, i) => RING_DELAY.min + i * RING_DELAY.step);

const CONDITION_TEXT: Record<ForwardingCondition, string> = {
  'all-calls': 'All calls are forwarded.',
  unanswered: 'Calls you don’t answer are forwarded.',
  busy: 'Calls are forwarded when your line is busy.',
  unreachable: 'Calls are forwarded when your phone is off or has no signal.',
  unknown: 'Your network did not say which kind of forwarding it used.',
};

/**
 * A code cell: in a phone's stacked card a code that does not fit beside its column's label goes
 * under it, since a code may break only between its parts, never inside the number (no effect on
 * a wide table, whose cells are not flex boxes).
 */
const codeTd = cx(td, 'flex-wrap');

function CodesTable({ codes }: { codes: LineCodes }) {
  return (
    <div>
      <Table label={`Forwarding codes for ${codes.name}`} stackBelow="lg">
        <thead>
          <tr className={theadRow}>
            <th className={cx(th, 'w-1/4')}>Forward</th>
            <th className={cx(th, 'w-2/5')}>Turn on</th>
            <th className={th}>Check</th>
            <th className={th}>Turn off</th>
          </tr>
        </thead>
        <tbody>
          {codes.rows.map((r) => (
            <tr key={r.label} className={tbodyRow}>
              <td className={td} data-label="Forward">
                {r.label}
              </td>
              <td className={codeTd} data-label="Turn on">
                <CopyCode label={`${r.label}: turn on`} code={r.set} />
              </td>
              <td className={codeTd} data-label="Check">
                <CopyCode label={`${r.label}: check`} code={r.check} />
              </td>
              <td className={codeTd} data-label="Turn off">
                <CopyCode label={`${r.label}: turn off`} code={r.cancel} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {codes.cancelAll && (
        <p className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          Turn off all forwarding: <CopyCode label="Turn off all forwarding" code={codes.cancelAll} />
        </p>
      )}
    </div>
  );
}

function CheckResult({ id, codes }: { id: number; codes: LineCodes }) {
  const q = useForwardingCheck(id);
  const check = q.data;
  if (q.isError) return <p className="text-sm text-red-700 dark:text-red-400">{messageOr(q.error, 'Could not read the check.')}</p>;
  if (!check || check.state === 'calling') return <Spinner label="Calling your business line. Don’t answer: let it ring." />;
  if (check.state === 'works')
    return (
      <div role="status" className="flex gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-200">
        <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <div>
          <p className="font-semibold">Forwarding works</p>
          <p>{CONDITION_TEXT[check.condition ?? 'unknown']}</p>
        </div>
      </div>
    );
  return (
    <div role="status" className="flex gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200">
      <XCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <div className="grid gap-1">
        <p className="font-semibold">Forwarding is not reaching us</p>
        <p>Dial one of these on your business line, then check again:</p>
        <ul className="grid gap-1">
          {codes.rows.map((r) => (
            <li key={r.label} className="flex flex-wrap items-center gap-2">
              {r.label}: <CopyCode label={r.label} code={r.set} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

export function OwnLine({ number }: { number: string }) {
  const [type, picked, setType] = useLineType();
  const [delay, setDelay] = useState<number>(RING_DELAY.default);
  const [checkId, setCheckId] = useState<number>();
  const codes = lineCodes(type, number, delay);
  const start = useStartForwardingCheck();
  // The check calls out over the same line as putting callers through (OUTBOUND_ENDPOINT).
  const callsOut = useMeta().data?.transfersAvailable ?? true;
  const current = useForwardingCheck(checkId);
  // Until it has an answer: one check at a time.
  const running = checkId !== undefined && !current.isError && (current.data?.state ?? 'calling') === 'calling';

  const onCheck = () =>
    start.mutate(undefined, {
      onSuccess: (r) => setCheckId(r.id),
      onError: (e) => toast({ variant: 'destructive', title: 'Check failed', description: messageOr(e, 'Could not start the check.') }),
    });

  return (
    <Card className="mb-6">
      <CardHeader
        title="Codes for your line"
        description={picked ? `Dial these on your ${codes.name.replace(/^Mobile$/, 'mobile')} to forward it here.` : 'Choose your kind of business line once: these are then the codes its keypad can dial.'}
      />
      <div className="grid gap-4 p-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Your business line">
            <Select value={type} onChange={(e) => setType(e.target.value as LineType)}>
              {LINE_TYPES.map((t) => (
                <option key={t} value={t}>
                  {lineCodes(t, number).name}
                </option>
              ))}
            </Select>
          </Field>
          {type === 'mobile' && (
            <Field label="Ring before forwarding">
              <Select value={delay} onChange={(e) => setDelay(Number(e.target.value))}>
                {DELAYS.map((d) => (
                  <option key={d} value={d}>
                    {d} seconds
                  </option>
                ))}
              </Select>
            </Field>
          )}
        </div>
        <CodesTable codes={codes} />
        {codes.warning && (
          <p className="flex gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden /> {codes.warning}
          </p>
        )}
        <div className="grid gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {callsOut ? (
              'We call your business line and wait up to a minute for the call to come back here.'
            ) : (
              <>
                Checking your forwarding is not set up on this appliance yet: it needs calls out, which <OperatorContact />, can set up.
              </>
            )}
          </p>
          <div>
            <Button onClick={onCheck} disabled={!callsOut || start.isPending || running}>
              <PhoneForwarded className="h-4 w-4" aria-hidden /> {start.isPending || running ? 'Checking...' : 'Check my forwarding'}
            </Button>
          </div>
          {checkId !== undefined && <CheckResult id={checkId} codes={codes} />}
        </div>
      </div>
    </Card>
  );
}
