/**
 * A URL as it may be shown in a configuration error, a log line, a health report or a metric
 * label: any password in it replaced by `***` (SMTP_URL, ARI_URL, OLLAMA_URL, TWILIO_API_BASE,
 * TURN_URL and DATABASE_URL may all carry one, as `scheme://user:password@host`).
 *
 * It has to work on the URLs a configuration check refuses too, which `new URL` cannot parse
 * (a space, an unencoded `@` or `/` in the password), so it reads the text rather than
 * parsing it: whatever lies between the user name's `:` and the last `@` of the address part
 * is masked. Masking too much is harmless; masking too little is the leak. A comma-separated
 * list is masked entry by entry.
 */
export function maskUrl(text: string): string {
  return text
    .split(',')
    .map((entry) => maskOne(entry))
    .join(',');
}

function maskOne(entry: string): string {
  const at = entry.lastIndexOf('@');
  if (at === -1) return entry;
  // The user information starts after "scheme://" or, without slashes (turn:user:pw@host), after "scheme:".
  const slashes = entry.indexOf('://');
  const scheme = /^\s*[A-Za-z][A-Za-z0-9+.-]*:/.exec(entry);
  const start = slashes !== -1 && slashes < at ? slashes + 3 : scheme ? scheme[0].length : 0;
  const colon = entry.indexOf(':', start);
  if (colon === -1 || colon > at) return entry; // only a user name, no password
  return `${entry.slice(0, colon + 1)}***${entry.slice(at)}`;
}
