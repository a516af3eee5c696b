import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { projectRoot } from '../config/paths.js';
import type { App } from './fastify-types.js';

/** Vite names every file under assets/ by its content hash: a new build never reuses a name. */
const HASHED_ASSETS = 'public, max-age=31536000, immutable';
/** The page that names the current chunks: revalidated on every visit, so an upgrade is seen at once. */
const HTML_NO_CACHE = 'no-cache';
/**
 * The installable console's worker and manifest (issue 54) are revalidated like the page: the
 * browser compares the worker byte for byte to find an upgrade, and an hour's cache of it would
 * keep a phone on the old build for that hour.
 */
const UNHASHED_APP_FILES = new Set(['service-worker.js', 'manifest.webmanifest']);
const OTHER_FILES = 'public, max-age=3600';
/** A request for a missing file of these kinds (a browser's /favicon.ico, a stale source map) is a 404, not the page. */
const FILE_PATH = /\.(js|mjs|css|map|ico|png|jpe?g|gif|svg|webp|woff2?|ttf|json|txt|xml|webmanifest|br|gz)$/i;

/** The Cache-Control of a built console file, by its path inside the build (a .br/.gz copy as its original). */
export function consoleCacheControl(relativePath: string): string {
  const file = relativePath.split(path.sep).join('/').replace(/\.(br|gz)$/, '');
  if (file.endsWith('.html') || UNHASHED_APP_FILES.has(file)) return HTML_NO_CACHE;
  if (file.startsWith('assets/')) return HASHED_ASSETS;
  return OTHER_FILES;
}

/**
 * Serves the built console with client-side routing: any page path that is not a file
 * gets index.html (the React router shows its 404 card), while unknown /api paths stay
 * JSON 404s and an unknown /assets/ file is a plain 404, never the HTML page: a browser
 * holding an old index.html after an upgrade must see its chunk fail to load (and reload),
 * not parse HTML as JavaScript. The build writes .br and .gz beside each text file
 * (console/precompress.ts); @fastify/static picks one by Accept-Encoding.
 */
export async function registerConsole(app: App, distDir = path.join(projectRoot(), 'console', 'dist')): Promise<void> {
  const index = path.join(distDir, 'index.html');
  const hasConsole = fs.existsSync(index);
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      preCompressed: true,
      // Set per file below; @fastify/static's own header would give index.html an hour.
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', consoleCacheControl(path.relative(distDir, filePath)));
      },
    });
  } else {
    app.log.warn({ distDir }, 'console is not built (npm run build:console); serving the API only');
  }
  app.setNotFoundHandler((req, reply) => {
    const urlPath = req.url.split('?')[0] ?? '';
    const isPage = hasConsole && (req.method === 'GET' || req.method === 'HEAD') && !urlPath.startsWith('/api/') && urlPath !== '/api';
    if (!isPage || urlPath.startsWith('/assets/') || FILE_PATH.test(urlPath)) {
      return reply.status(404).header('cache-control', 'no-store').send({ message: `No route for ${req.method} ${urlPath}` });
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
}
