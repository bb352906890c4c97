#!/usr/bin/env bash
# The Makefile as a new user meets it, run at the end of `make test` (after both builds are up to date):
#  - `make run` and `make test` keep separate build folders, so neither recompiles the other's work: with nothing
#    changed, building both again compiles and links nothing;
#  - `make run` with no camera ends with facecap's own message, not make's "*** Error 69".
set -uo pipefail
cd "$(dirname "$0")/../.."
make=${MAKE:-make}
failures=0
fail() { echo "Tests/Make/check.sh: FAIL: $*" >&2; failures=$((failures + 1)); }

rebuilt=$($make --no-print-directory build build-tests 2>&1) || fail "make build build-tests failed: $rebuilt"
if grep -E '(Compiling|Linking) ' <<<"$rebuilt"; then
    fail "with nothing changed, 'make build build-tests' recompiled (make run and make test share a build?)"
fi

run=$($make --no-print-directory run ARGS="--plain --no-tutorial --device /dev/facecap-no-such-camera" 2>&1)
status=$?
last=$(tail -n 1 <<<"$run")
[ "$status" = 0 ] || fail "make run exited $status (make's own status; facecap's code is its own business)"
[[ $last == "facecap: no camera at /dev/facecap-no-such-camera"* ]] || fail "make run's last line is not facecap's: $last"
if grep -q 'make.*\*\*\*\|Error 69' <<<"$run"; then fail "make adds its own error after facecap's: $run"; fi
if grep -q '^\.build/release/facecap' <<<"$run"; then fail "make echoes the command before facecap's output: $run"; fi

[ "$failures" = 0 ] && echo "Tests/Make/check.sh: make run and make test keep to their own builds; make run adds no noise"
exit "$failures"
