/**
 * News the owner is told about apart from a call's summary (a booking, a caller's text): besides
 * their text, a push alert on the devices that want that kind (core/push, issue 54). Called
 * once per event; never throws, never waits for the push service.
 */
export interface OwnerNews {
  userId: number;
  /** One name per event (booking-request-12, caller-in-SM…): alerts of one event are not sent twice. */
  event: string;
  kind: 'booking' | 'caller-text';
  /** The person it is about (a booking's member), for a team member who sees their own only. */
  staffId: number | null;
  title: string;
  body: string;
  /** Console path a tap opens. */
  url: string;
  callerNumber: string | null;
}

export type OwnerNewsPort = (news: OwnerNews) => void;
