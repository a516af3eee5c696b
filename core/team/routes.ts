import { ApiErrorSchema, IdParams, MessageResponse } from '../../contract/schemas/shared.js';
import {
  TeamMemberBody, TeamMemberResponse, TeamMemberUpdateBody, TeamPhoneBody, TeamPhoneConfirmBody, TeamResponse, TeamServicesBody, TeamSettingsBody, TeamSettingsResponse,
} from '../../contract/schemas/team.js';
import type { ApiTeamMember } from '../../contract/team.js';
import { auditTeam } from '../audit/audit.js';
import { transferGuard } from '../call-handling/store.js';
import type { Invalid } from '../call-handling/validate.js';
import { activeServices } from '../booking/store/services.js';
import type { Db } from '../db/client.js';
import type { StaffRow } from '../db/schema.js';
import { lockOwner, transaction } from '../db/transaction.js';
import { codeSenderFor } from '../destinations/send-code.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { routeLimit } from '../http/rate-limits.js';
import { currentUser } from '../http/session-hook.js';
import { toApiMember, toApiSettings } from './api-member.js';
import { endStaffSignIn, inviteStates } from './invite.js';
import { addMember, currentMember, removeMember, saveTeamSettings, servicesOf, setServices, updateMember } from './members.js';
import { callStaffPhoneCode } from './call-phone-code.js';
import { confirmPhone } from './phone-code.js';
import { sendStaffPhoneCode } from './send-phone-code.js';
import { currentMembers, loadTeamSettings, ownerMember } from './store.js';
import { NEW_MEMBER, isInvalid, staffLimitRefusal, validateMember } from './validate-member.js';
import { validateStaffPhone } from './validate-phone.js';
import { validateMemberServices } from './validate-services.js';
import { removalRefusal, validateTeamSettings } from './validate-settings.js';

// The team's API (issue 58 item 1; docs/team.md): the owner's routes for their people and the
// team settings. Every read-then-write runs in one transaction under the owner's lock, so two
// saves cannot both take the last place or the same name.

const refuse = (r: Invalid) => badRequest(r.message, { [r.field]: r.message });

/** A member's own fields as the rules take them. */
const fieldsOf = (m: StaffRow) => ({ name: m.name, otherNames: m.otherNames, roleWord: m.roleWord, hours: m.hours, view: m.view });

async function apiMember(db: Db, row: StaffRow): Promise<ApiTeamMember> {
  const [services, invites] = await Promise.all([servicesOf(db, [row.id]), inviteStates(db, [row])]);
  return toApiMember(row, services.get(row.id) ?? [], invites.get(row.id) ?? 'none');
}

