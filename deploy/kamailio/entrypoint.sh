#!/bin/sh
# Renders kamailio-local.cfg (and the dispatcher list, when KAMAILIO_NODES is given) from the
# environment, then runs Kamailio in the foreground (docs/cluster.md).
#   entrypoint.sh               render, then exec kamailio
#   entrypoint.sh --render-only render and exit (the tests start Kamailio themselves)
#
#   KAMAILIO_LISTEN   where SIP is received: proto:address:port or proto:interface:port
#                     (udp:203.0.113.5:5060, udp:eth0:5060); one address, never 0.0.0.0, which
#                     Kamailio would write into the Via and Record-Route headers as it is
#   KAMAILIO_ADVERTISE behind NAT (Docker's published port): the public address:port the
#                     carrier reaches this proxy at, with the same port as the listen; the
#                     carrier's side of each call is routed there, the nodes' side to the
#                     listen address
#   KAMAILIO_ALIAS    the address:port the carrier sends to, and probes come from (default:
#                     KAMAILIO_ADVERTISE, else the listen address)
#   KAMAILIO_NODES    the nodes' Asterisks, host:port,host:port,... (written to the list file);
#                     unset: the operator's own list file at KAMAILIO_DISPATCHER_LIST is used.
#                     A name (a compose service) is resolved when used, so a node that is
#                     down while Kamailio starts joins once it answers
#   KAMAILIO_CARRIERS the carrier's signalling addresses, comma-separated: IPv4 addresses,
#                     ranges (a.b.c.d/n) or host names, each with an optional :port. A request
#                     inside a call is relayed only to these or to a node (issue 39, M6);
#                     required (SIP_REG_SERVER's host is added to it)
#   SIP_REG_SERVER, SIP_REG_USERNAME, SIP_REG_PASSWORD, DEFAULT_DID
#                     a trunk that registers (the same settings as Asterisk's `registration`
#                     trunk on one box): Kamailio registers once for the whole cluster, and
#                     calls the registrar sends go to DEFAULT_DID on the nodes
set -eu

TEMPLATES=${KAMAILIO_TEMPLATES:-/etc/kamailio-templates}
OUT=${KAMAILIO_ETC:-/etc/kamailio}
: "${KAMAILIO_LISTEN:=udp:0.0.0.0:5060}"
: "${KAMAILIO_DISPATCHER_LIST:=$OUT/dispatcher.list}"
: "${KAMAILIO_CTL:=/run/kamailio/kamailio_ctl}"
: "${KAMAILIO_NODES:=}"
: "${KAMAILIO_ADVERTISE:=}"
: "${KAMAILIO_CARRIERS:=}"
: "${SIP_REG_SERVER:=}"
: "${SIP_REG_USERNAME:=}"
: "${SIP_REG_PASSWORD:=}"
: "${DEFAULT_DID:=}"

fail() {
  echo "kamailio: $*" >&2
  exit 2
}

listen_hostport=${KAMAILIO_LISTEN#*:}
listen_host=${listen_hostport%:*}
case "$listen_host" in
  0.0.0.0 | '[::]') fail "KAMAILIO_LISTEN must name one address or interface (udp:eth0:5060), not $listen_host: Kamailio would send $listen_host in its Via and Record-Route headers" ;;
esac
if [ -z "${KAMAILIO_ALIAS:-}" ]; then
  if [ -n "$KAMAILIO_ADVERTISE" ]; then
    KAMAILIO_ALIAS=$KAMAILIO_ADVERTISE
  else
    case "$listen_host" in
      *.*) KAMAILIO_ALIAS=$listen_hostport ;;
      *) fail "KAMAILIO_LISTEN names an interface ($listen_host): set KAMAILIO_ADVERTISE (behind NAT) or KAMAILIO_ALIAS to the address:port the carrier sends calls to" ;;
    esac
  fi
fi

# A "!" ends a substitution and a newline a directive: refuse values that would change the file.
for name in KAMAILIO_LISTEN KAMAILIO_ADVERTISE KAMAILIO_ALIAS KAMAILIO_DISPATCHER_LIST KAMAILIO_CTL KAMAILIO_NODES KAMAILIO_CARRIERS SIP_REG_SERVER SIP_REG_USERNAME SIP_REG_PASSWORD DEFAULT_DID; do
  eval "value=\${$name}"
  case "$value" in
    *'!'* | *'"'* | *'
'*) fail "$name must not contain '!', '\"' or a line break" ;;
  esac
done

# Where a request inside a call may be relayed besides a node: the carrier. The registrar's host
# is one of its addresses; the operator names the others (those its calls come from).
carriers=$(echo "$KAMAILIO_CARRIERS" | tr -d ' ')
if [ -n "$SIP_REG_SERVER" ]; then
  carriers="${carriers:+$carriers,}${SIP_REG_SERVER%%:*}"
fi
[ -n "$carriers" ] || fail "set KAMAILIO_CARRIERS to the carrier's signalling addresses (203.0.113.0/24,sip.carrier.example): requests inside a call are relayed only to them and to the nodes"
for carrier in $(echo "$carriers" | tr ',' ' '); do
  echo "$carrier" | grep -Eq '^([0-9]{1,3}(\.[0-9]{1,3}){3}(/[0-9]{1,2})?|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)(:[0-9]{1,5})?$' ||
    fail "KAMAILIO_CARRIERS lists \"$carrier\": give IPv4 addresses, ranges (a.b.c.d/n) or host names, each with an optional :port, comma-separated"
