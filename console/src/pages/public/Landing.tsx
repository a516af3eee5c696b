import {
  BarChart3,
  Bot,
  CheckCircle2,
  Clock,
  FileText,
  Lock,
  MessageSquare,
  Mic,
  Phone,
  PhoneForwarded,
  Star,
  type LucideIcon,
} from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useMeta, useSession } from '../../api/session';
import { Button, SkipLink } from '../../components/ui';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { LoginDialog } from './LoginDialog';
import { NEXT_PARAM, safeReturnPath } from '../../lib/return-path';
import { SignupDialog } from './SignupDialog';

type Open = 'signup' | 'login' | 'forgot' | null;

const STEPS: { title: string; text: string; icon: LucideIcon }[] = [
  { title: 'Get Your Number', text: 'Choose a local or toll-free number from our inventory and set up call forwarding from your existing line.', icon: PhoneForwarded },
  { title: 'Calls Get Recorded', text: 'Every call that reaches your number is recorded and transcribed automatically.', icon: Mic },
  { title: 'Instant Summaries', text: 'Receive AI summaries of every call via SMS and WhatsApp within moments.', icon: MessageSquare },
];

const FEATURES: { title: string; text: string; icon: LucideIcon; badge?: string }[] = [
  { title: 'Call Recording & Transcription', text: 'Every message is recorded and turned into accurate text by speech-to-text AI.', icon: FileText },
  { title: 'AI Call Summaries', text: 'Know who called and what they need at a glance, delivered by SMS. WhatsApp delivery is coming soon.', icon: MessageSquare },
  { title: 'Conversational AI Receptionist (Beta)', text: 'An AI voice agent answers caller questions from your knowledge base and logs what it could not answer.', icon: Bot, badge: 'Beta' },
  { title: 'Call Analytics', text: 'See call volume, busy periods and response times so you can staff the phones when it matters.', icon: BarChart3 },
  { title: 'Secure & Encrypted', text: 'Recordings and transcripts are kept in encrypted storage and only ever shown to you.', icon: Lock },
  { title: 'UK Support & Dedicated Number', text: 'A dedicated UK phone number for your business, backed by a UK support team.', icon: Phone },
];

const PLAN_FEATURES = [
  'Dedicated UK phone number',
  'Unlimited call recording & transcription',
  'AI summaries by SMS (WhatsApp coming soon)',
  'Conversational AI Receptionist (Beta)',
  'Call analytics dashboard',
  'UK support',
];

const BENEFITS: { title: string; text: string }[] = [
  { title: 'Always available', text: 'Every call is answered, even when you are on a job or with a client.' },
  { title: 'Easy setup, no new number required', text: 'Forward your line in a couple of minutes with a simple phone code.' },
  { title: 'Keep your existing line', text: 'Customers keep calling the number they already know.' },
  { title: 'Works 24/7', text: 'Evenings, weekends and bank holidays included.' },
];

const TESTIMONIALS = [
  { quote: 'I used to lose jobs every week while I was under a sink. Now every caller leaves a message and I get the summary on my phone straight away.', name: 'Dave R.', role: 'Plumber, Manchester' },
  { quote: 'Clients ring while I am mid-appointment. The summaries tell me exactly who to call back first. It has paid for itself many times over.', name: 'Sophie L.', role: 'Salon owner, Bristol' },
];

function Section({ id, title, subtitle, children, className }: { id: string; title: string; subtitle?: string; children: ReactNode; className?: string }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={`px-4 py-20 sm:px-6 ${className ?? ''}`}>
      <div className="mx-auto max-w-6xl">
        <div className="mx-auto mb-12 max-w-2xl text-center">
          <h2 id={`${id}-title`} className="text-3xl font-bold tracking-tight sm:text-4xl">
            {title}
          </h2>
          {subtitle && <p className="mt-3 text-lg text-slate-600 dark:text-slate-400">{subtitle}</p>}
        </div>
        {children}
      </div>
    </section>
  );
}

