// The Services form's examples in the owner's own trade (the sign-up industry, contract/rules.ts's
// INDUSTRIES), so a salon is not shown a plumber's boiler service; anything else a general one.

export interface ServiceExample {
  /** The service name's placeholder. */
  name: string;
  /** What the agent says about it. */
  sentence: string;
}

const EXAMPLES: Record<string, ServiceExample> = {
  plumbing: { name: 'Boiler service', sentence: 'Takes about an hour; please clear access to the boiler.' },
  beauty: { name: 'Cut and blow-dry', sentence: 'Takes about 45 minutes; colour needs a patch test 48 hours before.' },
  construction: { name: 'Free quote visit', sentence: 'We look at the job and quote within two working days.' },
  electrical: { name: 'Electrical safety check (EICR)', sentence: 'Takes two to three hours; the power is off for part of it.' },
  hvac: { name: 'Air conditioning service', sentence: 'Takes about an hour per unit; please clear access to each one.' },
  landscaping: { name: 'Garden visit and quote', sentence: 'We walk the garden with you and quote within the week.' },
  cleaning: { name: 'End of tenancy clean', sentence: 'Takes most of the day; the property should be empty.' },
  legal: { name: 'First consultation', sentence: 'Thirty minutes, free, by phone or at the office.' },
  medical: { name: 'Initial appointment', sentence: 'Please arrive ten minutes early with a list of any medicines you take.' },
  'real-estate': { name: 'Property valuation', sentence: 'Free; takes about 45 minutes at the property.' },
  automotive: { name: 'MOT test', sentence: 'Takes about an hour; you are welcome to wait.' },
};

const GENERAL: ServiceExample = { name: 'Consultation', sentence: 'Takes about half an hour.' };

export function serviceExample(industry: string | null | undefined): ServiceExample {
  return (industry && EXAMPLES[industry]) || GENERAL;
}
