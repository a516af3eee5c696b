import { DOMParser } from 'linkedom';
import type { DomDocument } from './dom.js';

// A sitemap as sitemaps.org defines it: a <urlset> of page <loc>s, or a <sitemapindex> of
// further sitemaps' <loc>s (the crawl follows an index one level deep). Parsed as XML by
// linkedom; a body that is not a sitemap gives nothing.

export interface SitemapEntries {
  pages: string[];
  sitemaps: string[];
}

export function sitemapEntries(xml: string): SitemapEntries {
  const entries: SitemapEntries = { pages: [], sitemaps: [] };
  let doc: DomDocument;
  try {
    doc = new DOMParser().parseFromString(xml, 'text/xml') as unknown as DomDocument;
  } catch {
    return entries;
  }
  const root = doc.documentElement;
  if (!root) return entries;
  const rootName = root.localName ?? root.tagName;
  const into = rootName === 'sitemapindex' ? entries.sitemaps : rootName === 'urlset' ? entries.pages : null;
  if (!into) return entries;
  for (const loc of Array.from(root.getElementsByTagName('loc'))) {
    const text = loc.textContent?.trim();
    if (text) into.push(text);
  }
  return entries;
}
