// Calls the appliance places to owners' phones (toll fraud, issue 24): which numbers it dials,
// for whom, and how many minutes a day.
export { outboundPermitNow, outboundRefusalNow } from './gate.js';
export { DEFAULT_OUTBOUND_POLICY, type OutboundPermit, type OutboundPolicy, type OutboundRefusal } from './permit.js';
export { outboundSince, recordOutboundCall, settleOutboundCall } from './store.js';
