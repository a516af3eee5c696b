import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { ApiUser } from '../../contract/api.js';
import type { Db } from '../db/client.js';
import { users, type NewUser, type User } from '../db/schema.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The user as the API shows it: never the password hash. */
export function toApiUser(u: User): ApiUser {
  return {
    id: u.id,
    email: u.email,
    role: u.role,
    accountStatus: u.accountStatus,
    trialExpiresAt: iso(u.trialExpiresAt),
    createdAt: u.createdAt.toISOString(),
    businessName: u.businessName,
    callGreeting: u.callGreeting,
    voicePreference: u.voicePreference,
    whatsappEnabled: u.whatsappEnabled,
    smsEnabled: u.smsEnabled,
    notificationNumber: u.notificationNumber,
    aiMode: u.aiMode,
    callbackReminderHours: u.callbackReminderHours,
    emailSummariesEnabled: u.emailSummariesEnabled,
    summaryEmail: u.summaryEmail,
    weeklyDigestEnabled: u.weeklyDigestEnabled,
    knowledgeBase: u.knowledgeBase,
    phoneNumber: u.phoneNumber,
    forwardToNumber: u.forwardToNumber,
    industry: u.industry,
    weeklyCustomerCalls: u.weeklyCustomerCalls,
    businessEmail: u.businessEmail,
    addressLine1: u.addressLine1,
    addressLine2: u.addressLine2,
    city: u.city,
    postcode: u.postcode,
    country: u.country,
    businessAddress: u.businessAddress,
  };
}

export function findUserByEmail(db: Db, email: string): User | undefined {
  return db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get();
}

export function findUserById(db: Db, id: number): User | undefined {
  return db.select().from(users).where(eq(users.id, id)).get();
}

export function insertUser(db: Db, values: NewUser): User {
  return db
    .insert(users)
    .values({ ...values, email: values.email.trim().toLowerCase() })
    .returning()
    .get();
}

export function updateUser(db: Db, id: number, values: Partial<NewUser>): User | undefined {
  return db.update(users).set(values).where(eq(users.id, id)).returning().get();
}

/** A customer whose trial has passed is expired (SPEC.md §4, Trial). Returns how many changed. */
export function expireTrials(db: Db, now: Date): number {
  return db
    .update(users)
    .set({ accountStatus: 'expired' })
    .where(
      and(
        eq(users.role, 'customer'),
        eq(users.accountStatus, 'active'),
        isNotNull(users.trialExpiresAt),
        lt(users.trialExpiresAt, now),
      ),
    )
    .run().changes;
}

/** The read-path half of trial expiry: one user, checked when their session is used. */
export function withTrialChecked(db: Db, u: User, now: Date): User {
  if (u.role === 'customer' && u.accountStatus === 'active' && u.trialExpiresAt && u.trialExpiresAt < now) {
    return updateUser(db, u.id, { accountStatus: 'expired' }) ?? u;
  }
  return u;
}

export function countAdmins(db: Db): number {
  return db.select({ n: sql<number>`count(*)` }).from(users).where(eq(users.role, 'admin')).get()?.n ?? 0;
}
