#!/usr/bin/env bash
# Installs what isolation v2's tests use and a clean machine lacks: a user-mode network stack for
# the sandboxes' egress network (slirp4netns; passt, which provides pasta). Debian packages only,
# through apt-get, and only as root on a machine that has apt-get: elsewhere it says what is
# missing and exits 0 — the tests that need a helper then skip saying so, and the daemon starts
# with `network none` and says why. Idempotent: installs nothing already on the PATH.
set -uo pipefail
. "$(dirname "$0")/debian-install.sh"
missing=()
command -v slirp4netns >/dev/null || missing+=(slirp4netns)
command -v pasta >/dev/null || missing+=(passt)
if [ ${#missing[@]} -eq 0 ]; then
  echo "sandbox-tools: slirp4netns and pasta are on the PATH"
  exit 0
fi
debian_install sandbox-tools "egress tests will skip saying so" "${missing[@]}"
exit 0
