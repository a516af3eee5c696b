// The core's routing rule, which the PBX applies to a DID's facts (CallPath.lookupDid): which
// flow a call gets, or why the number is not in service.
export { decideRoute, type RouteDecision, type UnavailableReason } from '../calls/routing-rules.js';
