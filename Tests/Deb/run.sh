#!/usr/bin/env bash
# make test-deb: installs facecap_VERSION_ARCH.deb into a clean root of a distribution that has no Swift toolchain
# and runs facecap there as a new user would.
#
#   [SUITE=bookworm|trixie|forky|sid|jammy|noble] [MIRROR=URL] [KEYRING=FILE] Tests/Deb/run.sh PACKAGE.deb
#
# SUITE (default bookworm, Debian 12, the one CI runs) names the distribution: Debian's bookworm (12), trixie (13),
# forky (testing) or sid, or Ubuntu's jammy (22.04) or noble (24.04). The root is a minbase made by mmdebstrap
# (plus man-db, to answer `man -w`, and the archive's keyring) from MIRROR: for Debian the archive this machine's
# apt sources name (its security archive beside it), for Ubuntu http://archive.ubuntu.com/ubuntu, components main
# and universe, checked with KEYRING (default /usr/share/keyrings/ubuntu-archive-keyring.gpg, from the
# ubuntu-keyring package: Debian 13, bookworm-backports, Ubuntu). Released suites get their -updates and -security
# too, as a user's machine has them. The root is cached as .cache/deb-root/base-SUITE-*.tar and rebuilt when the
# sources change or the cache is a week old.
# Each run unpacks a fresh copy, installs the package with apt-get (which fetches exactly the Depends; downloaded
# .debs are cached in .cache/deb-root/archives-SUITE), then checks: no swift anywhere, every library resolved,
# --version, --help, man -w, bash completion, analyze and analyze --json on a fixture photo, the --plain wizard
# replaying a clip to the end (photo accepted and saved, exit 0), and the same wizard uploading to the test server
# (Tests/Support/validation_server.py, run on this machine's loopback, which the chroot shares). When apt-get
# cannot install the package, apt's own lines are printed (the unmet dependency, the missing package). Needs root
# (chroot and mounts) and the archive's network the first time.
set -euo pipefail
cd "$(dirname "$0")/../.."
deb=${1:?usage: [SUITE=…] Tests/Deb/run.sh PACKAGE.deb}
suite=${SUITE:-bookworm}
case $suite in
    bookworm) family=debian name="Debian 12" ;;
    trixie) family=debian name="Debian 13" ;;
    forky) family=debian name="Debian testing (forky)" ;;
    sid | unstable) suite=sid family=debian name="Debian sid" ;;
    jammy) family=ubuntu name="Ubuntu 22.04" ;;
    noble) family=ubuntu name="Ubuntu 24.04" ;;
    *) echo "test-deb: SUITE=$suite is none of bookworm, trixie, forky, sid, jammy, noble" >&2; exit 1 ;;
esac
say() { echo "test-deb [$suite]: $*"; }
fail() { echo "test-deb [$suite]: $*" >&2; exit 1; }
[ -f "$deb" ] || fail "$deb not found (make deb builds it)"
[ "$(id -u)" = 0 ] || fail "needs root for chroot and mounts; run it as root (or with sudo)"
command -v mmdebstrap >/dev/null || fail "mmdebstrap is missing (make deb installs it)"

cache=$PWD/.cache/deb-root
archives=$cache/archives-$suite
stage_start=$(date +%s.%N)
stage() {   # prints how long the previous stage took
    local now
    now=$(date +%s.%N)
    awk -v a="$stage_start" -v b="$now" -v what="$1" -v s="$suite" \
        'BEGIN { printf "test-deb [%s]: %-52s %6.1f s\n", s, what, b - a }'
    stage_start=$now
}
failures=0
check() {   # check DESCRIPTION COMMAND…: runs COMMAND, reports, counts failures
    local what=$1
    shift
    if "$@"; then echo "  ok   [$suite] $what"; else echo "  FAIL [$suite] $what" >&2; failures=$((failures + 1)); fi
}

