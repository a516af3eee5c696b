import crypto from 'node:crypto';

/** A test call lasts minutes: its TURN credentials outlive it a little, no more. */
const TURN_TTL_S = 15 * 60;

/**
 * Time-limited TURN credentials as coturn's use-auth-secret checks them (the "TURN REST API"
 * draft, draft-uberti-behave-turn-rest): user name = expiry in Unix seconds ":" a label,
 * password = base64(HMAC-SHA1(static-auth-secret, user name)). Nothing is stored on either side.
 */
export function turnCredentials(turn: { url: string; secret: string }, label: string, now: Date): { urls: string; username: string; credential: string } {
  const username = `${Math.floor(now.getTime() / 1000) + TURN_TTL_S}:${label}`;
  const credential = crypto.createHmac('sha1', turn.secret).update(username).digest('base64');
  return { urls: turn.url, username, credential };
}
