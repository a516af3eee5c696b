// Call handling an owner controls (issue 16): the rules, and (store.ts) where they are kept.
export { decideHandling, takesMessageOnly } from './decide.js';
export { defaultCallHandling } from './defaults.js';
export { loadCallHandling, ownerDid, saveCallHandling } from './store.js';