# The archive: Debian's from this machine's apt sources (the same mirror for another suite), Ubuntu's by default
# from archive.ubuntu.com. One-line sources with signed-by, as mmdebstrap writes them into the root.
host_uri() {   # host_uri PATTERN: the first URI of this machine's apt sources that matches PATTERN
    local file
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] && grep -v '^[[:space:]]*#' "$file"
    done | grep -oE "https?://[^][ ]*$1/?([[:space:]]|$)" | head -1 | tr -d '[:space:]' | sed 's:/$::' || true
}
released=yes
if [ "$family" = debian ]; then
    mirror=${MIRROR:-$(host_uri '/debian')}
    mirror=${mirror:-http://deb.debian.org/debian}
    security=${SECURITY_MIRROR:-$(host_uri '/debian-security')}
    security=${security:-${mirror%/debian}/debian-security}
    keyring=${KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
    keyring_package=debian-archive-keyring components=main
    case $suite in forky | sid) released=no ;; esac
else
    mirror=${MIRROR:-http://archive.ubuntu.com/ubuntu}
    security=${SECURITY_MIRROR:-$mirror}
    keyring=${KEYRING:-/usr/share/keyrings/ubuntu-archive-keyring.gpg}
    keyring_package=ubuntu-keyring components="main universe"
fi
[ -s "$keyring" ] || fail "no archive keyring at $keyring: install the $keyring_package package (for Ubuntu's:" \
    "Debian 13's or bookworm-backports' ubuntu-keyring) or name the file with KEYRING=…"
mkdir -p "$archives/partial"
sources=$cache/sources-$suite.list
{
    echo "deb [signed-by=$keyring] $mirror $suite $components"
    if [ "$released" = yes ]; then
        echo "deb [signed-by=$keyring] $mirror $suite-updates $components"
        echo "deb [signed-by=$keyring] $security $suite-security $components"
    fi
} > "$sources.new"
mv "$sources.new" "$sources"
stamp=$( (cat "$sources"; sha256sum "$keyring"; echo "${ALLOW_EXPIRED:-}") | sha256sum | cut -c1-16)
base=$cache/base-$suite-$stamp.tar
say "$name from $mirror ($(wc -l < "$sources") apt source lines, $(basename "$keyring"))"
# ALLOW_EXPIRED=1: a mirror that copies sid or testing less often than their Release files' week of Valid-Until
# serves them expired, and apt refuses them; this tells apt in the root to accept them.
expired=()
[ "${ALLOW_EXPIRED:-}" != 1 ] || expired=(--aptopt='Acquire::Check-Valid-Until "false"')
if [ -z "$(find "$base" -mtime -7 2>/dev/null)" ]; then
    rm -f "$cache/base-$suite-"*.tar
    say "building a clean $name root with mmdebstrap (cached in $base)"
    if ! mmdebstrap --variant=minbase --include="man-db,$keyring_package" --skip=cleanup/apt/lists \
        --keyring="$keyring" "${expired[@]}" "$suite" "$cache/partial-$suite.tar" "$sources" >"$cache/mmdebstrap.log" 2>&1
    then
        say "mmdebstrap could not make the root; apt and mmdebstrap said:" >&2
        { grep -E '^(E|W): ' "$cache/mmdebstrap.log" || true; } | sed 's/^/  apt: /' >&2
        ! grep -q 'is expired' "$cache/mmdebstrap.log" ||
            say "the mirror's $suite is older than its Valid-Until: ALLOW_EXPIRED=1 accepts it" >&2
        exit 1
    fi
    mv "$cache/partial-$suite.tar" "$base"
    stage "mmdebstrap (cached for next time)"
fi

work=$(mktemp -d "$cache/run-$suite.XXXXXX")
root=$work/root
server_pid=
cleanup() {
    [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
    for mount in "$root/var/cache/apt/archives" "$root/proc"; do
        mountpoint -q "$mount" && umount "$mount"
    done
    rm -rf "$work"
}
trap cleanup EXIT
mkdir "$root"
tar -C "$root" -xf "$base"
mount -t proc proc "$root/proc"
mount --bind "$archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/facecap.deb"
cp Tests/Fixtures/sergey.png "$root/tmp/sergey.png"
python3 Tests/Deb/make_clip.py "$root/tmp/clip.y4m"
stage "fresh root unpacked, fixtures copied"

in_root() { chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
# -q, not -qq: at -qq apt-get leaves out the lines that say why it cannot install ("unmet dependencies").
install_deb() { in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/facecap.deb; }
apt_log=$work/apt.log
# The cached lists may be older than the mirror: update once when the first try fails.
if ! install_deb >"$apt_log" 2>&1; then
    if ! { in_root apt-get update -q >"$apt_log" 2>&1 && install_deb >"$apt_log" 2>&1; }; then
        say "apt-get could not install $(basename "$deb"); apt said:" >&2
        { grep -vE '^(Get:|Fetched |Reading |Building |Selecting |Preparing |Unpacking |\(Reading )' "$apt_log" ||
            true; } | sed 's/^/  apt: /' >&2
        say "Depends: $(dpkg-deb -f "$deb" Depends)" >&2
        exit 1
    fi
fi
stage "apt-get install ./$(basename "$deb") (and its Depends)"
say "apt-get set up: $(sed -n 's/^Setting up \([^ :]*\)[^ ]* (\([^)]*\)).*/\1 \2,/p' "$apt_log" | tr '\n' ' ' | sed 's/, *$//')"

# A new user's environment, not this one (make exports FACECAP_MODEL_DIR, for one).
clean_env="env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME=/root"
say "checks in the $name root"
no_swift() { ! in_root sh -c 'command -v swift || command -v swiftc' && [ -z "$(find "$root" -xdev -name 'libswift*.so*' -print -quit)" ]; }
check "no Swift toolchain or Swift runtime library in the root" no_swift
check "every library of /usr/bin/facecap resolves" sh -c "! chroot '$root' $clean_env ldd /usr/bin/facecap | grep -q 'not found'"
# libjpeg-turbo is linked in (Package.swift): Debian's libjpeg62-turbo and Ubuntu's libjpeg-turbo8 differ in ABI.
# libv4lconvert loads the system's own libjpeg (libjpeg.so.8 on Ubuntu): were facecap's copy in the dynamic symbol
# table, libv4lconvert's jpeg_* calls would bind to it, an ABI it was not built for.
check "libjpeg linked in: not in Depends, not NEEDED, no jpeg_* symbol exported" sh -c "
    ! dpkg-deb -f '$deb' Depends | grep -q jpeg && ! objdump -p '$root/usr/bin/facecap' | grep -q 'NEEDED.*jpeg' &&
    ! objdump -T '$root/usr/bin/facecap' | grep -qE ' (jpeg|jinit|jsimd)_'"
check "facecap --version" sh -c "chroot '$root' $clean_env facecap --version | grep -qx 'facecap $(dpkg-deb -f "$deb" Version)'"
check "facecap --help" sh -c "chroot '$root' $clean_env facecap --help | grep -q '^Usage:'"
# No camera in the root: devices says so on one line and exits 69; --json is still one valid document (issue 31).
check "facecap devices: no camera there, said on standard error, exit 69" sh -c "
    chroot '$root' $clean_env facecap devices >'$work/devices.out' 2>'$work/devices.err'; [ \$? = 69 ] &&
    grep -q '^facecap: no camera found' '$work/devices.err' && [ ! -s '$work/devices.out' ]"
check "facecap devices --json: one JSON document, no devices, exit 69" sh -c "
    chroot '$root' $clean_env facecap devices --json >'$work/devices.json' 2>/dev/null; [ \$? = 69 ] &&
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d[\"devices\"] != [])' '$work/devices.json'"
check "man -w facecap" sh -c "[ \"\$(chroot '$root' $clean_env man -w facecap)\" = /usr/share/man/man1/facecap.1.gz ]"
check "the manual page renders without warnings" \
    sh -c "[ -z \"\$(chroot '$root' $clean_env env MANWIDTH=80 man --warnings facecap 2>&1 >/dev/null)\" ]"
check "bash completion offers the commands" sh -c "chroot '$root' $clean_env bash -c 'source /usr/share/bash-completion/completions/facecap;
    COMP_WORDS=(facecap an); COMP_CWORD=1; _facecap; [ \"\${COMPREPLY[*]}\" = analyze ]'"
check "zsh completion installed" test -s "$root/usr/share/zsh/vendor-completions/_facecap"
check "licences installed (facecap, models, the libjpeg-turbo linked in)" sh -c "
    grep -q 'License: Apache-2.0' '$root/usr/share/doc/facecap/copyright' &&
    grep -q 'License: IJG' '$root/usr/share/doc/facecap/copyright' &&
    grep -q 'Apache License 2.0' '$root/usr/share/doc/facecap/NOTICE'"
check "facecap analyze on a fixture photo finds 1 face" \
    sh -c "chroot '$root' $clean_env facecap analyze /tmp/sergey.png | grep -q '(600x600): 1 face'"
# The JSON is read on this machine: the root has no python.
check "facecap analyze --json on the photo: valid JSON, 600x600, 1 face" sh -c "
    chroot '$root' $clean_env facecap analyze --json /tmp/sergey.png > '$work/analyze.json' &&
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert (d[\"width\"], d[\"height\"], len(d[\"faces\"])) == (600, 600, 1), d' '$work/analyze.json'"
check "facecap --plain --input clip.y4m plays to the end: accepted, saved, exit 0" \
    sh -c "chroot '$root' $clean_env sh -c 'cd /tmp && facecap --plain --input /tmp/clip.y4m </dev/null >/tmp/plain.log 2>&1' &&
           grep -q '^\[success\] Selfie accepted' '$root/tmp/plain.log' && ls '$root'/tmp/facecap-out/facecap-*.jpg >/dev/null"
# The upload: the test server on this machine's loopback answers "pass"; libcurl in the root sends the photo.
printf '[{"status": 200, "json": {"result": "pass", "reasons": [], "message": "Selfie accepted"}}]\n' > "$work/script.json"
python3 Tests/Support/validation_server.py --script "$work/script.json" --record "$work/requests.jsonl" \
    > "$work/server.out" 2>&1 &
server_pid=$!
for _ in $(seq 150); do grep -q '^PORT ' "$work/server.out" && break; sleep 0.1; done
port=$(sed -n 's/^PORT //p' "$work/server.out")
uploaded() {
    [ -n "$port" ] || { echo "the test server did not start: $(cat "$work/server.out")" >&2; return 1; }
    chroot "$root" $clean_env sh -c "facecap --plain --no-tutorial --input /tmp/clip.y4m --output /tmp/upload \
        --server http://127.0.0.1:$port/validate </dev/null >/tmp/upload.log 2>&1" || { cat "$root/tmp/upload.log" >&2; return 1; }
    python3 - "$work/requests.jsonl" "$root"/tmp/upload/facecap-*.jpg <<'EOF'
import hashlib, json, sys
requests = [json.loads(line) for line in open(sys.argv[1])]
posts = [r for r in requests if r["method"] == "POST"]
assert len(posts) == 1, requests
parts = {p["name"]: p for p in posts[0]["parts"]}
assert parts["photo"]["contentType"] == "image/jpeg" and "report" in parts, parts
assert len(sys.argv) == 3, sys.argv
assert parts["photo"]["sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest(), "saved != sent"
EOF
}
check "facecap --plain --server (the test server on 127.0.0.1): one POST, the photo saved is the photo sent, exit 0" uploaded
check "a FACECAP_MODEL_DIR that does not exist is named" \
    sh -c "chroot '$root' $clean_env env FACECAP_MODEL_DIR=/nowhere facecap analyze /tmp/sergey.png 2>&1 | grep -q /nowhere"
# The catalogues: one per language the build compiled, and a language that works with no locale generated (the
# root has no `locales` package: `locale -a` knows only C, C.UTF-8 and POSIX).
built=$(ls .build/locale 2>/dev/null | sort | tr '\n' ' ')
check "the package holds a catalogue per language ($built)" sh -c "[ \"\$(cd '$root/usr/share/locale' && ls -d */LC_MESSAGES/facecap.mo 2>/dev/null | cut -d/ -f1 | sort | tr '\\n' ' ')\" = '$built' ]"
check "de_DE.UTF-8 is not generated in the root" sh -c "! chroot '$root' $clean_env locale -a | grep -qi '^de_DE'"
# No camera there: facecap says so and exits 69, which is the point (the words are compared, not the status).
chroot "$root" $clean_env sh -c 'facecap --plain --no-tutorial --device /dev/facecap-none >/tmp/lang-en.log 2>&1' || true
for lang in $built; do
    check "LANG=${lang}.UTF-8 speaks its language without a generated locale" sh -c "chroot '$root' $clean_env env \
        LANG=${lang}.UTF-8 sh -c 'facecap --plain --no-tutorial --device /dev/facecap-none >/tmp/lang-$lang.log 2>&1';
        ! cmp -s '$root/tmp/lang-en.log' '$root/tmp/lang-$lang.log'"
done
# The usual way a German system says it: a territory in LANG, and still no locale generated.
check "LANG=de_DE.UTF-8 shows German without installing locales" sh -c "chroot '$root' $clean_env env \
    LANG=de_DE.UTF-8 sh -c 'facecap --plain --no-tutorial --device /dev/facecap-none >/tmp/lang-de_DE.log 2>&1';
    cmp -s '$root/tmp/lang-de.log' '$root/tmp/lang-de_DE.log' && ! cmp -s '$root/tmp/lang-en.log' '$root/tmp/lang-de_DE.log'"
stage "checks"
[ "$failures" = 0 ] || fail "$failures check(s) failed"
say "$(basename "$deb") installs and runs on a clean $name root"
