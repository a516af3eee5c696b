import crypto from 'node:crypto';

/**
 * Time-limited TURN credentials as coturn's use-auth-secret checks them (the "TURN REST API"
 * draft, draft-uberti-behave-turn-rest): user name = expiry in Unix seconds ":" a label,
 * password = base64(HMAC-SHA1(static-auth-secret, user name)). Nothing is stored on either side.
 *
 * Made only with a test call's own credentials, and expiring with them (`expiresAt`, the
 * minute the browser has to connect): coturn checks the time when an allocation is made and
 * keeps a made one alive while the browser refreshes it, so the call keeps its relay and the
 * credentials are no use a minute later. The label is the owner (`owner-<id>`), not the call:
 * coturn's user-quota counts allocations per label, so it caps what one owner holds at once,
 * however many calls they make (deploy/coturn/turnserver.conf).
 */
export function turnCredentials(turn: { url: string; secret: string }, owner: number, expiresAt: number): { urls: string; username: string; credential: string } {
  const username = `${Math.ceil(expiresAt / 1000)}:owner-${owner}`;
  const credential = crypto.createHmac('sha1', turn.secret).update(username).digest('base64');
  return { urls: turn.url, username, credential };
}
