import type { ApiTeamMember, ApiTeamSettings } from '../../contract/team.js';
import type { StaffRow } from '../db/schema.js';
import type { TeamSettings } from './store.js';
import type { MemberService } from './validate-services.js';

/** A member as the Team page shows them: never a calendar address or password, only which kind is connected. */
export function toApiMember(row: StaffRow, services: readonly MemberService[], invite: ApiTeamMember['invite']['state']): ApiTeamMember {
  return {
    id: row.id,
    name: row.name,
    otherNames: row.otherNames,
    roleWord: row.roleWord,
    isOwner: row.isOwner,
    phone: row.phone && row.phoneConfirmedAt ? row.phone : null,
    pendingPhone: row.pendingPhone,
    hours: row.hours,
    services: [...services],
    calendar: row.caldavUrl ? 'caldav' : row.icalUrlSealed ? 'ical' : 'none',
    invite: { email: row.inviteEmail, state: invite },
    view: row.view,
  };
}

export const toApiSettings = (s: TeamSettings): ApiTeamSettings => ({ ringFirst: s.ringFirst, ringSeconds: s.ringSeconds, copyOwner: s.copyOwner, rules: s.rules, rota: s.rota });