export async function teamRoutes(app: App): Promise<void> {
  const { database, now, config } = app.services;
  const db = database.db;
  const codeSender = codeSenderFor(app.services);

  // The business's owner only: an administrator has no team, and a member's own sign-in
  // (role 'staff') never changes the team (issue 58 item 2).
  app.addHook('onRequest', async (req) => {
    if (req.user && req.user.role !== 'customer') throw forbidden('Only the business owner can change the team.');
  });

  /** A current member of the signed-in owner's team, or 404. */
  const member = async (ownerId: number, id: number) => {
    const m = await currentMember(db, ownerId, id);
    if (!m) throw notFound('That person is not on your team.');
    return m;
  };

  app.get('/api/user/team', { schema: { response: { 200: TeamResponse } } }, async (req) => {
    const ownerId = currentUser(req).id;
    await ownerMember(db, ownerId);
    const [rows, settings] = await Promise.all([currentMembers(db, ownerId), loadTeamSettings(db, ownerId)]);
    const [services, invites] = await Promise.all([servicesOf(db, rows.map((r) => r.id)), inviteStates(db, rows)]);
    // currentMembers orders by position; the owner's row is first whatever its position.
    const members = [...rows.filter((r) => r.isOwner), ...rows.filter((r) => !r.isOwner)].map((r) => toApiMember(r, services.get(r.id) ?? [], invites.get(r.id) ?? 'none'));
    return { members, settings: toApiSettings(settings), maxStaff: config.team.maxStaff };
  });

  app.post('/api/user/team', { schema: { body: TeamMemberBody, response: { 201: TeamMemberResponse, 400: ApiErrorSchema } } }, async (req, reply) => {
    const ownerId = currentUser(req).id;
    await ownerMember(db, ownerId);
    const result = await transaction(db, async () => {
      await lockOwner(db, ownerId);
      const team = await currentMembers(db, ownerId);
      const full = staffLimitRefusal(team.filter((m) => !m.isOwner).length, config.team.maxStaff);
      if (full) return full;
      const fields = validateMember(req.body, NEW_MEMBER, team);
      return isInvalid(fields) ? fields : addMember(db, ownerId, fields, now());
    });
    if (isInvalid(result)) throw refuse(result);
    return reply.code(201).send({ member: toApiMember(result, [], 'none'), message: `${result.name} is on your team.` });
  });

  app.put('/api/user/team/:id', { schema: { params: IdParams, body: TeamMemberUpdateBody, response: { 200: TeamMemberResponse, 400: ApiErrorSchema, 404: ApiErrorSchema } } }, async (req) => {
    const ownerId = currentUser(req).id;
    const result = await transaction(db, async () => {
      await lockOwner(db, ownerId);
      const m = await member(ownerId, req.params.id);
      const others = (await currentMembers(db, ownerId)).filter((o) => o.id !== m.id);
      const fields = validateMember(req.body, fieldsOf(m), others);
      if (isInvalid(fields)) return fields;
      const saved = await updateMember(db, m.id, fields);
      // What a member may see is who may read what: a change of it is on the record.
      if (saved.view !== m.view) await auditTeam(db, ownerId, 'team.view', null, { staffId: m.id, name: saved.name, from: m.view, to: saved.view }, now());
      return saved;
    });
    if (isInvalid(result)) throw refuse(result);
    return { member: await apiMember(db, result), message: 'Saved.' };
  });

  app.delete('/api/user/team/:id', { schema: { params: IdParams, response: { 200: MessageResponse, 400: ApiErrorSchema, 404: ApiErrorSchema } } }, async (req) => {
    const ownerId = currentUser(req).id;
    const result = await transaction(db, async () => {
      await lockOwner(db, ownerId);
      const m = await member(ownerId, req.params.id);
      const refused = removalRefusal(m, await loadTeamSettings(db, ownerId));
      if (refused) return refused;
      await removeMember(db, m.id, now());
      // Their own sign-in goes with them, sessions and all (docs/team.md, "What staff see").
      const login = await endStaffSignIn(db, m.id);
      await auditTeam(db, ownerId, 'team.remove', login, { staffId: m.id, name: m.name, ...(login && { email: login.email }) }, now());
      return m;
    });
    if (isInvalid(result)) throw refuse(result);
    return { message: `${result.name} is no longer on your team. Their past calls and bookings still show their name.` };
  });

  app.post(
    '/api/user/team/:id/phone',
    {
      schema: { params: IdParams, body: TeamPhoneBody, response: { 200: MessageResponse, 400: ApiErrorSchema, 404: ApiErrorSchema } },
      // Each code is a text or a call at the operator's cost.
      config: routeLimit(app.rateLimits.teamPhoneCodesPerOwner, (req) => `team-phone-owner:${req.user?.id}`, 'preHandler'),
    },
    async (req) => {
      const ownerId = currentUser(req).id;
      const m = await member(ownerId, req.params.id);
      const checked = validateStaffPhone(req.body.phone, await transferGuard(db, ownerId, config.outbound.allow), app.codeCall !== null);
      if (isInvalid(checked)) throw refuse(checked);
      const { phone, codeBy } = checked;
      if (m.phone === phone && m.phoneConfirmedAt) return { message: `${phone} is already ${m.name}'s confirmed phone.` };
      // A landline takes no texts: its code is read out on a call the PBX places (issue 58 item 1).
      if (codeBy === 'call') return { message: await callStaffPhoneCode({ db, call: app.codeCall!, outbound: config.outbound }, ownerId, m.id, phone, now()) };
      await sendStaffPhoneCode(codeSender, ownerId, m.id, phone, now());
      return { message: `We texted a 6-digit code to ${phone}. Enter it here to confirm ${m.name}'s phone.` };
    },
  );

  app.post(
    '/api/user/team/:id/phone/confirm',
    { schema: { params: IdParams, body: TeamPhoneConfirmBody, response: { 200: TeamMemberResponse, 400: ApiErrorSchema, 404: ApiErrorSchema } } },
    async (req) => {
      const m = await member(currentUser(req).id, req.params.id);
      const result = await confirmPhone(db, m.id, req.body.code, now());
      switch (result.verdict) {
        case 'none':
          throw badRequest(`There is no new phone waiting to be confirmed for ${m.name}. Save their phone first.`);
        case 'expired':
          throw badRequest("That code has expired. Save the phone again to get a new code.");
        case 'too-many':
          throw badRequest('Too many wrong codes. Save the phone again to get a new code.');
        case 'wrong':
          throw badRequest('That code is not right. Check the latest code we sent and try again.', { code: 'Enter the 6-digit code we sent' });
        case 'confirmed':
          return { member: await apiMember(db, result.member), message: `${m.name}'s phone is confirmed: ${result.member.phone}.` };
      }
    },
  );

  app.put(
    '/api/user/team/:id/services',
    { schema: { params: IdParams, body: TeamServicesBody, response: { 200: TeamMemberResponse, 400: ApiErrorSchema, 404: ApiErrorSchema } } },
    async (req) => {
      const ownerId = currentUser(req).id;
      const result = await transaction(db, async () => {
        await lockOwner(db, ownerId);
        const m = await member(ownerId, req.params.id);
        const bookable = new Set((await activeServices(db, ownerId)).map((s) => s.id));
        const services = validateMemberServices(req.body.services, bookable);
        if (isInvalid(services)) return services;
        await setServices(db, m.id, services);
        return m;
      });
      if (isInvalid(result)) throw refuse(result);
      return { member: await apiMember(db, result), message: 'Saved.' };
    },
  );

  app.put('/api/user/team/settings', { schema: { body: TeamSettingsBody, response: { 200: TeamSettingsResponse, 400: ApiErrorSchema } } }, async (req) => {
    const ownerId = currentUser(req).id;
    const result = await transaction(db, async () => {
      await lockOwner(db, ownerId);
      const next = validateTeamSettings(req.body, await loadTeamSettings(db, ownerId), await currentMembers(db, ownerId));
      if (!isInvalid(next)) await saveTeamSettings(db, ownerId, next, now());
      return next;
    });
    if (isInvalid(result)) throw refuse(result);
    return { settings: toApiSettings(result), message: 'Team settings saved.' };
  });
}
