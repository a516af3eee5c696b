import fs from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { spellingsOf } from '../../contract/phone.js';
import { toApiUser } from '../accounts/users.js';
import { loadCallHandling } from '../call-handling/store.js';
import type { Db } from '../db/client.js';
import { toApiDelivery } from '../webhooks/api-shape.js';
import { tablesOf, type User } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import { rowsAffected } from '../db/raw.js';
import { liveHistoryOf, takenOverOf } from '../live-control/history.js';
import { inviteState } from '../team/invite.js';
import { exportWebsite } from '../website/store.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Everything the appliance holds for one business, as one JSON document (UK GDPR access/portability). */
export async function exportOwnerData(db: Db, user: User, now: Date) {
  const { bookingServices, bookings, callerOptOuts, callerTexts, calls, notifications, ownerWebhooks, phoneNumbers, staff, unansweredQuestions, webhookDeliveries } = tablesOf(db);
  const callRows = await db
    .select({ call: calls, staffName: staff.name })
    .from(calls)
    .leftJoin(staff, eq(staff.id, calls.staffId))
    .where(eq(calls.userId, user.id))
    .orderBy(desc(calls.createdAt));
  const liveHistory = await liveHistoryOf(db, user.id);
  return {
    exportedAt: now.toISOString(),
    account: toApiUser(user),
    // Transfer number, hours, block and VIP lists (the lists are callers' numbers the owner chose to keep).
    callHandling: await loadCallHandling(db, user.id),
    phoneNumbers: (await db
      .select({ phoneNumber: phoneNumbers.phoneNumber, friendlyName: phoneNumbers.friendlyName, assignedAt: phoneNumbers.assignedAt })
      .from(phoneNumbers)
      .where(eq(phoneNumbers.userId, user.id))
      ).map((n) => ({ ...n, assignedAt: iso(n.assignedAt) })),
    calls: callRows.map(({ call: c, staffName }) => ({
      id: c.id,
      fromNumber: c.fromNumber,
      toNumber: c.toNumber,
      status: c.status,
      mode: c.mode,
      duration: c.duration,
      createdAt: c.createdAt.toISOString(),
      transcription: c.transcription,
      aiSummary: c.aiSummary,
      notificationSent: c.notificationSent,
      urgency: c.urgency,
      urgencyReason: c.urgencyReason,
      calledBackAt: c.calledBackAt ? c.calledBackAt.toISOString() : null,
      callerTag: c.callerTag,
      transferOutcome: c.transferOutcome,
      transferTalkSeconds: c.transferTalkSeconds,
      period: c.period,
      agentBusy: c.agentBusy,
      agentStalled: c.agentStalled,
      agentVoicemailReason: c.agentVoicemailReason,
      testCall: c.testCall,
      direction: c.direction,
      callClass: c.callClass,
      screenedBy: c.screenedBy,
      callerLanguage: c.callerLanguage,
      transcriptEnglish: c.transcriptEnglish,
      wantsBooking: c.wantsBooking,
      recordingUrl: c.recordingFile ? `/api/call-logs/${c.id}/recording` : null,
      staffId: c.staffId,
      staffName,
      routingNote: c.routingNote,
      takenOver: takenOverOf(c),
      liveHistory: liveHistory.get(c.id) ?? [],
    })),
    unansweredQuestions: (await db
      .select()
      .from(unansweredQuestions)
      .where(eq(unansweredQuestions.userId, user.id))
      ).map((q) => ({ ...q, createdAt: q.createdAt.toISOString() })),
    notifications: (await db
      .select({ callId: notifications.callId, channel: notifications.channel, to: notifications.to, body: notifications.body, status: notifications.status, createdAt: notifications.createdAt })
      .from(notifications)
      .where(eq(notifications.userId, user.id))
      ).map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
    // Every text with a caller (core/caller-texts), both ways, and who asked for no texts.
    callerTexts: (await db.select().from(callerTexts).where(eq(callerTexts.userId, user.id)).orderBy(callerTexts.id)).map((t) => ({
      callerNumber: t.callerNumber, kind: t.kind, status: t.status, body: t.body, segments: t.segments, error: t.error, callId: t.callId, createdAt: t.createdAt.toISOString(),
    })),
    callerOptOuts: (await db.select().from(callerOptOuts).where(eq(callerOptOuts.userId, user.id))).map((o) => ({
      callerNumber: o.callerNumber, word: o.word, optedOutAt: o.optedOutAt.toISOString(),
    })),
    // The callers' bookings (core/booking): who, when, for what, and whether it still stands.
    bookings: (await db
      .select({ id: bookings.id, serviceName: bookingServices.name, startAt: bookings.startAt, endAt: bookings.endAt, callerName: bookings.callerName, callerNumber: bookings.callerNumber, callId: bookings.callId, status: bookings.status, cancelledBy: bookings.cancelledBy, createdAt: bookings.createdAt, cancelledAt: bookings.cancelledAt, staffId: bookings.staffId, staffName: staff.name })
      .from(bookings)
      .innerJoin(bookingServices, eq(bookingServices.id, bookings.serviceId))
      .leftJoin(staff, eq(staff.id, bookings.staffId))
      .where(eq(bookings.userId, user.id))
      .orderBy(bookings.startAt, bookings.id)
      ).map((b) => ({ ...b, startAt: b.startAt.toISOString(), endAt: b.endAt.toISOString(), createdAt: b.createdAt.toISOString(), cancelledAt: iso(b.cancelledAt) })),
    staff: await exportStaff(db, user.id),
    // The owner's site, every crawl of it and every draft made from it, decided ones too (core/website).
    website: await exportWebsite(db, user.id),
    // The address and what was sent where; never the signing secret (a credential, not data about anyone).
    webhook: {
      url: (await db.select({ url: ownerWebhooks.url }).from(ownerWebhooks).where(eq(ownerWebhooks.userId, user.id)).limit(1))[0]?.url ?? null,
      deliveries: (await db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.userId, user.id))
        .orderBy(desc(webhookDeliveries.id))
        ).map(toApiDelivery),
    },
  };
}

