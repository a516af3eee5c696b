import { describe, expect, it } from 'vitest';
import { sitemapEntries } from './sitemap.js';

describe('a sitemap', () => {
  it('a urlset gives pages', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://h.example/</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc>
    https://h.example/prices
  </loc></url>
</urlset>`;
    expect(sitemapEntries(xml)).toEqual({ pages: ['https://h.example/', 'https://h.example/prices'], sitemaps: [] });
  });

  it('an index gives sitemaps', () => {
    const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://h.example/page-sitemap.xml</loc></sitemap></sitemapindex>`;
    expect(sitemapEntries(xml)).toEqual({ pages: [], sitemaps: ['https://h.example/page-sitemap.xml'] });
  });

  it.each(['', 'not xml at all', '<!doctype html><html><body><a href="/x">x</a></body></html>', '<rss><channel><item><loc>https://h.example/</loc></item></channel></rss>'])('%j gives nothing', (body) => {
    expect(sitemapEntries(body)).toEqual({ pages: [], sitemaps: [] });
  });
});
