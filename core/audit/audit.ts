import { findUserById } from '../accounts/users.js';
import type { Db } from '../db/client.js';
import { tablesOf, type User } from '../db/schema.js';

export type AuditAction =
  | 'user.approve'
  | 'user.reject'
  | 'user.status'
  | 'user.trial'
  | 'user.delete'
  | 'number.release'
  | 'admin.bootstrap'
  | 'retention.update'
  // The operator lets new owners start in the default mode though the self-test found the box slow (core/self-test).
  | 'quality.accept-agent-mode'
  // The owner's changes to who may sign in for their business (issue 58): the owner is the actor.
  | 'team.invite'
  | 'team.revoke'
  | 'team.remove'
  | 'team.view'
  // The owner's decisions on drafts from their website (issue 55, core/website/): the owner is the actor.
  | 'website.draft.approve'
  | 'website.draft.reject';

/** Records an admin action; call it inside the same transaction as the change. */
export async function audit(
  db: Db,
  actor: Pick<User, 'id' | 'email'> | null,
  action: AuditAction,
  target: Pick<User, 'id' | 'email'> | null,
  details: Record<string, unknown>,
  now: Date,
): Promise<void> {
  const { auditLog } = tablesOf(db);
  await db.insert(auditLog)
    .values({
      actorUserId: actor?.id ?? null,
      actorEmail: actor?.email ?? null,
      action,
      targetUserId: target?.id ?? null,
      targetEmail: target?.email ?? null,
      details,
      createdAt: now,
    });
}

/** What a team entry says of the member it is about (the staff row, not their login, which may be gone). */
export interface TeamAuditDetails {
  staffId: number;
  name: string;
  /** The member's sign-in address, when the change is about one. */
  email?: string;
  from?: string;
  to?: string;
}

/**
 * Records an owner's change to their team's sign-ins, inside the change's transaction. Only the
 * owner may change the team (core/team/routes.ts' hook), so the actor is always the business's
 * owner; the target is the member's login when there is one.
 */
export async function auditTeam(
  db: Db,
  ownerId: number,
  action: Extract<AuditAction, `team.${string}`>,
  login: Pick<User, 'id' | 'email'> | null,
  details: TeamAuditDetails,
  now: Date,
): Promise<void> {
  const owner = await findUserById(db, ownerId);
  await audit(db, owner ?? { id: ownerId, email: '' }, action, login, { ...details }, now);
}
