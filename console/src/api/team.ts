// The team (issue 58): GET /api/user/team and its writes, in the shapes of docs/team.md's
// "The team's HTTP API". The server declares the same shapes in contract/schemas/team.ts.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { OpeningSpan, Weekday } from '../../../contract/call-handling';
import type { ApiBookingCalendar, CalDavShape } from '../../../contract/schemas/booking';
import type { OnCallRota, RoutingRule } from '../../../contract/team';
import type { RING_FIRST_STYLES, STAFF_VIEWS } from '../../../contract/enums';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';

export type TeamWeek = Partial<Record<Weekday, OpeningSpan[]>>;
export type StaffView = (typeof STAFF_VIEWS)[number];
export type RingFirst = (typeof RING_FIRST_STYLES)[number];

export interface ApiTeamMember {
  id: number;
  name: string;
  otherNames: string[];
  roleWord: string | null;
  isOwner: boolean;
  /** Confirmed, E.164. */
  phone: string | null;
  /** Waiting for its texted code. */
  pendingPhone: string | null;
  /** Null: the business's opening hours. */
  hours: TeamWeek | null;
  services: { serviceId: number; durationMinutes: number | null }[];
  calendar: 'none' | 'ical' | 'caldav';
  invite: { email: string | null; state: 'none' | 'invited' | 'active' };
  view: StaffView;
}

export interface ApiTeamSettings {
  ringFirst: RingFirst;
  ringSeconds: number;
  copyOwner: boolean;
  rules: RoutingRule[];
  rota: OnCallRota;
}

export interface ApiTeam {
  members: ApiTeamMember[];
  settings: ApiTeamSettings;
  maxStaff: number;
}

export interface MemberShape {
  name: string;
  otherNames?: string[];
  roleWord?: string | null;
  hours?: TeamWeek | null;
  view?: StaffView;
}

const T = '/api/user/team';
type Member = { member: ApiTeamMember };

const getTeam = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<ApiTeam>(T, signal);
export const addMember = (body: MemberShape) => apiRequest<Member>('POST', T, body);
export const saveMember = (id: number, body: Partial<MemberShape>) => apiRequest<Member>('PUT', `${T}/${id}`, body);
export const removeMember = (id: number) => apiRequest<{ message: string }>('DELETE', `${T}/${id}`);
export const sendPhoneCode = (id: number, phone: string) => apiRequest<{ message: string }>('POST', `${T}/${id}/phone`, { phone });
export const confirmPhone = (id: number, code: string) => apiRequest<Member>('POST', `${T}/${id}/phone/confirm`, { code });
export const saveMemberServices = (id: number, services: ApiTeamMember['services']) => apiRequest<Member>('PUT', `${T}/${id}/services`, { services });
export const inviteMember = (id: number, email: string) => apiRequest<{ message: string }>('POST', `${T}/${id}/invite`, { email });
export const revokeInvite = (id: number) => apiRequest<{ message?: string }>('DELETE', `${T}/${id}/invite`);
export const saveTeamSettings = (body: Partial<ApiTeamSettings>) => apiRequest<{ settings: ApiTeamSettings }>('PUT', `${T}/settings`, body);

/** The team as the Team page, the person filters and the checklist read it; every write refreshes it. */
export const useTeam = (opts: { enabled?: boolean } = {}) => useQuery({ queryKey: keys.team, queryFn: getTeam, enabled: opts.enabled ?? true });

export function useRefreshTeam() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: keys.team });
}

/** A member's own calendar (docs/booking.md, "With a team"): either body the owner's calendar routes take. */
export const setMemberCalendar = (id: number, body: { url: string | null } | CalDavShape) => apiRequest<ApiBookingCalendar>('PUT', `${T}/${id}/calendar`, body);
export const removeMemberCalendar = (id: number) => apiRequest<ApiBookingCalendar>('DELETE', `${T}/${id}/calendar`);
