import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';

// OWASP's argon2id baseline (19 MiB, t=2, p=1): about 30 ms a hash on the appliance's 2 cores.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

/**
 * What an invited staff login holds until its password is set from the mailed link: no
 * argon2 hash, so no password can match it, and recognisable, so the team page can say
 * "invited" rather than "active".
 */
const NO_PASSWORD_YET = '!invited:';

export function noPasswordYet(): string {
  return `${NO_PASSWORD_YET}${randomBytes(16).toString('base64url')}`;
}

export function isPasswordSet(hash: string): boolean {
  return !hash.startsWith(NO_PASSWORD_YET);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  // As long as a real check, so a sign-in does not reveal an invitation waiting.
  if (!isPasswordSet(hash)) return (await burnPasswordCheck(password), false);
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Spent on unknown e-mails too, so response time does not reveal which accounts exist. */
let decoy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword('decoy-password-for-timing');
  await verifyPassword(await decoy, password);
}
