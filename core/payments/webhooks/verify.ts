import Stripe from 'stripe';
import { badRequest } from '../../http/errors.js';

// Stripe signs each delivery over its exact bytes (https://docs.stripe.com/webhooks#verify-official-libraries):
// the SDK's own helper checks the Stripe-Signature header's HMAC-SHA256 and its timestamp (5 minutes'
// tolerance against replays) on the raw body, never on JSON parsed and re-serialised.

/** The event, once its signature holds; else a 400 whose words say what was wrong, never the secret. */
export async function verifiedEvent(raw: Buffer, signature: string | string[] | undefined, secret: string, now: Date): Promise<Stripe.Event> {
  if (typeof signature !== 'string' || signature === '') throw badRequest('The Stripe-Signature header is missing.');
  try {
    // The box's clock, in milliseconds: the SDK takes receivedAt in ms (it divides by 1000), and
    // in seconds it would make every signature young, disabling the replay check.
    return await Stripe.webhooks.constructEventAsync(raw, signature, secret, undefined, undefined, now.getTime());
  } catch (err) {
    // The SDK's error carries the header and the payload: only its kind goes further.
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) throw badRequest('The Stripe signature does not match this event, or it is too old.');
    throw badRequest('The Stripe event could not be read.');
  }
}
