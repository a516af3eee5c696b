// npm run check:deps: the production dependency check on this checkout (the lock file and the
// installed tree), for CI's log and for whoever bumps a dependency. Exits 1 on a violation.
import { productionFromLock, productionFromNpmLs, report, violations } from './check.js';
import { advisoryList, installedProductionTree, lockFile } from './sources.js';

const advisories = advisoryList();
const found = [...violations(productionFromLock(lockFile()), advisories), ...violations(productionFromNpmLs(installedProductionTree()), advisories)];
console.log(report(found));
process.exitCode = found.length ? 1 : 0;
