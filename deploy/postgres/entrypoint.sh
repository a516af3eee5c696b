#!/bin/sh
# PostgreSQL for the cluster profile (deploy/postgres/Dockerfile). On first start (an empty
# $PGDATA) makes the cluster: the superuser POSTGRES_USER (appliance) with POSTGRES_PASSWORD,
# the database POSTGRES_DB (appliance), password logins from the network (scram-sha-256),
# trust only on the container's own socket. Then runs PostgreSQL; arguments are passed to it
# (`-c name=value` settings).
set -eu

: "${POSTGRES_USER:=appliance}"
: "${POSTGRES_DB:=appliance}"

fail() {
  echo "postgres: $*" >&2
  exit 2
}

for name in POSTGRES_USER POSTGRES_DB; do
  eval "value=\${$name}"
  case "$value" in
    '' | *[!A-Za-z0-9_]*) fail "$name must be letters, digits or '_', got \"$value\"" ;;
  esac
done

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  [ -n "${POSTGRES_PASSWORD:-}" ] || fail "POSTGRES_PASSWORD is not set: put a long random password in .env (DATABASE_URL carries the same one)"
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --pgdata="$PGDATA" --username="$POSTGRES_USER" --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  out=$(echo "CREATE DATABASE \"$POSTGRES_DB\";" | postgres --single -D "$PGDATA" -j postgres 2>&1) \
    || { echo "$out" >&2; fail "could not create the database $POSTGRES_DB"; }
  echo "postgres: made the cluster in $PGDATA with the database $POSTGRES_DB"
fi

exec postgres -D "$PGDATA" "$@"
