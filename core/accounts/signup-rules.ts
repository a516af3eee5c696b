import type { SignupRequest } from '../../contract/api.js';
import {
  COUNTRY,
  formatPostcode,
  INDUSTRIES,
  isEmail,
  isUkPostcode,
  passwordErrors,
  WEEKLY_CALL_BANDS,
} from '../../contract/rules.js';
import { toE164 } from '../../contract/phone.js';

interface ValidSignup {
  businessName: string;
  email: string;
  phone: string;
  password: string;
  industry: string;
  weeklyCustomerCalls: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  postcode: string;
  country: string;
}

export type SignupCheck = { ok: true; value: ValidSignup } | { ok: false; errors: Record<string, string> };

const REQUIRED: Record<keyof SignupRequest, string | null> = {
  businessName: 'Business name is required',
  businessEmail: 'Business email is required',
  businessPhone: 'Business phone is required',
  password: 'Password is required',
  industry: 'Industry is required',
  weeklyCustomerCalls: 'Weekly customer calls is required',
  addressLine1: 'Address line 1 is required',
  addressLine2: null,
  city: 'City/Town is required',
  postcode: 'Postcode is required',
  country: null,
};

/** Every rule of SPEC.md §5 (Sign-up), with a message per field; pure. */
export function checkSignup(input: Partial<Record<keyof SignupRequest, string>>): SignupCheck {
  const errors: Record<string, string> = {};
  const v = (k: keyof SignupRequest) => (input[k] ?? '').trim();

  for (const [field, message] of Object.entries(REQUIRED)) {
    if (message && !v(field as keyof SignupRequest)) errors[field] = message;
  }
  const email = v('businessEmail').toLowerCase();
  if (email && !isEmail(email)) errors.businessEmail = 'Please enter a valid email address';
  const phone = v('businessPhone') ? toE164(v('businessPhone')) : null;
  if (v('businessPhone') && !phone) errors.businessPhone = 'Please enter a valid phone number, e.g. 07700 900123 or +44 7700 900123';
  // The password is not trimmed: spaces are characters the owner chose.
  const password = input.password ?? '';
  if (password) {
    const pwErrors = passwordErrors(password);
    if (pwErrors.length) errors.password = pwErrors[0]!;
  }
  if (v('industry') && !(INDUSTRIES as readonly string[]).includes(v('industry'))) {
    errors.industry = `Industry must be one of: ${INDUSTRIES.join(', ')}`;
  }
  if (v('weeklyCustomerCalls') && !(WEEKLY_CALL_BANDS as readonly string[]).includes(v('weeklyCustomerCalls'))) {
    errors.weeklyCustomerCalls = `Weekly customer calls must be one of: ${WEEKLY_CALL_BANDS.join(', ')}`;
  }
  const postcode = formatPostcode(v('postcode'));
  if (postcode && !isUkPostcode(postcode)) errors.postcode = 'Please enter a valid UK postcode, e.g. SW1A 1AA';
  const country = v('country') || COUNTRY;
  if (country !== COUNTRY) errors.country = 'Currently accepting UK businesses only';

  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      businessName: v('businessName'),
      email,
      phone: phone!,
      password,
      industry: v('industry'),
      weeklyCustomerCalls: v('weeklyCustomerCalls'),
      addressLine1: v('addressLine1'),
      addressLine2: v('addressLine2') || null,
      city: v('city'),
      postcode,
      country: COUNTRY,
    },
  };
}
