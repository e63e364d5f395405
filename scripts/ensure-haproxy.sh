#!/usr/bin/env bash
# Cluster tests and `make cluster` run Debian's HAProxy as a plain process (never the system
# service); install the package when missing.
set -euo pipefail
if command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "ensure-haproxy: haproxy is missing; install it (Debian package haproxy) to run cluster tests" >&2
    exit 0
fi
echo "ensure-haproxy: installing haproxy"
apt-get update -qq
# policy-rc.d 101 keeps the package's post-install script from starting the system service.
policy=/usr/sbin/policy-rc.d
created=
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created=1
fi
trap '[ -n "$created" ] && rm -f "$policy"' EXIT
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy >/dev/null
