#!/bin/sh
# Makes the built-in sounds the appliance plays without its TTS engine, into OUT_DIR
# (the image's sounds/en): the record beep, the dialplan's "core unavailable" message and
# the flows' fallbacks when a prompt cannot be synthesised (dialogue/spoken/ names
# them). No Asterisk sound pack is installed, so every sound a flow or the dialplan asks
# for must be made here; test/pbx-real checks that each one exists.
#   sounds.sh OUT_DIR        needs espeak-ng and sox
set -eu
out=$1
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 8 kHz mono signed 16-bit: what Asterisk plays on a G.711 trunk without transcoding work.
speak() {
  espeak-ng -v en-gb+f3 -s 150 -w "$tmp/$1.raw.wav" "$2"
  sox "$tmp/$1.raw.wav" -r 8000 -c 1 -b 16 -e signed-integer "$out/$1.wav"
}

sox -n -r 8000 -c 1 -b 16 -e signed-integer "$out/beep.wav" synth 0.25 sine 1000 vol 0.5
speak appliance-unavailable "Sorry, we can't take your call right now. Please try again in a few minutes. Goodbye."
speak appliance-greeting "Thank you for calling. We can't take your call right now. For quality purposes, this call is being recorded. Please leave your name, number and message after the tone."
speak appliance-goodbye "Thank you for calling. Goodbye."
speak appliance-refused "Sorry, we can't take your call. Goodbye."
speak appliance-withheld-refused "Sorry, we don't take calls from withheld numbers. Please call again without withholding your number. Goodbye."
speak appliance-putting-through "Let me try to put you through."
speak appliance-cannot-take-call "Sorry, they can't take your call right now."
speak appliance-briefing "You have a call from the answering service. Press 1 to take it, or 2 for voicemail."
speak appliance-not-in-service "We're sorry. The number you have called is not in service. Please check the number and try again. Goodbye."

# Each sound's G.711 copies beside its WAV: Asterisk opens the copy in the call's own codec
# (models/tts/g711-copies.ts says why), so the beep and the fallbacks play with no translator
# per frame. -D: no dither, the copy codes exactly what the WAV holds.
for f in "$out"/*.wav; do
  sox -D "$f" -t ul "${f%.wav}.ulaw"
  sox -D "$f" -t al "${f%.wav}.alaw"
done
