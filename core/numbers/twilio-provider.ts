import type { Twilio } from 'twilio';
import type { Config } from '../config/config.js';
import {
  NoNumberAvailableError,
  ProviderError,
  type NumberOwner,
  type NumberProvider,
  type ProviderUsage,
  type ProvisionedNumber,
  type UsageLine,
} from './provider.js';

/** Twilio's error when the number offered a moment ago has just been bought by someone else. */
const NUMBER_NOT_AVAILABLE = 21422;
/** How many offers to ask for, and how many to try before giving up (offers race with other buyers). */
const OFFERS = 20;
const ATTEMPTS = 3;

export interface TwilioNumberSettings {
  trunkSid?: string;
  voiceUrl?: string;
  bundleSid?: string;
  addressSid?: string;
  /** Rental per number per month; Twilio's number resource carries no price. */
  monthlyCostPence: number;
  /** Shown to the owner when Twilio has no UK mobile number on offer. */
  noneAvailableMessage: string;
}

interface RestLike {
  status?: number;
  code?: number;
  message?: string;
}

function wrap(err: unknown, doing: string): ProviderError {
  const e = err as RestLike;
  const detail = `${doing} failed: ${e?.message ?? String(err)}${e?.code ? ` (Twilio error ${e.code})` : ''}`;
  return new ProviderError('twilio', detail, e?.status, e?.code);
}

export function settingsFrom(config: Config, noneAvailableMessage: string): TwilioNumberSettings {
  return {
    trunkSid: config.twilio.trunkSid,
    voiceUrl: config.twilio.voiceUrl,
    bundleSid: config.twilio.bundleSid,
    addressSid: config.twilio.addressSid,
    monthlyCostPence: config.numbers.monthlyCostPence,
    noneAvailableMessage,
  };
}

/**
 * UK mobile numbers bought on the operator's Twilio account, routed to the appliance's SIP trunk
 * (https://www.twilio.com/docs/phone-numbers/api/incomingphonenumber-resource; usage from
 * /docs/usage/api/usage-record, balance from /Accounts/{Sid}/Balance.json).
 */
export function twilioNumberProvider(client: Twilio, s: TwilioNumberSettings): NumberProvider {
  const toProvisioned = (n: { sid: string; phoneNumber: string; friendlyName: string; dateCreated: Date }): ProvisionedNumber => ({
    providerSid: n.sid,
    phoneNumber: n.phoneNumber,
    friendlyName: n.friendlyName,
    monthlyCostPence: s.monthlyCostPence,
    dateCreated: n.dateCreated,
  });

  return {
    name: 'twilio',

    async buyNumberFor(owner: NumberOwner, avoid: ReadonlySet<string>) {
      let offers;
      try {
        offers = await client.availablePhoneNumbers('GB').mobile.list({ voiceEnabled: true, limit: OFFERS });
      } catch (err) {
        throw wrap(err, 'Searching for a UK mobile number');
      }
      const candidates = offers.map((o) => o.phoneNumber).filter((n) => !avoid.has(n));
      for (const phoneNumber of candidates.slice(0, ATTEMPTS)) {
        try {
          const bought = await client.incomingPhoneNumbers.create({
            phoneNumber,
            friendlyName: (owner.businessName ?? owner.email).slice(0, 64),
            bundleSid: s.bundleSid,
            addressSid: s.addressSid,
            // The trunk wins when both are set: calls then arrive at Asterisk as SIP, like static DIDs.
            ...(s.trunkSid ? { trunkSid: s.trunkSid } : { voiceUrl: s.voiceUrl }),
          });
          return toProvisioned(bought);
        } catch (err) {
          if ((err as RestLike).code === NUMBER_NOT_AVAILABLE) continue;
          throw wrap(err, `Buying ${phoneNumber}`);
        }
      }
      throw new NoNumberAvailableError(s.noneAvailableMessage);
    },

    async list() {
      try {
        const numbers = await client.incomingPhoneNumbers.list({ pageSize: 100 });
        return numbers.map(toProvisioned);
      } catch (err) {
        throw wrap(err, 'Listing the account’s numbers');
      }
    },

    async release({ providerSid }) {
      try {
        await client.incomingPhoneNumbers(providerSid).remove();
      } catch (err) {
        // Already gone at Twilio (released elsewhere): the outcome the caller wants.
        if ((err as RestLike).status === 404) return;
        throw wrap(err, `Releasing ${providerSid}`);
      }
    },

    async usage(): Promise<ProviderUsage> {
      const categories = ['calls-inbound', 'calls-outbound', 'sms-inbound', 'sms-outbound', 'phonenumbers', 'recordings', 'totalprice'] as const;
      try {
        // One request per category: ThisMonth without a filter returns hundreds of categories.
        const [records, balance] = await Promise.all([
          Promise.all(categories.map((category) => client.usage.records.thisMonth.list({ category, limit: 1 }))),
          client.balance.fetch(),
        ]);
        const byCategory = new Map(records.map((r, i) => [categories[i], r[0]]));
        const line = (c: (typeof categories)[number]): UsageLine => {
          const r = byCategory.get(c);
          return { count: Number(r?.count ?? 0) || 0, price: Number(r?.price ?? 0) || 0 };
        };
        const first = records.flat().find((r) => r?.startDate);
        const numbers = line('phonenumbers');
        return {
          balance: { amount: Number(balance.balance) || 0, currency: balance.currency, available: true },
          totalCost: line('totalprice').price,
          startDate: first ? first.startDate.toISOString().slice(0, 10) : monthStart(new Date()),
          phoneNumbers: { count: numbers.count, monthlyCost: numbers.price },
          calls: { inbound: line('calls-inbound'), outbound: line('calls-outbound') },
          sms: { inbound: line('sms-inbound'), outbound: line('sms-outbound') },
          recordings: line('recordings'),
        };
      } catch (err) {
        throw wrap(err, 'Reading this month’s usage');
      }
    },
  };
}

function monthStart(d: Date): string {
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
}
