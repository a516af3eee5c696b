import { createRequire } from 'node:module';
import type twilio from 'twilio';

// The Twilio SDK is ~0.15 s of CPU to import, and most boxes, starts and test servers never use
// it: loaded on first use instead. require, not import(): it is CommonJS either way, and the
// client is built synchronously (createTwilioClient, the webhook's signature check).
const load = createRequire(import.meta.url);
let sdk: typeof twilio | undefined;

/** The SDK's module (the `twilio` default export), loaded once, on first use. */
export function twilioSdk(): typeof twilio {
  return (sdk ??= load('twilio') as typeof twilio);
}
