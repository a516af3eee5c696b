#!/bin/sh
# Renders the Asterisk configuration from the templates and .env, then runs Asterisk.
# Asterisk's config files cannot read the environment, so envsubst fills in only the
# variables listed in RENDERED_VARS: dialplan variables such as ${EXTEN} pass through.
#   entrypoint.sh               render, then exec asterisk in the foreground
#   entrypoint.sh --render-only render and exit (used by test/deploy)
set -eu

TEMPLATES=${ASTERISK_TEMPLATES:-/etc/asterisk-templates}
OUT=${ASTERISK_ETC:-/etc/asterisk}

# Defaults match the core's (core/config/config.ts) so both sides agree without a .env entry.
: "${ARI_USERNAME:=appliance}"
: "${ARI_APP:=call-answering}"
: "${DEFAULT_DID:=}"
: "${SIP_TRUNKS:=}"
: "${SIP_PUBLIC_ADDRESS:=}"
: "${SIP_LOCAL_NET:=}"
: "${SIP_UKDID_HOST:=}"
: "${SIP_UKDID_MATCH:=}"
: "${SIP_REG_SERVER:=}"
: "${SIP_REG_USERNAME:=}"
: "${SIP_REG_PASSWORD:=}"
: "${SIP_TWILIO_TERMINATION:=}"
: "${PBX_MAX_CALLS:=0}"
: "${SIP_MEDIA_ADDRESS:=}"
# The carriers' signalling ranges, comma-separated: set, only they (and SIP_LOCAL_NET's private
# ranges, where the core's "Call my line" WebSocket comes from) may send SIP; empty, anyone may.
# fail2ban (deploy/fail2ban) never bans them either.
: "${SIP_ALLOW_FROM:=}"
# Encrypted trunks (docs/deployment.md, "Encrypted trunks"): a certificate and key (PEM paths
# inside the container) open the TLS transport on 5061; SIP_SRTP=required makes every trunk
# refuse a call whose offer has no SRTP key (SDES), no: plain RTP as before.
: "${SIP_TLS_CERT:=}"
: "${SIP_TLS_KEY:=}"
: "${SIP_SRTP:=no}"
: "${RTP_PORTS:=10000-10199}"
# In a cluster (docs/cluster.md) each node's name, the same as its core's NODE_NAME: it prefixes
# the node's channel ids, so two Asterisks never hand one database the same id. Empty on one box.
: "${NODE_NAME:=}"
# Where SIP and ARI listen: every interface in the compose network; the compose test, on the
# host network, keeps them on loopback.
: "${SIP_BIND_ADDRESS:=0.0.0.0}"
: "${ARI_BIND_ADDRESS:=0.0.0.0}"
# RTP_PORTS: first-last, split for rtp.conf below.
RTP_START=${RTP_PORTS%%-*}
RTP_END=${RTP_PORTS#*-}
export NODE_NAME ARI_USERNAME ARI_APP DEFAULT_DID SIP_UKDID_HOST SIP_UKDID_MATCH SIP_REG_SERVER SIP_REG_USERNAME SIP_REG_PASSWORD SIP_TWILIO_TERMINATION MAX_CALLS SIP_BIND_ADDRESS ARI_BIND_ADDRESS SIP_MEDIA_ADDRESS RTP_START RTP_END

RENDERED_VARS='${NODE_NAME} ${ARI_USERNAME} ${ARI_PASSWORD} ${ARI_APP} ${DEFAULT_DID} ${SIP_UKDID_HOST} ${SIP_UKDID_MATCH} ${SIP_REG_SERVER} ${SIP_REG_USERNAME} ${SIP_REG_PASSWORD} ${SIP_TWILIO_TERMINATION} ${MAX_CALLS} ${SIP_BIND_ADDRESS} ${ARI_BIND_ADDRESS} ${SIP_MEDIA_ADDRESS} ${SIP_MEDIA_ENCRYPTION} ${RTP_START} ${RTP_END}'

fail() {
  echo "asterisk: $*" >&2
  exit 2
}

if [ -z "${ARI_PASSWORD:-}" ]; then
  fail "ARI_PASSWORD is not set: put a long random password in .env (the core uses the same one)"
fi
export ARI_PASSWORD

# A ";" starts a comment and a newline a new setting in Asterisk's format: refuse values
# that would silently change the configuration instead of being part of it.
for name in ARI_USERNAME ARI_PASSWORD ARI_APP DEFAULT_DID SIP_UKDID_HOST SIP_UKDID_MATCH SIP_REG_SERVER SIP_REG_USERNAME SIP_REG_PASSWORD SIP_TWILIO_TERMINATION SIP_PUBLIC_ADDRESS SIP_LOCAL_NET SIP_BIND_ADDRESS ARI_BIND_ADDRESS SIP_MEDIA_ADDRESS SIP_ALLOW_FROM SIP_TLS_CERT SIP_TLS_KEY; do
  eval "value=\${$name}"
  case "$value" in
    *';'* | *'['* | *']'* | *'
'*) fail "$name must not contain ';', '[', ']' or a line break" ;;
  esac
done

case "$SIP_SRTP" in
  no) SIP_MEDIA_ENCRYPTION=no ;;
  required) SIP_MEDIA_ENCRYPTION=sdes ;;
  *) fail "SIP_SRTP must be no or required, got \"$SIP_SRTP\"" ;;
