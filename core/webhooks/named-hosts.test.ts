import { describe, expect, it } from 'vitest';
import { canonicalHost, isNamedHost } from './named-hosts.js';

describe('canonicalHost: the operator\'s named hosts as the guard compares them', () => {
  it.each([
    ['nas.lan', 'nas.lan'],
    [' NAS.Lan. ', 'nas.lan'],
    ['radicale', 'radicale'],
    ['192.168.1.20', '192.168.1.20'],
    ['[::1]', '0:0:0:0:0:0:0:1'],
    ['fd00::0:5', 'fd00:0:0:0:0:0:0:5'],
  ])('%j → %j', (raw, canonical) => {
    expect(canonicalHost(raw)).toBe(canonical);
  });

  it.each(['nas.lan:5232', 'https://nas.lan/', '10.0.0.0/8', '*.lan', '127.1', '2130706433', '0x7f000001', 'a b', '', '-nas.lan'])('%j is refused', (raw) => {
    expect(canonicalHost(raw)).toBeNull();
  });
});

describe('isNamedHost: a URL host against the named list', () => {
  const named = ['nas.lan', '192.168.1.20', '0:0:0:0:0:0:0:1'];
  it.each([
    [new URL('https://NAS.lan/dav/').hostname, true],
    [new URL('https://nas.lan./dav/').hostname, true],
    [new URL('http://192.168.1.20:5232/').hostname, true],
    // URL writes 192.168.1.20 however it was typed, so every spelling of a named address matches it.
    [new URL('http://3232235796/').hostname, true],
    [new URL('http://[::1]:5232/').hostname, true],
    [new URL('http://[0:0::1]/').hostname, true],
    [new URL('https://other.lan/').hostname, false],
    [new URL('https://nas.lan.evil.example/').hostname, false],
    [new URL('http://192.168.1.21/').hostname, false],
  ])('%s → %s', (host, expected) => {
    expect(isNamedHost(host, named)).toBe(expected);
  });

  it('nothing is named by default', () => {
    expect(isNamedHost('localhost', [])).toBe(false);
  });
});
