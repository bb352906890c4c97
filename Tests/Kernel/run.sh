#!/usr/bin/env bash
# Real-kernel V4L2 tests: boots Debian's own kernel under qemu (software emulation) with the vivid
# test driver as a webcam, and runs Tests/Kernel/guest.sh inside it against the facecap build.
#
#   Tests/Kernel/run.sh [--binary PATH] [--timeout SECONDS] [--only GLOB] [--set NAME=VALUE]… [--slow SHIFT]
#   Tests/Kernel/run.sh --prepare
#
# --prepare does only what comes before the boot (the packages, the kernel, the initramfs) and exits: .ci/run
# runs it before it starts the guest beside other stages, so that no apt runs beside another.
# PATH is the facecap binary relative to the repository (default .build/release/facecap). The guest
# sees this machine's root read-only over virtio-9p, so it runs the very binaries built here. GLOB
# selects scenarios by name (e.g. 'wizard*'; see Tests/Kernel/expected-checks). --set hands a setting
# to guest.sh: soak_seconds (wizard_soak, default 180), soak_warm_frames and soak_frames (its warm-up and the
# frames after it, default 60 and 90), signal_runs (wizard_signals, default 12), signal_seed (default random). --slow SHIFT makes the guest slow on purpose, to show that no check fails for
# speed alone: qemu's `-icount shift=SHIFT,sleep=on` gives each guest instruction 2^SHIFT ns of the guest's
# time, so its processor runs as if it were that slow, whatever the host, while time spent idle (waiting for the
# host's files over 9p) passes as it does (with sleep=off it jumped to the next timer, and loading a model took
# minutes of the guest's time). The guest then has one processor: Debian's kernel hangs bringing up a second
# one under -icount (qemu 7.2), as it does under KVM on these machines.
# Prints one PASS/FAIL line per check and a last line `N passed, N failed`; exits non-zero when a
# check fails, when a check listed in Tests/Kernel/expected-checks is missing or an unlisted one
# appears, or when the guest does not report (boot failure, crash, timeout).
#
# Nothing is installed into /boot: the kernel package is downloaded and unpacked into
# .cache/kernel (git-ignored); the initramfs is built there once and rebuilt when the kernel package
# or Tests/Kernel/init.sh changes.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
binary=.build/release/facecap
# Bounds on a hang, not on speed: the guest's whole run took 453-639 s on a quiet 2-core machine under TCG (no
# KVM), 688 s on a host that emulates floating point slowly, and over 900 s on that host when it was loaded, so the
# whole run may take 2400 s; and a guest that prints nothing on its console for `stall_seconds` (900) is stopped as
# hung (every check prints a line, and no passing step is silent for that long, however slow the guest).
timeout_seconds=${KERNEL_TEST_TIMEOUT:-2400}
stall_seconds=900
guest_args=()
only="*"
# The number of signal runs the guest makes (guest.sh's default): expected-checks counts per run by it.
signal_runs=12
# Extra qemu arguments and the guest's processors (--slow).
qemu_extra=()
smp=2
prepare=0

while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary=$2; shift 2 ;;
        --prepare) prepare=1; shift ;;
        --timeout) timeout_seconds=$2; shift 2 ;;
        --only) only=$2; guest_args+=("only=$2"); shift 2 ;;
        --set)
            case "$2" in
                signal_runs=*|soak_seconds=*|soak_warm_frames=*|soak_frames=*|signal_seed=*)
                    [[ ${2#*=} =~ ^[0-9]+$ ]] || { echo "error: --set $2: the value is a whole number" >&2; exit 64; }
                    [[ $2 == signal_runs=* ]] && signal_runs=${2#signal_runs=}
                    guest_args+=("$2") ;;
                *) echo "error: --set takes soak_seconds=N, soak_warm_frames=N, soak_frames=N, signal_runs=N or" \
                       "signal_seed=N, not $2" >&2; exit 64 ;;
            esac
            shift 2 ;;
        --slow)
            [[ $2 =~ ^[0-9]+$ ]] || { echo "error: --slow $2: the shift is a whole number" >&2; exit 64; }
            qemu_extra=(-icount "shift=$2,sleep=on"); smp=1; shift 2 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) echo "error: unknown argument $1 (see $0 --help)" >&2; exit 64 ;;
    esac
done

cache="$repo/.cache/kernel"
marker='@@KTEST@@'
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo

say() { echo "test-kernel: $*"; }
die() { echo "test-kernel: error: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

# The checks each scenario must report (see that file); an --only that selects no scenario is an error.
expected_checks="$here/expected-checks"
selected_scenarios() {
    local scenario name least
    while read -r scenario name least; do
        case "$scenario" in ''|'#'*|-) continue ;; esac
        # shellcheck disable=SC2053
        [[ $scenario == $only ]] && echo "$scenario"
    done < "$expected_checks" | sort -u
}
[ -f "$expected_checks" ] || die "$expected_checks is missing"
[ -n "$(selected_scenarios)" ] || die "--only '$only' selects no scenario (see Tests/Kernel/expected-checks)"

case "$repo$binary" in
    *[[:space:],]*) die "the repository path and --binary must not contain spaces or commas ($repo, $binary)" ;;