esac
export SIP_MEDIA_ENCRYPTION
if [ -n "$SIP_TLS_CERT$SIP_TLS_KEY" ]; then
  [ -n "$SIP_TLS_CERT" ] && [ -n "$SIP_TLS_KEY" ] || fail "SIP_TLS_CERT and SIP_TLS_KEY go together: set both (the certificate's and the key's PEM files) or neither"
  [ -r "$SIP_TLS_CERT" ] || fail "SIP_TLS_CERT=$SIP_TLS_CERT is not a readable file: mount the certificate there"
  [ -r "$SIP_TLS_KEY" ] || fail "SIP_TLS_KEY=$SIP_TLS_KEY is not a readable file: mount the key there"
fi
[ "$SIP_SRTP" = no ] || [ -n "$SIP_TLS_CERT" ] || fail "SIP_SRTP=required needs the TLS transport (SIP_TLS_CERT and SIP_TLS_KEY): SRTP keys sent over plain SIP are readable by anyone on the path"

case "$NODE_NAME" in
  *[!A-Za-z0-9_-]*) fail "NODE_NAME must be letters, digits, '-' or '_' (the core's rule), got \"$NODE_NAME\"" ;;
esac

case "$RTP_PORTS" in
  *[!0-9-]* | -* | *- | *-*-* | [!0-9]*) fail "RTP_PORTS must be first-last, e.g. 10200-10399, got \"$RTP_PORTS\"" ;;
esac
[ "$RTP_START" -lt "$RTP_END" ] || fail "RTP_PORTS must be first-last with first below last, got \"$RTP_PORTS\""

case "$PBX_MAX_CALLS" in
  '' | *[!0-9]*) fail "PBX_MAX_CALLS must be a whole number of calls (0 = the RTP range's own limit), got \"$PBX_MAX_CALLS\"" ;;
esac

# maxcalls never exceeds what the RTP range carries. Each stream takes a pair of ports (RTP and
# RTCP): a caller one, an agent call or a transfer a second (the agent's externalMedia, the far
# leg), and maxcalls counts only callers. A caller for whom no pair is left is answered
# 488 Not Acceptable Here, which neither Kamailio nor a carrier takes as "try elsewhere" (seen on
# the real Asterisk: res_rtp_asterisk "couldn't allocate a port"); past maxcalls it is 503,
# which both do. Unset, the limit is the range with every caller's second stream in it.
RTP_PAIRS=$(( (RTP_END - RTP_START + 1) / 2 ))
CALLS_WITH_SECOND_STREAM=$(( RTP_PAIRS / 2 ))
if [ "$PBX_MAX_CALLS" -eq 0 ]; then
  MAX_CALLS=$CALLS_WITH_SECOND_STREAM
  [ "$MAX_CALLS" -gt 0 ] || fail "RTP_PORTS=$RTP_PORTS holds no call: give it at least 4 ports (a caller's pair and an agent's or a transfer's)"
elif [ "$PBX_MAX_CALLS" -gt "$RTP_PAIRS" ]; then
  fail "PBX_MAX_CALLS=$PBX_MAX_CALLS is more calls than RTP_PORTS=$RTP_PORTS carries ($RTP_PAIRS, two ports a call): widen RTP_PORTS to $(( PBX_MAX_CALLS * 4 )) ports (four a call, for agent calls and transfers) or lower PBX_MAX_CALLS"
