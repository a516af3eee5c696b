import { eq } from 'drizzle-orm';
import { decideRoute, normaliseDid, type RouteDecision } from '../core/calls/routing-rules.js';
import type { Db } from '../core/db/client.js';
import { phoneNumbers, users } from '../core/db/schema.js';
import type { OwnerProfile } from './flows/types.js';

export interface Route {
  did: string;
  decision: RouteDecision;
  owner?: OwnerProfile;
}

/** Looks the DID from Stasis(app, DID) up in phone_numbers and decides who answers. */
export function routeCall(db: Db, rawDid: string, now: Date): Route {
  const did = normaliseDid(rawDid);
  const number = db.select().from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, did)).get();
  const user = number?.userId != null ? db.select().from(users).where(eq(users.id, number.userId)).get() : undefined;
  const decision = decideRoute(number, user, now);
  const owner: OwnerProfile | undefined = user
    ? { userId: user.id, businessName: user.businessName, callGreeting: user.callGreeting, voice: user.voicePreference }
    : undefined;
  return { did, decision, owner };
}
