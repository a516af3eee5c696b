// "Which calendar do you use?": each provider's own short steps and what to paste, so an owner
// never has to know what CalDAV or iCal means. Google and Outlook publish a read-only address
// (pasted as the iCal address); iCloud is CalDAV with an app-specific password (two-way);
// anything else is CalDAV or an iCal address. Links open the provider's own page.
import type { ReactNode } from 'react';

export type CalendarProvider = 'google' | 'outlook' | 'icloud' | 'other';

/** What the owner connects for a provider: the iCal address card, the CalDAV card, or both. */
export const PROVIDER_CARDS: Record<CalendarProvider, { ical: boolean; caldav: boolean }> = {
  google: { ical: true, caldav: false },
  outlook: { ical: true, caldav: false },
  icloud: { ical: false, caldav: true },
  other: { ical: true, caldav: true },
};

export const PROVIDERS: { id: CalendarProvider; title: string; text: string }[] = [
  { id: 'google', title: 'Google Calendar', text: 'Gmail or Google Workspace' },
  { id: 'outlook', title: 'Outlook or Microsoft 365', text: 'Outlook.com, Hotmail or a work account' },
  { id: 'icloud', title: 'iCloud', text: "The iPhone's Calendar app" },
  { id: 'other', title: 'Another calendar', text: 'Nextcloud, Fastmail, or any calendar with a CalDAV or iCal address' },
];

/** The iCloud CalDAV address, filled in for the owner. */
export const ICLOUD_CALDAV = 'https://caldav.icloud.com/';

const A = ({ href, children }: { href: string; children: ReactNode }) => (
  <a href={href} target="_blank" rel="noreferrer" className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300">{children}</a>
);

const STEPS: Record<CalendarProvider, { steps: ReactNode[]; after?: ReactNode }> = {
  google: {
    steps: [
      <>Open <A href="https://calendar.google.com/calendar/r/settings">Google Calendar's settings</A> in a web browser. Google's phone app does not have this setting: on a phone, open the link and choose "Desktop site" in the browser's menu.</>,
      <>Under "Settings for my calendars", pick your calendar, then <strong>Integrate calendar</strong>.</>,
      <>Copy <strong>Secret address in iCal format</strong> and paste it below as your calendar's iCal address.</>,
    ],
    after: <>Your busy times then block bookings. To see the bookings in Google Calendar, copy the bookings feed address below and add it in Google Calendar under Other calendars → From URL.</>,
  },
  outlook: {
    steps: [
      <>Open <A href="https://outlook.office.com/calendar/options/calendar/SharedCalendars">Outlook's shared calendars settings</A> in a web browser (a phone's browser works; for a personal account use <A href="https://outlook.live.com/calendar/0/options/calendar/SharedCalendars">Outlook.com</A>).</>,
      <>Under <strong>Publish a calendar</strong>, pick your calendar and "Can view all details", then <strong>Publish</strong>.</>,
      <>Copy the <strong>ICS</strong> link and paste it below as your calendar's iCal address.</>,
    ],
    after: <>Your busy times then block bookings. To see the bookings in Outlook, copy the bookings feed address below and add it under Add calendar → Subscribe from web.</>,
  },
  icloud: {
    steps: [
      <>Make an app-specific password: on your iPhone, Settings → your name → Sign-In & Security → App-Specific Passwords; or on <A href="https://account.apple.com/account/manage">your Apple Account page</A>. Name it "CallKeeper".</>,
      <>Below, the CalDAV address is filled in for you. Your user name is your Apple Account email; the password is the app-specific one (not your Apple Account password).</>,
      <>Press <strong>Test connection</strong>, then <strong>Connect calendar</strong>.</>,
    ],
    after: <>Your busy times then block bookings, and each booking appears in your iPhone's Calendar.</>,
  },
  other: {
    steps: [
      <>If your calendar gives a <strong>CalDAV</strong> address (Nextcloud, Fastmail, Radicale, Baïkal), enter it below with your user name and an app password made for CallKeeper: the box reads your busy times and writes each booking into it.</>,
      <>If it only gives an <strong>iCal</strong> (.ics or webcal://) address, paste that below as your calendar's iCal address: your busy times block bookings.</>,
    ],
  },
};

export function ProviderSteps({ provider }: { provider: CalendarProvider }) {
  const { steps, after } = STEPS[provider];
  const title = PROVIDERS.find((p) => p.id === provider)!.title;
  return (
    <section aria-labelledby="provider-steps-title" className="grid gap-2 rounded-lg border border-slate-200 p-4 text-sm dark:border-slate-700">
      <h3 id="provider-steps-title" className="font-semibold">Connect {title}</h3>
      <ol className="grid list-decimal gap-1.5 pl-5 [overflow-wrap:anywhere]">
        {steps.map((s, i) => <li key={i}>{s}</li>)}
      </ol>
      {after && <p className="text-slate-600 dark:text-slate-400">{after}</p>}
    </section>
  );
}
