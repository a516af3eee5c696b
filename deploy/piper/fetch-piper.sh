#!/bin/sh
# Fetches Piper's release and its voices at image build and refuses any file whose SHA-256 is
# not the one pinned in voices.sha256 (or given in PIPER_SHA256): the file is removed and the
# build fails, naming it. Nothing is downloaded when the container runs.
# Usage: fetch-piper.sh <voices.sha256> <piper dir> <voices dir>
# Env: PIPER_RELEASE_URL, PIPER_VOICES_URL (base URLs), TARGETARCH (amd64, arm64),
#      PIPER_SHA256 ("name=sha256 name=sha256", spaces or commas between: pins or replaces
#      the hash of those files).
set -eu
list="$1"
piper_dir="$2"
voices_dir="$3"
arch="${TARGETARCH:-amd64}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The hash PIPER_SHA256 gives a file, if it gives one.
override() {
  for pair in $(printf '%s' "${PIPER_SHA256:-}" | tr ',' ' '); do
    case "$pair" in "$1="*) echo "${pair#*=}"; return ;; esac
  done
}

# fetch <url> <dest file> <sha256> <name>
fetch() {
  if ! curl -fsSL --retry 3 -o "$2" "$1"; then
    echo "Could not fetch $4 from $1: check PIPER_RELEASE_URL / PIPER_VOICES_URL and the network." >&2
    exit 1
  fi
  if ! echo "$3  $2" | sha256sum -c - >/dev/null 2>&1; then
    echo "$4 does not match its pinned SHA-256 $3 (got $(sha256sum "$2" | cut -d' ' -f1)): refusing it. A changed file upstream, or a wrong pin: check deploy/piper/voices.sha256." >&2
    rm -f "$2"
    exit 1
  fi
  echo "$4: SHA-256 ok"
}

mkdir -p "$piper_dir" "$voices_dir"
release_found=no
skipped=""
# The list's lines: kind sha256 name path (comments and blank lines skipped).
grep -v '^[[:space:]]*\(#\|$\)' "$list" > "$work/list"
while read -r kind sha name rel; do
  pinned=$(override "$name")
  [ -n "$pinned" ] && sha="$pinned"
  case "$kind" in
    release-"$arch")
      release_found=yes
      [ "$sha" != "-" ] || { echo "No SHA-256 is pinned for $name: pass PIPER_SHA256=\"$name=<hash>\"." >&2; exit 1; }
      fetch "${PIPER_RELEASE_URL%/}/$rel" "$work/$name" "$sha" "$name"
      # The release's top folder is piper/: its binary, libraries and espeak-ng-data.
      tar -xzf "$work/$name" -C "$piper_dir" --strip-components=1
      ;;
    release-*) ;;
    voice)
      if [ "$sha" = "-" ]; then
        skipped="$skipped $name"
        continue
      fi
      fetch "${PIPER_VOICES_URL%/}/$rel" "$voices_dir/$name" "$sha" "$name"
      ;;
    *) echo "voices.sha256: unknown kind '$kind' on the line for $name" >&2; exit 1 ;;
  esac
done < "$work/list"
[ "$release_found" = yes ] || { echo "voices.sha256 lists no Piper release for TARGETARCH=$arch" >&2; exit 1; }
[ -x "$piper_dir/piper" ] || { echo "The Piper release holds no piper/piper binary" >&2; exit 1; }
if [ -n "$skipped" ]; then
  echo "WARNING: left out, no SHA-256 pinned (their languages are spoken by espeak-ng):$skipped" >&2
fi
# A voice is its model and its config: one without the other is removed, never half-installed.
for model in "$voices_dir"/*.onnx; do
  [ -e "$model" ] || continue
  [ -f "$model.json" ] || { echo "WARNING: $(basename "$model") has no config; left out" >&2; rm -f "$model"; }
done
for config in "$voices_dir"/*.onnx.json; do
  [ -e "$config" ] || continue
  [ -f "${config%.json}" ] || { echo "WARNING: $(basename "$config") has no model; left out" >&2; rm -f "$config"; }
done
echo "Voices installed: $(cd "$voices_dir" && ls -1 -- *.onnx 2>/dev/null | sed 's/\.onnx$//' | tr '\n' ' ')"
