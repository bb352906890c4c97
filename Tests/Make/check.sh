#!/usr/bin/env bash
# The Makefile as a new user meets it, run at the end of `make test` (after both builds are up to date):
#  - `make run` and `make test` keep separate build folders, so neither recompiles the other's work: with nothing
#    changed, building both again compiles and links nothing;
#  - `make run` with no camera ends with facecap's own message, not make's "*** Error 69";
#  - `make deps` counts a package whose triggers are pending as installed, and waits for another apt's lock
#    (a fake dpkg-query and apt-get on PATH: nothing is installed);
#  - no function over 80 lines or file over 500 unless tools/style-exceptions.txt lists it with a reason.
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

# make deps, against a fake dpkg-query (statuses from $FAKE_STATUS) and apt-get (logs its arguments; `update`
# fails on the lists lock $FAKE_LOCKED times first).
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
cat >"$fake/dpkg-query" <<'FAKE'
#!/bin/sh
for p; do :; done
status=$(sed -n "s/^$p=//p" "$FAKE_STATUS")
[ -n "$status" ] || exit 1
printf '%s\n' "$status"
FAKE
cat >"$fake/apt-get" <<'FAKE'
#!/bin/sh
echo "apt-get $*" >>"$FAKE_LOG"
case " $* " in *" update "*)
    n=$(cat "$FAKE_COUNT" 2>/dev/null || echo 0); echo $((n + 1)) >"$FAKE_COUNT"
    if [ "$n" -lt "$FAKE_LOCKED" ]; then
        echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2; exit 100
    fi;;
esac
exit 0
FAKE
chmod +x "$fake/dpkg-query" "$fake/apt-get"
deps() {  # deps STATUS-LINES LOCKED-TIMES: runs make deps with one package, prints apt-get's calls
    printf '%s\n' "$1" >"$fake/status"; : >"$fake/log"; rm -f "$fake/count"
    PATH="$fake:$PATH" FAKE_STATUS="$fake/status" FAKE_LOG="$fake/log" FAKE_COUNT="$fake/count" FAKE_LOCKED=$2 \
        APT_LOCK_RETRY=0 $make --no-print-directory deps DEB_PACKAGES=facecap-fake SUDO= >"$fake/out" 2>&1
    echo "rc=$?"; cat "$fake/log"
}
for status in "install ok installed" "install ok triggers-pending" "install ok triggers-awaited"; do
    calls=$(deps "facecap-fake=$status" 0)
    [ "$calls" = "rc=0" ] || fail "make deps took a package that is '$status' for missing: $calls"
done
calls=$(deps "facecap-fake=deinstall ok config-files" 0)
grep -q "install -y -qq facecap-fake" <<<"$calls" || fail "make deps did not install a missing package: $calls"
calls=$(deps "" 2)
[ "$(grep -c ' update ' <<<"$calls")" = 3 ] || fail "make deps did not try apt-get update again while another apt held its lock: $calls"
grep -q "^rc=0" <<<"$calls" || fail "make deps failed although the lock came free: $calls $(cat "$fake/out")"
grep -q "DPkg::Lock::Timeout=[0-9]* install" <<<"$calls" || fail "apt-get install does not wait for the dpkg lock: $calls"
calls=$(APT_LOCK_TIMEOUT=0 deps "" 1000)
grep -q "^rc=0" <<<"$calls" && fail "make deps went on although the lock never came free: $calls"
grep -q "install" <<<"$calls" && fail "make deps installed although apt-get update failed: $calls"

# The house style's size rules: no function over 80 lines, no file over 500, unless listed with a reason.
style=$(python3 tools/style_check.py 2>&1) || fail "$style"

# The house layout: swift-format (in the Swift toolchain) with .swift-format finds nothing to change.
lint=$(swift format lint --strict --recursive --parallel Sources Tests Package.swift 2>&1) ||
    fail "swift format lint: run make format; $(head -20 <<<"$lint")"

# Every known mutation (make mutate) still finds the text it changes.
mutations=$(python3 tools/mutate.py --check 2>&1) || fail "$mutations"

[ "$failures" = 0 ] && echo "Tests/Make/check.sh: make run and make test keep to their own builds; make run adds no noise; make deps waits for apt and knows pending triggers; no function or file over the style's limits unlisted; the layout is swift-format's; every mutation still applies"
exit "$failures"
