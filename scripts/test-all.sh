#!/usr/bin/env bash
# `npm test`: the checks, the build, every suite on SQLite, then the database-heavy ones again on
# PostgreSQL 15 (npm run test:postgres). Each step runs whatever the ones before it gave, so one
# run shows every failure (a failed SQLite run used to skip PostgreSQL's, and CI never saw it);
# only the two test runs wait for the build, whose output some tests start (node dist/…).
# Ends with one status line per step, and exits non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."

mkdir -p test-results
# The test runs' reports (vitest.config.ts): a run that does not get as far as writing its own
# must not leave an earlier run's for .ci/run's closing lines to read.
rm -f test-results/{vitest,postgres}{,-summary}.json

statuses=()
failed=0
step() {
  local name=$1
  shift
  echo "== npm test: $name"
  if "$@"; then
    statuses+=("$name: ok")
  else
    local code=$?
    statuses+=("$name: FAILED (exit $code)")
    failed=1
    return 1
  fi
}

step typecheck npm run typecheck
step lint npm run lint
step check:unused npm run check:unused
if step build npm run build; then
  step 'vitest (SQLite)' npx vitest run
  step 'test:postgres' npm run test:postgres
else
  statuses+=('vitest (SQLite): not run, the build failed' 'test:postgres: not run, the build failed')
fi

for s in "${statuses[@]}"; do echo "npm test: $s"; done
exit $failed
