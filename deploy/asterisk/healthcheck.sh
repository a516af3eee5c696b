#!/bin/sh
# Healthy = fully booted and ARI answering with the configured credentials
# (which proves http.conf, ari.conf and res_ari all loaded).
set -eu
asterisk -rx 'core waitfullybooted' >/dev/null
curl -fsS -o /dev/null --max-time 4 -u "${ARI_USERNAME:-appliance}:${ARI_PASSWORD}" http://127.0.0.1:8088/ari/asterisk/info
