#!/usr/bin/env bash
# make test-deb: installs facecap_VERSION_ARCH.deb into a clean Debian 12 root that has no Swift toolchain and runs
# facecap there as a new user would.
#
#   Tests/Deb/run.sh PACKAGE.deb
#
# The root is a minbase bookworm made by mmdebstrap from this machine's apt sources (plus man-db, to answer
# `man -w`), cached as .cache/deb-root/base.tar and rebuilt when the sources change or the cache is a week old.
# Each run unpacks a fresh copy, installs the package with apt-get (which fetches exactly the Depends; downloaded
# .debs are cached in .cache/deb-root/archives), then checks: no swift anywhere, every library resolved,
# --version, --help, man -w, bash completion, analyze on a fixture photo, and the --plain wizard replaying a clip
# to the end (photo accepted and saved, exit 0). Needs root (chroot and mounts) and the network the first time.
set -euo pipefail
cd "$(dirname "$0")/../.."
deb=${1:?usage: Tests/Deb/run.sh PACKAGE.deb}
[ -f "$deb" ] || { echo "test-deb: $deb not found (make deb builds it)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "test-deb: needs root for chroot and mounts; run it as root (or with sudo)" >&2; exit 1; }
command -v mmdebstrap >/dev/null || { echo "test-deb: mmdebstrap is missing (make deb installs it)" >&2; exit 1; }

cache=$PWD/.cache/deb-root
mkdir -p "$cache/archives/partial"
stage_start=$(date +%s.%N)
stage() {   # prints how long the previous stage took
    local now
    now=$(date +%s.%N)
    awk -v a="$stage_start" -v b="$now" -v what="$1" 'BEGIN { printf "test-deb: %-52s %6.1f s\n", what, b - a }'
    stage_start=$now
}
failures=0
check() {   # check DESCRIPTION COMMAND…: runs COMMAND, reports, counts failures
    local what=$1
    shift
    if "$@"; then echo "  ok   $what"; else echo "  FAIL $what" >&2; failures=$((failures + 1)); fi
}

# The host's apt sources, as files mmdebstrap pastes into the root (deb822 .sources or one-line .list).
sources=()
for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -s "$file" ] && grep -q '^[^#]' "$file" && sources+=("$file")
done
[ ${#sources[@]} -gt 0 ] || { echo "test-deb: no apt sources in /etc/apt" >&2; exit 1; }
stamp=$(cat "${sources[@]}" | sha256sum | cut -c1-16)
base=$cache/base-$stamp.tar
if [ -z "$(find "$base" -mtime -7 2>/dev/null)" ]; then
    rm -f "$cache"/base-*.tar
    echo "test-deb: building a clean Debian 12 root with mmdebstrap (cached in $base)"
    mmdebstrap --quiet --variant=minbase --include=man-db,debian-archive-keyring --skip=cleanup/apt/lists \
        bookworm "$cache/partial.tar" "${sources[@]}"
    mv "$cache/partial.tar" "$base"
    stage "mmdebstrap (cached for next time)"
fi

root=$(mktemp -d "$cache/root.XXXXXX")
cleanup() {
    for mount in "$root/var/cache/apt/archives" "$root/proc"; do
        mountpoint -q "$mount" && umount "$mount"
    done
    rm -rf "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$base"
mount -t proc proc "$root/proc"
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/facecap.deb"
cp Tests/Fixtures/sergey.png "$root/tmp/sergey.png"
python3 Tests/Deb/make_clip.py "$root/tmp/clip.y4m"
stage "fresh root unpacked, fixtures copied"

in_root() { chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
install_deb() { in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/facecap.deb; }
# The cached lists may be older than the mirror: update once when a download fails.
if ! install_deb >"$cache/apt.log" 2>&1; then
    in_root apt-get update -qq >>"$cache/apt.log" 2>&1 && install_deb >>"$cache/apt.log" 2>&1 ||
        { cat "$cache/apt.log" >&2; echo "test-deb: apt-get could not install the package" >&2; exit 1; }
fi
stage "apt-get install ./$(basename "$deb") (and its Depends)"
echo "test-deb: apt-get set up: $(sed -n 's/^Setting up \([^ ]*\) .*/\1/p' "$cache/apt.log" | tr '\n' ' ')"

# A new user's environment, not this one (make exports FACECAP_MODEL_DIR, for one).
clean_env="env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME=/root"
echo "test-deb: checks in the root"
no_swift() { ! in_root sh -c 'command -v swift || command -v swiftc' && [ -z "$(find "$root" -xdev -name 'libswift*.so*' -print -quit)" ]; }
check "no Swift toolchain or Swift runtime library in the root" no_swift
check "every library of /usr/bin/facecap resolves" sh -c "! chroot '$root' $clean_env ldd /usr/bin/facecap | grep -q 'not found'"
check "facecap --version" sh -c "chroot '$root' $clean_env facecap --version | grep -qx 'facecap $(dpkg-deb -f "$deb" Version)'"
check "facecap --help" sh -c "chroot '$root' $clean_env facecap --help | grep -q '^Usage:'"
check "man -w facecap" sh -c "[ \"\$(chroot '$root' $clean_env man -w facecap)\" = /usr/share/man/man1/facecap.1.gz ]"
check "the manual page renders without warnings" \
    sh -c "[ -z \"\$(chroot '$root' $clean_env env MANWIDTH=80 man --warnings facecap 2>&1 >/dev/null)\" ]"
check "bash completion offers the commands" sh -c "chroot '$root' $clean_env bash -c 'source /usr/share/bash-completion/completions/facecap;
    COMP_WORDS=(facecap an); COMP_CWORD=1; _facecap; [ \"\${COMPREPLY[*]}\" = analyze ]'"
check "zsh completion installed" test -s "$root/usr/share/zsh/vendor-completions/_facecap"
check "licences installed" sh -c "grep -q 'License: Apache-2.0' '$root/usr/share/doc/facecap/copyright' &&
    grep -q 'Apache License 2.0' '$root/usr/share/doc/facecap/NOTICE'"
check "facecap analyze on a fixture photo finds 1 face" \
    sh -c "chroot '$root' $clean_env facecap analyze /tmp/sergey.png | grep -q '(600x600): 1 face'"
check "facecap --plain --input clip.y4m plays to the end: accepted, saved, exit 0" \
    sh -c "chroot '$root' $clean_env sh -c 'cd /tmp && facecap --plain --input /tmp/clip.y4m </dev/null >/tmp/plain.log 2>&1' &&
           grep -q '^\[success\] Selfie accepted' '$root/tmp/plain.log' && ls '$root'/tmp/facecap-out/facecap-*.jpg >/dev/null"
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
[ "$failures" = 0 ] || { echo "test-deb: $failures check(s) failed" >&2; exit 1; }
echo "test-deb: $(basename "$deb") installs and runs on a clean Debian 12 root"
