import { CALL_BACK_AFTER_MINUTES, type CallBacksBy } from '../../../../contract/call-backs';
import { Field, Input, Select } from '../../components/ui';

// Who rings callers back who asked for it (issue 56): one select and the owner's wait, inside the
// Call handling form and saved with it.

const CALL_BACKS_BY_LABELS: Record<CallBacksBy, string> = {
  owner: 'I ring them back myself',
  'agent-after': 'The assistant rings them if I have not in time',
  'agent-at-time': 'The assistant rings them at the time agreed',
};

/** The section's one line when closed on a phone: what is set now, unsaved edits included. */
export function callBacksSummary(by: CallBacksBy, minutes: number): string {
  if (by === 'agent-after') return `The assistant rings back after ${minutes} minutes if you have not`;
  if (by === 'agent-at-time') return 'The assistant rings back at the time agreed with the caller';
  return 'You ring callers back yourself';
}

export function CallBacksSetting({
  by,
  minutes,
  errors,
  onBy,
  onMinutes,
}: {
  by: CallBacksBy;
  minutes: number;
  errors: Record<string, string>;
  onBy: (by: CallBacksBy) => void;
  onMinutes: (minutes: number) => void;
}) {
  const { min, max } = CALL_BACK_AFTER_MINUTES;
  return (
    <div className="grid gap-4 md:grid-cols-[1fr_12rem]">
      <Field label="Who rings callers back" hint="For callers who ask to be rung back. The assistant keeps to your hours, never rings a number that texted STOP, and tries twice at most." error={errors.callBacksBy}>
        <Select value={by} onChange={(e) => onBy(e.target.value as CallBacksBy)}>
          {(Object.keys(CALL_BACKS_BY_LABELS) as CallBacksBy[]).map((b) => (
            <option key={b} value={b}>
              {CALL_BACKS_BY_LABELS[b]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Wait for me (minutes)" hint={`${min} to ${max}; then the assistant rings.`} error={errors.callBackAfterMinutes}>
        <Input type="number" min={min} max={max} value={minutes} disabled={by !== 'agent-after'} onChange={(e) => onMinutes(Number(e.target.value))} />
      </Field>
    </div>
  );
}
