// The knowledge base's placeholder: sample Q:/A: entries in the owner's own trade, so the
// example reads like something they would write (sign-up industry values, SPEC.md §9).

const SAMPLES: Record<string, [string, string][]> = {
  plumbing: [
    ['What are your opening hours?', "We're open Monday to Friday, 8am to 6pm, and Saturday 9am to 1pm."],
    ['Do you offer emergency call-outs?', 'Yes, we offer 24/7 emergency call-outs across Greater Manchester.'],
    ['How much is a standard boiler service?', 'A standard boiler service is £85 including VAT.'],
  ],
  beauty: [
    ['Do I need to book, or do you take walk-ins?', 'We take walk-ins when we can, but booking is best, especially on Saturdays.'],
    ['How much is a cut and blow-dry?', 'A cut and blow-dry starts at £45; colour is priced after a free consultation.'],
    ['Do you need a patch test for colour?', 'Yes, at least 48 hours before any colour treatment. It only takes five minutes.'],
  ],
  construction: [
    ['Do you give free quotes?', 'Yes, we visit and quote free of charge within 20 miles of Leeds.'],
    ['Are you insured?', 'Yes, we carry £5 million public liability insurance.'],
    ['How soon could you start?', 'We are usually booked four to six weeks ahead; small jobs can sometimes fit in sooner.'],
  ],
  electrical: [
    ['Are you NICEIC registered?', 'Yes, all our electricians are NICEIC approved contractors.'],
    ['Do you do EICR certificates for landlords?', 'Yes, an EICR for a two-bedroom flat is £150 including VAT.'],
    ['Can you fit an EV charger?', 'Yes, we install home EV chargers; we quote after a short survey.'],
  ],
  hvac: [
    ['Do you service air conditioning units?', 'Yes, an annual service for a split unit is £120 including VAT.'],
    ['Do you install heat pumps?', 'Yes, we are MCS certified and can help with the Boiler Upgrade Scheme grant.'],
    ['How quickly can you come out?', 'For breakdowns we aim to visit within 48 hours.'],
  ],
  landscaping: [
    ['Do you do regular garden maintenance?', 'Yes, fortnightly or monthly visits from £35 per visit.'],
    ['Do you lay patios?', 'Yes, we design and lay patios and paths; we quote after a free visit.'],
    ['Do you take the green waste away?', 'Yes, all green waste is removed and composted at no extra cost.'],
  ],
  cleaning: [
    ['Do you bring your own products?', 'Yes, we bring all products and equipment; eco-friendly products on request.'],
    ['How much is an end-of-tenancy clean?', 'An end-of-tenancy clean for a two-bedroom flat starts at £180.'],
    ['Are your cleaners vetted?', 'Yes, every cleaner is DBS checked and insured.'],
  ],
  legal: [
    ['Do you offer a free first consultation?', 'Yes, the first 30-minute consultation is free, by phone or in person.'],
    ['Do you handle conveyancing?', 'Yes, residential conveyancing is fixed fee; we quote once we know the property price.'],
    ['What are your office hours?', 'Monday to Friday, 9am to 5:30pm.'],
  ],
  medical: [
    ['How do I book an appointment?', 'You can book by phone during opening hours or online through our booking page.'],
    ['Do you see private patients?', 'Yes, private appointments are available on weekday evenings.'],
    ['What should I do in an emergency?', 'In an emergency call 999. For urgent advice out of hours call NHS 111.'],
  ],
  'real-estate': [
    ['Do you offer free valuations?', 'Yes, we offer free, no-obligation valuations.'],
    ['What are your fees for selling?', 'Our sole agency fee is 1.2% plus VAT, no sale no fee.'],
    ['Can I book a viewing at the weekend?', 'Yes, viewings run on Saturdays from 9am to 4pm.'],
  ],
  automotive: [
    ['How much is an MOT?', 'An MOT is £54.85, the maximum fee set by the DVSA.'],
    ['Do you offer a courtesy car?', 'Yes, for servicing and repairs, subject to availability; please ask when booking.'],
    ['Can I wait while my car is serviced?', 'Yes, we have a waiting room with Wi-Fi and coffee; a service takes about two hours.'],
  ],
};

const GENERAL: [string, string][] = [
  ['What are your opening hours?', "We're open Monday to Friday, 9am to 5:30pm."],
  ['Where are you based?', 'We are at 1 High Street, Leeds, and cover the whole of West Yorkshire.'],
  ['How can I get a quote?', 'Leave your name and number and we will call you back within one working day.'],
];

export function knowledgeBasePlaceholder(industry: string | null | undefined): string {
  const entries = (industry && SAMPLES[industry]) || GENERAL;
  return entries.map(([q, a]) => `Q: ${q}\nA: ${a}`).join('\n\n');
}
