// A call's summary by e-mail (the third channel beside SMS and WhatsApp): pure wording, plain
// text and HTML, from the same facts as the text message.
import { callDetailsPath } from '../../contract/links.js';
import { formatPhone } from '../../contract/phone.js';
import { callHeadline, talkTime, TRANSFER_WORDS, type CallFacts } from '../notify/message.js';
import { escapeHtml, htmlLink, htmlMail, htmlParagraphs } from './html.js';
import type { Brand, MailMessage } from './templates.js';

export interface SummaryMailFacts extends CallFacts {
  id: number;
  toNumber: string;
  duration: number;
  urgencyReason?: string | null;
}

const longDate = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
/** "Wednesday 15 July 2026 at 14:05": by parts, as ICU puts a comma after the weekday when a year follows. */
const when = (d: Date) => {
  const p = Object.fromEntries(longDate.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.weekday} ${p.day} ${p.month} ${p.year} at ${clock(d)}`;
};
const clock = (d: Date) => d.toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });
const caller = (n: string) => (n.trim() ? formatPhone(n) : 'a withheld number');
const minutes = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

function urgencyLine(c: SummaryMailFacts): string | null {
  if (c.urgency === 'urgent') return `Urgent${c.urgencyReason ? `: ${c.urgencyReason}` : ''}`;
  if (c.urgency === 'low') return `Low priority${c.urgencyReason ? `: ${c.urgencyReason}` : ''}`;
  return null;
}

/** A put-through tried on the call: taken (and for how long), or why not. */
function transferLine(c: SummaryMailFacts): string | null {
  if (!c.transferOutcome) return null;
  return c.transferOutcome === 'connected' ? `You took the call and spoke for ${talkTime(c.transferTalkSeconds ?? 0)}` : `Not taken: ${TRANSFER_WORDS[c.transferOutcome]}`;
}

function summaryText(c: SummaryMailFacts): string {
  if (c.aiSummary?.trim()) return c.aiSummary.trim();
  if (c.status === 'missed') return 'The caller rang off without leaving a message.';
  return 'No summary available yet: it will appear in your call log.';
}

export function callSummaryMail(b: Brand, to: string, c: SummaryMailFacts): MailMessage {
  const link = `${b.publicUrl}${callDetailsPath(c.id)}`;
  const urgent = c.urgency === 'urgent' ? 'URGENT: ' : '';
  const subject = `${urgent}${callHeadline(c)} from ${caller(c.fromNumber)} at ${clock(c.createdAt)}`;
  const lead = `${callHeadline(c)} from ${caller(c.fromNumber)} on ${when(c.createdAt)} (UK time).`;
  const urgency = urgencyLine(c);
  const transfer = transferLine(c);
  const transcript = c.transcription?.trim() || null;
  const facts: [string, string][] = [
    ['From', caller(c.fromNumber)],
    ['To', formatPhone(c.toNumber)],
    ['Time', `${when(c.createdAt)} (UK time)`],
    ['Duration', minutes(c.duration)],
    ...(urgency ? ([['Urgency', urgency]] as [string, string][]) : []),
    ...(transfer ? ([['Put through', transfer]] as [string, string][]) : []),
    ...(c.callerTag === 'vip' ? ([['Caller', 'VIP']] as [string, string][]) : []),
  ];

  const text =
    `${lead}\n\n` +
    `Summary:\n${summaryText(c)}\n\n` +
    (transcript ? `Transcript:\n${transcript}\n\n` : '') +
    facts.map(([k, v]) => `${k}: ${v}`).join('\n') +
    `\n\nOpen the call in ${b.productName}: ${link}\n` +
    (c.fromNumber.trim() ? `Call them back: tel:${c.fromNumber.trim()}\n` : '');

  const cell = 'padding:4px 12px 4px 0;vertical-align:top';
  const html = htmlMail(
    subject,
    `<p style="margin:0 0 16px">${escapeHtml(lead)}</p>` +
      `<h2 style="font-size:16px;margin:0 0 8px">Summary</h2>${htmlParagraphs(summaryText(c))}` +
      (transcript ? `<h2 style="font-size:16px;margin:16px 0 8px">Transcript</h2>${htmlParagraphs(transcript)}` : '') +
      `<table style="border-collapse:collapse;margin:16px 0">` +
      facts.map(([k, v]) => `<tr><th style="${cell};text-align:left">${escapeHtml(k)}</th><td style="${cell}">${escapeHtml(v)}</td></tr>`).join('') +
      `</table><p style="margin:0 0 8px">${htmlLink(link, `Open the call in ${b.productName}`)}</p>` +
      (c.fromNumber.trim() ? `<p style="margin:0">${htmlLink(`tel:${c.fromNumber.trim()}`, `Call ${caller(c.fromNumber)} back`)}</p>` : ''),
    `Sent by ${b.productName} because e-mail summaries are on under Notification Settings.`,
  );
  return { to, subject, text, html };
}
