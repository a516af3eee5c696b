import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { login as signIn } from '../../api/auth';
import { useSetSignedIn } from '../../api/session';
import { Dialog } from '../../components/Dialog';
import { Button, Field, Input } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { prefetchFirstScreen, preloadDashboard } from '../../session/dashboard-preload';
import { toast } from '../../toast/use-toast';

export function LoginDialog({
  open,
  onClose,
  onForgot,
  initialEmail = '',
  returnTo = '/dashboard',
}: {
  open: boolean;
  onClose: () => void;
  onForgot: () => void;
  initialEmail?: string;
  /** Where signing in leads: the dashboard, or the protected link the visitor opened (a same-site path). */
  returnTo?: string;
}) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const setSignedIn = useSetSignedIn();
  const navigate = useNavigate();
  const qc = useQueryClient();

  useEffect(() => {
    if (open) preloadDashboard();
  }, [open]);

  const login = useMutation({
    mutationFn: () => signIn(email, password),
    onSuccess: ({ user }) => {
      setSignedIn(user);
      prefetchFirstScreen(qc);
      onClose();
      void navigate(returnTo, { replace: returnTo !== '/dashboard' });
      toast({ title: 'Welcome back!', description: "You've been logged in successfully." });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Login Failed', description: messageOr(e, 'Invalid email or password.') }),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!email || !password) return;
    login.mutate();
  };

  return (
    <Dialog open={open} onClose={onClose} title="Welcome Back" description="Log in to access your dashboard">
      <form onSubmit={onSubmit} className="grid gap-4">
        <Field label="Email">
          <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="username" />
        </Field>
        <Field label="Password">
          <Input type="password" value={password} onChange={(e) => setPassword(e.target.value)} required autoComplete="current-password" />
        </Field>
        <div className="-mt-2 text-right">
          <button type="button" onClick={onForgot} className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
            Forgot Password?
          </button>
        </div>
        <Button type="submit" size="lg" disabled={login.isPending}>
          {login.isPending ? 'Logging in...' : 'Log In'}
        </Button>
        <p className="text-center text-sm text-slate-500 dark:text-slate-400">
          Don't have an account?{' '}
          <button type="button" onClick={onClose} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
            Sign up
          </button>
        </p>
      </form>
    </Dialog>
  );
}
