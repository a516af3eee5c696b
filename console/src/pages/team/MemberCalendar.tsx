// A member's own calendar on the Team page (issue 58, item 5): the same "Which calendar does …
// use?", provider steps and CalDAV / iCal cards as the owner's Calendar tab (booking/
// CalendarChoice.tsx), saved through PUT/DELETE /api/user/team/:id/calendar. The team list says
// only which kind is connected, never its address; the answer to a save names the CalDAV address.
import { useMemo, useState } from 'react';
import type { ApiBookingCalendar } from '../../../../contract/schemas/booking';
import { removeMemberCalendar, setMemberCalendar, type ApiTeamMember } from '../../api/team';
import { Dialog } from '../../components/Dialog';
import { CalendarChoice } from '../booking/CalendarChoice';
import type { CalendarRequests } from '../booking/calendar-requests';

/** How the member's row names the kind of calendar connected. */
export const CALENDAR_KIND: Record<ApiTeamMember['calendar'], string> = {
  none: 'None',
  caldav: 'CalDAV, two-way',
  ical: 'iCal address, busy times only',
};

/** The calendar as the cards read it, from the team list's kind alone (no address: "Connected."). */
const fromKind = (kind: ApiTeamMember['calendar']): ApiBookingCalendar => ({
  caldav: kind === 'caldav' ? { url: '', username: '' } : null,
  icalAddressSet: kind === 'ical',
  feedUrl: null,
  trouble: null,
});

function statusOf(cal: ApiBookingCalendar, name: string): string {
  if (cal.caldav) return `${name}'s CalDAV calendar is connected: its busy times block bookings with ${name}, and each booking with ${name} is written into it.`;
  if (cal.icalAddressSet) return `${name}'s iCal address is set: its busy times block bookings with ${name}.`;
  return `No calendar connected for ${name}: only their hours and bookings decide when they are free.`;
}

export function CalendarDialog({ member, onClose, onSaved }: { member: ApiTeamMember; onClose: () => void; onSaved: () => Promise<unknown> }) {
  const [answer, setAnswer] = useState<ApiBookingCalendar | null>(null);
  const cal = answer ?? fromKind(member.calendar);
  const requests = useMemo<CalendarRequests>(() => ({
    saveIcal: (url) => setMemberCalendar(member.id, { url }),
    connectCalDav: (body) => setMemberCalendar(member.id, body),
    disconnectCalDav: () => removeMemberCalendar(member.id),
  }), [member.id]);
  return (
    <Dialog open size="lg" title={`${member.name}'s calendar`} onClose={onClose}>
      <div className="grid min-w-0 gap-4">
        <p role="status" className="text-sm">{statusOf(cal, member.name)}</p>
        <CalendarChoice
          cal={cal}
          requests={requests}
          who={member.name}
          onSaved={(c) => {
            setAnswer(c);
            void onSaved();
          }}
        />
      </div>
    </Dialog>
  );
}