/** The business's people, removed ones too; sealed calendar secrets and phone-code hashes stay out. */
async function exportStaff(db: Db, ownerId: number) {
  const { staff, users } = tablesOf(db);
  const rows = await db
    .select({ s: staff, loginHash: users.passwordHash })
    .from(staff)
    .leftJoin(users, eq(users.id, staff.loginUserId))
    .where(eq(staff.userId, ownerId))
    .orderBy(staff.position, staff.id);
  return rows.map(({ s, loginHash }) => ({
    id: s.id,
    name: s.name,
    otherNames: s.otherNames,
    roleWord: s.roleWord,
    isOwner: s.isOwner,
    phone: s.phone,
    phoneConfirmedAt: iso(s.phoneConfirmedAt),
    pendingPhone: s.pendingPhone,
    hours: s.hours,
    calendar: s.caldavUrl ? ('caldav' as const) : s.icalUrlSealed ? ('ical' as const) : ('none' as const),
    caldavUrl: s.caldavUrl,
    caldavUser: s.caldavUser,
    invite: { email: s.inviteEmail, state: inviteState(loginHash === null ? undefined : { passwordHash: loginHash }) },
    view: s.view,
    position: s.position,
    removedAt: iso(s.removedAt),
    createdAt: s.createdAt.toISOString(),
  }));
}

/**
 * Erases one caller from one business (a caller's erasure request): their calls with
 * recordings, transcripts, summaries and notifications (by cascade), the questions
 * they asked, their text thread and their bookings (an event already in the owner's own
 * calendar is the owner's to delete). A STOP they sent is kept: it is what keeps them from
 * being texted again (honouring their objection needs the number, nothing more). Other callers and other businesses are untouched. The number may be given
 * in any spelling and matches every spelling it could be stored under: rows are written
 * in E.164 (migration 0005 converted older ones), and the other spellings are matched too
 * so a row that escaped normalisation is not left behind.
 */
export async function eraseCaller(db: Db, dataDir: string, userId: number, callerNumber: string) {
  const { bookings, callerTexts, calls, unansweredQuestions } = tablesOf(db);
  const spellings = spellingsOf(callerNumber);
  if (spellings.length === 0) return { deletedCalls: 0, deletedQuestions: 0, deletedRecordings: 0, deletedTexts: 0, deletedBookings: 0 };
  const mine = and(eq(calls.userId, userId), inArray(calls.fromNumber, spellings));
  const files = (await db.select({ file: calls.recordingFile }).from(calls).where(mine)).flatMap((r) => (r.file ? [r.file] : []));
  const result = await transaction(db, async () => {
    const questions = rowsAffected(await db
      .delete(unansweredQuestions)
      .where(and(eq(unansweredQuestions.userId, userId), inArray(unansweredQuestions.callerNumber, spellings))));
    const deletedTexts = rowsAffected(await db.delete(callerTexts).where(and(eq(callerTexts.userId, userId), inArray(callerTexts.callerNumber, spellings))));
    const deletedBookings = rowsAffected(await db.delete(bookings).where(and(eq(bookings.userId, userId), inArray(bookings.callerNumber, spellings))));
    const deletedCalls = rowsAffected(await db.delete(calls).where(mine));
    return { deletedCalls, deletedQuestions: questions, deletedTexts, deletedBookings };
  });
  await Promise.all(files.map((f) => fs.rm(path.join(dataDir, 'recordings', path.basename(f)), { force: true })));
  return { ...result, deletedRecordings: files.length };
}
