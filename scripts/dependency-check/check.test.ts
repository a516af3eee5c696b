import { describe, expect, it } from 'vitest';
import { productionFromLock, productionFromNpmLs, report, violations } from './check.js';
import { advisoryList, installedProductionTree, lockFile } from './sources.js';

const advisories = advisoryList();

// What ari-client 2.2.0 brought into the production tree before the core had its own events
// socket (issue 40), beside copies that are fine or only in development.
const plantedLock = {
  packages: {
    '': { name: 'call-answering-appliance', version: '0.1.0' },
    'node_modules/ari-client': { version: '2.2.0' },
    'node_modules/request': { version: '2.88.2', deprecated: 'request has been deprecated, see https://github.com/request/request/issues/3142' },
    'node_modules/ari-client/node_modules/form-data': { version: '2.3.3' },
    'node_modules/tough-cookie': { version: '2.5.0' },
    'node_modules/light-my-request/node_modules/form-data': { version: '4.0.6' },
    'node_modules/other/node_modules/form-data': { version: '4.0.3' },
    'node_modules/jar/node_modules/tough-cookie': { version: '4.1.3' },
    'node_modules/old-helper': { version: '1.0.0', deprecated: 'no longer maintained' },
    // Development only: not shipped, not refused.
    'node_modules/dev-tool/node_modules/request': { version: '2.88.2', dev: true },
    'node_modules/workspace-link': { link: true },
  },
};

describe('the production dependency check', () => {
  it('refuses every listed advisory and every deprecated package in a planted lock file, and nothing else', () => {
    const found = violations(productionFromLock(plantedLock), advisories);
    expect(found.map((v) => `${v.package}@${v.version} ${v.where} ${v.reason.split(':')[0]}`).sort()).toEqual(
      [
        'form-data@2.3.3 node_modules/ari-client/node_modules/form-data GHSA-fjxv-7rqg-78g4 (<2.5.4 || >=3.0.0 <3.0.4 || >=4.0.0 <4.0.4)',
        'form-data@4.0.3 node_modules/other/node_modules/form-data GHSA-fjxv-7rqg-78g4 (<2.5.4 || >=3.0.0 <3.0.4 || >=4.0.0 <4.0.4)',
        'old-helper@1.0.0 node_modules/old-helper deprecated',
        'request@2.88.2 node_modules/request GHSA-p8p7-x288-28g6 (*)',
        'request@2.88.2 node_modules/request deprecated',
        'tough-cookie@2.5.0 node_modules/tough-cookie GHSA-72xf-g2v4-qvf3 (<4.1.3)',
      ].sort(),
    );
    expect(report(found)).toMatch(/^production dependencies: 6 refused \(replace or upgrade the package, or the one that pulls it in: npm ls <name>\)\n {2}/);
  });

  it('reads the same from an npm ls tree, each copy once', () => {
    const tree = {
      dependencies: {
        'ari-client': {
          version: '2.2.0',
          dependencies: {
            request: { version: '2.88.2', dependencies: { 'tough-cookie': { version: '2.5.0' }, 'form-data': { version: '2.3.3' } } },
            'swagger-client': { version: '2.0.26', dependencies: { request: { version: '2.88.2' } } },
          },
        },
        fastify: { version: '5.0.0', dependencies: { 'light-my-request': { version: '6.8.1', dependencies: { 'form-data': { version: '4.0.6' } } } } },
      },
    };
    expect(violations(productionFromNpmLs(tree), advisories).map((v) => `${v.where}@${v.version}`)).toEqual([
      'ari-client > request@2.88.2',
      'ari-client > request > tough-cookie@2.5.0',
      'ari-client > request > form-data@2.3.3',
    ]);
  });

  it('keeps the three advisories issue 40 found', () => {
    expect(advisories.map((a) => [a.package, a.range])).toEqual([
      ['request', '*'],
      ['form-data', '<2.5.4 || >=3.0.0 <3.0.4 || >=4.0.0 <4.0.4'],
      ['tough-cookie', '<4.1.3'],
    ]);
  });

  // The gate itself: CI runs this on the committed lock file and the tree it installed from it.
  it('passes on this checkout: the lock file and the installed production tree', { timeout: 60_000 }, () => {
    const fromLock = productionFromLock(lockFile());
    expect(fromLock.length).toBeGreaterThan(50);
    expect(report(violations(fromLock, advisories))).toBe('production dependencies: no listed advisory, nothing deprecated');
    const installed = productionFromNpmLs(installedProductionTree());
    expect(installed.map((p) => p.name)).toContain('ws');
    expect(installed.map((p) => p.name)).not.toContain('ari-client');
    expect(report(violations(installed, advisories))).toBe('production dependencies: no listed advisory, nothing deprecated');
  });
});
