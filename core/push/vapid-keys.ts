import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

// The box's VAPID key pair (RFC 8292), made at first start and kept in the data directory
// (PUSH_VAPID_FILE, default DATA_DIR/push-vapid.json), readable by the box's user only. Every
// browser subscription is bound to the public key: a new pair means every device must turn
// alerts on again (docs/live.md, "Push alerts"). Never logged.

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url: what the console hands pushManager.subscribe. */
  publicKey: string;
  /** The 32-byte private scalar, base64url. */
  privateKey: string;
}

function parse(text: string, file: string): VapidKeys {
  const keys = JSON.parse(text) as Partial<VapidKeys>;
  const pub = typeof keys.publicKey === 'string' ? Buffer.from(keys.publicKey, 'base64url') : null;
  const priv = typeof keys.privateKey === 'string' ? Buffer.from(keys.privateKey, 'base64url') : null;
  if (pub?.length !== 65 || priv?.length !== 32) throw new Error(`${file} does not hold a VAPID key pair (publicKey, privateKey in base64url); move it away and restart to make a new one`);
  return { publicKey: keys.publicKey!, privateKey: keys.privateKey! };
}

/** Reads the key pair, making it first when the file does not exist. */
export function loadVapidKeys(file: string): VapidKeys {
  try {
    return parse(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const made = webpush.generateVAPIDKeys();
  // 'wx': two cores starting together on one data directory cannot both write one; the loser reads the winner's.
  try {
    writeFileSync(file, JSON.stringify({ publicKey: made.publicKey, privateKey: made.privateKey }), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parse(readFileSync(file, 'utf8'), file);
}
