#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; install it (and fonts for Thai and Korean) when missing.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
for pkg in fonts-noto-cjk fonts-thai-tlwg; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "ensure-browser: missing ${need[*]}; install them (Debian packages) to run browser tests" >&2
    exit 0
fi
echo "ensure-browser: installing ${need[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
