// Display formats of SPEC.md §9: phone numbers, dates in Europe/London, durations, money.

export const NA = 'N/A';
const TZ = 'Europe/London';

// Phone numbers: the display half of the phone module the server uses too (contract/phone.ts).
export { formatAdminPhone, formatPhone } from '../../../contract/phone-display';
import { formatPhone } from '../../../contract/phone-display';
import { isWithheldCaller } from '../../../contract/withheld';

/** Who called, as a customer screen names them: the number, or "Withheld number" when they hid it ("anonymous"). */
export function formatCaller(fromNumber: string | null | undefined): string {
  return isWithheldCaller(fromNumber) ? 'Withheld number' : formatPhone(fromNumber);
}

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const partsFormatter = new Intl.DateTimeFormat('en-GB', {
  timeZone: TZ,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function londonParts(d: Date) {
  const p: Record<string, string> = {};
  for (const part of partsFormatter.formatToParts(d)) p[part.type] = part.value;
  return { dd: p.day!, MM: p.month!, yyyy: p.year!, HH: p.hour!, mm: p.minute! };
}

/** dd/MM/yyyy */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  if (!d) return NA;
  const p = londonParts(d);
  return `${p.dd}/${p.MM}/${p.yyyy}`;
}

/** dd/MM/yyyy HH:mm */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  if (!d) return NA;
  const p = londonParts(d);
  return `${p.dd}/${p.MM}/${p.yyyy} ${p.HH}:${p.mm}`;
}

/** Call cards: dd/MM/yyyy 'at' HH:mm */
export function formatCallDate(value: DateInput): string {
  const d = toDate(value);
  if (!d) return NA;
  const p = londonParts(d);
  return `${p.dd}/${p.MM}/${p.yyyy} at ${p.HH}:${p.mm}`;
}

/** The London calendar date as YYYY-MM-DD (file names). */
export function londonIsoDate(value: DateInput): string {
  const d = toDate(value);
  if (!d) return '';
  const p = londonParts(d);
  return `${p.yyyy}-${p.MM}-${p.dd}`;
}

/**
 * Volume chart label dd/MM. The server's callsPerDay keys are calendar days already
 * (YYYY-MM-DD, London), so they are read as text: no time zone may move them.
 */
export function formatDayMonth(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (m) return `${m[3]}/${m[2]}`;
  const d = toDate(day);
  if (!d) return day;
  const p = londonParts(d);
  return `${p.dd}/${p.MM}`;
}

const relative = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 days ago", "in 5 days", "now". */
export function formatRelative(value: DateInput, now: Date = new Date()): string {
  const d = toDate(value);
  if (!d) return NA;
  const seconds = (d.getTime() - now.getTime()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(0, 'second');
}

/** Call cards: m:ss. */
export function formatMmSs(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return NA;
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Analytics average: Xm Ys. */
export function formatMinSec(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '0m 0s';
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}m ${total % 60}s`;
}

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** £1,234.50: costs always to 2 decimals. */
export function formatGBP(amount: number | null | undefined): string {
  return gbp.format(Number.isFinite(amount) ? (amount as number) : 0);
}

/** A balance in its own currency (the provider's account may not be in pounds). */
export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

export function capitalise(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}
