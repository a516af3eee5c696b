import { describe, expect, it } from 'vitest';
import { consoleCacheControl } from './console-static.js';

describe('cache headers of the built console', () => {
  it('revalidates HTML every time and keeps content-hashed assets for a year, compressed copies alike', () => {
    expect(consoleCacheControl('index.html')).toBe('no-cache');
    expect(consoleCacheControl('index.html.br')).toBe('no-cache');
    expect(consoleCacheControl('assets/index-BseuRIKs.js')).toBe('public, max-age=31536000, immutable');
    expect(consoleCacheControl('assets/index-ByBTecvm.css.gz')).toBe('public, max-age=31536000, immutable');
  });

  it('gives files outside assets/ (not content-hashed) an hour', () => {
    expect(consoleCacheControl('robots.txt')).toBe('public, max-age=3600');
    expect(consoleCacheControl('favicon.svg')).toBe('public, max-age=3600');
  });

  it('revalidates the service worker and the web app manifest every time, so an upgrade reaches an installed console', () => {
    expect(consoleCacheControl('service-worker.js')).toBe('no-cache');
    expect(consoleCacheControl('manifest.webmanifest')).toBe('no-cache');
    expect(consoleCacheControl('manifest.webmanifest.br')).toBe('no-cache');
    expect(consoleCacheControl('icons/icon-192.png')).toBe('public, max-age=3600');
  });
});
