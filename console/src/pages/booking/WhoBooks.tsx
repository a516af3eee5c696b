// Who books callers (issue 57, item 2): only the AI agent books a caller during the call, so an
// owner on voicemail (the default) who sets up services, hours and a calendar is told plainly
// that callers cannot book themselves, and how they still get booked: from Call Details' "Book
// this caller", or by switching to the agent. The box has no self-booking page, so no text to
// callers carries a booking link.
import { CalendarCheck, Info } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useSession } from '../../api/session';
import { SECTION_PARAM } from '../notifications/sections';

const link = 'font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300';

export function WhoBooks() {
  const { user } = useSession();
  if (!user) return null;
  const agent = user.aiMode === 'agent';
  const Icon = agent ? CalendarCheck : Info;
  return (
    <section aria-labelledby="who-books-title" className="flex gap-3 rounded-lg border border-indigo-200 bg-indigo-50/70 p-4 text-sm dark:border-indigo-900 dark:bg-indigo-950/40">
      <Icon className="mt-0.5 h-5 w-5 shrink-0 text-indigo-600 dark:text-indigo-400" aria-hidden />
      <div className="grid min-w-0 gap-1">
        <h2 id="who-books-title" className="font-semibold">{agent ? 'Your AI agent books callers' : 'On voicemail, callers cannot book themselves'}</h2>
        {agent ? (
          <p>During a call, your agent offers callers free times from these services and hours, books the one they pick and texts them the confirmation. You can also book a caller yourself: open the call in <Link className={link} to="/dashboard">Call Logs</Link> and press <strong>Book this caller</strong>.</p>
        ) : (
          <>
            <p>Only the AI agent books callers, during the call. Your calls go to voicemail, so callers leave a message instead, and the summary says when they wanted a booking.</p>
            <p>To book one: open the call in <Link className={link} to="/dashboard">Call Logs</Link>, press <strong>Book this caller</strong> and pick a free time; the caller is texted the confirmation. Or let callers book during the call: <Link className={link} to={`/dashboard/notifications?${SECTION_PARAM}=answering`}>switch to the AI agent</Link>.</p>
          </>
        )}
      </div>
    </section>
  );
}
