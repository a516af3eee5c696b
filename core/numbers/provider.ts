import type { NumberProviderName } from '../config/config.js';

/**
 * Where the appliance gets the UK numbers its owners forward their lines to. Shaped by what the
 * product does with numbers (hand one to an owner, show the admin what is held and what it costs,
 * give one back, read this month's spend), not by any vendor's API.
 */
export interface NumberProvider {
  readonly name: NumberProviderName;
  /**
   * Obtains one more UK number whose calls reach this appliance, for `owner`.
   * `avoid` holds numbers that must not be handed out (held by someone, or released for good).
   * Throws NoNumberAvailableError when there is none to give, ProviderError when the provider fails.
   */
  buyNumberFor(owner: NumberOwner, avoid: ReadonlySet<string>): Promise<ProvisionedNumber>;
  /** Every number the provider holds for this appliance now. */
  list(): Promise<ProvisionedNumber[]>;
  /** Gives the number back to the provider; it cannot be recovered afterwards. */
  release(n: { providerSid: string; phoneNumber: string }): Promise<void>;
  /** This calendar month's usage and the account balance. */
  usage(): Promise<ProviderUsage>;
}

export interface NumberOwner {
  id: number;
  email: string;
  businessName: string | null;
}

export interface ProvisionedNumber {
  /** The provider's own identifier (Twilio PN…, or a DID id for static). */
  providerSid: string;
  /** E.164, as Asterisk passes it to Stasis. */
  phoneNumber: string;
  friendlyName: string | null;
  monthlyCostPence: number;
  dateCreated: Date;
}

export interface UsageLine {
  count: number;
  /** GBP (or the account's currency), as the provider reports it; may carry fractions of a penny. */
  price: number;
}

/** SPEC.md §3 Usage, before rounding for the API. */
export interface ProviderUsage {
  /** `available: false` when there is no prepaid account to read a balance from. */
  balance: { amount: number; currency: string; available: boolean };
  totalCost: number;
  /** YYYY-MM-DD, the first day of the period. */
  startDate: string;
  phoneNumbers: { count: number; monthlyCost: number };
  calls: { inbound: UsageLine; outbound: UsageLine };
  sms: { inbound: UsageLine; outbound: UsageLine };
  recordings: UsageLine;
}

/** There is no number left to hand out; `message` is written for the owner. */
export class NoNumberAvailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoNumberAvailableError';
  }
}

/** The provider refused or could not be reached; `detail` is for logs and admins. */
export class ProviderError extends Error {
  constructor(
    readonly provider: NumberProviderName,
    readonly detail: string,
    readonly providerStatus?: number,
    readonly providerCode?: number,
  ) {
    super(`${provider}: ${detail}`);
    this.name = 'ProviderError';
  }
}
