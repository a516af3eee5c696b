import Stripe from 'stripe';

// The one way the box talks to Stripe: the SDK, with a key (the operator's for billing, an
// owner's for deposits) and, for tests, the address of a double on loopback (STRIPE_API_BASE).
// Every call that takes one passes its own idempotency key (derived from the box's own ids:
// "deposit-checkout:<booking id>"), so a retry after a timeout can never charge or refund twice.

export function stripeClient(secretKey: string, apiBase?: string): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    // A call in a caller's turn must not hang the conversation: past this the booking becomes a request.
    timeout: 10_000,
    telemetry: false,
    appInfo: { name: 'CallKeeper' },
    ...(base
      ? { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'https:' ? ('https' as const) : ('http' as const) }
      : {}),
  });
}
