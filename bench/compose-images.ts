// The compose stack's images: sizes and build times beside their budgets (issue 23).
// Building them takes a Docker engine, root and about ten minutes, so the figures are the
// ones `npm run test:compose` measured on this checkout (test-results/compose-figures.json);
// this prints them as bench rows with the date of that run, or says how to get them.
import fs from 'node:fs';
import path from 'node:path';
import { report } from './lib/report.js';

const file = path.resolve(import.meta.dirname, '..', 'test-results', 'compose-figures.json');

if (!fs.existsSync(file)) {
  console.log('No compose figures yet: run `npm run test:compose` (root, Debian docker.io, docker-compose, debootstrap) first.');
  report({ bench: 'compose', measure: 'images', value: 'not measured (run npm run test:compose)' });
} else {
  const f = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>;
  const when = fs.statSync(file).mtime.toISOString().slice(0, 16).replace('T', ' ');
  const rows: Array<[string, string, string, string?]> = [
    ['core adds to its Node base MB', 'core image: added to node:24-bookworm-slim', 'MB', '< 200 MB'],
    ['core image MB', 'core image in all', 'MB'],
    ['asterisk image MB', 'asterisk image in all', 'MB', '< 250 MB'],
    ['base images s', 'base images (debootstrap + Node)', 's'],
    ['asterisk build s', "asterisk image build (from source; in CI from the head start's cache)", 's'],
    ['core build s', "core image build (in CI from the head start's cache)", 's'],
    ['head start: base images s', 'CI head start at idle priority beside npm test: base images', 's'],
    ['head start: asterisk build s', 'CI head start at idle priority beside npm test: asterisk image build', 's'],
    ['head start: core build s', 'CI head start at idle priority beside npm test: core image build', 's'],
    ['head start: other images build s', 'CI head start at idle priority beside npm test: the other images', 's'],
    ['up until healthy s', 'docker compose up → all healthy', 's'],
    ['core rebuild (upgrade) s', 'upgrade: core rebuilt and healthy', 's'],
    ['kamailio image MB', 'cluster profile: kamailio image', 'MB'],
    ['postgres image MB', 'cluster profile: postgres image', 'MB'],
    ['cluster build s', 'cluster profile: build (asterisk-b, core-b from the cache)', 's'],
    ['cluster up until healthy s', 'cluster profile: up → all eight healthy', 's'],
    ['cluster calls s', 'cluster profile: 6 voicemail calls through Kamailio', 's'],
  ];
  for (const [key, measure, unit, budget] of rows) {
    if (f[key] === undefined) continue;
    report({ bench: 'compose', measure: `${measure} (test:compose run ${when} UTC)`, value: `${f[key]} ${unit}`, ...(budget ? { budget } : {}) });
  }
}
