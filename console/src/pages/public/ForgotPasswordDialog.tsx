import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { isEmail } from '../../../../contract/rules';
import { forgotPassword } from '../../api/auth';
import { ApiError } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { Button, Field, Input } from '../../components/ui';
import { messageOr } from '../../lib/errors';

export function ForgotPasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const send = useMutation({
    mutationFn: () => forgotPassword(email),
    onSuccess: () => setDone(true),
    onError: (e) => setError(e instanceof ApiError ? messageOr(e, 'Failed to send reset email') : 'An error occurred. Please try again.'),
  });

  const close = () => {
    onClose();
    setEmail('');
    setError(null);
    setDone(false);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!isEmail(email)) {
      setError('Please enter a valid email address');
      return;
    }
    setError(null);
    send.mutate();
  };

  return (
    <Dialog open={open} onClose={close} title="Reset Password" description={done ? undefined : "Enter your email address and we'll send you instructions to reset your password."}>
      {done ? (
        <div className="grid gap-5">
          <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">
            If that email exists in our system, we've sent password reset instructions. Check your inbox!
          </p>
          <Button onClick={close}>Close</Button>
        </div>
      ) : (
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <Field label="Email">
            <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
          </Field>
          {error && (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-300">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? 'Sending...' : 'Send Reset Link'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
