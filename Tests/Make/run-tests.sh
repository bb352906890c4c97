#!/usr/bin/env bash
# make test's test run: `swift test` with its whole output shown as it goes and kept in .build-test/test.log; when
# a test fails, the run ends with the failing tests' names and their assertion lines, so the cause is in the last
# lines of a long log (CI shows the end). Arguments go to `swift test` ($SWIFT, default swift).
set -uo pipefail
cd "$(dirname "$0")/../.."
log=.build-test/test.log
mkdir -p "$(dirname "$log")"
"${SWIFT:-swift}" test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" != 0 ]; then
    echo
    echo "make test: the tests failed (exit $status); the failures, from $log:"
    # XCTest's assertion lines ("FILE:LINE: error: SUITE.TEST : …"), a crash's last words ("FILE:LINE: Fatal
    # error: …", SwiftPM's "Exited with unexpected signal code N") and the failed cases.
    grep -iE ': error: |Fatal error|Test Case .* failed|exited with (unexpected )?signal' "$log" |
        sed 's/^/  /' | tail -n 60
    failed=$(grep -cE "^Test Case '.*' failed" "$log")
    echo "make test: $failed test case(s) failed"
    if [ "$failed" = 0 ]; then
        # A crash ends the run inside a test: the last one started and never finished.
        started=$(grep -oE "^Test Case '[^']*' started" "$log" | tail -n 1 | sed "s/^Test Case '\(.*\)' started/\1/")
        [ -n "$started" ] && ! grep -qE "^Test Case '$started' (passed|failed)" "$log" &&
            echo "make test: the run ended inside $started"
    fi
fi
exit "$status"
