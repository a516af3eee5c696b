import type { Config } from './config.js';

/**
 * The box's operator as an owner is told to contact them: SUPPORT_NAME and SUPPORT_EMAIL,
 * the same help contact the console and e-mails show, so "your operator" is never a stranger.
 */
export function operatorContact(support: Config['support']): string {
  return `${support.name} (${support.email})`;
}
