// Validation rules shared by the console (live feedback) and the server (the final word).
// Pure: no I/O, no dependencies. Messages are SPEC.md §5's, verbatim.

export const INDUSTRIES = [
  'plumbing',
  'beauty',
  'construction',
  'electrical',
  'hvac',
  'landscaping',
  'cleaning',
  'legal',
  'medical',
  'real-estate',
  'automotive',
  'other',
] as const;

export const WEEKLY_CALL_BANDS = ['0-10', '10-25', '25-50', '50-100', '100+'] as const;

export const COUNTRY = 'United Kingdom';
const SIGNUP_PASSWORD_MIN = 8;
const CHANGE_PASSWORD_MIN = 6;

export interface PasswordCheck {
  id: 'length' | 'upper' | 'lower' | 'digit' | 'special';
  label: string;
  message: string;
  passes(password: string): boolean;
}

export const PASSWORD_CHECKS: readonly PasswordCheck[] = [
  {
    id: 'length',
    label: 'At least 8 characters',
    message: 'Password must be at least 8 characters',
    passes: (p) => p.length >= SIGNUP_PASSWORD_MIN,
  },
  {
    id: 'upper',
    label: 'One uppercase letter',
    message: 'Password must contain at least one uppercase letter',
    passes: (p) => /[A-Z]/.test(p),
  },
  {
    id: 'lower',
    label: 'One lowercase letter',
    message: 'Password must contain at least one lowercase letter',
    passes: (p) => /[a-z]/.test(p),
  },
  {
    id: 'digit',
    label: 'One number',
    message: 'Password must contain at least one number',
    passes: (p) => /[0-9]/.test(p),
  },
  {
    id: 'special',
    label: 'One special character (!@#$%^&*)',
    message: 'Password must contain at least one special character (!@#$%^&*)',
    passes: (p) => /[!@#$%^&*]/.test(p),
  },
];

/** The sign-up checklist's failures, in checklist order; empty when the password is valid. */
export function passwordErrors(password: string): string[] {
  return PASSWORD_CHECKS.filter((c) => !c.passes(password)).map((c) => c.message);
}

export type PasswordStrength = 'weak' | 'medium' | 'strong';

/** 2 or fewer checks passed = weak, 3–4 = medium, all 5 = strong (SPEC.md §5, first reading). */
export function passwordStrength(password: string): PasswordStrength {
  const passed = PASSWORD_CHECKS.filter((c) => c.passes(password)).length;
  if (passed <= 2) return 'weak';
  if (passed <= 4) return 'medium';
  return 'strong';
}

/** As typed: no whitespace, upper case, a space before the last 3 characters once 5 or more remain. */
export function formatPostcode(input: string): string {
  const compact = input.replace(/\s+/g, '').toUpperCase();
  if (compact.length < 5) return compact;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

// Royal Mail's outward/inward shape (A9 9AA, A99 9AA, AA9 9AA, AA99 9AA, A9A 9AA, AA9A 9AA), plus GIR 0AA.
const UK_POSTCODE = /^(GIR 0AA|[A-PR-UWYZ][A-HK-Y]?[0-9][0-9A-HJKMNPR-Y]? [0-9][ABD-HJLNP-UW-Z]{2})$/;

export function isUkPostcode(input: string): boolean {
  return UK_POSTCODE.test(formatPostcode(input));
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(input: string): boolean {
  return input.length <= 254 && EMAIL.test(input.trim());
}

/** Change and reset password (SPEC.md §5): 6+ characters and a matching confirmation. */
export function newPasswordError(newPassword: string, confirmPassword?: string): string | null {
  if (newPassword.length < CHANGE_PASSWORD_MIN) return 'Password must be at least 6 characters';
  if (confirmPassword !== undefined && newPassword !== confirmPassword) return 'Passwords do not match';
  return null;
}

/** Longest texts an owner's settings may hold (the settings form, the agent preview, the add-to-KB check). */
export const LIMITS = { businessName: 200, callGreeting: 1000, knowledgeBase: 50_000 } as const;

/** Call handling's bounds (core/call-handling/validate.ts words the messages). */
export const CALL_HANDLING_LIMITS = {
  spansPerDay: 4,
  listEntries: 200,
  timeoutMin: 5,
  timeoutMax: 60,
  closedGreeting: 1000,
} as const;

/** The longest webhook URL kept (Zapier's and Make's are well under 200 characters). */
export const MAX_WEBHOOK_URL = 2000;

/** The team (issue 58, docs/team.md). */
export const TEAM_LIMITS = {
  /** Staff besides the owner, by default (TEAM_MAX_STAFF sets the box's own). */
  defaultMaxStaff: 20,
  rules: 10,
  otherNames: 5,
  nameLength: 60,
  ringSecondsMin: 10,
  ringSecondsMax: 60,
  roleWordLength: 40,
  /** A person's own length for a service (staff_services.duration_minutes). */
  serviceMinutes: { min: 5, max: 480 },
} as const;

/**
 * A crawl of the owner's website (issue 55, core/website): the site only (its host and www.),
 * robots.txt obeyed, one request at a time. WEBSITE_CRAWL_PAUSE_MS and WEBSITE_DAILY_CRAWLS are
 * the operator's (core/config); these are the fixed bounds.
 */
export const WEBSITE_LIMITS = {
  maxPages: 200,
  /** A page's body past this is cut there (and the cut reported). */
  maxPageBytes: 2 * 1024 * 1024,
  /** The whole crawl, fetching and drafting: past this it ends with what it has, and says so. */
  crawlMs: 5 * 60_000,
  /** One request's own bound (connect, headers and body). */
  requestMs: 15_000,
  defaultPauseMs: 500,
  /** Crawls a business may start per London day (the weekly re-crawl is not counted). */
  defaultDailyCrawls: 5,
  /** The address the owner types. */
  urlLength: 500,
  /** A draft's question and answer as the owner may edit them. */
  questionLength: 300,
  answerLength: 1000,
  /** Days between the automatic re-crawls. */
  recrawlDays: 7,
} as const;

/** Money (issue 59, docs/payments.md): deposits and the operator's subscriptions. */
export const PAYMENT_LIMITS = {
  /** The owner's written deposit policy: said in the confirmation text, so short. */
  policyMaxChars: 300,
  /** A deposit in pence: at least Stripe's 30p minimum for GBP, at most £1,000. */
  depositPence: { min: 30, max: 100_000 },
  /** How long a pay link holds the slot: Stripe Checkout lives from 30 minutes to 24 hours. */
  holdMinutes: { min: 30, max: 1440, default: 30 },
  /** A failed payment leaves the line answering this many days (BILLING_GRACE_DAYS). */
  defaultGraceDays: 7,
} as const;

/** An amount as a sentence says it: "£20", "£12.50", "£1,000", "£0.30" (whole pounds without pence). */
export function penceAsPounds(pence: number): string {
  return `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: pence % 100 === 0 ? 0 : 2, maximumFractionDigits: 2 })}`;
}
