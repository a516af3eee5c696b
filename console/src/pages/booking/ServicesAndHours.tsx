// The "Services and hours" tab: what can be booked, and when.
import { BookingHours } from './BookingHours';
import { ServiceList } from './ServiceList';

export function ServicesAndHours() {
  return (
    <>
      <ServiceList />
      <BookingHours />
    </>
  );
}
