// The weekly "to call back" digest (core/digest/): pure wording, plain text and HTML.
import { formatPhone } from '../../contract/phone.js';
import { callDetailsPath } from '../../contract/links.js';
import { escapeHtml, htmlLink, htmlMail } from './html.js';
import type { Brand, MailMessage } from './templates.js';

export interface DigestCall {
  id: number;
  status: 'missed' | 'voicemail';
  fromNumber: string;
  createdAt: Date;
}

export interface DigestContent {
  businessName: string | null;
  /** Last week's London days, Monday first, each with its calls still waiting (oldest first). */
  days: { date: string; calls: DigestCall[] }[];
  /** Nuisance calls screened last week (issue 43): not texted, not in the list; 0 says nothing. */
  screened?: number;
}

const tz = { timeZone: 'Europe/London' } as const;
const dayLabel = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { timeZone: 'UTC', weekday: 'short', day: '2-digit', month: '2-digit' }).replace(',', '');
const longDate = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });
const time = (d: Date) => d.toLocaleTimeString('en-GB', { ...tz, hour: '2-digit', minute: '2-digit' });
const what = (c: DigestCall) => (c.status === 'missed' ? 'missed call' : 'voicemail');
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function callbackDigestMail(b: Brand, to: string, d: DigestContent): MailMessage {
  const total = d.days.reduce((n, day) => n + day.calls.length, 0);
  const first = d.days[0]!.date;
  const last = d.days[d.days.length - 1]!.date;
  const link = (c: DigestCall) => `${b.publicUrl}${callDetailsPath(c.id)}`;
  const intro =
    `Last week (${longDate(first)} to ${longDate(last)}) ${plural(total, 'caller', 'callers')} who left a voicemail or rang off ` +
    `${total === 1 ? 'has' : 'have'} not been called back yet.`;
  const howTo = 'When you have rung someone back, press "Mark called back" on the call in your call log, or reply DONE and the call\'s number to its text.';
  const turnOff = 'You can turn this weekly e-mail off under Notification Settings.';
  const screened = d.screened
    ? `${plural(d.screened, 'nuisance call was', 'nuisance calls were')} screened last week (sales calls, recorded messages, silent calls and wrong numbers): kept in your call log under Screened, not texted to you.`
    : '';
  const subject = `${plural(total, 'caller', 'callers')} still to call back from last week`;
  const hello = `Hello${d.businessName ? ` ${d.businessName}` : ''},`;

  const text =
    `${hello}\n\n${intro}\n\nBy day:\n` +
    d.days.map((day) => `  ${dayLabel(day.date)}  ${day.calls.length}`).join('\n') +
    `\n\nStill to call back:\n` +
    d.days
      .flatMap((day) => day.calls.map((c) => `  ${dayLabel(day.date)} ${time(c.createdAt)}  ${formatPhone(c.fromNumber)}  ${what(c)} (call ${c.id})\n    ${link(c)}`))
      .join('\n') +
    `\n\n${screened ? `${screened}\n\n` : ''}${howTo}\n\n${turnOff}\n\nThe ${b.productName} team\n`;

  const cell = 'padding:4px 12px 4px 0;border-bottom:1px solid #e2e8f0';
  const html = htmlMail(
    subject,
    `<p style="margin:0 0 12px">${escapeHtml(hello)}</p><p style="margin:0 0 16px">${escapeHtml(intro)}</p>` +
      `<h2 style="font-size:16px;margin:0 0 8px">By day</h2><table style="border-collapse:collapse;margin:0 0 16px">` +
      d.days.map((day) => `<tr><td style="${cell}">${escapeHtml(dayLabel(day.date))}</td><td style="${cell};text-align:right">${day.calls.length}</td></tr>`).join('') +
      `</table><h2 style="font-size:16px;margin:0 0 8px">Still to call back</h2><table style="border-collapse:collapse;margin:0 0 16px">` +
      d.days
        .flatMap((day) =>
          day.calls.map(
            (c) =>
              `<tr><td style="${cell}">${escapeHtml(`${dayLabel(day.date)} ${time(c.createdAt)}`)}</td>` +
              `<td style="${cell}"><a href="tel:${escapeHtml(c.fromNumber)}" style="color:#2563eb">${escapeHtml(formatPhone(c.fromNumber))}</a></td>` +
              `<td style="${cell}">${escapeHtml(what(c))}</td><td style="${cell}">${htmlLink(link(c), `Call ${c.id}`)}</td></tr>`,
          ),
        )
        .join('') +
      `</table>${screened ? `<p style="margin:0 0 12px">${escapeHtml(screened)}</p>` : ''}<p style="margin:0 0 12px">${escapeHtml(howTo)}</p><p style="margin:0;color:#64748b">${escapeHtml(turnOff)}</p>`,
    `The ${b.productName} team`,
  );
  return { to, subject, text, html };
}
