#!/usr/bin/env bash
# make test-sanitize: the tests under sanitizers; any sanitizer report fails the run.
#
#   tools/sanitize.sh [asan|tsan|all] [--filter XCTEST-FILTER]
#
# asan  every unit and command-line test, Swift and the C shims built with AddressSanitizer (LeakSanitizer
#       included) and the C shims also with UndefinedBehaviorSanitizer, no recovery; the command-line tests
#       run the ASan build of facecap itself (FACECAP_BIN). Build in .build/asan.
#       ASAN_SKIP (a `swift test --skip` regular expression) leaves tests out; unset, nothing is left out, so
#       `make test-sanitize` runs every test. .ci/run sets it to the end-to-end wizard suites (see there).
# tsan  the tests where more than one thread runs (the wizard session and its validation worker, the eye worker, the HTTP
#       validator, the camera and recording, and the whole wizard against the test server) under
#       ThreadSanitizer, the binary they start included. Build in .build/tsan.
# Every report goes to .build/sanitize-reports (log_path); the run fails when a test fails or a report
# counts (tools/sanitizer_reports.py: every ASan, UBSan and TSan report, and leaks allocated by facecap's
# own code; not XCTest's, Foundation's or the tests' own), and prints each stage's time.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
filter=""
[ "${2:-}" = --filter ] && filter=$3
reports=$PWD/.build/sanitize-reports
rm -rf "$reports"
mkdir -p "$reports"
export FACECAP_MODEL_DIR=${FACECAP_MODEL_DIR:-$PWD/models}
# The Swift runtime's backtracer would catch the sanitizers' own aborts first.
export SWIFT_BACKTRACE=enable=no
failed=0

stage() {
    local name=$1 started=$SECONDS
    shift
    echo "test-sanitize: $name"
    if "$@"; then
        echo "test-sanitize: $name passed in $((SECONDS - started)) s"
    else
        echo "test-sanitize: $name FAILED after $((SECONDS - started)) s"
        failed=1
    fi
}

run_tests() {   # SCRATCH SANITIZER FILTER [SKIP]
    local scratch=$1 sanitizer=$2 tests=$3 skip=${4:-}
    local args=(-c release -Xswiftc -enable-testing --scratch-path "$scratch" -Xswiftc "-sanitize=$sanitizer")
    if [ "$sanitizer" = address ]; then
        args+=(-Xcc -fsanitize=address,undefined -Xcc -fno-sanitize-recover=all -Xcc -fno-omit-frame-pointer)
    else
        args+=(-Xcc "-fsanitize=$sanitizer")
    fi
    swift build "${args[@]}" --build-tests && swift build "${args[@]}" --product facecap || return 1
    # The sanitized facecap finds the catalogues as the build tree's does (BINDIR/../../locale, from the real
    # path SCRATCH/TRIPLE/release): SCRATCH/locale is .build/locale.
    make --no-print-directory locales >/dev/null || return 1
    ln -sfn "$PWD/.build/locale" "$scratch/locale"
    local filter_args=()
    [ -n "$tests" ] && filter_args=(--filter "$tests")
    [ -n "$skip" ] && filter_args+=(--skip "$skip")
    FACECAP_BIN=$PWD/$scratch/release/facecap \
        swift test "${args[@]}" --skip-build --disable-swift-testing "${filter_args[@]}"
}

if [ "$mode" = asan ] || [ "$mode" = all ]; then
    export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0"
    export UBSAN_OPTIONS="log_path=$reports/asan:print_stacktrace=1:halt_on_error=1"
    # Leaks are reported at exit without changing the exit status: tools/sanitizer_reports.py judges them
    # (the test process itself holds XCTest's and Foundation's, which are not facecap's).
    export LSAN_OPTIONS="exitcode=0"
    [ -n "${ASAN_SKIP:-}" ] && echo "test-sanitize: under ASan, all tests but those matching: $ASAN_SKIP"
    stage "AddressSanitizer + UndefinedBehaviorSanitizer (C shims)" run_tests .build/asan address "$filter" \
        "${ASAN_SKIP:-}"
    unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
fi
if [ "$mode" = tsan ] || [ "$mode" = all ]; then
    export TSAN_OPTIONS="log_path=$reports/tsan:halt_on_error=1:abort_on_error=1"
    # TSAN_TESTS narrows the set (.ci/run leaves out the two command-line suites, ~2.5 min, to fit its budget).
    threaded="WizardSessionTests|SharedFaceTrackerTests|ParallelEyesTests|ParallelEyesTrackerTests|HTTPValidationTests|CameraTests|CameraRecordingTests|SignalsTests"
    threaded=${TSAN_TESTS:-"$threaded|WizardPlainTests|WizardServerTests"}
    stage "ThreadSanitizer (threaded tests)" run_tests .build/tsan thread "${filter:-$threaded}"
    unset TSAN_OPTIONS
fi

if compgen -G "$reports/*" >/dev/null; then
    python3 tools/sanitizer_reports.py "$reports" || failed=1
fi
[ "$failed" = 0 ] && echo "test-sanitize: clean" || echo "test-sanitize: FAILED"
exit "$failed"
