import { randomBytes } from 'node:crypto';
import { audit } from '../audit/audit.js';
import { hashPassword } from '../auth/passwords.js';
import { isUniqueViolation, type Db } from '../db/client.js';
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
  let user;
  try {
    user = existing
      ? (await updateUser(db, existing.id, { role: 'admin', accountStatus: 'active', passwordHash }))!
      : await insertUser(db, { email, passwordHash, role: 'admin', accountStatus: 'active', createdAt: now, businessName: 'Administrator' });
  } catch (err) {
    // Several cores of a cluster starting on one new database: another made the admin first,
    // and its password (or its one-time one) is the one that stands.
    if (isUniqueViolation(err)) return null;
    throw err;
  }
  await audit(db, null, 'admin.bootstrap', user, { generatedPassword: Boolean(oneTimePassword) }, now);
  return { email, oneTimePassword };
}
