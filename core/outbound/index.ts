// Calls the appliance places to owners' phones (toll fraud, issue 24): which numbers it dials,
// for whom, and how many minutes a day.
export { dialRefusal, type OutboundAllowList } from './dialable.js';
export { outboundRefusalNow } from './gate.js';
export { DEFAULT_OUTBOUND_POLICY, outboundRefusal, type OutboundPolicy, type OutboundRefusal } from './permit.js';
export { londonToday, outboundSecondsToday, outboundSince, recordOutboundCall } from './store.js';
