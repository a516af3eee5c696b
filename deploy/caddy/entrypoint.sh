#!/bin/sh
# The proxy's start (deploy/caddy/Dockerfile; test/https runs it too): checks the settings,
# names the site after PUBLIC_URL's host, then runs Caddy in the foreground on the Caddyfile.
# A bad setting stops it here with what to change, not deep in Caddy's own parse errors.
set -eu

fail() {
  echo "proxy: $*" >&2
  exit 64
}

TLS_MODE="${TLS_MODE:-acme}"
case "$TLS_MODE" in
  acme | internal | files) ;;
  *) fail "TLS_MODE must be acme, internal or files (got \"$TLS_MODE\"): see docs/deployment.md, \"HTTPS\"" ;;
esac

# PUBLIC_URL is the console's address for the whole box (mails, texts, Twilio's webhooks):
# the proxy serves exactly its scheme://host[:port], so it must be https://.
url="${PUBLIC_URL:-}"
case "$url" in
  https://*) ;;
  *) fail "PUBLIC_URL must be the console's https:// address, e.g. https://box.example.co.uk (got \"$url\")" ;;
esac
hostport="${url#https://}"
hostport="${hostport%%/*}"
case "$hostport" in
  "" | *@* | *"?"* | *"#"* | *" "*) fail "PUBLIC_URL must be https://<host name>[:port] (got \"$url\")" ;;
esac
host="${hostport%:*}"

if [ "$TLS_MODE" = acme ]; then
  # A CA issues certificates only for public DNS names: an address or a LAN name never gets one.
  if echo "$host" | grep -Eq '^[0-9.]+$|^\[|^localhost$|\.(localhost|local|lan|internal|home\.arpa|test|invalid)$' || ! echo "$host" | grep -q '\.'; then
    fail "TLS_MODE=acme needs a public DNS name in PUBLIC_URL (got \"$host\"): use TLS_MODE=internal on a LAN or test box"
  fi
fi

if [ "$TLS_MODE" = files ]; then
  for v in TLS_CERT_FILE TLS_KEY_FILE; do
    eval "f=\${$v:-}"
    [ -n "$f" ] || fail "TLS_MODE=files needs $v: the path of the PEM file inside the proxy container"
    [ -r "$f" ] || fail "$v=$f is not readable inside the proxy container: mount it (docs/deployment.md, \"HTTPS\")"
  done
fi

export TLS_MODE
export CADDY_SITE="https://$hostport"
exec caddy run --config "${CADDYFILE:-/etc/caddy/Caddyfile}" --adapter caddyfile