esac
[ -x "$repo/$binary" ] || die "$repo/$binary is not an executable; build it first (make build)"

# --- Packages ------------------------------------------------------------------------------------
# qemu and busybox boot the guest; cpio and kmod (depmod) build the initramfs; the guest script
# drives v4l2-ctl, setpriv, strace, python3 and tmux from this machine's root.
packages=(qemu-system-x86 busybox-static cpio kmod v4l-utils util-linux strace python3 coreutils tmux)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        -o DPkg::Lock::Timeout=600 "${missing[@]}" >/dev/null
fi

# --- Kernel package ------------------------------------------------------------------------------
# The kernel is the one Debian's linux-image-amd64 depends on today; when that moves on, the new
# package is fetched and the old one is dropped from the cache.
mkdir -p "$cache"
# (awk reads to the end: leaving early could kill apt-cache with SIGPIPE, which pipefail would report.)
kernel_package() {
    apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ && !found { print $2; found = 1 }'
}
package=$(kernel_package)
if [ -z "$package" ]; then
    $sudo apt-get update -qq || true
    package=$(kernel_package)
fi
deb=""
if [ -n "$package" ]; then
    deb=$(ls -t "$cache/${package}"_*.deb 2>/dev/null | head -n 1 || true)
    if [ -z "$deb" ]; then
        say "downloading $package"
        # apt's sandbox user cannot write into a root-owned cache folder; a temporary directory it
        # can write to avoids the warning and works the same unprivileged.
        download=$(mktemp -d)
        chmod 0777 "$download"
        if ! (cd "$download" && apt-get download -qq "$package" 2>/dev/null); then
            $sudo apt-get update -qq || true
            (cd "$download" && apt-get download -qq "$package") || die "could not download $package with apt-get"
        fi
        mv "$download"/*.deb "$cache/"
        rmdir "$download"
        deb=$(ls -t "$cache/${package}"_*.deb | head -n 1)
    fi
else
    # No apt metadata (offline): whatever kernel was cached last still proves the same behaviour.
    deb=$(ls -t "$cache"/linux-image-*.deb 2>/dev/null | head -n 1 || true)
    [ -n "$deb" ] || die "cannot tell which kernel package linux-image-amd64 depends on (apt-get update failed?)"
fi
kernel_id=$(basename "$deb" .deb)
tree="$cache/$kernel_id"

for old in "$cache"/linux-image-*; do
    case "$old" in "$deb"|"$tree"|"$tree".*) ;; *) rm -rf "$old" ;; esac
done

if [ ! -f "$tree/.unpacked" ]; then
    say "unpacking $kernel_id"
    rm -rf "$tree"
    mkdir -p "$tree"
    dpkg-deb -x "$deb" "$tree"
    touch "$tree/.unpacked"
fi
kver=$(ls "$tree/lib/modules" | head -n 1)
[ -n "$kver" ] && [ -f "$tree/boot/vmlinuz-$kver" ] || die "$deb holds no kernel image and modules"
moddir="$tree/lib/modules/$kver"
[ -f "$moddir/modules.dep" ] || depmod -b "$tree" "$kver"

# Load order of a module and everything it needs, deepest dependency first, from modules.dep
# (whose dependency lists load correctly in reverse). Built-in modules need no loading.
load_order() {
    awk -v want="$*" '
        BEGIN { n = split(want, names, " ") }
        {
            sub(":", "", $1)
            file = $1; base = file; sub(".*/", "", base); sub("\\.ko(\\.[a-z]+)?$", "", base)
            gsub("-", "_", base); deps[base] = ""
            for (i = NF; i >= 2; i--) deps[base] = deps[base] " " $i
            path[base] = file
        }
        END {
            for (k = 1; k <= n; k++) {
                name = names[k]; gsub("-", "_", name)
                if (!(name in path)) { print "missing " name; continue }
                m = split(deps[name], list, " ")
                for (i = 1; i <= m; i++) if (!(list[i] in seen)) { seen[list[i]] = 1; print list[i] }
                if (!(path[name] in seen)) { seen[path[name]] = 1; print path[name] }
            }
        }' "$moddir/modules.dep"
}

