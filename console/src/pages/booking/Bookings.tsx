// Bookings (issue 41, item 6): the diary, what callers can book and when, and the owner's
// calendar. One page with three tabs; the open tab is in the address (?tab=) so a link opens it.
// A staff member's sign-in (issue 58) sees the bookings list alone: the rest is the owner's to set.
import { useSearchParams } from 'react-router-dom';
import { useSession } from '../../api/session';
import { Tabs } from '../../components/Tabs';
import { PageHeader } from '../../components/ui';
import { BookingList } from './BookingList';
import { CalendarSettings } from './CalendarSettings';
import { ServicesAndHours } from './ServicesAndHours';
import { WhoBooks } from './WhoBooks';

const TABS = [
  { id: 'bookings', label: 'Bookings' },
  { id: 'services', label: 'Services and hours' },
  { id: 'calendar', label: 'Calendar' },
] as const;

export default function Bookings() {
  const { staff } = useSession();
  const [params, setParams] = useSearchParams();
  if (staff)
    return (
      <div className="grid grid-cols-1 gap-6">
        <PageHeader title="Bookings" subtitle={staff.view === 'own' ? 'The bookings callers made with you' : "The business's bookings"} />
        <BookingList />
      </div>
    );
  const current = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'bookings';
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Bookings" subtitle="What callers can book and when, the bookings made, and your calendar" />
      <Tabs label="Bookings" tabs={TABS} current={current} onSelect={(id) => setParams(id === 'bookings' ? {} : { tab: id })}>
        {/* Said where booking is set up and read, not over the calendar's steps. */}
        {current !== 'calendar' && <WhoBooks />}
        {current === 'bookings' && <BookingList />}
        {current === 'services' && <ServicesAndHours />}
        {current === 'calendar' && <CalendarSettings />}
      </Tabs>
    </div>
  );
}
