import { MAX_WEBHOOK_URL } from '../../contract/rules.js';

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * The shape rules for an owner's webhook URL, before any DNS: https only, a host, no
 * user:password part (it would travel in every request and show in the console).
 */
export function parseWebhookUrl(raw: string): UrlCheck {
  const text = raw.trim();
  if (text.length > MAX_WEBHOOK_URL) return { ok: false, message: 'Webhook URL must be at most 2,000 characters' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'Webhook URL is not a valid web address, e.g. https://hooks.zapier.com/hooks/catch/123/abc/' };
  }
  if (url.protocol !== 'https:') return { ok: false, message: 'Webhook URL must start with https://' };
  if (!url.hostname) return { ok: false, message: 'Webhook URL is not a valid web address, e.g. https://hooks.zapier.com/hooks/catch/123/abc/' };
  if (url.username || url.password) return { ok: false, message: 'Webhook URL must not contain a user name or password' };
  url.hash = '';
  return { ok: true, url };
}
