import { describe, expect, it } from 'vitest';
import { loginPathFor, safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it('keeps a path on this site exactly, with its query', () => {
    expect(safeReturnPath('/dashboard?call=41')).toBe('/dashboard?call=41');
    expect(safeReturnPath('/dashboard/analytics')).toBe('/dashboard/analytics');
  });

  it('refuses anything that leaves the site or is not a path', () => {
    for (const bad of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', '/\t/evil.example', 'dashboard', 'javascript:alert(1)', '', null, undefined])
      expect(safeReturnPath(bad), String(bad)).toBeNull();
  });

  it('round-trips through the landing page address', () => {
    const next = new URL(loginPathFor('/dashboard?call=41'), 'http://x').searchParams.get('next');
    expect(safeReturnPath(next)).toBe('/dashboard?call=41');
  });
});
