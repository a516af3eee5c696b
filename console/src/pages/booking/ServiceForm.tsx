// One bookable service's fields (add or edit). The server checks them; its 400 shows at the
// field it names, or above the buttons when it names none. Its examples are in the owner's trade;
// after a service is added the form starts afresh, so the next one does not inherit its break.
// A deposit (issue 59) is typed in pounds and sent in pence, as the API and Stripe count money.
import { useState, type FormEvent } from 'react';
import type { DepositKind } from '../../../../contract/enums';
import { PAYMENT_LIMITS } from '../../../../contract/rules';
import type { ApiBookingService, BookingServiceShape } from '../../../../contract/schemas/booking';
import { Button, Field, Input, Select, Textarea } from '../../components/ui';
import { formatPence, penceFromPounds, poundsText } from '../../lib/money';
import { useSession } from '../../api/session';
import { fieldErrors, messageOr } from '../../lib/errors';
import { serviceExample } from '../../lib/service-examples';

const NEW_DURATION = '60';
const NEW_BUFFER = '0';
const NEW_HOLD = String(PAYMENT_LIMITS.holdMinutes.default);
const H = PAYMENT_LIMITS.holdMinutes;

const NOT_POUNDS = 'Write it in pounds, e.g. 45 or 12.50.';

export function ServiceForm({ service, submitLabel, onSave, onCancel }: {
  service?: ApiBookingService;
  submitLabel: string;
  /** Resolves when saved; a rejection's message is shown at its field. */
  onSave: (body: BookingServiceShape) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(service?.name ?? '');
  const [duration, setDuration] = useState(service ? String(service.durationMinutes) : NEW_DURATION);
  const [buffer, setBuffer] = useState(service ? String(service.bufferMinutes) : NEW_BUFFER);
  const example = serviceExample(useSession().user?.industry);
  const [sentence, setSentence] = useState(service?.agentSentence ?? '');
  const [depositKind, setDepositKind] = useState<DepositKind>(service?.depositKind ?? 'none');
  const [price, setPrice] = useState(service?.pricePence != null ? poundsText(service.pricePence) : '');
  const [deposit, setDeposit] = useState(service?.depositPence != null ? poundsText(service.depositPence) : '');
  const [hold, setHold] = useState(service ? String(service.depositHoldMinutes) : NEW_HOLD);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const pricePence = penceFromPounds(price);
    const depositPence = depositKind === 'fixed' ? penceFromPounds(deposit) : null;
    // A box that is not an amount of pounds is said here: sent, it would be null, "not said".
    if (Number.isNaN(pricePence) || Number.isNaN(depositPence)) {
      setErrors(Number.isNaN(pricePence) ? { pricePence: NOT_POUNDS } : { depositPence: NOT_POUNDS });
      return;
    }
    setBusy(true);
    try {
      // Numbers as typed (an empty box is NaN): the server says what a whole number of minutes is.
      await onSave({
        name,
        durationMinutes: Number(duration || NaN),
        bufferMinutes: Number(buffer || 0),
        agentSentence: sentence.trim() || null,
        pricePence,
        depositKind,
        depositPence,
        depositHoldMinutes: Number(hold || H.default),
      });
      setErrors({});
      if (!service) {
        setName('');
        setDuration(NEW_DURATION);
        setBuffer(NEW_BUFFER);
        setSentence('');
        setDepositKind('none');
        setPrice('');
        setDeposit('');
        setHold(NEW_HOLD);
      }
    } catch (err) {
      const message = messageOr(err, 'Could not save the service');
      const fields = fieldErrors(err);
      const field = Object.keys(fields)[0];
      setErrors(field ? { [field]: message } : { form: message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4" aria-label={service ? `Edit ${service.name}` : 'Add a service'}>
      <Field label="Service name" error={errors.name} required>
        <Input value={name} onChange={(e) => setName(e.target.value)} placeholder={example.name} required maxLength={200} />
      </Field>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Duration (minutes)" hint="10 to 240" error={errors.durationMinutes} required>
          <Input type="number" inputMode="numeric" value={duration} onChange={(e) => setDuration(e.target.value)} required />
        </Field>
        <Field label="Break after (minutes)" hint="Travel or tidying before the next booking" error={errors.bufferMinutes}>
          <Input type="number" inputMode="numeric" value={buffer} onChange={(e) => setBuffer(e.target.value)} />
        </Field>
      </div>
      <Field label="What the agent says about it" hint={`Optional, e.g. “${example.sentence}”`} error={errors.agentSentence}>
        <Textarea rows={2} value={sentence} onChange={(e) => setSentence(e.target.value)} />
      </Field>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Deposit" hint="Paid on Stripe's page from a link texted to the caller" error={errors.depositKind}>
          <Select value={depositKind} onChange={(e) => setDepositKind(e.target.value as DepositKind)}>
            <option value="none">No deposit</option>
            <option value="fixed">A fixed amount</option>
            <option value="full">The full price</option>
          </Select>
        </Field>
        <Field label="Price (£)" hint="Optional; needed for a deposit of the full price" error={errors.pricePence}>
          <Input inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} placeholder="45" />
        </Field>
        {depositKind === 'fixed' && (
          <Field label="Deposit (£)" hint={`From ${formatPence(PAYMENT_LIMITS.depositPence.min)} to ${formatPence(PAYMENT_LIMITS.depositPence.max)}`} error={errors.depositPence} required>
            <Input inputMode="decimal" value={deposit} onChange={(e) => setDeposit(e.target.value)} placeholder="20" required />
          </Field>
        )}
        {depositKind !== 'none' && (
          <Field label="Hold the time for (minutes)" hint={`${H.min} to ${H.max}: unpaid by then, the time is released`} error={errors.depositHoldMinutes}>
            <Input type="number" inputMode="numeric" value={hold} onChange={(e) => setHold(e.target.value)} />
          </Field>
        )}
      </div>
      {errors.form && <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">{errors.form}</p>}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>{submitLabel}</Button>
        {onCancel && <Button variant="outline" onClick={onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}
