// The greeting rule lives in models/prompts/greeting.ts, where the console's preview (core) can use it too.
export { GENERIC_GREETING, businessGreeting, chooseGreeting } from '../../../models/prompts/greeting.js';
