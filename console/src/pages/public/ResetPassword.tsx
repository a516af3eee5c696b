import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, KeyRound } from 'lucide-react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { resetPassword } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useMeta } from '../../api/session';
import { Button, Card, Field, Input } from '../../components/ui';
import { messageOr } from '../../lib/errors';

const REDIRECT_MS = 3000;
const NO_TOKEN = 'Invalid reset link. Please request a new password reset.';
const MIN = 'Password must be at least 6 characters';

export default function ResetPassword() {
  const { token } = useParams();
  const navigate = useNavigate();
  const meta = useMeta();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ newPassword?: string; confirmPassword?: string }>({});
  const [error, setError] = useState<string | null>(token ? null : NO_TOKEN);

  const reset = useMutation({
    mutationFn: () => resetPassword({ token, newPassword, confirmPassword }),
    onError: (e) => setError(e instanceof ApiError ? messageOr(e, 'Failed to reset password') : 'An error occurred. Please try again.'),
  });

  // After a reset, / opens its login dialog with the account's e-mail filled in (Landing reads the state).
  const email = reset.data?.email;
  const toLogin = useCallback(() => navigate('/', { state: email ? { login: email } : undefined }), [navigate, email]);

  useEffect(() => {
    if (!reset.isSuccess) return;
    const t = setTimeout(toLogin, REDIRECT_MS);
    return () => clearTimeout(t);
  }, [reset.isSuccess, toLogin]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!token) return setError(NO_TOKEN);
    const errs: typeof fieldErrors = {};
    if (newPassword.length < 6) errs.newPassword = MIN;
    if (confirmPassword.length < 6) errs.confirmPassword = MIN;
    else if (newPassword !== confirmPassword) errs.confirmPassword = 'Passwords do not match';
    setFieldErrors(errs);
    if (errs.newPassword || errs.confirmPassword) return;
    setError(null);
    reset.mutate();
  };

  const disabled = !token;
  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-b from-indigo-50 to-slate-50 p-4 dark:from-slate-900 dark:to-slate-950">
      <Card className="w-full max-w-md p-8">
        <div className="mb-6 text-center">
          <span className="mx-auto mb-3 flex h-12 w-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
            <KeyRound className="h-6 w-6" aria-hidden />
          </span>
          <p className="text-sm font-semibold text-indigo-600 dark:text-indigo-400">{meta.data?.productName}</p>
          <h1 className="mt-1 text-2xl font-bold">Reset Password</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">Create a new password for your account</p>
        </div>
        {reset.isSuccess ? (
          <div className="grid gap-5 text-center">
            <CheckCircle2 className="mx-auto h-12 w-12 text-emerald-500" aria-hidden />
            <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
              Password updated successfully! You can now login. Redirecting to login page...
            </p>
            <Button onClick={toLogin}>Go to Login</Button>
          </div>
        ) : (
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            {error && (
              <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-300">
                {error}
              </p>
            )}
            <Field label="New Password" hint="Minimum 6 characters" error={fieldErrors.newPassword}>
              <Input type="password" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} disabled={disabled} autoComplete="new-password" />
            </Field>
            <Field label="Confirm Password" error={fieldErrors.confirmPassword}>
              <Input type="password" value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} disabled={disabled} autoComplete="new-password" />
            </Field>
            <Button type="submit" size="lg" disabled={disabled || reset.isPending}>
              {reset.isPending ? 'Resetting Password...' : 'Reset Password'}
            </Button>
            <Button variant="ghost" onClick={() => navigate('/')}>
              Back to Login
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}
