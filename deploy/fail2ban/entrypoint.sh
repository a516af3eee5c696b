#!/bin/sh
# Renders the SIP ban's jail (jail.d/asterisk-sip.conf) from the environment, then runs
# fail2ban in the foreground (docker-compose.yml's `fail2ban` service, in the default stack;
# docs/security.md, "SIP scanners").
#   entrypoint.sh               render, then exec fail2ban-server
#   entrypoint.sh --render-only render and exit (test/deploy/fail2ban-jail.test.ts,
#                               test/pbx-real/sip-scanners.test.ts)
# SIP_BAN=off (.env): for a host whose firewall is managed elsewhere. Compose cannot leave a
# service out without a profile, so the container stays, says once that the ban is off, and
# idles, healthy (healthcheck.sh), touching no firewall.
set -eu

: "${SIP_BAN:=on}"
case "$SIP_BAN" in
  on) ;;
  off)
    if [ "${1:-}" = "--render-only" ]; then exit 0; fi
    echo "fail2ban: SIP_BAN=off: the SIP scanner ban is off; no address is banned and the firewall is left alone (set SIP_BAN=on in .env to turn it on)"
    # Idle until stopped; the trap makes `docker compose stop` immediate (a shell as PID 1
    # ignores SIGTERM otherwise).
    trap 'exit 0' TERM INT
    while :; do
      sleep 3600 &
      wait $! || true
    done
    ;;
  *)
    echo "fail2ban: SIP_BAN must be on or off, got \"$SIP_BAN\"" >&2
    exit 2
    ;;
esac

TEMPLATES=${FAIL2BAN_TEMPLATES:-/etc/fail2ban-templates}
ETC=${FAIL2BAN_ETC:-/etc/fail2ban}

: "${SIP_BAN_JAIL:=asterisk-sip}"
: "${SIP_SECURITY_LOG:=/var/log/asterisk/security.log}"
: "${SIP_BAN_AFTER:=5}"
: "${SIP_BAN_WITHIN:=60}"
: "${SIP_BAN_SECONDS:=86400}"
# Published SIP ports: UDP/TCP 5060 and TLS 5061.
: "${SIP_BAN_PORTS:=5060,5061}"
# DOCKER-USER: packets to a port Docker publishes pass FORWARD, not INPUT. On the host network, INPUT.
: "${SIP_BAN_CHAIN:=DOCKER-USER}"
: "${SIP_UKDID_MATCH:=}"
: "${SIP_ALLOW_FROM:=}"
: "${SIP_BAN_IGNORE:=}"
# The trunks' provider hosts (Asterisk's own settings): their addresses are never banned.
: "${SIP_TRUNKS:=}"
: "${SIP_REG_SERVER:=}"
: "${SIP_UKDID_HOST:=}"
: "${SIP_TWILIO_TERMINATION:=}"
# The cluster's carriers (Kamailio relays to them): addresses, ranges or host names.
: "${KAMAILIO_CARRIERS:=}"
: "${SIP_LOCAL_NET:=10.0.0.0/8,172.16.0.0/12,192.168.0.0/16}"

fail() {
  echo "fail2ban: $*" >&2
  exit 2
}

case "$SIP_BAN_JAIL" in
  '' | *[!a-z0-9-]*) fail "SIP_BAN_JAIL must be lower-case letters, digits or '-', got \"$SIP_BAN_JAIL\"" ;;
esac
# iptables chain names stop at 28 characters: "f2b-" + the jail + "-u".
[ "${#SIP_BAN_JAIL}" -le 22 ] || fail "SIP_BAN_JAIL must be at most 22 characters, got \"$SIP_BAN_JAIL\""
for name in SIP_BAN_AFTER SIP_BAN_WITHIN SIP_BAN_SECONDS; do
  eval "value=\${$name}"
  case "$value" in
    '' | *[!0-9]* | 0) fail "$name must be a whole number above 0, got \"$value\"" ;;
  esac
done
case "$SIP_BAN_PORTS" in
  '' | *[!0-9,]*) fail "SIP_BAN_PORTS must be port numbers separated by commas, e.g. 5060,5061, got \"$SIP_BAN_PORTS\"" ;;
esac
case "$SIP_BAN_CHAIN" in
  '' | *[!A-Za-z0-9_-]*) fail "SIP_BAN_CHAIN must be an iptables chain name such as DOCKER-USER or INPUT, got \"$SIP_BAN_CHAIN\"" ;;
