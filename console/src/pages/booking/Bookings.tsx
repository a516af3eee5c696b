// Bookings (issue 41, item 6): the diary, what callers can book and when, and the owner's
// calendar. One page with three tabs; the open tab is in the address (?tab=) so a link opens it.
import { useSearchParams } from 'react-router-dom';
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
  const [params, setParams] = useSearchParams();
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
