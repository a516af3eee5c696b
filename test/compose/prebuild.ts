// CI's head start on the compose step (.ci/run runs it in the background beside `npm test`):
// every image the compose test builds (the base images, the one-box stack's and the cluster
// profile's) is built on an engine at idle CPU and I/O priority, into the data root named by
// COMPOSE_TEST_DOCKER_ROOT. The compose test then starts its engine on that data root and builds
// the same Dockerfiles from the same files, so every layer comes from the build cache and it
// spends its minutes on the stack, not on compiling Asterisk again. Nothing here is asserted:
// the compose test checks what it builds. Operators never need it.
//   COMPOSE_TEST_DOCKER_ROOT=/var/tmp/ck-root npx tsx test/compose/prebuild.ts
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';
import { startDockerd } from './dockerd.js';
import { prepareStack, PREBUILD_FIGURES } from './stack.js';

if (!process.env.COMPOSE_TEST_DOCKER_ROOT) {
  console.error('prebuild: set COMPOSE_TEST_DOCKER_ROOT to the data root the compose test will use');
  process.exit(2);
}

const figures: Record<string, number> = {};
const seconds = (t0: number) => Math.round((performance.now() - t0) / 100) / 10;
const dockerd = await startDockerd({ idle: true });
let failed = false;
try {
  let t0 = performance.now();
  const base = spawnSync(path.join(projectRoot(), 'deploy', 'base-images', 'make-base-images.sh'), { env: dockerd.env, encoding: 'utf8' });
  if (base.status !== 0) throw new Error(`make-base-images.sh failed:\n${base.stdout}\n${base.stderr}`);
  figures['head start: base images s'] = seconds(t0);
  // The cluster profile's services include the one box's, so one stack builds them all.
  const stack = await prepareStack(dockerd.host, { name: 'prebuild', extraEnv: { COMPOSE_PROFILES: 'cluster' } });
  try {
    for (const service of ['asterisk', 'core']) {
      t0 = performance.now();
      await stack.compose(['build', service]);
      figures[`head start: ${service} build s`] = seconds(t0);
    }
    t0 = performance.now();
    await stack.compose(['build']);
    figures['head start: other images build s'] = seconds(t0);
  } finally {
    fs.rmSync(stack.dir, { recursive: true, force: true });
  }
} catch (err) {
  failed = true;
  console.error(`prebuild: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await dockerd.stop();
}
fs.mkdirSync(path.dirname(PREBUILD_FIGURES), { recursive: true });
fs.writeFileSync(PREBUILD_FIGURES, JSON.stringify(figures, null, 2));
console.log(`prebuild: ${JSON.stringify(figures)}`);
process.exit(failed ? 1 : 0);
