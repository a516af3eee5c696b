// Call handling an owner controls (issue 16): the rules, and (store.ts) where they are kept.
export { decideHandling } from './decide.js';
export { defaultCallHandling } from './defaults.js';
export { periodAt } from './schedule.js';
export { isWithheldCaller } from '../../contract/withheld.js';
export { validateCallHandling, type CallHandlingInput, type TransferGuard } from './validate.js';
export { loadCallHandling, ownerDid, saveCallHandling, transferGuard } from './store.js';
