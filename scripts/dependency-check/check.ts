import semver from 'semver';

// The production dependency check (issue 40): no package the appliance ships may carry a known
// advisory from the project's list (advisories.json) or be deprecated by its author. npm's
// audit endpoint does not answer from this network, hence the list. Pure: the lock file or
// `npm ls` tree comes in, the violations go out; check.test.ts plants some to see it fail.

export interface Advisory {
  package: string;
  /** A semver range of the vulnerable versions ("*" for every version). */
  range: string;
  id: string;
  why: string;
}

/** One installed copy of a package in the production tree. */
export interface InstalledPackage {
  name: string;
  version: string;
  /** Where it sits, e.g. node_modules/ari-client/node_modules/request (or the npm ls path). */
  where: string;
  /** The author's deprecation message, when npm recorded one. */
  deprecated?: string;
}

export interface Violation {
  package: string;
  version: string;
  where: string;
  reason: string;
}

export interface LockEntry {
  name?: string;
  version?: string;
  dev?: boolean;
  link?: boolean;
  deprecated?: string;
}

/**
 * The production packages of a package-lock.json (v2/v3): every entry npm would install with
 * `--omit=dev`. devOptional entries are kept: they are installed for production when a
 * production package wants them.
 */
export function productionFromLock(lock: { packages?: Record<string, LockEntry> }): InstalledPackage[] {
  const out: InstalledPackage[] = [];
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    if (where === '' || entry.dev || entry.link || !entry.version) continue;
    const name = entry.name ?? where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    out.push({ name, version: entry.version, where, ...(entry.deprecated ? { deprecated: entry.deprecated } : {}) });
  }
  return out;
}

export interface NpmLsNode {
  version?: string;
  deprecated?: string;
  dependencies?: Record<string, NpmLsNode>;
}

/** The packages of `npm ls --omit=dev --all --json`, each name@version once (npm lists a deduped copy again under every dependant). */
export function productionFromNpmLs(tree: NpmLsNode): InstalledPackage[] {
  const out: InstalledPackage[] = [];
  const seen = new Set<string>();
  const walk = (deps: Record<string, NpmLsNode> | undefined, path: string) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      const where = path ? `${path} > ${name}` : name;
      const key = `${name}@${node.version}`;
      if (node.version && !seen.has(key) && seen.add(key)) out.push({ name, version: node.version, where, ...(node.deprecated ? { deprecated: node.deprecated } : {}) });
      walk(node.dependencies, where);
    }
  };
  walk(tree.dependencies, '');
  return out;
}

export function violations(packages: InstalledPackage[], advisories: Advisory[]): Violation[] {
  const found: Violation[] = [];
  for (const p of packages) {
    for (const a of advisories) {
      if (a.package !== p.name) continue;
      // includePrerelease: a 2.5.4-beta is still before the fix.
      if (semver.satisfies(p.version, a.range, { includePrerelease: true })) {
        found.push({ package: p.name, version: p.version, where: p.where, reason: `${a.id} (${a.range}): ${a.why}` });
      }
    }
    if (p.deprecated) found.push({ package: p.name, version: p.version, where: p.where, reason: `deprecated: ${p.deprecated}` });
  }
  return found;
}

/** A line per violation, saying what to do. */
export function report(found: Violation[]): string {
  if (found.length === 0) return 'production dependencies: no listed advisory, nothing deprecated';
  return [
    `production dependencies: ${found.length} refused (replace or upgrade the package, or the one that pulls it in: npm ls <name>)`,
    ...found.map((v) => `  ${v.package}@${v.version} at ${v.where}: ${v.reason}`),
  ].join('\n');
}
