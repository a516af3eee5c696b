import { describe, expect, it } from 'vitest';
import { normaliseSiteAddress } from './site-address.js';

// The typed address's check follows the crawl guard's test seam: a test's site on loopback can be
// saved when (and only when) the guard lets the crawl's requests reach it.
describe('normaliseSiteAddress and the guard seam', () => {
  it('refuses loopback by default, in the guard’s words', () => {
    expect(normaliseSiteAddress('http://127.0.0.1:8080')).toEqual({ error: '127.0.0.1 is a loopback address; only websites on the public internet can be read.' });
  });

  it('lets loopback through when the guard does, and nothing else it refuses', () => {
    expect(normaliseSiteAddress('http://127.0.0.1:8080', { allowLoopback: true })).toEqual({ url: 'http://127.0.0.1:8080/' });
    expect(normaliseSiteAddress('http://10.0.0.5/', { allowLoopback: true })).toEqual({ error: '10.0.0.5 is a private address; only websites on the public internet can be read.' });
  });

  it('asks a guard that names hosts about this one', () => {
    const onlyOne = { allowLoopback: (host: string) => host === '127.0.0.1' };
    expect(normaliseSiteAddress('http://127.0.0.1:8080', onlyOne)).toEqual({ url: 'http://127.0.0.1:8080/' });
    expect('error' in normaliseSiteAddress('http://[::1]/', onlyOne)).toBe(true);
  });
});
