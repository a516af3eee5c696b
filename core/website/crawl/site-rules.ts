// Which addresses belong to the owner's site, and when two spellings are one page: pure rules,
// decided before any request (the crawler in crawl-site.ts asks them for every link it meets).

/** Query parameters that only track a visit: the same page with or without them. */
const TRACKING = /^(utm_.*|fbclid|gclid|msclkid|mc_cid|mc_eid|_ga|ref)$/i;

/**
 * The address the owner typed, as the crawl starts from it: https whatever they wrote (the
 * crawl falls back to http only when https cannot connect), no fragment. Null when it is not a
 * web address at all.
 */
export function startAddress(typed: string): URL | null {
  const trimmed = typed.trim();
  if (!trimmed) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  // "mailto:…", "tel:…": another scheme, not a host ("example.co.uk:8080" is a host and its port).
  if (!hasScheme && /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `https://${trimmed}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!url.hostname) return null;
  url.protocol = 'https:';
  url.hash = '';
  url.username = '';
  url.password = '';
  return url;
}

/** `example.co.uk` ↔ `www.example.co.uk`: the one other name the same site goes by. */
export function wwwSibling(hostname: string): string {
  return hostname.startsWith('www.') ? hostname.slice(4) : `www.${hostname}`;
}

/** The port a URL connects to, its scheme's default spelled out (so http→https on defaults stays on site). */
const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');
const isDefaultPort = (url: URL) => url.port === '';

/** Whether `url` is on the site `site` starts at: that host or its www. sibling, on the same port, over http(s). */
export function onSite(url: URL, site: URL): boolean {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  const host = url.hostname.toLowerCase();
  const siteHost = site.hostname.toLowerCase();
  if (host !== siteHost && host !== wwwSibling(siteHost)) return false;
  return (isDefaultPort(url) && isDefaultPort(site)) || portOf(url) === portOf(site);
}

/**
 * One spelling per page, so a page is read once: the site's own scheme and host (the www.
 * sibling folded in), no fragment, no tracking parameters, the rest of the query sorted.
 * Null when the address is not on the site.
 */
export function pageKey(url: URL, site: URL): URL | null {
  if (!onSite(url, site)) return null;
  const key = new URL(url);
  key.protocol = site.protocol;
  key.hostname = site.hostname;
  key.port = site.port;
  key.hash = '';
  key.username = '';
  key.password = '';
  const params = [...key.searchParams].filter(([name]) => !TRACKING.test(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  key.search = new URLSearchParams(params).toString();
  return key;
}

/** What an address's extension says it is, when that is not a web page (its body is never fetched). */
export function notAPageByExtension(url: URL): 'pdf' | 'image' | 'file' | null {
  const ext = /\.([a-z0-9]{2,5})$/i.exec(url.pathname)?.[1]?.toLowerCase();
  if (!ext) return null;
  if (ext === 'pdf') return 'pdf';
  if (['jpg', 'jpeg', 'png', 'gif', 'webp', 'svg', 'avif', 'bmp', 'ico', 'tif', 'tiff', 'heic'].includes(ext)) return 'image';
  if (['zip', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'mp3', 'mp4', 'mov', 'avi', 'wav', 'css', 'js', 'json', 'xml', 'txt', 'csv', 'rar', 'gz', 'exe', 'dmg', 'woff', 'woff2', 'ttf'].includes(ext)) return 'file';
  return null;
}

/** What a content-type says it is, when that is not a page the crawl reads (HTML only). */
export function notAPageByType(contentType: string | null): 'pdf' | 'image' | 'file' | null {
  if (!contentType) return null;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml' || type === '') return null;
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('image/')) return 'image';
  return 'file';
}

/** The product's name to the sites it reads (robots.txt rules are matched on its first word). */
export function siteReaderUserAgent(publicUrl?: string | null): string {
  return publicUrl ? `CallKeeper-SiteReader/1 (+${publicUrl})` : 'CallKeeper-SiteReader/1';
}
