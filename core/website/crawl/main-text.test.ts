import { describe, expect, it } from 'vitest';
import { readPage } from './main-text.js';

const article = (extra = '') => `<!doctype html><html><head><title>Boiler servicing | Hartley Plumbing</title></head><body>
<nav><a href="/">Home</a> <a href="/prices">Prices</a></nav>
<article><h1>Boiler servicing</h1>
${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1}: a yearly boiler service keeps your heating safe and efficient, and most manufacturers need one to keep the warranty valid.</p>`).join('\n')}
<p>A boiler
   service costs   £85.</p></article>
<aside><a href="/offers">Offers</a></aside>${extra}
</body></html>`;

describe('a page’s main text', () => {
  it('keeps each paragraph a line of its own, with its whitespace folded', () => {
    const page = readPage(article());
    expect(page.title).toBe('Boiler servicing | Hartley Plumbing');
    const lines = page.text.split('\n');
    expect(lines).toContain('A boiler service costs £85.');
    expect(lines.filter((l) => l.startsWith('Paragraph '))).toHaveLength(6);
    expect(page.text).not.toContain('Offers');
    expect(page.links).toEqual(['/', '/prices', '/offers']);
    expect(page.needsJavaScript).toBe(false);
  });

  it('keeps the opening hours Readability drops: the footer, the address, a table of days', () => {
    const page = readPage(article(`<footer><p>Open Monday to Friday 8am to 6pm, Saturday 9am to 1pm.</p></footer>
<address>14 Kirkstall Road, Leeds LS3 1AA</address>
<div class="sidebar"><table><tr><th>Sunday</th><td>Closed</td></tr><tr><th>Monday</th><td>8am to 6pm</td></tr></table></div>
<table><tr><td>Gallery</td><td>Photos</td></tr></table>`));
    const lines = page.text.split('\n');
    expect(lines).toContain('Open Monday to Friday 8am to 6pm, Saturday 9am to 1pm.');
    expect(lines).toContain('14 Kirkstall Road, Leeds LS3 1AA');
    expect(lines).toContain('Sunday Closed');
    expect(lines).toContain('Monday 8am to 6pm');
    expect(page.text).not.toContain('Gallery');
  });

  it('reads a short page whole, without its menu', () => {
    const page = readPage('<html><head><title>Contact</title></head><body><nav><a href="/">Home</a></nav><h1>Contact us</h1><p>Call 0113 496 0123.</p></body></html>');
    expect(page.text).toBe('Contact us\nCall 0113 496 0123.');
  });

  it('a page that is only a script needs JavaScript; an empty one does not', () => {
    expect(readPage('<html><body><div id="root"></div><script src="/app.js"></script></body></html>')).toMatchObject({ text: '', needsJavaScript: true });
    expect(readPage('<html><body><noscript>Please enable JavaScript</noscript><script>boot()</script></body></html>').needsJavaScript).toBe(true);
    expect(readPage('<html><body></body></html>')).toMatchObject({ text: '', needsJavaScript: false });
  });
});
