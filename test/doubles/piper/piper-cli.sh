#!/bin/sh
# A double of Piper's CLI (rhasspy/piper 2023.11.14-2), for deploy/piper's server and image when
# no real voice can be fetched: its "voice" <name>.onnx is really a short WAV, which it writes as
# the sentence's audio, so a call hears real sound. Honours --model (needs <model>.json beside
# it), --output_file (text on stdin) and --json-input (one {"text","output_file"} line per
# sentence, the path printed when written, as Piper does). A sentence holding CRASH ends it; one
# holding LATE has its path printed while the file is still empty and written a moment after, as
# Piper can (main.cpp prints the path before its file stream is closed).
model=""; out=""; json=no
while [ $# -gt 0 ]; do
  case "$1" in
    --model|-m) model="$2"; shift 2 ;;
    --output_file|-f) out="$2"; shift 2 ;;
    --json-input) json=yes; shift ;;
    *) echo "piper double: unexpected argument $1" >&2; exit 2 ;;
  esac
done
if [ ! -f "$model" ] || [ ! -f "$model.json" ]; then
  echo "piper double: no model $model (or its .json)" >&2
  exit 1
fi
echo "piper double: loaded $model" >&2
# Each model load, for a test counting them.
if [ -n "${PIPER_DOUBLE_LOG:-}" ]; then echo "loaded $model" >> "$PIPER_DOUBLE_LOG"; fi
if [ "$json" = no ]; then
  cat >/dev/null
  cp "$model" "$out"
  exit 0
fi
while IFS= read -r line; do
  case "$line" in *CRASH*) echo "piper double: crashed on purpose" >&2; exit 4 ;; esac
  file=$(printf '%s\n' "$line" | sed -n 's/.*"output_file":"\([^"]*\)".*/\1/p')
  if [ -z "$file" ]; then
    echo "piper double: no output_file in $line" >&2
    exit 3
  fi
  case "$line" in
    *LATE*) : >"$file"; echo "$file"; sleep 0.3; cp "$model" "$file" ;;
    *) cp "$model" "$file"; echo "$file" ;;
  esac
done
