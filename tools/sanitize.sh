#!/usr/bin/env bash
# make test-sanitize: the tests under sanitizers; any sanitizer report fails the run.
#
#   tools/sanitize.sh [asan|tsan|all|build-asan] [--filter XCTEST-FILTER]
#
# asan  every unit and command-line test, Swift and the C shims built with AddressSanitizer (LeakSanitizer
#       included) and the C shims also with UndefinedBehaviorSanitizer, no recovery; the command-line tests
#       run the ASan build of facecap itself (FACECAP_BIN). Build in .build/asan.
#       ASAN_SKIP (a `swift test --skip` regular expression) leaves tests out; unset, nothing is left out, so
#       `make test-sanitize` runs every test. .ci/run sets it to the end-to-end wizard suites (see there).
# tsan  the tests where more than one thread runs (the wizard session and its validation worker, the eye worker, the HTTP
#       validator, the camera and recording, and the whole wizard against the test server) under
#       ThreadSanitizer, the binary they start included. Build in .build/tsan.
# Every report goes to .build/sanitize-reports/asan or /tsan (log_path); the run fails when a test fails or a
# report counts (tools/sanitizer_reports.py: every ASan, UBSan and TSan report, and leaks allocated by facecap's
# own code; not XCTest's, Foundation's or the tests' own), and prints each stage's time.
# build-asan  the ASan build alone (.ci/run starts it beside the kernel guest).
# all  both, one after the other, the TSan build beside the ASan tests (start_tsan_build). SANITIZE_PARALLEL=1
#      runs the two modes side by side instead, each one's output in .build/sanitize-logs/MODE.log, printed whole
#      when both are done: not the default, because on the 2-core machine the two sanitized builds side by side
#      took longer than one after the other (the ASan build 987 s beside the TSan one's 588 s, against ~480 s
#      alone in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
filter=""
[ "${2:-}" = --filter ] && filter=$3
reports_root=$PWD/.build/sanitize-reports
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

sanitizer_args() {   # SCRATCH SANITIZER: the swift build/test arguments of that sanitized build
    local scratch=$1 sanitizer=$2
    args=(-c release -Xswiftc -enable-testing --scratch-path "$scratch" -Xswiftc "-sanitize=$sanitizer")
    if [ "$sanitizer" = address ]; then
        args+=(-Xcc -fsanitize=address,undefined -Xcc -fno-sanitize-recover=all -Xcc -fno-omit-frame-pointer)
    else
        args+=(-Xcc "-fsanitize=$sanitizer")
    fi
}

build_sanitized() {   # SCRATCH SANITIZER
    local scratch=$1 args
    sanitizer_args "$1" "$2"
    # --build-tests links the facecap executable too; a second `swift build --product facecap` compiled
    # FaceCapCore again (~100 s under TSan, more under ASan) for the same binary.
    swift build "${args[@]}" --build-tests || return 1
    [ -x "$scratch/release/facecap" ] || { echo "test-sanitize: no $scratch/release/facecap after the build"; return 1; }
    # The sanitized facecap finds the catalogues as the build tree's does (BINDIR/../../locale, from the real
    # path SCRATCH/TRIPLE/release): SCRATCH/locale is .build/locale (made once, before either mode starts).
    ln -sfn "$PWD/.build/locale" "$scratch/locale"
}

test_sanitized() {   # SCRATCH SANITIZER FILTER [SKIP]
    local scratch=$1 tests=$3 skip=${4:-} args
    sanitizer_args "$1" "$2"
    local filter_args=()
    [ -n "$tests" ] && filter_args=(--filter "$tests")
    [ -n "$skip" ] && filter_args+=(--skip "$skip")
    FACECAP_BIN=$PWD/$scratch/release/facecap \
        swift test "${args[@]}" --skip-build --disable-swift-testing "${filter_args[@]}"
}

# `all`, one mode after the other: the ThreadSanitizer build runs while the ASan tests do. The tests keep about one
# processor busy (one XCTest process; the command-line ones mostly wait), so on the 2-core machine the build takes
# the other instead of coming after them (stop 44's CI: ASan build 311 s, its tests 265 s, TSan build 202 s).
# Its output is printed when the TSan mode starts.
tsan_build_pid=""
tsan_build_log=$PWD/.build/sanitize-logs/tsan-build.log

start_tsan_build() {
    mkdir -p "$(dirname "$tsan_build_log")"
    echo "test-sanitize: the ThreadSanitizer build starts beside the ASan tests (output: $tsan_build_log)"
    # In a process group of its own (job control), so that an interrupted run stops it with its compilers.
    set -m
    (
        # Started from the ASan mode: its options are not this build's.
        unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
        started=$SECONDS
        if build_sanitized .build/tsan thread; then
            echo "test-sanitize: ThreadSanitizer build passed in $((SECONDS - started)) s (beside the ASan tests)"
        else
            echo "test-sanitize: ThreadSanitizer build FAILED after $((SECONDS - started)) s"
            exit 1
        fi
    ) >"$tsan_build_log" 2>&1 &
    tsan_build_pid=$!
    set +m
    trap 'kill -- -"$tsan_build_pid" 2>/dev/null; tail -n 20 "$tsan_build_log"; exit 130' INT TERM
}

