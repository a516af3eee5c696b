import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Check, CheckCircle2, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { SignupRequest } from '../../../../contract/api';
import { COUNTRY, formatPostcode, INDUSTRIES, PASSWORD_CHECKS, passwordErrors, passwordStrength, WEEKLY_CALL_BANDS } from '../../../../contract/rules';
import { signup as createAccount } from '../../api/auth';
import { ApiError } from '../../api/client';
import { keys } from '../../api/keys';
import { Dialog } from '../../components/Dialog';
import { Button, Field, Input, Select, cx } from '../../components/ui';
import { serverMessage } from '../../lib/errors';
import { toast } from '../../toast/use-toast';

/** The form holds every field as typed text; the request lets addressLine2 and country be left out. */
type SignupForm = Record<keyof SignupRequest, string>;

const EMPTY: SignupForm = {
  businessName: '',
  businessEmail: '',
  businessPhone: '',
  password: '',
  industry: '',
  weeklyCustomerCalls: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  postcode: '',
  country: COUNTRY,
};

const INDUSTRY_LABELS: Record<string, string> = {
  plumbing: 'Plumbing',
  beauty: 'Beauty & Salon',
  construction: 'Construction',
  electrical: 'Electrical',
  hvac: 'HVAC',
  landscaping: 'Landscaping',
  cleaning: 'Cleaning',
  legal: 'Legal',
  medical: 'Medical',
  'real-estate': 'Real Estate',
  automotive: 'Automotive',
  other: 'Other',
};

const STRENGTH = {
  weak: { label: 'Weak', bars: 1, colour: 'bg-red-500', text: 'text-red-600 dark:text-red-400' },
  medium: { label: 'Medium', bars: 2, colour: 'bg-amber-500', text: 'text-amber-600 dark:text-amber-400' },
  strong: { label: 'Strong', bars: 3, colour: 'bg-emerald-500', text: 'text-emerald-600 dark:text-emerald-400' },
} as const;