done

mkdir -p "$OUT"
cp "$TEMPLATES/kamailio.cfg" "$OUT/kamailio.cfg"
listen=$KAMAILIO_LISTEN
[ -z "$KAMAILIO_ADVERTISE" ] || listen="$listen advertise $KAMAILIO_ADVERTISE"
{
  echo "# Written by entrypoint.sh from the environment."
  [ -z "$KAMAILIO_ADVERTISE" ] || echo "#!define WITH_ADVERTISE"
  echo "#!substdef \"!KAMAILIO_LISTEN!$listen!g\""
  echo "#!substdef \"!KAMAILIO_ALIAS!$KAMAILIO_ALIAS!g\""
  echo "#!substdef \"!KAMAILIO_DISPATCHER_LIST!$KAMAILIO_DISPATCHER_LIST!g\""
  echo "#!substdef \"!KAMAILIO_CTL!$KAMAILIO_CTL!g\""
} >"$OUT/kamailio-local.cfg"

if [ -n "$SIP_REG_SERVER" ]; then
  [ -n "$SIP_REG_USERNAME" ] && [ -n "$SIP_REG_PASSWORD" ] || fail "SIP_REG_SERVER is set: SIP_REG_USERNAME and SIP_REG_PASSWORD are needed to register"
  [ -n "$DEFAULT_DID" ] || fail "SIP_REG_SERVER is set: DEFAULT_DID names the number the registered trunk's calls are for"
  db="$OUT/db"
  mkdir -p "$db"
  # db_text: one line per row, ':' between fields, so a ':' inside a value is written '\:'.
  esc() { printf '%s' "$1" | sed 's/[\\:]/\\&/g'; }
  # Empty fields are nulls: no realm (the one the registrar's challenge names is answered), no
  # HA1, the contact address from reg_contact_addr, the default socket.
  reg_host=${SIP_REG_SERVER%%:*}
  printf 'id(int,auto) table_name(string) table_version(int) \n1:uacreg:5\n' >"$db/version"
  {
    echo "id(int,auto) l_uuid(string) l_username(string) l_domain(string) r_username(string) r_domain(string) realm(string,null) auth_username(string) auth_password(string) auth_ha1(string,null) auth_proxy(string) expires(int) flags(int) reg_delay(int) contact_addr(string,null) socket(string,null) "
    echo "1:trunk:$(esc "$DEFAULT_DID"):$(esc "${KAMAILIO_ALIAS%%:*}"):$(esc "$SIP_REG_USERNAME"):$(esc "$reg_host")::$(esc "$SIP_REG_USERNAME"):$(esc "$SIP_REG_PASSWORD")::$(esc "sip:$SIP_REG_SERVER"):300:0:0::"
  } >"$db/uacreg"
  {
    echo "#!define WITH_REGISTRATION"
    echo "#!substdef \"!KAMAILIO_DB_DIR!$db!g\""
  } >>"$OUT/kamailio-local.cfg"
fi

if [ -n "$KAMAILIO_NODES" ]; then
  echo "# Written by entrypoint.sh from KAMAILIO_NODES=$KAMAILIO_NODES" >"$KAMAILIO_DISPATCHER_LIST"
  for node in $(echo "$KAMAILIO_NODES" | tr ',' ' '); do
    # A name gets flag 16 (resolved when probed or called, not at start): a node whose name does
    # not resolve yet (its container is stopped) is kept, down, instead of dropped from the set.
    case "${node%:*}" in
      *[!0-9.]*) echo "1 sip:$node 16" ;;
      *) echo "1 sip:$node" ;;
    esac >>"$KAMAILIO_DISPATCHER_LIST"
  done
fi
[ -s "$KAMAILIO_DISPATCHER_LIST" ] || fail "no nodes: set KAMAILIO_NODES (host:port,...) or provide $KAMAILIO_DISPATCHER_LIST"

# The nodes as a request inside a call names them: set 1's host:port, from the list (so a node
# added to the list and reloaded with kamcmd receives calls, but requests inside its calls
# only once Kamailio is restarted and this runs again).
node_hops=$(awk '$1 == "1" { d = $2; sub(/^sips?:/, "", d); sub(/;.*/, "", d); printf "%s%s", sep, d; sep = "," }' "$KAMAILIO_DISPATCHER_LIST")
case "$node_hops" in
  '' | *'!'* | *'"'*) fail "$KAMAILIO_DISPATCHER_LIST: set 1 must list the nodes as sip:host:port, without '!' or '\"'" ;;
esac
{
  echo "#!substdef \"!KAMAILIO_NODE_HOPS!$node_hops!g\""
  echo "#!substdef \"!KAMAILIO_CARRIER_HOPS!$carriers!g\""
} >>"$OUT/kamailio-local.cfg"

[ "${1:-}" = "--render-only" ] && exit 0
mkdir -p "$(dirname "$KAMAILIO_CTL")"
exec kamailio -f "$OUT/kamailio.cfg" -DD -E -Y "$(dirname "$KAMAILIO_CTL")"
