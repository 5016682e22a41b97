#!/usr/bin/env bash
# Installs what isolation v2's tests use and a clean machine lacks: a user-mode network stack for
# the sandboxes' egress network (slirp4netns; passt, which provides pasta). Debian packages only,
# through apt-get, and only as root on a machine that has apt-get: elsewhere it says what is
# missing and exits 0 — the tests that need a helper then skip saying so, and the daemon starts
# with `network none` and says why. Idempotent: installs nothing already on the PATH.
set -uo pipefail
missing=()
command -v slirp4netns >/dev/null || missing+=(slirp4netns)
command -v pasta >/dev/null || missing+=(passt)
if [ ${#missing[@]} -eq 0 ]; then
  echo "sandbox-tools: slirp4netns and pasta are on the PATH"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "sandbox-tools: not installed (${missing[*]}): needs root and apt-get; egress tests will skip saying so"
  exit 0
fi
echo "sandbox-tools: installing ${missing[*]} from Debian"
export DEBIAN_FRONTEND=noninteractive
# Bounded (CI must never hang): a held dpkg lock or an unreachable mirror gives up after 5 min.
bounded_apt_get() { timeout --kill-after=10 300 apt-get -o DPkg::Lock::Timeout=60 "$@"; }
if ! bounded_apt_get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
  bounded_apt_get update >/dev/null 2>&1 && bounded_apt_get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
    echo "sandbox-tools: apt-get could not install ${missing[*]}; egress tests will skip saying so"
fi
exit 0
