/**
 * A failed connection in words an owner reads (issue 57 item 7): Node's error codes
 * (ECONNREFUSED…) mean nothing to them. The code stays at the end, for whoever they ask.
 */
const WORDS: Record<string, string> = {
  ECONNREFUSED: 'nothing answered at that address (the connection was refused)',
  ENOTFOUND: 'that name was not found: check the address is spelt right',
  EAI_AGAIN: 'the name could not be looked up just now',
  ECONNRESET: 'the connection was cut off before an answer',
  ETIMEDOUT: 'the address did not answer in time',
  EHOSTUNREACH: 'that address cannot be reached from this box',
  ENETUNREACH: 'that network cannot be reached from this box',
  CERT_HAS_EXPIRED: 'its security certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its security certificate is not trusted (self-signed)',
  SELF_SIGNED_CERT_IN_CHAIN: 'its security certificate is not trusted (self-signed)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its security certificate is for another name',
};

/** Plain words for a connection error's code, or its own message when the code is not known. */
export function networkErrorWords(err: Error): string {
  const code = 'code' in err ? String((err as { code: unknown }).code) : '';
  const words = WORDS[code];
  return words ? `${words} (${code})` : `${err.message}${code ? ` (${code})` : ''}`;
}
