import { eq, sql } from 'drizzle-orm';
import { storedNumber } from '../contract/phone.js';
import { decideRoute, type RouteDecision } from '../core/calls/routing-rules.js';
import type { Db } from '../core/db/client.js';
import { preparedPerDb } from '../core/db/prepared.js';
import { phoneNumbers, users } from '../core/db/schema.js';
import type { OwnerProfile } from './flows/types.js';

export interface Route {
  did: string;
  decision: RouteDecision;
  owner?: OwnerProfile;
}

const statements = preparedPerDb((db) => ({
  number: db
    .select()
    .from(phoneNumbers)
    .where(eq(phoneNumbers.phoneNumber, sql.placeholder('did')))
    .prepare(),
  user: db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare(),
}));

/** Looks the DID from Stasis(app, DID) up in phone_numbers and decides who answers. */
export function routeCall(db: Db, rawDid: string, now: Date): Route {
  // Trunks deliver +44…, 44… or a national 0… number; phone_numbers holds E.164.
  const did = storedNumber(rawDid);
  const { number: byDid, user: byId } = statements(db);
  const number = byDid.get({ did });
  const user = number?.userId != null ? byId.get({ id: number.userId }) : undefined;
  const decision = decideRoute(number, user, now);
  const owner: OwnerProfile | undefined = user
    ? { userId: user.id, businessName: user.businessName, callGreeting: user.callGreeting, voice: user.voicePreference }
    : undefined;
  return { did, decision, owner };
}
