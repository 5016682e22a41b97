#!/usr/bin/env bash
# usage: bash scripts/ci-soak.sh [runs=10] [revision=HEAD|--follow] [log-dir]
# CI must never hang (issue 38): runs .ci/run on a fresh clone of <revision>, <runs> times in a
# row (with --follow, each run takes the tip of the branch checked out here as it starts, as CI
# would, so a soak can go on while work lands), with one helper process keeping a core busy beside them (CI machines are shared and
# loaded), and writes each run's output to <log-dir>/run-N.log. Prints, per run: its exit
# status, its total time, npm test's time and the per-package lines .ci/run printed; then a line
# a run. A run that hangs is ended by .ci/run's own bounds (the package watchdog, then
# scripts/run-bounded.mjs), so the loop always finishes; a run over 80 min still counts as a hang.
set -uo pipefail
runs=${1:-10}
revision=${2:-HEAD}
repo=$(cd "$(dirname "$0")/.." && pwd)
logs=${3:-$(mktemp -d "${TMPDIR:-/tmp}/ci-soak-XXXXXX")}
mkdir -p "$logs"
tip() { git -C "$repo" rev-parse "$([ "$revision" = --follow ] && echo HEAD || echo "$revision")"; }
echo "ci-soak: $runs runs of .ci/run at $([ "$revision" = --follow ] && echo 'the tip of each run' || tip | cut -c1-12), logs in $logs"

# The load: one busy loop at low priority, for the whole soak.
nice -n 10 node -e 'for (;;) {}' &
load=$!
trap 'kill $load 2>/dev/null' EXIT

summary=()
for run in $(seq 1 "$runs"); do
  # A private directory (mktemp -d: 0700), as a newcomer's or CI's checkout may be: a test server
  # run as another user (PostgreSQL as root runs as `postgres`) must cope with it.
  work=$(mktemp -d "${TMPDIR:-/tmp}/ci-soak-clone-XXXXXX")
  commit=$(tip)
  git clone -q "$repo" "$work/clone" && git -C "$work/clone" checkout -q "$commit"
  started=$SECONDS
  (cd "$work/clone" && bash .ci/run) > "$logs/run-$run.log" 2>&1
  status=$?
  seconds=$((SECONDS - started))
  verdict=$([ "$status" = 0 ] && echo passed || echo "FAILED (exit $status)")
  [ "$seconds" -gt 4800 ] && verdict="HUNG (over 80 min)"
  line="run $run at ${commit:0:12}: $verdict in $((seconds / 60)) min $((seconds % 60)) s · $(tail -n 1 "$logs/run-$run.log")"
  summary+=("$line")
  echo "$line"
  grep -E '^ci: (npm test took|packages/|apps/|tests/)' "$logs/run-$run.log" | sed 's/^/  /'
  grep -E '^\[ci-guard\]' "$logs/run-$run.log" | sed 's/^/  /'
  rm -rf "$work"
done
echo "ci-soak: summary"
printf '%s\n' "${summary[@]}"
