#!/bin/sh
# Healthy = fully booted and ARI answering with the configured credentials
# (which proves http.conf, ari.conf and res_ari all loaded).
set -eu
asterisk -rx 'core waitfullybooted' >/dev/null
# ARI where http.conf binds it (a host-network install may bind one address, not every one).
host=${ARI_BIND_ADDRESS:-0.0.0.0}
[ "$host" != 0.0.0.0 ] || host=127.0.0.1
curl -fsS -o /dev/null --max-time 4 -u "${ARI_USERNAME:-appliance}:${ARI_PASSWORD}" "http://$host:8088/ari/asterisk/info"
