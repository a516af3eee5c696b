import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// One secret behind booking's two keys: the slot ids' HMAC key (so a model cannot invent a slot
// id) and the key that seals calendar secrets at rest. From BOOKING_SECRET, else the file named
// by BOOKING_SECRET_FILE, else DATA_DIR/booking.key (made on first use, readable by the owner
// only). A cluster's cores must share it: set BOOKING_SECRET or BOOKING_SECRET_FILE on each.

export interface BookingKeys {
  slot: Buffer;
  seal: Buffer;
}

export function keysFromSecret(secret: string | Buffer): BookingKeys {
  const ikm = createHash('sha256').update(secret).digest();
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), info, 32));
  return { slot: derive('booking slot ids'), seal: derive('booking calendar secrets') };
}

export function loadBookingKeys(env: NodeJS.ProcessEnv, dataDir: string): BookingKeys {
  const fromEnv = env.BOOKING_SECRET?.trim();
  if (fromEnv) return keysFromSecret(fromEnv);
  const file = env.BOOKING_SECRET_FILE?.trim() || path.join(dataDir, 'booking.key');
  try {
    return keysFromSecret(readFileSync(file, 'utf8').trim());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || env.BOOKING_SECRET_FILE) throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  // 'wx': two processes starting together cannot both write one; the loser reads the winner's.
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return keysFromSecret(readFileSync(file, 'utf8').trim());
}
