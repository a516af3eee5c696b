import robotsParser from 'robots-parser';

// The site's robots.txt as the crawl obeys it (robots-parser: groups, wildcards, Allow before
// Disallow by length, as RFC 9309 says). What an unreadable robots.txt means is RFC 9309
// §2.3.1.3–4's: a 4xx (none there) allows everything, a 5xx or no answer means read nothing.

export interface RobotsRules {
  allowed(url: URL): boolean;
  /** The sitemaps robots.txt names (`Sitemap:` lines), as written. */
  sitemaps: string[];
}

// robots-parser's CommonJS export is the function itself; its typings call it a default export.
const parseRobots = robotsParser as unknown as typeof robotsParser.default;

export function robotsRules(robotsUrl: URL, text: string, userAgent: string): RobotsRules {
  const robots = parseRobots(robotsUrl.toString(), text);
  return {
    // robots-parser answers undefined for another origin: those the crawl never fetches anyway.
    allowed: (url) => robots.isAllowed(url.toString(), userAgent) !== false,
    sitemaps: robots.getSitemaps(),
  };
}

export const ALLOW_ALL: RobotsRules = { allowed: () => true, sitemaps: [] };

export const DISALLOW_ALL: RobotsRules = { allowed: () => false, sitemaps: [] };
