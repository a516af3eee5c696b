import { describe, expect, it } from 'vitest';
import { notAPageByExtension, notAPageByType, onSite, pageKey, siteReaderUserAgent, startAddress, wwwSibling } from './site-rules.js';

const site = new URL('https://hartley-plumbing.example/');

describe('the address the owner typed', () => {
  it.each([
    ['hartley-plumbing.example', 'https://hartley-plumbing.example/'],
    ['  www.hartley-plumbing.example/prices  ', 'https://www.hartley-plumbing.example/prices'],
    ['http://hartley-plumbing.example/', 'https://hartley-plumbing.example/'],
    ['hartley-plumbing.example:8080', 'https://hartley-plumbing.example:8080/'],
    ['HTTPS://Hartley-Plumbing.example/#top', 'https://hartley-plumbing.example/'],
  ])('%s is read from %s', (typed, start) => {
    expect(startAddress(typed)?.href).toBe(start);
  });

  it.each(['', 'ftp://hartley-plumbing.example/', 'mailto:james@hartley-plumbing.example', 'http://'])('%j is not a website address', (typed) => {
    expect(startAddress(typed)).toBeNull();
  });
});

describe('what is on the site', () => {
  it('its host and its www. sibling, either scheme', () => {
    expect(wwwSibling('hartley-plumbing.example')).toBe('www.hartley-plumbing.example');
    expect(wwwSibling('www.hartley-plumbing.example')).toBe('hartley-plumbing.example');
    expect(onSite(new URL('http://www.hartley-plumbing.example/areas'), site)).toBe(true);
    expect(onSite(new URL('https://HARTLEY-PLUMBING.example/faq'), site)).toBe(true);
  });

  it.each([
    'https://shop.hartley-plumbing.example/',
    'https://hartley-plumbing.example.evil.example/',
    'https://www.www.hartley-plumbing.example/',
    'https://hartley-plumbing.example:8443/',
    'https://facebook.com/hartleyplumbing',
    'ftp://hartley-plumbing.example/',
  ])('not %s', (address) => {
    expect(onSite(new URL(address), site)).toBe(false);
  });

  it('a port is part of the site when one was given', () => {
    const local = new URL('http://127.0.0.1:8080/');
    expect(onSite(new URL('http://127.0.0.1:8080/prices'), local)).toBe(true);
    expect(onSite(new URL('http://127.0.0.1:8081/prices'), local)).toBe(false);
    expect(onSite(new URL('http://127.0.0.2:8080/'), local)).toBe(false);
  });
});

describe('one spelling per page', () => {
  it('folds the fragment, tracking parameters, the www. sibling and the query order', () => {
    const spellings = [
      'https://hartley-plumbing.example/prices',
      'https://hartley-plumbing.example/prices#boilers',
      'https://www.hartley-plumbing.example/prices?utm_source=facebook&utm_medium=social',
      'http://hartley-plumbing.example/prices?fbclid=abc',
    ];
    expect(new Set(spellings.map((s) => pageKey(new URL(s), site)?.href))).toEqual(new Set(['https://hartley-plumbing.example/prices']));
    expect(pageKey(new URL('https://hartley-plumbing.example/search?b=2&a=1'), site)?.href).toBe('https://hartley-plumbing.example/search?a=1&b=2');
    // A query that picks the content is another page.
    expect(pageKey(new URL('https://hartley-plumbing.example/job?id=2'), site)?.href).not.toBe(pageKey(new URL('https://hartley-plumbing.example/job?id=3'), site)?.href);
    expect(pageKey(new URL('https://elsewhere.example/prices'), site)).toBeNull();
  });
});

describe('what is not a page', () => {
  it('by extension (its body never fetched)', () => {
    expect(notAPageByExtension(new URL('https://h.example/brochure.PDF'))).toBe('pdf');
    expect(notAPageByExtension(new URL('https://h.example/van.jpg'))).toBe('image');
    expect(notAPageByExtension(new URL('https://h.example/form.docx'))).toBe('file');
    expect(notAPageByExtension(new URL('https://h.example/prices'))).toBeNull();
    expect(notAPageByExtension(new URL('https://h.example/prices.html'))).toBeNull();
    expect(notAPageByExtension(new URL('https://h.example/index.php'))).toBeNull();
  });

  it('by content-type', () => {
    expect(notAPageByType('application/pdf')).toBe('pdf');
    expect(notAPageByType('image/png')).toBe('image');
    expect(notAPageByType('application/zip')).toBe('file');
    expect(notAPageByType('text/html; charset=utf-8')).toBeNull();
    expect(notAPageByType(null)).toBeNull();
  });
});

it('names the product, and the box when it has a public address', () => {
  expect(siteReaderUserAgent()).toBe('CallKeeper-SiteReader/1');
  expect(siteReaderUserAgent('https://calls.hartley-plumbing.example')).toBe('CallKeeper-SiteReader/1 (+https://calls.hartley-plumbing.example)');
});
