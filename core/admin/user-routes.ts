import fs from 'node:fs/promises';
import path from 'node:path';
import { asc, desc, eq, ne } from 'drizzle-orm';
import { IdParams, MessageResponse } from '../../contract/schemas/shared.js';
import { AdminUserPatchBody, AdminUsersResponse, UserMessageResponse, UserResponse, UsersResponse } from '../../contract/schemas/users.js';
import type { FastifyBaseLogger } from 'fastify';
import { findUserById, toApiUser, updateUser } from '../accounts/users.js';
import { audit } from '../audit/audit.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { tablesOf, type User } from '../db/schema.js';
import { codeSenderFor } from '../destinations/send-code.js';
import { confirmSignupPhone } from '../destinations/signup-phone.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { ADMIN_ONLY } from '../http/access-guard.js';
import { currentUser } from '../http/session-hook.js';
import { brand } from '../mail/brand.js';
import { approvalMail, rejectionMail } from '../mail/templates.js';
import { transaction } from '../db/transaction.js';
import { qualityReportsDir, readQualityReports, splitSelfTests } from '../quality/reports.js';
import { newOwnerModeNow } from '../self-test/status.js';
import { staffCounts } from '../team/members.js';
import { deleteStaffLogins } from '../team/invite.js';
import { greetingRecordingFolder } from '../../models/audio/greeting-recording.js';

const TRIAL_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Loads a user an admin may act on: it exists and is not an administrator. */
async function manageableUser(db: App['services']['database']['db'], id: number): Promise<User> {
  const target = await findUserById(db, id);
  if (!target) throw notFound('User not found.');
  if (target.role === 'admin') throw forbidden('Administrator accounts cannot be changed here.');
  // A team member's sign-in belongs to its business: the owner invites and revokes it (docs/team.md).
  if (target.role === 'staff') throw forbidden("A team member's sign-in is managed by their business owner on the Team page.");
  return target;
}

