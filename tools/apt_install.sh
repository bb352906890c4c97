#!/bin/sh
# `make deps`: installs the Debian packages named on the command line, waiting for another apt or dpkg
# (unattended upgrades on a fresh machine) instead of failing with "Could not get lock".
#   - apt-get install waits for the dpkg lock itself (DPkg::Lock::Timeout, apt >= 1.9.11);
#   - apt-get update takes the lists lock, which that option does not cover on every apt: it is tried again
#     every 5 s while it fails on a lock, up to the same time-out.
# APT_LOCK_TIMEOUT (seconds, default 300) bounds the wait; SUDO is prefixed to apt-get (empty as root).
set -u
timeout=${APT_LOCK_TIMEOUT:-300}
sudo=${SUDO:-}
start=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while :; do
    if $sudo apt-get -o DPkg::Lock::Timeout="$timeout" update -qq >"$log" 2>&1; then
        cat "$log"
        break
    fi
    if grep -q 'Could not get lock\|Unable to lock' "$log" && [ $(( $(date +%s) - start )) -lt "$timeout" ]; then
        echo "Waiting for another apt to finish ($(grep -m1 'Could not get lock' "$log" | sed 's/^E: //'))" >&2
        sleep "${APT_LOCK_RETRY:-5}"
        continue
    fi
    cat "$log" >&2
    echo "error: apt-get update failed (another apt still running after ${timeout} s, or no network)" >&2
    exit 1
done
left=$(( timeout - ($(date +%s) - start) ))
[ "$left" -gt 30 ] || left=30
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout="$left" install -y -qq "$@"
