import { isEmail } from '../../contract/rules.js';
import { auditTeam } from '../audit/audit.js';
import { transaction } from '../db/transaction.js';
import { EmailBody } from '../../contract/schemas/auth.js';
import { ApiErrorSchema, IdParams, MessageResponse } from '../../contract/schemas/shared.js';
import { HttpError, badRequest } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { routeLimit } from '../http/rate-limits.js';
import { currentUser } from '../http/session-hook.js';
import { brand } from '../mail/brand.js';
import { staffInviteMail } from '../mail/templates.js';
import { currentMember, endStaffSignIn, INVITE_VALID_DAYS, inviteStaff } from './invite.js';

/**
 * POST and DELETE /api/user/team/:id/invite (issue 58 item 2): the owner gives a member their own
 * sign-in, or takes it away. Owner only: a staff sign-in never reaches them (core/team/staff-scope.ts).
 */
export async function inviteRoutes(app: App): Promise<void> {
  const { database, mailer, config, now } = app.services;
  const db = database.db;

  app.post(
    '/api/user/team/:id/invite',
    {
      schema: { params: IdParams, body: EmailBody, response: { 200: MessageResponse, 400: ApiErrorSchema, 404: ApiErrorSchema, 502: ApiErrorSchema } },
      // Each sends an e-mail to an address the owner types: held to a reset request's pace, per owner.
      config: routeLimit(app.rateLimits.resetRequestsPerIp, (req) => `invite:${req.user?.id}`),
    },
    async (req) => {
      const owner = currentUser(req);
      const email = req.body.email.trim().toLowerCase();
      if (!isEmail(email)) throw badRequest('Please enter a valid email address', { email: 'Please enter a valid email address' });
      const { member, token } = await inviteStaff(db, owner.id, req.params.id, email, now());
      try {
        await mailer.send(staffInviteMail(brand(config), email, member.name, owner.businessName, token, INVITE_VALID_DAYS));
      } catch (err) {
        // The login stays: inviting the same address again sends a fresh link.
        req.log.error({ err, staffId: member.id }, 'could not send the staff invitation e-mail');
        throw new HttpError(502, `The invitation to ${member.name} could not be e-mailed. Try again in a minute.`);
      }
      req.log.info({ userId: owner.id, staffId: member.id }, 'staff member invited');
      return { message: `We have e-mailed ${member.name} a link to set their password.` };
    },
  );

  app.delete(
    '/api/user/team/:id/invite',
    { schema: { params: IdParams, response: { 200: MessageResponse, 404: ApiErrorSchema } } },
    async (req) => {
      const owner = currentUser(req);
      const member = await transaction(db, async () => {
        const m = await currentMember(db, owner.id, req.params.id);
        const ended = await endStaffSignIn(db, m.id);
        // Nothing to take away changes nothing, so nothing is recorded.
        if (ended) await auditTeam(db, owner.id, 'team.revoke', ended, { staffId: m.id, name: m.name, email: ended.email }, now());
        return m;
      });
      req.log.info({ userId: owner.id, staffId: member.id }, 'staff sign-in revoked');
      return { message: `${member.name} can no longer sign in.` };
    },
  );
}