export async function adminUserRoutes(app: App): Promise<void> {
  const { database, mailer, config, now } = app.services;
  const db = database.db;
  const { calls, users } = tablesOf(db);

  app.get('/api/admin/users', { config: ADMIN_ONLY, schema: { response: { 200: AdminUsersResponse } } }, async () => {
    const [rows, staff] = await Promise.all([db.select().from(users).where(ne(users.role, 'staff')).orderBy(desc(users.createdAt), desc(users.id)), staffCounts(db)]);
    return { users: rows.map((u) => ({ ...toApiUser(u), staffCount: staff.get(u.id) ?? 0 })) };
  });

  app.patch('/api/admin/users/:id', { config: ADMIN_ONLY, schema: { params: IdParams, body: AdminUserPatchBody, response: { 200: UserResponse } } }, async (req) => {
    const admin = currentUser(req);
    const target = await manageableUser(db, req.params.id);
    const { accountStatus, trialExpiresAt } = req.body;
    if (accountStatus === undefined && trialExpiresAt === undefined) {
      throw badRequest('Send accountStatus (active, suspended or expired) or trialExpiresAt (an ISO date).');
    }
    // Activating here would skip what approval does (the trial and the approval e-mail).
    if (accountStatus === 'active' && target.accountStatus === 'pending_approval') {
      throw badRequest('This sign-up request is awaiting review: approve it under Signup Approvals instead.');
    }
    let trial: Date | undefined;
    if (trialExpiresAt !== undefined) {
      trial = new Date(trialExpiresAt);
      if (Number.isNaN(trial.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(trialExpiresAt)) {
        throw badRequest('trialExpiresAt must be an ISO date such as 2026-01-31T12:00:00.000Z');
      }
    }
    const updated = await transaction(db, async () => {
      const changes: Partial<User> = {};
      if (accountStatus !== undefined) changes.accountStatus = accountStatus;
      if (trial !== undefined) {
        changes.trialExpiresAt = trial;
        // Extending an expired trial into the future gives the account back.
        if (accountStatus === undefined && target.accountStatus === 'expired' && trial > now()) changes.accountStatus = 'active';
      }
      const u = (await updateUser(db, target.id, changes))!;
      if (u.accountStatus === 'suspended') await revokeUserSessions(db, u.id);
      if (accountStatus !== undefined) await audit(db, admin, 'user.status', u, { from: target.accountStatus, to: u.accountStatus }, now());
      if (trial !== undefined) await audit(db, admin, 'user.trial', u, { trialExpiresAt: trial.toISOString() }, now());
      return u;
    });
    return { user: toApiUser(updated) };
  });

  app.delete('/api/admin/users/:id', { config: ADMIN_ONLY, schema: { params: IdParams, response: { 200: MessageResponse } } }, async (req) => {
    const admin = currentUser(req);
    const target = await manageableUser(db, req.params.id);
    const recordings = (await db
      .select({ file: calls.recordingFile })
      .from(calls)
      .where(eq(calls.userId, target.id))
      ).flatMap((r) => (r.file ? [r.file] : []));
    await transaction(db, async () => {
      // The staff's own logins are users rows of their own: gone first, while staff rows still name them.
      await deleteStaffLogins(db, target.id);
      // Sessions, calls, questions, notifications and staff go by ON DELETE CASCADE; numbers are freed (SET NULL).
      await db.delete(users).where(eq(users.id, target.id));
      await audit(db, admin, 'user.delete', target, { recordings: recordings.length }, now());
    });
    const dir = path.join(config.dataDir, 'recordings');
    await Promise.all(recordings.map((f) => fs.rm(path.join(dir, path.basename(f)), { force: true })));
    await fs.rm(greetingRecordingFolder(config.dataDir, target.id), { recursive: true, force: true });
    return { message: 'User deleted' };
  });

  app.get('/api/admin/approvals', { config: ADMIN_ONLY, schema: { response: { 200: UsersResponse } } }, async () => {
    const rows = await db
      .select()
      .from(users)
      .where(eq(users.accountStatus, 'pending_approval'))
      .orderBy(asc(users.createdAt), asc(users.id));
    return { users: rows.map(toApiUser) };
  });

  const codeSender = codeSenderFor(app.services);
  /** The sign-up phone's code goes out with the approval; a code that cannot go never undoes the decision. */
  const startSignupPhoneConfirmation = async (log: FastifyBaseLogger, owner: User, at: Date) => {
    try {
      const why = await confirmSignupPhone(codeSender, owner, at);
      // The number is personal data: the log says why, not where.
      if (why) log.warn({ userId: owner.id, why: why.replaceAll(owner.phoneNumber ?? '', 'the sign-up phone') }, 'no confirmation code texted to the sign-up phone; the owner can save it under Notification Settings for one');
    } catch (err) {
      log.error({ err, userId: owner.id }, 'could not start confirming the sign-up phone; the owner can save it under Notification Settings for a code');
    }
  };

  /** Approve and reject share one shape: check pending, change, audit, then the sign-up phone's code and the mail. */
  const decide = (decision: 'approve' | 'reject') =>
    app.post(`/api/admin/approvals/:id/${decision}`, { config: ADMIN_ONLY, schema: { params: IdParams, response: { 200: UserMessageResponse } } }, async (req) => {
      const admin = currentUser(req);
      const target = await manageableUser(db, req.params.id);
      if (target.accountStatus !== 'pending_approval') throw conflict('This sign-up request has already been handled.');
      const at = now();
      // A new owner starts in voicemail mode while the box's self-test finds it slow and the operator has not accepted agent mode (core/self-test).
      const start = decision === 'approve' ? await newOwnerModeNow(config, splitSelfTests((await readQualityReports(qualityReportsDir(config.dataDir))).reports).selfTests) : undefined;
      const updated = await transaction(db, async () => {
        const u =
          decision === 'approve'
            ? (await updateUser(db, target.id, { accountStatus: 'active', trialExpiresAt: new Date(at.getTime() + TRIAL_DAYS * DAY_MS), ...(start?.keptInVoicemail ? { aiMode: start.mode } : {}) }))!
            : (await updateUser(db, target.id, { accountStatus: 'rejected' }))!;
        await audit(db, admin, decision === 'approve' ? 'user.approve' : 'user.reject', u, start?.keptInVoicemail ? { aiMode: start.mode, why: start.keptInVoicemail } : {}, at);
        return u;
      });
      if (decision === 'approve') await startSignupPhoneConfirmation(req.log, updated, at);
      const to = updated.businessEmail ?? updated.email;
      const mail =
        decision === 'approve'
          ? approvalMail(brand(config), to, updated.businessName, updated.trialExpiresAt!)
          : rejectionMail(brand(config), to, updated.businessName);
      try {
        await mailer.send(mail);
      } catch (err) {
        // The decision stands; the operator sees the failure in the log and can tell the owner.
        req.log.error({ err, userId: updated.id }, `could not send the ${decision} e-mail`);
        return { user: toApiUser(updated), message: `Decision saved, but the e-mail could not be sent.` };
      }
      return { user: toApiUser(updated), message: decision === 'approve' ? 'User approved' : 'User rejected' };
    });
  decide('approve');
  decide('reject');
}