export default function Landing() {
  const { user, isLoading } = useSession();
  const meta = useMeta();
  const location = useLocation();
  const navigate = useNavigate();
  // Arriving from a password reset: the login dialog opens with the e-mail filled in.
  const resetEmail = (location.state as { login?: string } | null)?.login;
  const [loginEmail] = useState(resetEmail ?? '');
  // A protected link opened signed out: the login dialog opens, and returns to it afterwards.
  const next = safeReturnPath(new URLSearchParams(location.search).get(NEXT_PARAM));
  const [open, setOpen] = useState<Open>(resetEmail || next ? 'login' : null);
  useEffect(() => {
    // Once used, the state is dropped, so a reload does not open the dialog again.
    if (resetEmail) void navigate(location.pathname, { replace: true, state: null });
  }, [resetEmail, navigate, location.pathname]);

  // Nothing until the session is known; signed-in visitors belong on the dashboard.
  if (isLoading) return null;
  if (user) return <Navigate to={next ?? '/dashboard'} replace />;

  const productName = meta.data?.productName ?? '';
  const startTrial = () => setOpen('signup');
  const logIn = () => setOpen('login');
  const actions = (light = false) => (
    <div className="flex flex-col justify-center gap-3 sm:flex-row">
      <Button size="lg" onClick={startTrial} className={light ? 'bg-white !text-indigo-700 hover:bg-indigo-50' : undefined}>
        Start Your Free Trial
      </Button>
      <Button size="lg" variant="outline" onClick={logIn} className={light ? 'border-white/60 !bg-transparent !text-white hover:!bg-white/10' : undefined}>
        Log In
      </Button>
    </div>
  );

  return (
    <div className="min-h-screen bg-white dark:bg-slate-950">
      <SkipLink />
      {/* 1. Top navigation */}
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
        <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:px-6">
          {/* Named "Home" until /api/meta answers with the product name: a link is never nameless. */}
          <a href="/" aria-label={productName ? undefined : 'Home'} className="flex items-center gap-2 font-bold">
            <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
              <Phone className="h-4 w-4" aria-hidden />
            </span>
            {/* Below 380 px the name and both buttons do not fit one line: the logo stays, the name is still read out. */}
            <span className="text-lg max-[379px]:sr-only">{productName}</span>
          </a>
          <div className="flex items-center gap-1 sm:gap-2">
            <Button variant="ghost" size="sm" onClick={logIn} className="sm:h-10 sm:px-4">
              Log In
            </Button>
            <Button size="sm" onClick={startTrial} className="sm:h-10 sm:px-4">
              Start Free Trial
            </Button>
          </div>
        </nav>
      </header>

      <main id="main" tabIndex={-1} className="focus:outline-none">
        {/* 2. Hero */}
        <section aria-labelledby="hero-title" className="relative overflow-hidden bg-gradient-to-b from-indigo-50 to-white px-4 pb-20 pt-16 sm:px-6 sm:pt-24 dark:from-indigo-950/40 dark:to-slate-950">
          <div className="mx-auto max-w-3xl text-center">
            <p className="mb-5 inline-flex items-center gap-2 rounded-full border border-indigo-200 bg-white px-3 py-1 text-xs font-medium text-indigo-700 dark:border-indigo-900 dark:bg-slate-900 dark:text-indigo-300">
              <Clock className="h-3.5 w-3.5" aria-hidden /> AI call answering for UK small businesses
            </p>
            <h1 id="hero-title" className="text-4xl font-extrabold tracking-tight sm:text-6xl">
              Never Miss Another <span className="text-indigo-600 dark:text-indigo-400">Customer Call</span>
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 dark:text-slate-400">
              Forward your business line to a dedicated UK number. Every call is recorded, transcribed and summarised, and the summary lands on your phone in moments.
            </p>
            <div className="mt-8">{actions()}</div>
            <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">No credit card required • 7-day free trial</p>
          </div>
        </section>

        {/* 3. How it works */}
        <Section id="how-it-works" title="How It Works" subtitle="Up and running in three simple steps.">
          <ol className="grid gap-6 md:grid-cols-3">
            {STEPS.map((s, i) => (
              <li key={s.title} className="relative rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
                <span className="absolute -top-3 left-6 rounded-full bg-indigo-600 px-2.5 py-0.5 text-xs font-bold text-white">{i + 1}</span>
                <s.icon className="mb-4 h-8 w-8 text-indigo-600 dark:text-indigo-400" aria-hidden />
                <h3 className="text-lg font-semibold">{s.title}</h3>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{s.text}</p>
              </li>
            ))}
          </ol>
        </Section>

        {/* 4. Features */}
        <Section id="features" title="Powerful Features" subtitle="Everything you need to turn missed calls into customers." className="bg-slate-50 dark:bg-slate-900/40">
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((f) => (
              <article key={f.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
                <span className="mb-4 inline-flex rounded-lg bg-indigo-50 p-2.5 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
                  <f.icon className="h-5 w-5" aria-hidden />
                </span>
                <h3 className="font-semibold">{f.title}</h3>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{f.text}</p>
              </article>
            ))}
          </div>
          <div className="mt-10">{actions()}</div>
        </Section>

        {/* 5. Pricing */}
        <Section id="pricing" title="Simple, Transparent Pricing" subtitle="One plan with everything included.">
          <div className="mx-auto max-w-md rounded-2xl border-2 border-indigo-600 bg-white p-8 shadow-lg dark:bg-slate-900">
            <div className="flex items-center justify-between">
              <h3 className="text-xl font-bold">Professional Plan</h3>
              <span className="rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold text-white">Most Popular</span>
            </div>
            <p className="mt-4">
              <span className="text-5xl font-extrabold tracking-tight">£39</span>
              <span className="text-slate-500 dark:text-slate-400">/month</span>
            </p>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">7-day free trial • No credit card required • Cancel anytime</p>
            <ul className="mt-6 grid gap-3 text-sm">
              {PLAN_FEATURES.map((f) => (
                <li key={f} className="flex items-center gap-2">
                  <CheckCircle2 className="h-4 w-4 shrink-0 text-emerald-500" aria-hidden /> {f}
                </li>
              ))}
            </ul>
            <div className="mt-8 grid gap-3">
              <Button size="lg" onClick={startTrial}>
                Start Your Free Trial
              </Button>
              <Button size="lg" variant="outline" onClick={logIn}>
                Log In
              </Button>
            </div>
          </div>
        </Section>

        {/* 6. Benefits */}
        <Section id="benefits" title="Why Businesses Choose Us" className="bg-slate-50 dark:bg-slate-900/40">
          <ul className="mx-auto grid max-w-4xl gap-4 sm:grid-cols-2">
            {BENEFITS.map((b) => (
              <li key={b.title} className="flex gap-3 rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900">
                <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-500" aria-hidden />
                <div>
                  <h3 className="font-semibold">{b.title}</h3>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{b.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </Section>

        {/* 7. Testimonials */}
        <Section id="testimonials" title="What Our Customers Say">
          <div className="grid gap-6 md:grid-cols-2">
            {TESTIMONIALS.map((t) => (
              <figure key={t.name} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
                <div className="flex gap-0.5 text-amber-400" role="img" aria-label="5 out of 5 stars">
                  {[0, 1, 2, 3, 4].map((i) => (
                    <Star key={i} className="h-4 w-4 fill-current" aria-hidden />
                  ))}
                </div>
                <blockquote className="mt-4 text-slate-700 dark:text-slate-300">"{t.quote}"</blockquote>
                <figcaption className="mt-4 text-sm">
                  <span className="font-semibold">{t.name}</span> <span className="text-slate-500 dark:text-slate-400">· {t.role}</span>
                </figcaption>
              </figure>
            ))}
          </div>
        </Section>

        {/* 8. Final call to action */}
        <section aria-labelledby="cta-title" className="bg-indigo-600 px-4 py-16 text-white sm:px-6">
          <div className="mx-auto max-w-3xl text-center">
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
              Ready to Stop Missing Calls?
            </h2>
            <p className="mt-3 text-lg text-indigo-100">Join UK businesses that answer every call. Try it free for 7 days.</p>
            <div className="mt-8">{actions(true)}</div>
          </div>
        </section>
      </main>

      {/* 9. Footer */}
      <footer className="border-t border-slate-200 px-4 py-10 text-sm text-slate-500 sm:px-6 dark:border-slate-800 dark:text-slate-400">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 text-center md:flex-row md:text-left">
          <p>
            © {new Date().getFullYear()} {productName}. All rights reserved.
          </p>
          <p>Helping UK businesses never lose a lead.</p>
          {meta.data && (
            <p>
              Need help? {meta.data.helpContact.name} ·{' '}
              <a className="font-medium text-indigo-600 hover:underline dark:text-indigo-400" href={`mailto:${meta.data.helpContact.email}`}>
                {meta.data.helpContact.email}
              </a>
            </p>
          )}
        </div>
      </footer>

      <SignupDialog open={open === 'signup'} onClose={() => setOpen(null)} />
      <LoginDialog open={open === 'login'} initialEmail={loginEmail} returnTo={next ?? undefined} onClose={() => setOpen(null)} onForgot={() => setOpen('forgot')} />
      <ForgotPasswordDialog open={open === 'forgot'} onClose={() => setOpen(null)} />
    </div>
  );
}