function PasswordMeter({ password }: { password: string }) {
  const s = STRENGTH[passwordStrength(password)];
  return (
    <div className="grid gap-2" data-testid="password-meter">
      <div className="flex items-center gap-2">
        <div className="grid flex-1 grid-cols-3 gap-1" aria-hidden>
          {[0, 1, 2].map((i) => (
            <span key={i} className={cx('h-1.5 rounded-full', password && i < s.bars ? s.colour : 'bg-slate-200 dark:bg-slate-700')} />
          ))}
        </div>
        <span className={cx('text-xs font-medium', s.text)} aria-live="polite">
          Password strength: {s.label}
        </span>
      </div>
      <ul className="grid gap-1 text-xs sm:grid-cols-2" aria-label="Password requirements">
        {PASSWORD_CHECKS.map((c) => {
          const ok = c.passes(password);
          return (
            <li key={c.id} data-passed={ok} className={cx('flex items-center gap-1.5', ok ? 'text-emerald-600 dark:text-emerald-400' : 'text-slate-500 dark:text-slate-400')}>
              {ok ? <Check className="h-3.5 w-3.5" aria-hidden /> : <X className="h-3.5 w-3.5" aria-hidden />}
              {c.label}
              <span className="sr-only">{ok ? '(met)' : '(not met)'}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function SignupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const [form, setForm] = useState<SignupForm>(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const set = (k: keyof SignupRequest) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  const signup = useMutation({
    mutationFn: createAccount,
    onSuccess: () => {
      // A sign-up is a request awaiting review: the server opens no session, so the
      // session is only refetched (it stays signed out) rather than set to the pending user.
      void qc.invalidateQueries({ queryKey: keys.me });
      setSubmitted(true);
      setForm(EMPTY);
    },
    onError: (e) =>
      toast({
        variant: 'destructive',
        title: 'Signup Failed',
        description: serverMessage(e) ?? (e instanceof ApiError ? 'Signup failed' : 'Please try again.'),
      }),
  });

  const close = () => {
    onClose();
    // Closing returns the dialog to an empty form view.
    setSubmitted(false);
    setForm(EMPTY);
    setPasswordError(null);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const first = passwordErrors(form.password)[0] ?? null;
    setPasswordError(first);
    if (first) return;
    signup.mutate({ ...form, country: COUNTRY });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      size="lg"
      title={submitted ? 'Request Submitted!' : 'Start Your 7-Day Free Trial'}
      description={
        submitted ? undefined : (
          <>
            <p>£39/month after trial • Cancel anytime</p>
            <p className="mt-1 font-medium text-indigo-600 dark:text-indigo-400">Currently accepting UK businesses only</p>
          </>
        )
      }
    >
      {submitted ? (
        <div className="flex flex-col items-center py-4 text-center">
          <CheckCircle2 className="mb-4 h-14 w-14 text-emerald-500" aria-hidden />
          <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">We review all requests within 24 hours. Check your email for approval.</p>
          <Button className="mt-6" onClick={close}>
            Close
          </Button>
        </div>
      ) : (
        <form onSubmit={onSubmit} className="grid gap-4" noValidate={false}>
          <Field label="Business Name" required>
            <Input value={form.businessName} onChange={set('businessName')} required autoComplete="organization" />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Business Email" required hint="You'll use this email to log in">
              <Input type="email" value={form.businessEmail} onChange={set('businessEmail')} required autoComplete="email" />
            </Field>
            <Field label="Business Phone" required hint="We'll send call notifications to this number">
              <Input type="tel" value={form.businessPhone} onChange={set('businessPhone')} required autoComplete="tel" placeholder="07700 900123" />
            </Field>
          </div>
          <Field label="Password" required error={passwordError}>
            <Input
              type="password"
              value={form.password}
              onChange={(e) => {
                set('password')(e);
                if (passwordError) setPasswordError(passwordErrors(e.target.value)[0] ?? null);
              }}
              required
              autoComplete="new-password"
            />
          </Field>
          <PasswordMeter password={form.password} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Industry" required>
              <Select value={form.industry} onChange={set('industry')} required>
                <option value="">Select your industry</option>
                {INDUSTRIES.map((i) => (
                  <option key={i} value={i}>
                    {INDUSTRY_LABELS[i] ?? i}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Weekly Customer Calls" required>
              <Select value={form.weeklyCustomerCalls} onChange={set('weeklyCustomerCalls')} required>
                <option value="">Select a range</option>
                {WEEKLY_CALL_BANDS.map((b) => (
                  <option key={b} value={b}>
                    {b} calls
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <fieldset className="grid gap-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
            <legend className="px-1 text-sm font-semibold">
              Business Address <span className="ml-1 text-xs font-medium text-indigo-600 dark:text-indigo-400">UK businesses only</span>
            </legend>
            <Field label="Address Line 1" required>
              <Input value={form.addressLine1} onChange={set('addressLine1')} required autoComplete="address-line1" />
            </Field>
            <Field label="Address Line 2 (optional)">
              <Input value={form.addressLine2} onChange={set('addressLine2')} autoComplete="address-line2" />
            </Field>
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label="City/Town" required>
                <Input value={form.city} onChange={set('city')} required autoComplete="address-level2" />
              </Field>
              <Field label="Postcode" required>
                <Input
                  value={form.postcode}
                  onChange={(e) => setForm((f) => ({ ...f, postcode: formatPostcode(e.target.value) }))}
                  required
                  autoComplete="postal-code"
                  placeholder="SW1A 1AA"
                />
              </Field>
              <Field label="Country">
                <Input value={COUNTRY} disabled readOnly />
              </Field>
            </div>
          </fieldset>
          <Button type="submit" size="lg" disabled={signup.isPending}>
            {signup.isPending ? 'Submitting Request...' : 'Submit Free Trial Request'}
          </Button>
          <p className="text-center text-sm text-slate-500 dark:text-slate-400">
            Already have an account?{' '}
            <button type="button" onClick={close} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
              Log in
            </button>
          </p>
        </form>
      )}
    </Dialog>
  );
}
