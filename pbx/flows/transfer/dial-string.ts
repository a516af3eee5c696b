import { nationalDigits } from '../../../contract/phone.js';

/**
 * The dial string for calling `e164` from OUTBOUND_ENDPOINT (validated by core/config):
 * {number} becomes E.164 (+447911123456, what Twilio and most SIP trunks take), {national}
 * the UK national form (07911123456) for providers that want it.
 */
export function outboundEndpoint(template: string, e164: string): string {
  return template.replaceAll('{number}', e164).replaceAll('{national}', nationalDigits(e164));
}
