import { screenedCalls } from '../screening/counts.js';
import { and, asc, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { ApiAssignedUser, ApiNumberStats, ApiPhoneNumber, ApiProviderNumber, ApiUsage } from '../../contract/api.js';
import type { Log } from '../../contract/log.js';
import { audit } from '../audit/audit.js';
import type { NumberProviderName } from '../config/config.js';
import { isUniqueViolation, type Db } from '../db/client.js';
import { tablesOf, type PhoneNumberRow, type User } from '../db/schema.js';
import { NumberServiceError } from './errors.js';
import { KeyedLock } from './keyed-lock.js';
import { TtlCache } from './ttl-cache.js';
import { NoNumberAvailableError, ProviderError, type NumberProvider, type ProvisionedNumber } from './provider.js';
import { effectiveStatus, numberStats, pounds } from './stats.js';
import { londonMonthStart } from './period.js';
import { callerTextUsageSince } from '../caller-texts/usage.js';
import { outboundSince } from '../outbound/index.js';
import { lockNumber, lockOwner, transaction } from '../db/transaction.js';
import { operatorContact } from '../config/operator-contact.js';

/** The console refreshes usage every 5 minutes; a minute of cache keeps several admins off the provider. */
const USAGE_CACHE_MS = 60_000;
/** A static DID picked by two owners at once goes to one of them; the other tries the next DID. */
const ASSIGN_ATTEMPTS = 3;

export interface NumberServiceDeps {
  db: Db;
  provider: NumberProvider;
  unitCostPence: number;
  support: { name: string; email: string };
  now: () => Date;
  log: Log;
  /** OUTBOUND_DAILY_MINUTES, shown beside the calls placed to owners' phones. */
  outboundDailyMinutes: number;
  /** CALLER_TEXTS_DAILY_PER_OWNER and _BOX, shown beside the texts to callers. */
  callerTextCaps: { dailyPerOwner: number; dailyBox: number };
}

export interface PurchaseResult {
  number: ApiPhoneNumber;
  message: string;
  /** False when the owner already had a number (a repeated click): nothing new was obtained. */
  created: boolean;
}

const upstream = (message: string) => new NumberServiceError('provider-failed', message);
const notAllowed = (message: string) => new NumberServiceError('not-allowed', message);
const conflict = (message: string) => new NumberServiceError('conflict', message);
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Numbers as the product uses them: one UK number per owner, recorded in phone_numbers (the PBX
 * routes a DID to the owner whose row has userId set and releasedAt null), released numbers kept
 * as rows with releasedAt so they are never handed out again.
 */
export class NumberService {
  private readonly purchases = new KeyedLock();
  private readonly releases = new KeyedLock();
  private readonly usageCache: TtlCache<ApiUsage>;

  constructor(private readonly d: NumberServiceDeps) {
    this.usageCache = new TtlCache(USAGE_CACHE_MS, d.now);
  }

  get providerName(): NumberProviderName {
    return this.d.provider.name;
  }

  private async activeNumberOf(userId: number): Promise<PhoneNumberRow | undefined> {
    const { phoneNumbers } = tablesOf(this.d.db);
    return (await this.d.db
      .select()
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.userId, userId), isNull(phoneNumbers.releasedAt)))
      .orderBy(asc(phoneNumbers.assignedAt), asc(phoneNumbers.id)).limit(1))[0];
  }

  /** GET /api/phone-numbers: the signed-in owner's numbers, scoped in SQL. */
  async ownerNumbers(userId: number): Promise<ApiPhoneNumber[]> {
    const { phoneNumbers } = tablesOf(this.d.db);
    return await this.d.db
      .select({ phoneNumber: phoneNumbers.phoneNumber, friendlyName: phoneNumbers.friendlyName })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.userId, userId), isNull(phoneNumbers.releasedAt)))
      .orderBy(asc(phoneNumbers.assignedAt), asc(phoneNumbers.id));
  }

  private contact(): string {
    return operatorContact(this.d.support);
  }

  private refuseInactive(user: User): void {
    if (user.role !== 'customer') {
      throw notAllowed('Numbers are given to business accounts. Sign in as the business owner to get one.');
    }
    const status = effectiveStatus(user, this.d.now());
    if (status === 'expired') {
      throw notAllowed(`Your free trial has ended, so we cannot give you a number. Contact ${this.contact()} to continue.`);
    }
    if (status !== 'active') {
      throw notAllowed(`Your account is not active, so we cannot give you a number. Contact ${this.contact()} for help.`);
    }
  }

  /**
   * POST /api/phone-numbers/purchase. One number per owner: a repeated click returns the number
   * the first click obtained. The number is recorded only after the provider has delivered it, and
   * given back if recording fails, so a failure never leaves a number half-assigned.
   */
  purchase(user: User): Promise<PurchaseResult> {
    return this.purchases.run(String(user.id), async () => {
      const { phoneNumbers } = tablesOf(this.d.db);
      const existing = await this.activeNumberOf(user.id);
      if (existing) return this.already(existing);
      this.refuseInactive(user);

      const avoid = new Set(
        (await this.d.db
          .select({ n: phoneNumbers.phoneNumber })
          .from(phoneNumbers)
          .where(or(isNotNull(phoneNumbers.userId), isNotNull(phoneNumbers.releasedAt)))
          ).map((r) => r.n),
      );
      for (let attempt = 0; attempt < ASSIGN_ATTEMPTS; attempt++) {
        let got: ProvisionedNumber;
        try {
          got = await this.obtain(user, avoid);
        } catch (err) {
          // The last free number may have just gone to this owner's own click on another core,
          // after the check above: that click's number is the answer, not "none left".
          const mine = err instanceof NumberServiceError && err.reason === 'conflict' ? await this.activeNumberOf(user.id) : undefined;
          if (mine) return this.already(mine);
          throw err;
        }
        let outcome: { kind: 'assigned' | 'already'; row: PhoneNumberRow } | { kind: 'taken' };
        try {
          outcome = (await this.assign(user, got)) as typeof outcome;
        } catch (err) {
          await this.giveBack(got, err);
          throw err;
        }
        if (outcome.kind === 'assigned') {
          this.usageCache.clear();
          this.d.log.info({ userId: user.id, phoneNumber: got.phoneNumber, provider: this.providerName }, 'number assigned');
          return {
            number: { phoneNumber: outcome.row.phoneNumber, friendlyName: outcome.row.friendlyName },
            message: `Your new UK number ${outcome.row.phoneNumber} is ready. Forward your business line to it to start answering calls.`,
            created: true,
          };
        }
        await this.giveBack(got, null);
        if (outcome.kind === 'already') return this.already(outcome.row);
        avoid.add(got.phoneNumber);
      }
      throw conflict(`Every number we tried was just taken by someone else. Please try again, or contact ${this.contact()}.`);
    });
  }

  private already(row: PhoneNumberRow): PurchaseResult {
    return {
      number: { phoneNumber: row.phoneNumber, friendlyName: row.friendlyName },
      message: `You already have the UK number ${row.phoneNumber}. Forward your business line to it to start answering calls.`,
      created: false,
    };
  }

  private async obtain(user: User, avoid: ReadonlySet<string>): Promise<ProvisionedNumber> {
    try {
      return await this.d.provider.buyNumberFor(user, avoid);
    } catch (err) {
      if (err instanceof NoNumberAvailableError) throw conflict(err.message);
      if (err instanceof ProviderError) {
        this.d.log.error({ err, userId: user.id }, 'number provider failed during purchase');
        throw upstream('We could not get a number from our telephony provider just now. Nothing was assigned; please try again in a few minutes.');
      }
      throw err;
    }
  }

  /**
   * Records the number against the owner in one transaction, unless someone else holds it by now,
   * or the owner got one meanwhile (a click on another core): the owner's and the number's locks
   * make the two take turns (test/db/two-cores-transactions.test.ts).
   */
  private async assign(user: User, got: ProvisionedNumber) {
    try {
      return await this.record(user, got);
    } catch (err) {
      // Another owner's first-ever assignment of the same number inserted its row first (there
      // was no row to lock): it is taken, try another.
      if (isUniqueViolation(err)) return { kind: 'taken' as const };
      throw err;
    }
  }

  private record(user: User, got: ProvisionedNumber) {
    const { db } = this.d;
    const { phoneNumbers } = tablesOf(db);
    const at = this.d.now();
    return transaction(db, async () => {
      // The owner, then the number: a click on another core, or another owner buying the same
      // number, waits here and then reads what this one recorded.
      await lockOwner(db, user.id);
      await lockNumber(db, got.phoneNumber);
      const mine = await this.activeNumberOf(user.id);
      if (mine) return { kind: 'already' as const, row: mine };
      const row = (await db.select().from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, got.phoneNumber)).limit(1))[0];
      if (row && (row.userId !== null || row.releasedAt !== null)) return { kind: 'taken' as const };
      const values = {
        provider: this.providerName,
        providerSid: got.providerSid,
        friendlyName: got.friendlyName ?? user.businessName ?? 'UK mobile number',
        userId: user.id,
        monthlyCostPence: got.monthlyCostPence,
        assignedAt: at,
      };
      const saved = row
        ? (await db.update(phoneNumbers).set(values).where(eq(phoneNumbers.id, row.id)).returning())[0]
        : (await db
            .insert(phoneNumbers)
            .values({ ...values, phoneNumber: got.phoneNumber, dateCreated: got.dateCreated })
            .returning())[0]!;
      return { kind: 'assigned' as const, row: saved };
    });
  }

  /** Undoes a provider purchase that could not be recorded; if even that fails, the admin list shows it unassigned. */
  private async giveBack(got: ProvisionedNumber, cause: unknown): Promise<void> {
    try {
      await this.d.provider.release(got);
    } catch (err) {
      this.d.log.error(
        { err, cause, phoneNumber: got.phoneNumber, providerSid: got.providerSid },
        'obtained a number but could not record or give it back: release it from the admin numbers screen',
      );
    }
  }

  /** Records numbers the provider holds that the appliance has not seen yet (bought elsewhere, or static DIDs), unassigned. */
  private async recordInventory(held: ProvisionedNumber[]): Promise<void> {
    const { db } = this.d;
    const { phoneNumbers } = tablesOf(db);
    await transaction(db, async () => {
      for (const n of held) {
        await db.insert(phoneNumbers)
          .values({
            phoneNumber: n.phoneNumber,
            provider: this.providerName,
            providerSid: n.providerSid,
            friendlyName: n.friendlyName,
            monthlyCostPence: n.monthlyCostPence,
            dateCreated: n.dateCreated,
          })
          .onConflictDoNothing();
      }
    });
  }

  private async providerList(doing: string): Promise<ProvisionedNumber[]> {
    try {
      return await this.d.provider.list();
    } catch (err) {
      if (err instanceof ProviderError) {
        this.d.log.error({ err }, `number provider failed while ${doing}`);
        throw upstream(`${this.providerName} did not answer while ${doing}: ${err.detail}. Try Refresh in a minute.`);
      }
      throw err;
    }
  }

  /** GET /api/admin/{provider}-numbers */
  async adminList(): Promise<{ numbers: ApiProviderNumber[]; stats: ApiNumberStats }> {
    const { phoneNumbers, users } = tablesOf(this.d.db);
    await this.recordInventory(await this.providerList('listing numbers'));
    const now = this.d.now();
    const rows = await this.d.db
      .select({ n: phoneNumbers, u: users })
      .from(phoneNumbers)
      .leftJoin(users, eq(users.id, phoneNumbers.userId))
      .where(and(eq(phoneNumbers.provider, this.providerName), isNull(phoneNumbers.releasedAt)))
      .orderBy(asc(phoneNumbers.dateCreated), asc(phoneNumbers.id));
    const sidField = `${this.providerName}Sid`;
    const numbers: ApiProviderNumber[] = rows.map(({ n, u }) => {
      const assignedUser: ApiAssignedUser | null = u
        ? {
            businessName: u.businessName,
            businessEmail: u.businessEmail,
            email: u.email,
            accountStatus: effectiveStatus(u, now),
            trialExpiresAt: u.trialExpiresAt ? u.trialExpiresAt.toISOString() : null,
          }
        : null;
      return {
        [sidField]: n.providerSid,
        phoneNumber: n.phoneNumber,
        monthlyCost: pounds(n.monthlyCostPence),
        dateCreated: n.dateCreated.toISOString(),
        assignedUser,
      } as ApiProviderNumber;
    });
    const stats = numberStats(
      rows.map(({ n, u }) => ({ monthlyCostPence: n.monthlyCostPence, ownerStatus: u ? effectiveStatus(u, now) : null })),
      this.d.unitCostPence,
    );
    return { numbers, stats };
  }

  /**
   * POST /api/admin/{provider}-numbers/{providerSid}/release. Released at the provider first; only
   * then is the row marked released and unassigned (the PBX stops routing it to the owner, whose
   * callers then hear the unknown-number message). A released number is never handed out again.
   */
  release(admin: User, providerSid: string, phoneNumber: string): Promise<{ message: string }> {
    return this.releases.run(providerSid, async () => {
      const { db } = this.d;
      const { phoneNumbers, users } = tablesOf(db);
      const find = async () =>
        (await db
          .select()
          .from(phoneNumbers)
          .where(and(eq(phoneNumbers.provider, this.providerName), eq(phoneNumbers.providerSid, providerSid))).limit(1))[0];
      let row = await find();
      if (!row) {
        // Held at the provider but never listed here yet: record it, then release it like any other.
        await this.recordInventory((await this.providerList('looking the number up')).filter((n) => n.providerSid === providerSid));
        row = (await find());
      }
      if (!row) throw new NumberServiceError('unknown-number', `No number with id ${providerSid} is held. Refresh the list.`);
      if (row.phoneNumber !== phoneNumber) {
        throw new NumberServiceError('mismatch', `Number ${providerSid} is ${row.phoneNumber}, not ${phoneNumber}. Refresh the list and try again.`);
      }
      if (row.releasedAt) throw conflict(`${row.phoneNumber} was already released and cannot be recovered.`);

      try {
        await this.d.provider.release(row);
      } catch (err) {
        if (err instanceof ProviderError) {
          this.d.log.error({ err, providerSid }, 'number provider failed during release');
          throw upstream(`${this.providerName} could not release ${row.phoneNumber}: ${err.detail}. Nothing was changed; try again.`);
        }
        throw err;
      }

      const at = this.d.now();
      const owner = row.userId !== null ? (await db.select().from(users).where(eq(users.id, row.userId)).limit(1))[0] : undefined;
      const released = row;
      await transaction(db, async () => {
        await db.update(phoneNumbers).set({ releasedAt: at, userId: null }).where(eq(phoneNumbers.id, released.id));
        await audit(
          db,
          admin,
          'number.release',
          owner ?? null,
          {
            provider: this.providerName,
            providerSid,
            phoneNumber: released.phoneNumber,
            monthlyCostPence: released.monthlyCostPence,
            businessName: owner?.businessName ?? null,
          },
          at,
        );
      });
      this.usageCache.clear();
      const from = owner ? ` and disconnected from ${owner.businessName ?? owner.email}` : '';
      return {
        message: `${released.phoneNumber} has been released${from}, saving £${pounds(released.monthlyCostPence).toFixed(2)}/month.`,
      };
    });
  }

  /** GET /api/admin/{provider}-usage (SPEC.md §3 Usage), cached for USAGE_CACHE_MS. */
  usage(): Promise<ApiUsage> {
    return this.usageCache.get(async () => {
      let u;
      try {
        u = await this.d.provider.usage();
      } catch (err) {
        if (err instanceof ProviderError) {
          this.d.log.error({ err }, 'number provider failed while reading usage');
          throw upstream(`Failed to fetch ${this.providerName} usage statistics: ${err.detail}`);
        }
        throw err;
      }
      const line = (l: { count: number; price: number }) => ({ count: l.count, price: round2(l.price) });
      return {
        balance: { amount: round2(u.balance.amount), currency: u.balance.currency, available: u.balance.available },
        totalCost: round2(u.totalCost),
        period: { startDate: u.startDate },
        phoneNumbers: { count: u.phoneNumbers.count, monthlyCost: round2(u.phoneNumbers.monthlyCost) },
        calls: { inbound: line(u.calls.inbound), outbound: line(u.calls.outbound) },
        sms: { inbound: line(u.sms.inbound), outbound: line(u.sms.outbound) },
        recordings: line(u.recordings),
        ownerCalls: await this.ownerCalls(),
        callerTexts: {
          ...(await callerTextUsageSince(this.d.db, londonMonthStart(this.d.now()).instant)),
          dailyPerOwnerCap: this.d.callerTextCaps.dailyPerOwner,
          dailyBoxCap: this.d.callerTextCaps.dailyBox,
        },
        textsSaved: await screenedCalls(this.d.db, { from: londonMonthStart(this.d.now()).instant }),
      };
    });
  }

  /** The appliance's own count of calls it placed to owners' phones this London month. */
  private async ownerCalls(): Promise<ApiUsage['ownerCalls']> {
    const placed = await outboundSince(this.d.db, londonMonthStart(this.d.now()).instant);
    return {
      ...placed.total,
      dailyMinutesCap: this.d.outboundDailyMinutes,
      owners: placed.owners.map((o) => ({ userId: o.userId, name: o.businessName ?? o.email, attempts: o.attempts, minutes: o.minutes })),
    };
  }
}
