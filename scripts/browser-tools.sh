#!/usr/bin/env bash
# Installs the browser the console's tests drive (tests/console): Debian's Chromium at
# /usr/bin/chromium (playwright's own browser download is not reachable). Debian packages only,
# through apt-get, and only as root on a machine that has apt-get: elsewhere it says what is
# missing and exits 0 — the console tests then skip, printing one line that says why.
# Idempotent: installs nothing when /usr/bin/chromium is there.
set -uo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "browser-tools: chromium is at /usr/bin/chromium"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "browser-tools: chromium not installed: needs root and apt-get; console tests will skip saying so"
  exit 0
fi
echo "browser-tools: installing chromium from Debian"
export DEBIAN_FRONTEND=noninteractive
# Bounded (CI must never hang): a held dpkg lock or an unreachable mirror gives up after 5 min.
bounded_apt_get() { timeout --kill-after=10 300 apt-get -o DPkg::Lock::Timeout=60 "$@"; }
if ! bounded_apt_get install -y --no-install-recommends chromium >/dev/null 2>&1; then
  bounded_apt_get update >/dev/null 2>&1 && bounded_apt_get install -y --no-install-recommends chromium >/dev/null 2>&1 ||
    echo "browser-tools: apt-get could not install chromium; console tests will skip saying so"
fi
[ -x /usr/bin/chromium ] && echo "browser-tools: chromium installed: $(/usr/bin/chromium --version 2>/dev/null)"
exit 0
