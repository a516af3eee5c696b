#!/bin/sh
# Trims what the runtime image copies from the build stage (deploy/core/Dockerfile), after
# `npm prune --omit=dev`: nothing here is loaded by Node at run time. Issue 60 item 6: the core
# image adds at most 200 MB to its Node base (test/compose/stack.test.ts measures it).
#   sh deploy/core/slim-runtime.sh      in /app, once node_modules holds production dependencies only
set -eu
cd "${1:-.}"

# Types, TypeScript sources, source maps and readmes: ~60 MB of the production dependencies
# (twilio's and stripe's .d.ts alone are ~30 MB). Node runs the .js/.cjs/.mjs beside them.
find node_modules -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' \
  -o -iname '*.md' -o -iname '*.markdown' \) -delete
# Packages' own test suites (~10 MB): the folder at a package's top only, never one inside its code.
for pkg in node_modules/* node_modules/@*/*; do
  [ -f "$pkg/package.json" ] || continue
  rm -rf "$pkg/test" "$pkg/tests" "$pkg/__tests__"
done

# Native addons: the binary for this machine is kept; other platforms' prebuilds and the C/C++
# sources (only for compiling one, which happened, or not, in the build stage) go.
arch=$(node -p process.arch)
sqlite=node_modules/better-sqlite3
if [ -d "$sqlite" ]; then
  find "$sqlite/prebuilds" -type f ! -name "linux-$arch.node" -delete 2>/dev/null || true
  rm -rf "$sqlite/deps" "$sqlite/src"
  # Compiled from source (no prebuild fitted): keep the addon, drop the objects beside it.
  if [ -d "$sqlite/build" ]; then
    find "$sqlite/build" -type f ! -name '*.node' -delete
  fi
fi
argon=node_modules/argon2
if [ -d "$argon/prebuilds" ]; then
  find "$argon/prebuilds" -mindepth 1 -maxdepth 1 -type d ! -name "linux-$arch" -exec rm -rf {} +
fi

# The project's own source maps (tsconfig.base.json's sourceMap, for the tests' stack traces).
find dist -type f -name '*.map' -delete
