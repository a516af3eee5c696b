import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { projectRoot } from '../../core/config/paths.js';
import { startDockerd } from './dockerd.js';
import { PREBUILD_FIGURES, recordFigures } from './stack.js';

// One Docker engine for the whole compose run (`npm run test:compose`): the one-box stack
// (stack.test.ts) and the cluster profile (cluster.test.ts) build on the same engine, so the
// cluster's Asterisk and core images are the one-box's, taken from the build cache instead
// of compiled again. The base images are made here once for both.

declare module 'vitest' {
  export interface ProvidedContext {
    /** DOCKER_HOST of the test's engine. */
    dockerHost: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // This run's figures only (each test file adds its own).
  fs.rmSync(path.join(projectRoot(), 'test-results', 'compose-figures.json'), { force: true });
  // CI's head start built the images on this data root (prebuild.ts): its build times are this
  // run's, as the builds below come from its cache. Taken once, so a stale file is never reused.
  if (process.env.COMPOSE_TEST_DOCKER_ROOT && fs.existsSync(PREBUILD_FIGURES)) {
    recordFigures(JSON.parse(fs.readFileSync(PREBUILD_FIGURES, 'utf8')) as Record<string, number>);
  }
  fs.rmSync(PREBUILD_FIGURES, { force: true });
  const dockerd = await startDockerd();
  try {
    const t0 = performance.now();
    const r = spawnSync(path.join(projectRoot(), 'deploy', 'base-images', 'make-base-images.sh'), { env: dockerd.env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`make-base-images.sh failed:\n${r.stdout}\n${r.stderr}`);
    recordFigures({ 'base images s': Math.round((performance.now() - t0) / 100) / 10 });
    project.provide('dockerHost', dockerd.host);
  } catch (err) {
    await dockerd.stop();
    throw err;
  }
  return () => dockerd.stop();
}
