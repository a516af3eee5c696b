import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { landingSize } from './landing-size.ts';
import { precompress } from './precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The installable console (issue 54): the web app manifest, and the service worker built from
 * src/sw/service-worker.ts with Workbox's precache list injected (registered by src/sw/register.ts).
 * index.html is not precached: every page comes from the box, so an upgrade is never hidden by
 * an old copy, and the offline page is only the fallback when the box does not answer.
 */
const installable = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'src/sw',
  filename: 'service-worker.ts',
  injectRegister: false,
  manifestFilename: 'manifest.webmanifest',
  manifest: {
    id: '/',
    name: 'CallKeeper',
    short_name: 'CallKeeper',
    description: 'Your calls, summaries and callers, from your call-answering box.',
    lang: 'en-GB',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    background_color: '#f8fafc',
    theme_color: '#4f46e5',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  injectManifest: {
    globPatterns: ['assets/**/*.{js,css,woff2,svg,png}', 'icons/*.png', 'favicon.svg', 'offline.html', 'offline.css'],
  },
});

// Built from the repository root (`npm run build:console`), so the root is pinned here.
export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), landingSize(), precompress(), installable],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
