import { randomBytes } from 'node:crypto';
import { audit } from '../audit/audit.js';
import { hashPassword } from '../auth/passwords.js';
import type { Db } from '../db/client.js';
import { countAdmins, findUserByEmail, insertUser, updateUser } from './users.js';

export interface BootstrapResult {
  email: string;
  /** Set only when a one-time password was generated: printed once, never stored in clear. */
  oneTimePassword?: string;
}

/** Creates the first admin when there is none (ADMIN_EMAIL/ADMIN_PASSWORD, else a one-time password). */
export async function ensureFirstAdmin(
  db: Db,
  admin: { email?: string; password?: string },
  now: Date,
): Promise<BootstrapResult | null> {
  if ((await countAdmins(db)) > 0) return null;
  const email = admin.email ?? 'admin@localhost';
  const oneTimePassword = admin.password ? undefined : randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(admin.password ?? oneTimePassword!);
  const existing = await findUserByEmail(db, email);
  const user = existing
    ? (await updateUser(db, existing.id, { role: 'admin', accountStatus: 'active', passwordHash }))!
    : await insertUser(db, { email, passwordHash, role: 'admin', accountStatus: 'active', createdAt: now, businessName: 'Administrator' });
  await audit(db, null, 'admin.bootstrap', user, { generatedPassword: Boolean(oneTimePassword) }, now);
  return { email, oneTimePassword };
}
