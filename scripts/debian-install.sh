#!/usr/bin/env bash
# Sourced by the *-tools.sh scripts: `debian_install <label> <skip note> <package…>` installs Debian
# packages through apt-get, only as root on a machine that has apt-get (elsewhere it says what is
# missing and returns 0), bounded so CI never hangs: a held dpkg lock or an unreachable mirror gives
# up after 5 min, and one `apt-get update` is tried when the package lists are stale.
debian_install() {
  local label=$1 note=$2
  shift 2
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "$label: not installed ($*): needs root and apt-get; $note"
    return 0
  fi
  echo "$label: installing $* from Debian"
  export DEBIAN_FRONTEND=noninteractive
  bounded_apt_get() { timeout --kill-after=10 300 apt-get -o DPkg::Lock::Timeout=60 "$@"; }
  if ! bounded_apt_get install -y --no-install-recommends "$@" >/dev/null 2>&1; then
    bounded_apt_get update >/dev/null 2>&1 && bounded_apt_get install -y --no-install-recommends "$@" >/dev/null 2>&1 ||
      echo "$label: apt-get could not install $*; $note"
  fi
  return 0
}