else
  MAX_CALLS=$PBX_MAX_CALLS
  [ "$PBX_MAX_CALLS" -le "$CALLS_WITH_SECOND_STREAM" ] ||
    echo "asterisk: PBX_MAX_CALLS=$PBX_MAX_CALLS leaves RTP_PORTS=$RTP_PORTS $(( RTP_PAIRS - PBX_MAX_CALLS )) pairs for agent calls and transfers: with more of them at once, callers get 488; widen RTP_PORTS to $(( PBX_MAX_CALLS * 4 )) ports to be safe" >&2
fi

mkdir -p "$OUT/pjsip.d"
for template in "$TEMPLATES"/*.conf "$TEMPLATES"/pjsip.d/*.conf; do
  [ -f "$template" ] || continue
  target="$OUT/${template#"$TEMPLATES"/}"
  envsubst "$RENDERED_VARS" <"$template" >"$target"
done

# The chosen trunk examples.
trunks="$OUT/pjsip_trunks.conf"
echo "; Written by entrypoint.sh from SIP_TRUNKS=$SIP_TRUNKS" >"$trunks"
for trunk in $(echo "$SIP_TRUNKS" | tr ',' ' '); do
  [ -f "$OUT/pjsip.d/$trunk.conf" ] || fail "SIP_TRUNKS names \"$trunk\"; choose from: uk-did, registration, twilio"
  echo "#include pjsip.d/$trunk.conf" >>"$trunks"
done
[ -n "$SIP_TRUNKS" ] || echo "asterisk: SIP_TRUNKS is empty: no trunk is configured, so no call can arrive" >&2

# NAT: Asterisk must put the public address in SDP and Contact, or audio is one-way.
nat="$OUT/pjsip_nat.conf"
printf '; Written by entrypoint.sh: what both transports inherit.\n[transport-nat](!)\n' >"$nat"
if [ -n "$SIP_PUBLIC_ADDRESS" ]; then
  {
    echo "external_media_address=$SIP_PUBLIC_ADDRESS"
    echo "external_signaling_address=$SIP_PUBLIC_ADDRESS"
    for net in $(echo "${SIP_LOCAL_NET:-10.0.0.0/8,172.16.0.0/12,192.168.0.0/16}" | tr ',' ' '); do
      echo "local_net=$net"
    done
  } >>"$nat"
fi

# The TLS transport (pjsip.conf includes this file), only with a certificate and key.
tls="$OUT/pjsip_tls.conf"
echo "; Written by entrypoint.sh from SIP_TLS_CERT=$SIP_TLS_CERT" >"$tls"
if [ -n "$SIP_TLS_CERT" ]; then
  printf '[transport-tls](transport-nat)\ntype=transport\nprotocol=tls\nbind=%s:5061\ncert_file=%s\npriv_key_file=%s\nmethod=tlsv1_2\n' \
    "$SIP_BIND_ADDRESS" "$SIP_TLS_CERT" "$SIP_TLS_KEY" >>"$tls"
fi

# Who may send SIP (pjsip.conf includes this file): with SIP_ALLOW_FROM, an ACL that refuses
# every address but the carriers' ranges, SIP_LOCAL_NET's (the core's "Call my line" WebSocket
# comes from the compose network; on the host network it comes from 127.0.0.1, which is then
# listed in SIP_ALLOW_FROM too). Without it, the file holds no ACL.
acl="$OUT/pjsip_acl.conf"
printf '; Written by entrypoint.sh from SIP_ALLOW_FROM=%s\n' "$SIP_ALLOW_FROM" >"$acl"
if [ -n "$SIP_ALLOW_FROM" ]; then
  {
    printf '[acl-carriers]\ntype=acl\ndeny=0.0.0.0/0.0.0.0\n'
    for net in $(echo "$SIP_ALLOW_FROM,${SIP_LOCAL_NET:-10.0.0.0/8,172.16.0.0/12,192.168.0.0/16}" | tr ',' ' '); do
      echo "permit=$net"
    done
  } >>"$acl"
fi

if [ "${1:-}" = "--render-only" ]; then
  exit 0
fi

# Secrets readable by Asterisk only.
chown -R asterisk:asterisk "$OUT"
chmod 0640 "$OUT"/*.conf "$OUT"/pjsip.d/*.conf
exec /usr/sbin/asterisk -f -U asterisk -G asterisk -vvv "$@"
