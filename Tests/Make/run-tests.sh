#!/usr/bin/env bash
# make test's test run: `swift test` with its whole output shown as it goes and kept in .build-test/test.log; when
# a test fails, the run ends with the failing tests' names and their assertion lines, so the cause is in the last
# lines of a long log (CI shows the end). Arguments go to `swift test` ($SWIFT, default swift).
#
# The command-line suites (FaceCapCLITests: facecap run as a person or a script runs it) mostly wait: on clips
# replayed at their own frame rate, on tmux, on a validation server's scripted delays (198 s of wall time for 28 s
# of processor time on the 2-core machine). They run beside the others, straight from the same test bundle: a
# second `swift test` would wait for the first one's lock on the build folder. Their output goes to a log of its
# own (.build-test/test-cli.log), printed whole once both halves are done; test.log holds both. Given --filter or
# --skip, or without a built bundle, everything runs in one `swift test` as before.
set -uo pipefail
cd "$(dirname "$0")/../.."
log=.build-test/test.log
cli_log=.build-test/test-cli.log
main_log=.build-test/test-main.log
mkdir -p "$(dirname "$log")"

# Split only a run of a bundle already built (--skip-build, as make test runs it): a `swift test` that builds would
# rebuild the bundle the other half is running.
scratch=.build configuration=debug split=1 built=0
arguments=("$@")
for ((i = 0; i < ${#arguments[@]}; i++)); do
    case ${arguments[i]} in
        --scratch-path) scratch=${arguments[i + 1]-} ;;
        --scratch-path=*) scratch=${arguments[i]#*=} ;;
        -c | --configuration) configuration=${arguments[i + 1]-} ;;
        --configuration=*) configuration=${arguments[i]#*=} ;;
        --filter | --skip | --filter=* | --skip=*) split=0 ;;
        --skip-build) built=1 ;;
    esac
done
bundle=$scratch/$configuration/facecapPackageTests.xctest
cli_suites=""
if [ "$split" = 1 ] && [ "$built" = 1 ] && [ -x "$bundle" ]; then
    # The bundle's test classes in that module, as XCTest's own filter takes them (Module.Class, comma-separated).
    cli_suites=$("$bundle" --list-tests 2>/dev/null | grep -oE '^FaceCapCLITests\.[A-Za-z0-9_]+' | sort -u |
        paste -sd, -)
fi

cli_pid=""
# Interrupted, the half in the background goes too.
trap '[ -n "$cli_pid" ] && kill "$cli_pid" 2>/dev/null; exit 130' INT
trap '[ -n "$cli_pid" ] && kill "$cli_pid" 2>/dev/null; exit 143' TERM
# test.log is written when the run ends (both halves, one after the other); the halves' own logs as they go.
rm -f "$cli_log" "$main_log" "$log"
if [ -n "$cli_suites" ]; then
    echo "make test: the command-line suites run beside the others; their log follows the others' ($cli_log)"
    "$bundle" "$cli_suites" >"$cli_log" 2>&1 &
    cli_pid=$!
    "${SWIFT:-swift}" test "$@" --skip '^FaceCapCLITests\.' 2>&1 | tee "$main_log"
    status=${PIPESTATUS[0]}
    wait "$cli_pid"
    cli_status=$?
    echo
    echo "make test: the command-line suites (exit $cli_status):"
    cat "$cli_log"
    cat "$main_log" "$cli_log" >"$log"
    [ "$status" = 0 ] && status=$cli_status
else
    "${SWIFT:-swift}" test "$@" 2>&1 | tee "$main_log"
    status=${PIPESTATUS[0]}
    cp "$main_log" "$log"
fi

if [ "$status" != 0 ]; then
    echo
    echo "make test: the tests failed (exit $status); the failures, from $log:"
    # XCTest's assertion lines ("FILE:LINE: error: SUITE.TEST : …"), a crash's last words ("FILE:LINE: Fatal
    # error: …", SwiftPM's "Exited with unexpected signal code N") and the failed cases.
    grep -iE ': error: |Fatal error|Test Case .* failed|exited with (unexpected )?signal' "$log" |
        sed 's/^/  /' | tail -n 60
    failed=$(grep -cE "^Test Case '.*' failed" "$log")
    echo "make test: $failed test case(s) failed"
    # A crash ends a half inside a test: the last one started and never finished. The command-line half runs the
    # bundle itself, so its crash shows only as its exit status (128 + the signal).
    [ -n "$cli_pid" ] && [ "$cli_status" -gt 128 ] &&
        echo "make test: the command-line suites ended by signal $((cli_status - 128))"
    for part in "$main_log" "$cli_log"; do
        [ -f "$part" ] || continue
        started=$(grep -oE "^Test Case '[^']*' started" "$part" | tail -n 1 |
            sed "s/^Test Case '\(.*\)' started/\1/")
        [ -n "$started" ] && ! grep -qE "^Test Case '$started' (passed|failed)" "$part" &&
            echo "make test: the run ended inside $started"
    done
fi
exit "$status"