# The initramfs needs what mounts the host's root; the media modules are loaded by the guest script.
boot_modules=$(load_order virtio_pci 9pnet_virtio 9p)
for m in $(awk '$1 == "missing" { print $2 }' <<<"$boot_modules"); do
    grep -Eq "/${m//_/[-_]}\.ko" "$moddir/modules.builtin" || die "$kver has no module $m, not even built in"
done
boot_modules=$(grep -v '^missing' <<<"$boot_modules" || true)
media_modules=$(load_order vivid)
grep -q '^missing' <<<"$media_modules" && die "$kver ships no vivid module"
printf '%s\n' "$media_modules" > "$cache/$kernel_id.media-modules"

# --- Initramfs -----------------------------------------------------------------------------------
stamp="$kernel_id $(sha256sum "$here/init.sh" | cut -c1-16) $(echo "$boot_modules" | sha256sum | cut -c1-16)"
initrd="$cache/$kernel_id.initrd.gz"
if [ ! -f "$initrd" ] || [ "$(cat "$initrd.stamp" 2>/dev/null)" != "$stamp" ]; then
    say "building the initramfs for $kver"
    staging=$(mktemp -d)
    trap 'rm -rf "$staging"' EXIT
    mkdir -p "$staging"/{bin,dev,proc,sys,modules,root}
    cp /bin/busybox "$staging/bin/busybox"
    install -m 0755 "$here/init.sh" "$staging/init"
    : > "$staging/modules/order"
    while read -r module; do
        name=$(basename "$module")
        case "$name" in
            *.ko) cp "$moddir/$module" "$staging/modules/$name" ;;
            *.ko.xz) xz -dc "$moddir/$module" > "$staging/modules/${name%.xz}"; name=${name%.xz} ;;
            *.ko.zst) zstd -qdc "$moddir/$module" > "$staging/modules/${name%.zst}"; name=${name%.zst} ;;
            *) die "unknown module file type: $module" ;;
        esac
        echo "$name" >> "$staging/modules/order"
    done <<<"$boot_modules"
    (cd "$staging" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd.tmp"
    mv "$initrd.tmp" "$initrd"
    echo "$stamp" > "$initrd.stamp"
    rm -rf "$staging"
    trap - EXIT
fi

if [ "$prepare" = 1 ]; then
    say "prepared: packages installed, $kver's kernel and initramfs in ${cache#"$repo"/}"
    exit 0
fi

# --- Boot and report -----------------------------------------------------------------------------
# FACECAP_KERNEL_LOG: another file for the console log, so that runs from two checkouts sharing one cache do not
# write (and count the checks of) the same file.
log="${FACECAP_KERNEL_LOG:-$cache/last-run.log}"
: > "$log"
guest_args+=("binary=$binary" "modules=.cache/kernel/$kernel_id.media-modules" "moddir=${moddir#"$repo"/}")
args=$(IFS=,; echo "${guest_args[*]}")
say "booting $kver under qemu (TCG); console log in ${log#"$repo"/}"
# What sets the guest's speed (guest/speed): the host's processor and the emulator's version.
say "host: $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) cores;" \
    "$(qemu-system-x86_64 --version | head -n 1)"
[ ${#qemu_extra[@]} = 0 ] || say "the guest is slowed on purpose: ${qemu_extra[*]}, $smp processor"
start=$(date +%s)
set +e
# TCG, not KVM: these machines are virtual themselves and nested KVM hangs. -cpu max gives the guest
# AVX2/FMA, which the release build requires. The console goes to the log a line at a time (stdbuf), so the
# progress below is live rather than in 4 KB bursts.
timeout --kill-after=10 "$timeout_seconds" qemu-system-x86_64 \
    -accel tcg -cpu max -smp "$smp" -m 2048 -nodefaults -no-user-config -display none -no-reboot "${qemu_extra[@]}" \
    -serial stdio -monitor none \
    -kernel "$tree/boot/vmlinuz-$kver" -initrd "$initrd" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1 FACECAP_REPO=$repo FACECAP_GUEST=Tests/Kernel/guest.sh FACECAP_ARGS=$args" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    </dev/null 2>&1 | stdbuf -oL tr -d '\r' > "$log" &
qemu_pipeline=$!
# The stall watchdog: qemu is stopped when the console log has not grown for stall_seconds.
(
    while kill -0 "$qemu_pipeline" 2>/dev/null; do
        sleep 10
        if [ $(( $(date +%s) - $(stat -c %Y "$log") )) -ge "$stall_seconds" ]; then
            echo "test-kernel: the guest printed nothing for ${stall_seconds}s: stopping it as hung" >&2
            pkill -f "FACECAP_REPO=$repo FACECAP_GUEST=" 2>/dev/null
            break
        fi
    done
) &
watchdog=$!
# Live progress: each result as the guest prints it.
tail -n +1 -f --pid="$qemu_pipeline" "$log" 2>/dev/null | awk -v m="$marker" '
    $1 == m && ($2 == "PASS" || $2 == "FAIL") {
        msg = ""; for (i = 4; i <= NF; i++) msg = msg (i > 4 ? " " : "") $i
        print $2 " " $3 ": " msg
        fflush()
    }
    $1 == m && $2 == "TIME" { print "test-kernel: scenario " $3 " took " $4 " s in the guest"; fflush() }'
wait "$qemu_pipeline"
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null
set -e
elapsed=$(( $(date +%s) - start ))

passed=$(awk -v m="$marker" '$1 == m && $2 == "PASS"' "$log" | wc -l)
failed=$(awk -v m="$marker" '$1 == m && $2 == "FAIL"' "$log" | wc -l)

# Every check the selected scenarios must report is there (as often as listed), and nothing else.
reported=$(awk -v m="$marker" '$1 == m && ($2 == "PASS" || $2 == "FAIL") { print $3 }' "$log")
missing="" unexpected="" globs=()
while read -r scenario name least; do
    case "$scenario" in ''|'#'*) continue ;; esac
    globs+=("$name")
    # shellcheck disable=SC2053
    [ "$scenario" = - ] || [[ $scenario == $only ]] || continue
    [ "$least" = signal_runs ] && least=$signal_runs
    count=0
    while read -r check; do
        # shellcheck disable=SC2053
        [[ -n $check && $check == $name ]] && count=$((count + 1))
    done <<<"$reported"
    [ "$count" -ge "$least" ] || missing="$missing $name ($count of at least $least)"
done < "$expected_checks"
while read -r check; do
    [ -n "$check" ] || continue
    known=""
    for name in "${globs[@]}"; do
        # shellcheck disable=SC2053
        [[ $check == $name ]] && { known=yes; break; }
    done
    [ -n "$known" ] || unexpected="$unexpected $check"
done < <(sort -u <<<"$reported")
if grep -q "^$marker END" "$log" && [ -n "$missing" ]; then
    echo "FAIL run/expected-checks: not reported:$missing"
    failed=$((failed + 1))
fi
if [ -n "$unexpected" ]; then
    echo "FAIL run/expected-checks: not listed in Tests/Kernel/expected-checks:$unexpected"
    failed=$((failed + 1))
fi

if ! grep -q "^$marker END" "$log"; then
    echo "FAIL guest: the guest stopped without finishing its checks after ${elapsed}s" \
        "(timeout ${timeout_seconds}s, silent for ${stall_seconds}s at most, kernel panic or a crashed script);" \
        "last console lines:"
    grep -v "^$marker" "$log" | tail -n 25 | sed 's/^/    | /'
    failed=$((failed + 1))
elif [ "$failed" -gt 0 ]; then
    echo "Console log of the failing run: ${log#"$repo"/}"
fi
say "guest ran for ${elapsed}s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
