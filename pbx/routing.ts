import { storedNumber } from '../contract/phone.js';
import type { CallPath } from '../core/ports/call-path.js';
import { decideRoute, type RouteDecision } from '../core/ports/call-routing.js';
import type { OwnerProfile } from './flows/types.js';

export interface Route {
  did: string;
  decision: RouteDecision;
  owner?: OwnerProfile;
}

/** Looks the DID from Stasis(app, DID) up in phone_numbers and decides who answers. */
export async function routeCall(callPath: Pick<CallPath, 'lookupDid'>, rawDid: string, now: Date): Promise<Route> {
  // Trunks deliver +44…, 44… or a national 0… number; phone_numbers holds E.164.
  const did = storedNumber(rawDid);
  const { number, owner: user } = await callPath.lookupDid(did);
  const decision = decideRoute(number, user, now);
  const owner: OwnerProfile | undefined = user
    ? { userId: user.id, businessName: user.businessName, callGreeting: user.callGreeting, voice: user.voice, knowledgeBase: user.knowledgeBase, industry: user.industry, languages: user.agentLanguages, greetingLanguages: user.greetingLanguages, languageVoices: user.languageVoices, greetingRecordings: user.greetingRecordings }
    : undefined;
  return { did, decision, owner };
}
