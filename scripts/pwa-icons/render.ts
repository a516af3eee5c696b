// Draws the installable console's icons (console/public/icons/) from the favicon: `npx tsx
// scripts/pwa-icons/render.ts`. The PNGs are committed (a few KB), so a build needs no browser;
// run this again when console/public/favicon.svg changes. Debian's Chromium draws them.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const publicDir = path.join(root, 'console', 'public');
const favicon = fs.readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');
/** The favicon's own background: a maskable or Apple icon fills its whole square with it. */
const BRAND = '#4f46e5';

/**
 * `any` icons are the favicon as it is (its rounded square). Maskable and Apple icons are
 * full-bleed squares (the platform cuts its own shape) with the glyph inside the middle 60%,
 * well within the maskable safe zone (a circle of 80%: https://w3c.github.io/manifest/#icon-masks).
 */
const ICONS: { file: string; size: number; fullBleed: boolean }[] = [
  { file: 'icon-192.png', size: 192, fullBleed: false },
  { file: 'icon-512.png', size: 512, fullBleed: false },
  { file: 'maskable-512.png', size: 512, fullBleed: true },
  { file: 'apple-touch-icon-180.png', size: 180, fullBleed: true },
];

function page(size: number, fullBleed: boolean): string {
  const svg = fullBleed ? favicon.replace(/<rect[^>]*\/>/, '') : favicon;
  const glyph = fullBleed ? Math.round(size * 0.6) : size;
  const b64 = Buffer.from(svg).toString('base64');
  return `<!doctype html><html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${fullBleed ? BRAND : 'transparent'}">
<img src="data:image/svg+xml;base64,${b64}" width="${glyph}" height="${glyph}"></body></html>`;
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const outDir = path.join(publicDir, 'icons');
  fs.mkdirSync(outDir, { recursive: true });
  for (const icon of ICONS) {
    const p = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await p.setContent(page(icon.size, icon.fullBleed));
    await p.locator('img').evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    await p.screenshot({ path: path.join(outDir, icon.file), omitBackground: !icon.fullBleed });
    await p.close();
    console.log(`console/public/icons/${icon.file} (${icon.size}×${icon.size})`);
  }
} finally {
  await browser.close();
}
