// The limits' figures, apart from the limiter, so the app's types can name them without a cycle.

export const MINUTE = 60_000;

/**
 * Every limit the API applies, in one place (README "Security" lists them). On SQLite counts
 * live in memory: the appliance is one process, and a restart forgetting them is harmless.
 * On PostgreSQL they live in the database (shared-rate-limit-store.ts), so every core of a
 * cluster counts against the same figures.
 */
export const RATE_LIMITS = {
  /** OWASP: strict per account and address… */
  loginFailuresPerAccountAndIp: { max: 5, windowMs: 15 * MINUTE },
  /** …one address trying many accounts… */
  loginFailuresPerIp: { max: 20, windowMs: 15 * MINUTE },
  /** …and per account a much higher ceiling, reached only by many addresses (see login-throttle). */
  loginFailuresPerAccount: { max: 100, windowMs: 60 * MINUTE },
  changePasswordFailuresPerUser: { max: 5, windowMs: 15 * MINUTE },
  resetRequestsPerIp: { max: 10, windowMs: 15 * MINUTE },
  resetMailsPerAccount: { max: 3, windowMs: 60 * MINUTE },
  resetFailuresPerIp: { max: 10, windowMs: 15 * MINUTE },
  signupsPerIp: { max: 10, windowMs: 60 * MINUTE },
  previewsPerOwner: { max: 10, windowMs: MINUTE },
  /** Each test rings the owner's phone over the trunk (a paid call). */
  testTransfersPerOwner: { max: 5, windowMs: 15 * MINUTE },
  /**
   * "Call my line": each press makes an endpoint on Asterisk and, with TURN, a relay credential.
   * The name is the key of its counters in PostgreSQL, so it keeps the feature's first name.
   */
  testCallsPerOwner: { max: 10, windowMs: 60 * MINUTE },
  /** Listen in and take over (issue 54): each makes an endpoint on Asterisk and a TURN credential, or rings the owner's phone. */
  liveControlPerOwner: { max: 30, windowMs: 60 * MINUTE },
  /** "Check my forwarding": each one is a call to the owner's line over the trunk. */
  forwardingChecksPerOwner: { max: 5, windowMs: 60 * MINUTE },
  /** "Send Test Event": each one is a request to the owner's receiver, which the button must not flood. */
  webhookTestsPerOwner: { max: 5, windowMs: 15 * MINUTE },
  /** Each new greeting or voice is synthesised into the shared prompts folder on the shared TTS engine. */
  greetingChangesPerOwner: { max: 10, windowMs: 60 * MINUTE },
  /**
   * Each greeting recording uploaded is up to 6 MB to receive and convert (in a worker thread,
   * on the box's CPU the calls share): per owner, and per box however many owners upload.
   */
  greetingUploadsPerOwner: { max: 20, windowMs: 60 * MINUTE },
  greetingUploadsPerBox: { max: 120, windowMs: 60 * MINUTE },
  /**
   * CalDAV "Test connection" and connect: each one is requests from the box to an address the
   * owner typed, which must not become a way to scan the internet from the box.
   */
  calendarTestsPerOwner: { max: 10, windowMs: 15 * MINUTE },
  /** Each new notification number or summary e-mail gets a code: a text or mail at the operator's cost. */
  destinationCodesPerOwner: { max: 5, windowMs: 60 * MINUTE },
  /** A team member's phone gets a code too (core/team/routes.ts): room for each of up to 20 people and a retry or two, not for a flood. */
  teamPhoneCodesPerOwner: { max: 30, windowMs: 60 * MINUTE },
  /** Stripe's webhooks (core/payments/webhooks): signed, but public, so an address cannot make the box verify floods. Stripe sends from a few addresses, in bursts. */
  stripeWebhooksPerIp: { max: 600, windowMs: MINUTE },
} as const;

export type RateLimit = { max: number; windowMs: number };
export type RateLimits = { [K in keyof typeof RATE_LIMITS]: RateLimit };
