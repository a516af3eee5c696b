import { describe, expect, it } from 'vitest';
import { robotsRules } from './robots.js';
import { siteReaderUserAgent } from './site-rules.js';

const at = new URL('https://hartley-plumbing.example/robots.txt');
const ua = siteReaderUserAgent('https://box.example');
const allowed = (text: string, path: string) => robotsRules(at, text, ua).allowed(new URL(path, at));

describe('robots.txt as the crawl obeys it', () => {
  it('the rules for every robot', () => {
    const text = 'User-agent: *\nDisallow: /staff-only\nDisallow: /*.php$\n';
    expect(allowed(text, '/staff-only')).toBe(false);
    expect(allowed(text, '/staff-only/rota')).toBe(false);
    expect(allowed(text, '/old.php')).toBe(false);
    expect(allowed(text, '/prices')).toBe(true);
  });

  it('a group naming the product is the one it follows, whatever the version and the box in its name', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: CallKeeper-SiteReader\nDisallow: /private\n';
    expect(allowed(text, '/prices')).toBe(true);
    expect(allowed(text, '/private/notes')).toBe(false);
  });

  it('Allow wins when it is the longer match', () => {
    const text = 'User-agent: *\nDisallow: /services\nAllow: /services/boilers\n';
    expect(allowed(text, '/services/boilers')).toBe(true);
    expect(allowed(text, '/services/drains')).toBe(false);
  });

  it('an empty file allows everything, and Sitemap lines are kept', () => {
    expect(allowed('', '/anything')).toBe(true);
    expect(robotsRules(at, 'Sitemap: https://hartley-plumbing.example/sitemap_index.xml\n', ua).sitemaps).toEqual(['https://hartley-plumbing.example/sitemap_index.xml']);
  });
});
