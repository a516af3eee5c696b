// A plumber's website on loopback, for the tests that read a site (the crawler's, the website
// service's end to end, the console e2e, the bench). Test traffic only: the product's guard refuses
// loopback, so a crawl of it needs the test seam `guard: { allowLoopback: true }`.
//
//   const site = await startFixtureSite();        // http://127.0.0.1:<free port>
//   site.url                                       // 'http://127.0.0.1:41234' (no trailing slash)
//   site.set('/prices', html)                      // change a page (a second crawl sees it)
//   site.answer('/', { status: 403 })              // any answer: status, body, content type, headers
//   site.requests('/staff-only')                   // how many times a path was asked for (0 = never fetched)
//   site.otherHostRequests()                       // requests that reached the other host (127.0.0.2)
//   await site.close();
//
// What it serves ("Hartley Plumbing", Leeds):
//   /             home: what they do, links to every page below; opening hours in the <footer>
//                 ("Monday to Friday 8am to 6pm, Saturday 9am to 1pm")
//   /prices       boiler service £85, call-out £60, …  (reached as /prices#boilers and ?utm_… too)
//   /areas        Leeds, Horsforth, Headingley, Otley
//   /faq          parking, what to have ready; links to /old-page (404)
//   /about        listed only in the sitemap (no page links to it)
//   /staff-only   disallowed by robots.txt (a crawl must never fetch it)
//   /old-site     301 to another host, http://127.0.0.2:<port>/ (a crawl must not follow it)
//   /big          10 MB of HTML, its text at the top (cut at 2 MB)
//   /book-online  only a script (needs JavaScript)
//   /brochure.pdf a PDF by its extension;  /price-list  a PDF by its content-type only
//   /robots.txt   names the sitemap;  /sitemap.xml  an index of /sitemap-pages.xml
//   { extraPages: n }  adds /notes/1 … /notes/n to the sitemap (a site of 200+ pages for the bench)
//   { canonicalHost: 'hartley.test' }  a request naming any other Host is sent there by a 301 (as a
//                 site sends www. to its bare name); reach the names through the guard's `resolver` seam
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface FixtureAnswer {
  status?: number;
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface FixtureSite {
  /** The site's address, `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** The other host /old-site redirects to (`http://127.0.0.2:<port>`). */
  otherHostUrl: string;
  /** Serve `html` at `path` from now on (text/html, 200). */
  set(path: string, html: string): void;
  /** Serve any answer at `path` from now on. */
  answer(path: string, answer: FixtureAnswer): void;
  /** Requests that asked for `path` (query and all ignored), since the start. */
  requests(path: string): number;
  /** Every request, in order: path, Host and User-Agent it came with, when it arrived (epoch ms). */
  log(): { path: string; host: string; userAgent: string; at: number }[];
  /** The most requests that were ever in progress at once (1 = one at a time). */
  mostAtOnce(): number;
  otherHostRequests(): number;
  close(): Promise<void>;
}

const page = (title: string, body: string, footer = '') =>
  `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>${title}</title></head><body>` +
  `<nav><a href="/">Home</a> <a href="/prices">Prices</a> <a href="/areas">Areas we cover</a> <a href="/faq">FAQ</a></nav>` +
  `<main>${body}</main><footer>${footer}<p>Hartley Plumbing, 14 Kirkstall Road, Leeds LS3 1AA. Phone 0113 496 0123.</p></footer></body></html>`;

export const HOURS_SENTENCE = 'Opening hours: Monday to Friday 8am to 6pm, Saturday 9am to 1pm.';

export function pricesPage(boilerService = '£85'): string {
  return page('Prices | Hartley Plumbing', `<h1>Our prices</h1>
<p>We keep our prices simple and tell you the cost before we start any work.</p>
<h2 id="boilers">Boilers</h2>
<p>A boiler service costs ${boilerService}, including the flue gas check and a written report.</p>
<p>The call-out charge is £60, which includes the first half hour of work.</p>
<p>After the first half hour we charge £45 an hour, in quarter-hour steps.</p>
<p>A Gas Safe landlord certificate costs £70.</p>`);
}

function fixturePages(url: string, otherHostUrl: string, extraPages: number): Map<string, FixtureAnswer> {
  const html = (body: string): FixtureAnswer => ({ body, contentType: 'text/html; charset=utf-8' });
  const notes = Array.from({ length: extraPages }, (_, i) => `/notes/${i + 1}`);
  const pages = new Map<string, FixtureAnswer>([
    ['/', html(page('Hartley Plumbing | Plumbers in Leeds', `<h1>Hartley Plumbing</h1>
<p>Hartley Plumbing is a family firm of plumbers and heating engineers in Leeds, fixing boilers, leaks and bathrooms since 1998.</p>
<p>All our engineers are Gas Safe registered, and we answer the phone ourselves.</p>
<ul><li><a href="/prices">Our prices</a></li><li><a href="/prices#boilers">Boiler servicing</a></li><li><a href="/prices?utm_source=home">Price list</a></li>
<li><a href="/areas">Areas we cover</a></li><li><a href="/faq">Questions people ask</a></li>
<li><a href="/staff-only">Staff rota</a></li><li><a href="/old-site">Our old website</a></li>
<li><a href="/big">Our story</a></li><li><a href="/book-online">Book online</a></li>
<li><a href="/brochure.pdf">Our brochure (PDF)</a></li><li><a href="/price-list">Printable price list</a></li>
<li><a href="mailto:jobs@hartley-plumbing.example">E-mail us</a></li><li><a href="https://www.facebook.com/hartleyplumbing">Facebook</a></li></ul>`,
      `<p>${HOURS_SENTENCE}</p>`))],
    ['/prices', html(pricesPage())],
    ['/areas', html(page('Areas we cover | Hartley Plumbing', `<h1>Areas we cover</h1>
<p>We cover Leeds, Horsforth, Headingley and Otley.</p>
<p>Outside these areas we may still help: ask us when you call.</p>`))],
    ['/faq', html(page('Questions people ask | Hartley Plumbing', `<h1>Questions people ask</h1>
<h2>Do you need parking?</h2><p>Yes: please keep a space free on your drive or in the street for our van.</p>
<h2>What should I have ready?</h2><p>Please have your boiler's make and model ready, and clear the area around it before we arrive.</p>
<p>Looking for our old leaflet? <a href="/old-page">It used to be here</a>.</p>`))],
    ['/about', html(page('About us | Hartley Plumbing', `<h1>About us</h1><p>James Hartley started the business in 1998 after twelve years with Yorkshire Water.</p>`))],
    ['/staff-only', html(page('Staff rota', '<p>The rota for next week.</p>'))],
    ['/old-site', { status: 301, headers: { location: `${otherHostUrl}/` }, body: '' }],
    ['/big', html(`<!doctype html><html><head><title>Our story | Hartley Plumbing</title></head><body><main><h1>Our story</h1>
<p>James Hartley fixed his first boiler in Horsforth in 1998, and the firm has grown to six engineers since.</p></main>
<img alt="" src="data:image/png;base64,${'A'.repeat(10 * 1024 * 1024)}"></body></html>`)],
    ['/book-online', html(`<!doctype html><html><head><title>Book online</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>`)],
    ['/brochure.pdf', { body: '%PDF-1.4 a brochure', contentType: 'application/pdf' }],
    ['/price-list', { body: '%PDF-1.4 a price list', contentType: 'application/pdf' }],
    ['/robots.txt', { body: `User-agent: *\nDisallow: /staff-only\n\nSitemap: ${url}/sitemap.xml\n`, contentType: 'text/plain' }],
    ['/sitemap.xml', { contentType: 'application/xml', body: `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${url}/sitemap-pages.xml</loc></sitemap></sitemapindex>` }],
    ['/sitemap-pages.xml', { contentType: 'application/xml', body: `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', '/prices', '/areas', '/faq', '/about', ...notes].map((p) => `<url><loc>${url}${p}</loc></url>`).join('')}</urlset>` }],
  ]);
  notes.forEach((p, i) => pages.set(p, html(page(`Note ${i + 1} | Hartley Plumbing`, `<h1>Note ${i + 1}</h1><p>Plumbing note number ${i + 1}: how to bleed a radiator, check the boiler pressure and find your stopcock before you call us.</p>`))));
  return pages;
}

function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startFixtureSite(opts: { extraPages?: number; canonicalHost?: string } = {}): Promise<FixtureSite> {
  const counts = new Map<string, number>();
  const log: { path: string; host: string; userAgent: string; at: number }[] = [];
  let inProgress = 0;
  let mostAtOnce = 0;
  let otherHost = 0;
  let pages = new Map<string, FixtureAnswer>();

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fixture').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    log.push({ path, host: req.headers.host ?? '', userAgent: req.headers['user-agent'] ?? '', at: Date.now() });
    inProgress++;
    mostAtOnce = Math.max(mostAtOnce, inProgress);
    res.on('close', () => { inProgress--; });
    // A reader that stops at its byte cap closes the connection mid-body: not the fixture's error.
    res.on('error', () => {});
    const canonical = opts.canonicalHost && `${opts.canonicalHost}:${port}`;
    const answer = canonical && req.headers.host !== canonical ? { status: 301, headers: { location: `http://${canonical}${req.url ?? '/'}` } } : pages.get(path) ?? { status: 404, body: page('Not found', '<p>Sorry, there is no page here.</p>'), contentType: 'text/html' };
    res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'text/html; charset=utf-8', ...answer.headers });
    res.end(answer.body ?? '');
  });
  const other = http.createServer((_req, res) => {
    otherHost++;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><body><p>Another business entirely.</p></body></html>');
  });
  const port = await listen(server, '127.0.0.1');
  const otherPort = await listen(other, '127.0.0.2');
  const url = `http://127.0.0.1:${port}`;
  const otherHostUrl = `http://127.0.0.2:${otherPort}`;
  pages = fixturePages(url, otherHostUrl, opts.extraPages ?? 0);

  const closeServer = (s: http.Server) => new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()); });
  return {
    url,
    otherHostUrl,
    set: (path, html) => { pages.set(path, { body: html, contentType: 'text/html; charset=utf-8' }); },
    answer: (path, answer) => { pages.set(path, answer); },
    requests: (path) => counts.get(path) ?? 0,
    log: () => [...log],
    mostAtOnce: () => mostAtOnce,
    otherHostRequests: () => otherHost,
    close: async () => { await Promise.all([closeServer(server), closeServer(other)]); },
  };
}
