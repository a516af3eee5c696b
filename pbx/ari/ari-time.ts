/** Parses Asterisk's timestamps (2024-01-01T12:00:00.123+0000), which Date.parse rejects. */
export function parseAriTime(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const iso = text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}
