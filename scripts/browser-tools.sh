#!/usr/bin/env bash
# Installs the browser the console's tests drive (tests/console): Debian's Chromium at
# /usr/bin/chromium (playwright's own browser download is not reachable). Debian packages only,
# through apt-get, and only as root on a machine that has apt-get: elsewhere it says what is
# missing and exits 0 — the console tests then skip, printing one line that says why.
# Idempotent: installs nothing when /usr/bin/chromium is there.
set -uo pipefail
. "$(dirname "$0")/debian-install.sh"
if [ -x /usr/bin/chromium ]; then
  echo "browser-tools: chromium is at /usr/bin/chromium"
  exit 0
fi
debian_install browser-tools "console tests will skip saying so" chromium
[ -x /usr/bin/chromium ] && echo "browser-tools: chromium installed: $(/usr/bin/chromium --version 2>/dev/null)"
exit 0
