#!/bin/sh
# Fetches one whisper.cpp GGML model at image build time and refuses it unless its SHA-256
# matches: the pinned hash below, or WHISPER_MODEL_SHA256 for a model not listed here.
# Usage: fetch-model.sh <model name, e.g. base> <dest dir>
set -eu
model="$1"
dest="$2"

# SHA-256 of the files under https://huggingface.co/ggerganov/whisper.cpp (ggml-<name>.bin).
case "$model" in
  tiny.en)  known=921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f ;;
  base.en)  known=a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002 ;;
  small.en) known=c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d ;;
  # Multilingual (issue 42). Not downloaded here (no network on the build machine): the hashes
  # are those many independent projects pin for these files (147,951,465 and 487,601,967 bytes),
  # consistent with the .en hashes above; a mismatch fails the build, never runs a wrong model.
  base)     known=60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe ;;
  small)    known=1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b ;;
  *)        known="" ;;
esac
sha="${WHISPER_MODEL_SHA256:-$known}"
if [ -z "$sha" ]; then
  echo "No SHA-256 is pinned for whisper model '$model': pass --build-arg WHISPER_MODEL_SHA256=<hash>." >&2
  exit 1
fi

mkdir -p "$dest"
file="$dest/ggml-$model.bin"
curl -fsSL --retry 3 -o "$file" "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-$model.bin"
if ! echo "$sha  $file" | sha256sum -c -; then
  echo "ggml-$model.bin does not match SHA-256 $sha: refusing it." >&2
  rm -f "$file"
  exit 1
fi
ln -sf "ggml-$model.bin" "$dest/model.bin"
