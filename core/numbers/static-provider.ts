import { and, count, eq, gte, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { outboundSince } from '../outbound/index.js';
import { londonMonthStart } from './period.js';
import { NoNumberAvailableError, type NumberProvider, type ProviderUsage, type ProvisionedNumber } from './provider.js';

export interface StaticNumberSettings {
  /** The DIDs the operator's SIP trunk delivers (STATIC_NUMBERS), in the order they are handed out. */
  numbers: string[];
  monthlyCostPence: number;
  /** Shown to the owner when every DID is taken. */
  noneAvailableMessage: string;
  /**
   * The balance to show. A SIP trunk is billed by invoice, so there is no balance of its own; when
   * Twilio carries the SMS summaries its prepaid balance is the one the appliance draws down, so the
   * composition root passes a reader for it. Without one the balance is reported as not available.
   */
  readBalance?: () => Promise<{ amount: number; currency: string }>;
  now: () => Date;
}

/** `+447700900001` → `DID447700900001`: a stable id for the `{provider}Sid` field and the release route. */
const staticSid = (e164: string) => `DID${e164.replace(/^\+/, '')}`;

/**
 * The operator's own DIDs (DESIGN.md: NUMBER_PROVIDER=static). Nothing is bought or released
 * anywhere: handing out is choosing a free DID, releasing is the appliance letting go of it for
 * good (the operator then removes it from the trunk). Usage is counted from the appliance's own
 * call and notification records; the trunk's per-call charges are not known here, so calls, SMS
 * and recordings carry counts with a price of 0 and only number rental is costed.
 */
export function staticNumberProvider(db: Db, s: StaticNumberSettings): NumberProvider {
  const { calls, notifications, phoneNumbers } = tablesOf(db);
  const bootedAt = s.now();
  const released = async () =>
    new Set(
      (await db
        .select({ n: phoneNumbers.phoneNumber })
        .from(phoneNumbers)
        .where(isNotNull(phoneNumbers.releasedAt))
        ).map((r) => r.n),
    );
  const toProvisioned = (phoneNumber: string): ProvisionedNumber => ({
    providerSid: staticSid(phoneNumber),
    phoneNumber,
    friendlyName: null,
    monthlyCostPence: s.monthlyCostPence,
    // Only used the first time the appliance records the DID; afterwards its row keeps the date.
    dateCreated: bootedAt,
  });

  return {
    name: 'static',

    async buyNumberFor(_owner, avoid) {
      const gone = await released();
      const free = s.numbers.find((n) => !avoid.has(n) && !gone.has(n));
      if (!free) throw new NoNumberAvailableError(s.noneAvailableMessage);
      return toProvisioned(free);
    },

    async list() {
      const gone = await released();
      return s.numbers.filter((n) => !gone.has(n)).map(toProvisioned);
    },

    async release() {
      // Nothing to call: the DID stays on the operator's trunk until they remove it; the appliance
      // marks it released and never hands it out again.
    },

    async usage(): Promise<ProviderUsage> {
      const { instant, date } = londonMonthStart(s.now());
      // The owners' own test calls from the console are not traffic.
      const thisMonth = and(gte(calls.createdAt, instant), eq(calls.testCall, false));
      const inbound = (await db.select({ n: count() }).from(calls).where(thisMonth).limit(1))[0]?.n ?? 0;
      const recordings = (await db.select({ n: count() }).from(calls).where(and(thisMonth, isNotNull(calls.recordingFile))).limit(1))[0]?.n ?? 0;
      const smsSent =
        (await db
          .select({ n: count() })
          .from(notifications)
          .where(and(eq(notifications.channel, 'sms'), eq(notifications.status, 'sent'), gte(notifications.createdAt, instant))).limit(1))[0]?.n ?? 0;
      // Every DID the appliance holds: the configured ones plus any still assigned after leaving the list.
      const held = new Set(
        (await db
          .select({ n: phoneNumbers.phoneNumber })
          .from(phoneNumbers)
          .where(and(eq(phoneNumbers.provider, 'static'), isNull(phoneNumbers.releasedAt)))
          ).map((r) => r.n),
      );
      const gone = await released();
      for (const n of s.numbers) if (!gone.has(n)) held.add(n);
      const numberCount = held.size;
      const rental = (numberCount * s.monthlyCostPence) / 100;
      const balance = s.readBalance
        ? { ...(await s.readBalance()), available: true }
        : { amount: 0, currency: 'GBP', available: false };
      return {
        balance,
        totalCost: rental,
        startDate: date,
        phoneNumbers: { count: numberCount, monthlyCost: rental },
        // Calls out are the appliance's own: the put-throughs and test calls it placed.
        calls: { inbound: { count: inbound, price: 0 }, outbound: { count: (await outboundSince(db, instant, 0)).total.attempts, price: 0 } },
        sms: { inbound: { count: 0, price: 0 }, outbound: { count: smsSent, price: 0 } },
        recordings: { count: recordings, price: 0 },
      };
    },
  };
}
