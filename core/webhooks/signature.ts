import crypto from 'node:crypto';

export const SIGNATURE_HEADER = 'X-CallKeeper-Signature';

/** A fresh per-owner secret: 32 random bytes, shown to the owner once per rotation. */
export const newWebhookSecret = () => `whsec_${crypto.randomBytes(32).toString('hex')}`;

/** HMAC-SHA256 over `${timestamp}.${body}` (Stripe's scheme), hex. */
function signatureOf(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The header value: `t=<unix seconds>,v1=<hex>`. */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}
