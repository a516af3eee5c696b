// Hierarchical query keys: invalidating a prefix refreshes exactly what a mutation changed.
export const keys = {
  me: ['auth', 'me'] as const,
  meta: ['meta'] as const,
  callLogs: ['call-logs'] as const,
  /** The owner's spam and allow lists (issue 43). */
  screening: ['screening'] as const,
  /** Under callLogs, so whatever refreshes the list refreshes a call opened on its own too. */
  callLog: (id: number) => ['call-logs', 'one', id] as const,
  analytics: ['analytics'] as const,
  analyticsUrgency: (period: string) => ['analytics', 'urgency', period] as const,
  phoneNumbers: ['phone-numbers'] as const,
  questions: ['unanswered-questions'] as const,
  webhook: ['user', 'webhook'] as const,
  /** This sign-in's devices for push alerts and the owner's delayed text (issue 54). */
  pushDevices: ['user', 'push', 'devices'] as const,
  /** Texts with callers: an answer refreshes the threads, the open thread and nothing else. */
  callerTexts: {
    all: ['caller-texts'] as const,
    textBack: ['caller-texts', 'text-back'] as const,
    threads: ['caller-texts', 'threads'] as const,
    thread: (caller: string) => ['caller-texts', 'threads', caller] as const,
    optOuts: ['caller-texts', 'opt-outs'] as const,
  },
  callHandling: ['call-handling'] as const,
  /** The assistant's call-backs (issue 56): Cancel and Take it myself refresh the list. */
  callBacks: ['call-backs'] as const,
  /** The owner's website, its latest crawl and the drafts waiting (issue 55). */
  website: ['knowledge', 'website'] as const,
  /** The voices installed per caller language (issue 42): fixed while the box runs. */
  agentVoices: ['agent-voices'] as const,
  /** Booking (issue 41): a cancel or move refreshes the list and any call's booking. */
  booking: {
    list: ['booking', 'list'] as const,
    ofCall: (callId: number) => ['booking', 'list', 'call', callId] as const,
    services: ['booking', 'services'] as const,
    rules: ['booking', 'rules'] as const,
    calendar: ['booking', 'calendar'] as const,
    /** A service's free times after an instant (Call Details' "Book this caller"); any booking refreshes them all. */
    times: ['booking', 'times'] as const,
    timesOf: (serviceId: number, after: string | null) => ['booking', 'times', serviceId, after] as const,
  },
  /** The Team page (issue 58): members and their settings, read and refreshed as one. */
  team: ['team'] as const,
  /** Money (issue 59): the owner's Stripe connection for deposits, and their plan (BILLING=stripe). */
  payments: {
    stripe: ['payments', 'stripe'] as const,
    billing: ['payments', 'billing'] as const,
  },
  forwardingCheck: (id: number) => ['forwarding-check', id] as const,
  lineState: ['line-state'] as const,
  admin: {
    all: ['admin'] as const,
    users: ['admin', 'users'] as const,
    approvals: ['admin', 'approvals'] as const,
    numbers: (provider: string) => ['admin', 'numbers', provider] as const,
    usage: (provider: string) => ['admin', 'usage', provider] as const,
    agentCapacity: ['admin', 'agent-capacity'] as const,
    engines: ['admin', 'engines'] as const,
    screening: ['admin', 'screening'] as const,
    screeningMarks: (number: string) => ['admin', 'screening', 'marks', number] as const,
    quality: ['admin', 'quality'] as const,
    lineState: ['admin', 'line-state'] as const,
    billing: ['admin', 'billing'] as const,
  },
};