# Each mode's reports go to their own folder, so the two can run at once; a mode's folder is emptied as it starts.
run_asan() {
    # The mode's own verdict (`stage` and `judge` set it): a failed ASan run does not fail the TSan one.
    local failed=0 reports=$reports_root/asan
    rm -rf "$reports"
    mkdir -p "$reports"
    export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0"
    export UBSAN_OPTIONS="log_path=$reports/asan:print_stacktrace=1:halt_on_error=1"
    # Leaks are reported at exit without changing the exit status: tools/sanitizer_reports.py judges them
    # (the test process itself holds XCTest's and Foundation's, which are not facecap's).
    export LSAN_OPTIONS="exitcode=0"
    [ -n "${ASAN_SKIP:-}" ] && echo "test-sanitize: under ASan, all tests but those matching: $ASAN_SKIP"
    stage "AddressSanitizer build" build_sanitized .build/asan address
    [ "${1:-}" = --then-tsan ] && start_tsan_build
    [ "$failed" = 0 ] && stage "AddressSanitizer + UndefinedBehaviorSanitizer (C shims)" test_sanitized .build/asan \
        address "$filter" "${ASAN_SKIP:-}"
    unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
    judge "$reports"
    return "$failed"
}

run_tsan() {
    local failed=0 reports=$reports_root/tsan
    rm -rf "$reports"
    mkdir -p "$reports"
    export TSAN_OPTIONS="log_path=$reports/tsan:halt_on_error=1:abort_on_error=1"
    # TSAN_TESTS narrows the set (.ci/run leaves out the two command-line suites, ~2.5 min, to fit its budget).
    local threaded="WizardSessionTests|SharedFaceTrackerTests|ParallelEyesTests|ParallelEyesTrackerTests|HTTPValidationTests|CameraTests|CameraRecordingTests|SignalsTests"
    threaded=${TSAN_TESTS:-"$threaded|WizardPlainTests|WizardServerTests"}
    if [ -n "$tsan_build_pid" ]; then
        local build_ok=1
        wait "$tsan_build_pid" || build_ok=0
        trap - INT TERM
        cat "$tsan_build_log"
        [ "$build_ok" = 1 ] || failed=1
    else
        stage "ThreadSanitizer build" build_sanitized .build/tsan thread
    fi
    [ "$failed" = 0 ] &&
        stage "ThreadSanitizer (threaded tests)" test_sanitized .build/tsan thread "${filter:-$threaded}"
    unset TSAN_OPTIONS
    judge "$reports"
    return "$failed"
}

judge() {   # REPORTS: any report that counts fails the mode
    if compgen -G "$1/*" >/dev/null; then
        python3 tools/sanitizer_reports.py "$1" || failed=1
    fi
}

# The catalogues both modes' facecap reads, compiled before they start (msgfmt writes in place: two makes at once
# could let a test read a half-written one).
make --no-print-directory locales >/dev/null

case $mode in
asan) run_asan || failed=1 ;;
build-asan)
    # Only the ASan build, for .ci/run to start early beside the kernel guest; the `all` run
    # after it finds the build done.
    stage "AddressSanitizer build (ahead)" build_sanitized .build/asan address
    [ "$failed" = 0 ] && echo "test-sanitize: built" || echo "test-sanitize: build FAILED"
    exit "$failed"
    ;;
tsan) run_tsan || failed=1 ;;
all)
    if [ "${SANITIZE_PARALLEL:-0}" != 1 ]; then
        run_asan --then-tsan || failed=1
        run_tsan || failed=1
    else
        logs=$PWD/.build/sanitize-logs
        mkdir -p "$logs"
        echo "test-sanitize: ASan and TSan side by side (output in .build/sanitize-logs, printed when both end)"
        # Each run in a process group of its own (job control), so that it can be stopped with its builds and tests.
        set -m
        run_asan >"$logs/asan.log" 2>&1 &
        asan_job=$!
        run_tsan >"$logs/tsan.log" 2>&1 &
        tsan_job=$!
        set +m
        # Interrupted or stopped, the two runs go too, and the end of what they printed so far is shown.
        trap 'kill -- -"$asan_job" -"$tsan_job" 2>/dev/null; tail -n 20 "$logs"/asan.log "$logs"/tsan.log; exit 130' \
            INT TERM
        wait "$asan_job" || failed=1
        wait "$tsan_job" || failed=1
        trap - INT TERM
        for name in asan tsan; do
            echo "----- test-sanitize: $name (.build/sanitize-logs/$name.log)"
            cat "$logs/$name.log"
        done
    fi
    ;;
*) echo "usage: tools/sanitize.sh [asan|tsan|all|build-asan] [--filter XCTEST-FILTER]" >&2; exit 2 ;;
esac

[ "$failed" = 0 ] && echo "test-sanitize: clean" || echo "test-sanitize: FAILED"
exit "$failed"