esac
# Addresses and ranges only: a newline or a bracket would change the jail instead of being part of it.
for name in SIP_UKDID_MATCH SIP_ALLOW_FROM SIP_BAN_IGNORE SIP_LOCAL_NET SIP_SECURITY_LOG SIP_TRUNKS SIP_REG_SERVER SIP_UKDID_HOST SIP_TWILIO_TERMINATION KAMAILIO_CARRIERS; do
  eval "value=\${$name}"
  case "$value" in
    *'['* | *']'* | *'
'* | *'%'* | *'$'*) fail "$name must not contain '[', ']', '%', '\$' or a line break" ;;
  esac
done

# A registering trunk's provider answers this box's REGISTER with a 401 before it authenticates,
# and sends from where its host name points: its addresses are never banned. Resolved once, here
# (getent: /etc/hosts, then DNS); a name that does not resolve yet is kept as a name, which
# fail2ban resolves itself when it judges an address, so a DNS hiccup at start bans no provider.
provider_addresses() {
  for server in "$@"; do
    # "sip:" and ";transport=…" as in pjsip's URIs, and a ":port", are not the host.
    host=$(echo "$server" | sed -e 's/^sips\{0,1\}://' -e 's/;.*$//' -e 's/^\([^:]*\):[0-9]*$/\1/')
    [ -n "$host" ] || continue
    addresses=$(getent ahosts "$host" 2>/dev/null | awk '{ print $1 }' | sort -u | xargs)
    if [ -n "$addresses" ]; then
      echo "$addresses"
    else
      echo "fail2ban: the trunk host \"$host\" does not resolve now; fail2ban will resolve it when judging an address" >&2
      echo "$host"
    fi
  done
}

# Every trunk host the box is configured with: the registration provider's and the DID
# provider's whenever set (a cluster's Kamailio registers with SIP_REG_SERVER although
# SIP_TRUNKS leaves `registration` out), and Twilio's termination host with the twilio trunk.
trunk_hosts="$SIP_REG_SERVER $SIP_UKDID_HOST"
# Twilio sends calls from its signalling ranges, which its host name does not cover: the
# identify ranges of deploy/asterisk/etc/pjsip.d/twilio.conf (the test keeps the two the same).
TWILIO_SIGNALLING="168.86.128.0/18 54.171.127.192/30 35.156.191.128/30 54.172.60.0/30 54.244.51.0/30"
twilio_ranges=
case ",$(echo "$SIP_TRUNKS" | tr -d ' ')," in
  *,twilio,*)
    trunk_hosts="$trunk_hosts $SIP_TWILIO_TERMINATION"
    twilio_ranges=$TWILIO_SIGNALLING
    ;;
esac
SIP_PROVIDER_ADDRESSES=$(provider_addresses $trunk_hosts | xargs)

# ignoreip takes addresses separated by spaces; the settings are comma-separated.
SIP_BAN_IGNOREIP=$(echo "$SIP_UKDID_MATCH,$SIP_ALLOW_FROM,$SIP_BAN_IGNORE,$KAMAILIO_CARRIERS,$SIP_LOCAL_NET,$SIP_PROVIDER_ADDRESSES,$twilio_ranges" | tr ',' ' ' | xargs)
export SIP_BAN_JAIL SIP_SECURITY_LOG SIP_BAN_AFTER SIP_BAN_WITHIN SIP_BAN_SECONDS SIP_BAN_PORTS SIP_BAN_CHAIN SIP_BAN_IGNOREIP
envsubst '${SIP_BAN_JAIL} ${SIP_SECURITY_LOG} ${SIP_BAN_AFTER} ${SIP_BAN_WITHIN} ${SIP_BAN_SECONDS} ${SIP_BAN_PORTS} ${SIP_BAN_CHAIN} ${SIP_BAN_IGNOREIP}' \
  <"$TEMPLATES/jail.d/asterisk-sip.conf" >"$ETC/jail.d/asterisk-sip.local"

if [ "${1:-}" = "--render-only" ]; then
  exit 0
fi

# fail2ban refuses a jail whose log file does not exist ("Have not found any log file"), and
# Asterisk's log volume is read-only here: wait for Asterisk to write it (it opens security.log
# as it starts). Where this container may write the folder (a host path), make it instead.
mkdir -p "$(dirname "$SIP_SECURITY_LOG")" 2>/dev/null || true
touch "$SIP_SECURITY_LOG" 2>/dev/null || true
if [ ! -e "$SIP_SECURITY_LOG" ]; then
  echo "waiting for Asterisk to write $SIP_SECURITY_LOG before the SIP ban starts"
  while [ ! -e "$SIP_SECURITY_LOG" ]; do sleep 1; done
fi
exec fail2ban-server -f -x -v
