// Money as Stripe counts it: whole minor units (pence) with a lower-case currency code ("gbp").
// Shown in pounds the British way, always to two decimals.

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string): Intl.NumberFormat | null {
  const code = currency.toUpperCase();
  let f = formatters.get(code);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-GB', { style: 'currency', currency: code, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } catch {
      // A code Intl does not know (Stripe's list is longer than some browsers'): said plainly below.
      return null;
    }
    formatters.set(code, f);
  }
  return f;
}

/** 2000 → "£20.00"; 2000, "eur" → "€20.00". Not a whole number of pence (a bad answer): "N/A". */
export function formatPence(pence: number, currency = 'gbp'): string {
  if (!Number.isInteger(pence)) return 'N/A';
  const f = formatter(currency);
  return f ? f.format(pence / 100) : `${(pence / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

/**
 * What an owner typed in a pounds box, in pence: "20" → 2000, "12.5" → 1250, "£1,000" → 100000;
 * empty → null (not said); anything else NaN, which the server refuses in words at its field.
 */
export function penceFromPounds(text: string): number | null {
  const t = text.trim().replace(/^£/, '').replace(/,/g, '');
  if (!t) return null;
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return Number.NaN;
  return Math.round(Number(t) * 100);
}

/** Pence shown in a pounds box: 2000 → "20", 1250 → "12.50". */
export function poundsText(pence: number): string {
  return pence % 100 === 0 ? String(pence / 100) : (pence / 100).toFixed(2);
}
