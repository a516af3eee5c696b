// UK numbers (core/numbers/routes.ts): the owner's number and purchase, the admin's list, release and usage.
import { Type } from 'typebox';
import { AccountStatusSchema, Nullable } from './shared.js';

export const ApiPhoneNumberSchema = Type.Object({ phoneNumber: Type.String(), friendlyName: Nullable(Type.String()) });
export const PhoneNumbersResponse = Type.Object({ numbers: Type.Array(ApiPhoneNumberSchema) });
export const PurchaseResponse = Type.Object({ number: ApiPhoneNumberSchema, message: Type.String() });

export const ApiAssignedUserSchema = Type.Object({
  businessName: Nullable(Type.String()),
  businessEmail: Nullable(Type.String()),
  email: Type.String(),
  accountStatus: AccountStatusSchema,
  trialExpiresAt: Nullable(Type.String()),
});

/**
 * Admin view of a provider number. `{provider}Sid` (`staticSid`, `twilioSid`) carries the
 * provider's identifier: the one field matching `Sid$`.
 */
export const ApiProviderNumberSchema = Type.Object(
  {
    phoneNumber: Type.String(),
    monthlyCost: Type.Number(),
    dateCreated: Type.String(),
    assignedUser: Nullable(ApiAssignedUserSchema),
  },
  { patternProperties: { 'Sid$': { type: 'string' } } },
);

export const ApiNumberStatsSchema = Type.Object({
  activeNumbers: Type.Integer(),
  totalMonthlyCost: Type.Number(),
  monthlyUnitCost: Type.Number(),
  potentialSavings: Type.Number(),
  expiredNumbers: Type.Integer(),
  unassignedNumbers: Type.Integer(),
});

export const ProviderNumbersResponse = Type.Object({ numbers: Type.Array(ApiProviderNumberSchema), stats: ApiNumberStatsSchema });

export const ReleaseParams = Type.Object({ providerSid: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' }) });
export const ReleaseBody = Type.Object({ phoneNumber: Type.String({ minLength: 1, maxLength: 20 }) }, { additionalProperties: false });

const Line = Type.Object({ count: Type.Integer(), price: Type.Number() });
const InOut = Type.Object({ inbound: Line, outbound: Line });

const OwnerCallsLine = { attempts: Type.Integer(), minutes: Type.Integer() };

/**
 * Calls the appliance placed to owners' phones this month (put-throughs and test calls, ring
 * time included): what the outbound trunk carried, and who used most, against the daily cap.
 */
const ApiOwnerCallsSchema = Type.Object({
  ...OwnerCallsLine,
  /** OUTBOUND_DAILY_MINUTES: each owner's minutes a day. */
  dailyMinutesCap: Type.Integer(),
  /** Owners with calls placed this month, most minutes first (at most 10). */
  owners: Type.Array(Type.Object({ userId: Type.Integer(), name: Type.String(), ...OwnerCallsLine })),
});

export const ApiUsageSchema = Type.Object({
  /** `available: false` (static numbers without a prepaid gateway account): there is no balance to show. */
  balance: Type.Object({ amount: Type.Number(), currency: Type.String(), available: Type.Optional(Type.Boolean()) }),
  totalCost: Type.Number(),
  period: Type.Object({ startDate: Type.String() }),
  phoneNumbers: Type.Object({ count: Type.Integer(), monthlyCost: Type.Number() }),
  calls: InOut,
  sms: InOut,
  recordings: Line,
  ownerCalls: ApiOwnerCallsSchema,
  /** Texts to callers this London month (core/caller-texts), and who sent most, against the daily caps. */
  callerTexts: Type.Object({
    texts: Type.Integer(),
    segments: Type.Integer(),
    dailyPerOwnerCap: Type.Integer(),
    dailyBoxCap: Type.Integer(),
    owners: Type.Array(Type.Object({ userId: Type.Integer(), name: Type.String(), texts: Type.Integer(), segments: Type.Integer() })),
  }),
  /** Nuisance calls screened this London month (issue 43): each is a text to an owner saved. */
  textsSaved: Type.Integer(),
});
