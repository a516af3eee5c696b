// "Which calendar do you use?", that provider's steps, and the cards that connect it (CalDAV, an
// iCal address). The owner's Calendar tab and a team member's calendar on the Team page (issue
// 58) both show this, so the two can never explain it differently; `who` names the member.
import { CalendarDays } from 'lucide-react';
import { useState } from 'react';
import type { ApiBookingCalendar } from '../../../../contract/schemas/booking';
import { Card, CardHeader } from '../../components/ui';
import { RadioCard } from '../notifications/RadioCard';
import { CalDavCard } from './CalDavCard';
import { ICLOUD_CALDAV, PROVIDER_CARDS, PROVIDERS, ProviderSteps, type CalendarProvider } from './calendar-providers';
import type { CalendarRequests } from './calendar-requests';
import { IcalCard } from './IcalCard';

/** The provider a connected calendar shows as; none when only an iCal address says nothing of who publishes it. */
const providerOf = (cal: ApiBookingCalendar): CalendarProvider | null => (cal.caldav ? (/icloud\.com/i.test(cal.caldav.url) ? 'icloud' : 'other') : null);

export function CalendarChoice({ cal, onSaved, requests, who }: {
  cal: ApiBookingCalendar;
  onSaved: (c: ApiBookingCalendar) => void;
  requests: CalendarRequests;
  /** A team member's name; absent for the owner's own calendar. */
  who?: string;
}) {
  const [chosen, setChosen] = useState<CalendarProvider | null>(null);
  const provider = chosen ?? providerOf(cal);
  const cards = provider ? PROVIDER_CARDS[provider] : null;
  const question = who ? `Which calendar does ${who} use?` : 'Which calendar do you use?';
  return (
    <>
      <Card aria-labelledby="provider-title">
        <CardHeader
          title={<span id="provider-title">{question}</span>}
          description={who ? `Times busy in ${who}'s calendar are never offered to callers booking with ${who}. Pick theirs for the steps.` : 'Times busy in your own calendar are never offered to callers. Pick yours for the steps.'}
        />
        <div className="grid gap-4 p-5">
          <fieldset className="grid gap-2 sm:grid-cols-2">
            <legend className="sr-only">{question}</legend>
            {PROVIDERS.map((p) => (
              <RadioCard key={p.id} name="calendar-provider" value={p.id} current={provider ?? ('' as CalendarProvider)} onChange={setChosen} title={p.title} text={p.text} icon={<CalendarDays className="h-5 w-5" aria-hidden />} />
            ))}
          </fieldset>
          {provider && <ProviderSteps provider={provider} />}
        </div>
      </Card>
      {/* A calendar already connected stays in view whatever is picked, so it can always be disconnected or replaced. */}
      {(cards?.caldav || cal.caldav) && <CalDavCard key={provider} cal={cal} onSaved={onSaved} requests={requests} defaultAddress={provider === 'icloud' ? ICLOUD_CALDAV : ''} />}
      {(cards?.ical || cal.icalAddressSet) && <IcalCard cal={cal} onSaved={onSaved} save={requests.saveIcal} title={who ? `${who}'s iCal address` : undefined} />}
    </>
  );
}
