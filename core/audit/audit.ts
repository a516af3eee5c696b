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
  | 'retention.update';

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
