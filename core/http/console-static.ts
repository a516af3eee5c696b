import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { projectRoot } from '../config/paths.js';
import type { App } from './fastify-types.js';

/**
 * Serves the built console with client-side routing: any path that is not a
 * file gets index.html (the React router shows its 404 card), while unknown
 * /api paths stay JSON 404s.
 */
export async function registerConsole(app: App, distDir = path.join(projectRoot(), 'console', 'dist')): Promise<void> {
  const index = path.join(distDir, 'index.html');
  const hasConsole = fs.existsSync(index);
  if (hasConsole) {
    await app.register(fastifyStatic, { root: distDir, index: false, wildcard: false, maxAge: '1h' });
  } else {
    app.log.warn({ distDir }, 'console is not built (npm run build:console); serving the API only');
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.url === '/api' || !hasConsole || req.method !== 'GET') {
      return reply
        .status(404)
        .header('cache-control', 'no-store')
        .send({ message: `No route for ${req.method} ${req.url.split('?')[0]}` });
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
  });
}
