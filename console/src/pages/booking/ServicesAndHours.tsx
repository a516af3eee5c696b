// The "Services and hours" tab: what can be booked, and when, and the deposits taken for it.
import { BookingHours } from './BookingHours';
import { PaymentsCard } from './PaymentsCard';
import { ServiceList } from './ServiceList';

export function ServicesAndHours() {
  return (
    <>
      <ServiceList />
      <BookingHours />
      <PaymentsCard />
    </>
  );
}
