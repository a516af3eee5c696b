import { describe, expect, it } from 'vitest';
import { RELOAD_WINDOW_MS, claimReload, isChunkLoadError } from './chunk-reload';

function memoryStore() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

describe('chunk load failures', () => {
  it('recognises the failed-import messages of Chromium, Firefox and Safari, and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/A-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://x/assets/A-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/A-1.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads once, not again within the window, and again for a later upgrade', () => {
    const store = memoryStore();
    const t0 = 1_000_000;
    expect(claimReload(t0, store)).toBe(true);
    expect(claimReload(t0 + 5_000, store)).toBe(false);
    expect(claimReload(t0 + RELOAD_WINDOW_MS - 1, store)).toBe(false);
    expect(claimReload(t0 + RELOAD_WINDOW_MS + 1, store)).toBe(true);
  });

  it('treats an unreadable mark as no reload yet', () => {
    const store = memoryStore();
    store.setItem('chunk-reload-at', 'garbage');
    expect(claimReload(5, store)).toBe(true);
  });
});
