import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { ApiUser } from '../../contract/api.js';
import { parseAllowList } from '../../dialogue/language/languages.js';
import { parseGreetingLanguages, spokenGreetingLanguages } from '../../dialogue/language/greeting-languages.js';
import { chosenVoices } from '../../dialogue/language/language-voices.js';
import { VOICEMAIL_GREETING_KEY } from '../../models/audio/greeting-recording.js';
import type { Db } from '../db/client.js';
import { tablesOf, type NewUser, type User } from '../db/schema.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The caller languages, still ticked, whose greeting line is the owner's own recording (core/settings/greeting-recordings.ts). */
export function recordedGreetingLanguages(u: Pick<User, 'greetingRecordings' | 'agentLanguages'>): string[] {
  const allowed = parseAllowList(u.agentLanguages);
  return allowed.filter((l) => u.greetingRecordings?.[l]);
}

/** Whether callers in voicemail mode hear the owner's own recording instead of the spoken greeting (issue 57). */
export function hasVoicemailGreetingRecording(u: Pick<User, 'greetingRecordings'>): boolean {
  return Boolean(u.greetingRecordings?.[VOICEMAIL_GREETING_KEY]);
}

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
    lineType: u.lineType,
    knowledgeBase: u.knowledgeBase,
    agentLanguages: parseAllowList(u.agentLanguages),
    greetingLanguages: spokenGreetingLanguages(parseGreetingLanguages(u.greetingLanguages), parseAllowList(u.agentLanguages)),
    languageVoices: chosenVoices(u.languageVoices, parseAllowList(u.agentLanguages)),
    greetingRecordings: recordedGreetingLanguages(u),
    voicemailGreetingRecording: hasVoicemailGreetingRecording(u),
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

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const { users } = tablesOf(db);
  return (await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1))[0];
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  const { users } = tablesOf(db);
  return (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];
}

export async function insertUser(db: Db, values: NewUser): Promise<User> {
  const { users } = tablesOf(db);
  return (await db
    .insert(users)
    .values({ ...values, email: values.email.trim().toLowerCase() })
    .returning())[0]!;
}

export async function updateUser(db: Db, id: number, values: Partial<NewUser>): Promise<User | undefined> {
  const { users } = tablesOf(db);
  return (await db.update(users).set(values).where(eq(users.id, id)).returning())[0];
}

/** A customer whose trial has passed is expired (SPEC.md §4, Trial). Returns how many changed. */
export async function expireTrials(db: Db, now: Date): Promise<number> {
  const { users } = tablesOf(db);
  return (await db
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
    .returning({ id: users.id })).length;
}

/** The read-path half of trial expiry: one user, checked when their session is used. */
export async function withTrialChecked(db: Db, u: User, now: Date): Promise<User> {
  if (u.role === 'customer' && u.accountStatus === 'active' && u.trialExpiresAt && u.trialExpiresAt < now) {
    return (await updateUser(db, u.id, { accountStatus: 'expired' })) ?? u;
  }
  return u;
}

export async function countAdmins(db: Db): Promise<number> {
  const { users } = tablesOf(db);
  return (await db.select({ n: sql<number>`count(*)` }).from(users).where(eq(users.role, 'admin')).limit(1))[0]?.n ?? 0;
}
