#!/usr/bin/env bash
# Builds facecap_VERSION_ARCH.deb from an already built binary and verified models, with dpkg-deb (no debhelper):
#   packaging/build-deb.sh BINARY OUTPUT_DIR MODEL…
# The binary links the Swift runtime statically, so the package needs no Swift toolchain; its Depends are what
# dpkg-shlibdeps finds the binary linked against. The manual page and the completions come from the binary
# itself (`facecap generate`), from the option tables --help prints. Run by `make deb`, which runs lintian after.
set -euo pipefail
binary=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
version=$("$binary" --version | sed -n 's/^facecap //p')
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-"facecap maintainers <facecap@users.noreply.github.com>"}
work=$(mktemp -d "${TMPDIR:-/tmp}/facecap-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/facecap
umask 022

install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/facecap/models" "$root/usr/share/man/man1" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/doc/facecap" "$root/usr/share/lintian/overrides"
install -m 0755 "$binary" "$root/usr/bin/facecap"
# Symbols are for debugging the build tree's binary; the package's is half the size without them.
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/facecap"
for model in "$@"; do install -m 0644 "$model" "$root/usr/share/facecap/models/"; done
# The compiled translations `make build` left beside the binary's build folder (.build/locale), one per language.
locale_dir=$(cd "$(dirname "$(readlink -f "$binary")")/../.." 2>/dev/null && pwd)/locale
[ -d "$locale_dir" ] || locale_dir=$(cd "$(dirname "$binary")/.." && pwd)/locale
for mo in "$locale_dir"/*/LC_MESSAGES/facecap.mo; do
    [ -e "$mo" ] || continue
    lang=$(basename "$(dirname "$(dirname "$mo")")")
    install -d "$root/usr/share/locale/$lang/LC_MESSAGES"
    install -m 0644 "$mo" "$root/usr/share/locale/$lang/LC_MESSAGES/facecap.mo"
done
"$binary" generate man | gzip -9n > "$root/usr/share/man/man1/facecap.1.gz"
"$binary" generate bash > "$root/usr/share/bash-completion/completions/facecap"
"$binary" generate zsh > "$root/usr/share/zsh/vendor-completions/_facecap"
chmod 0644 "$root/usr/share/bash-completion/completions/facecap" "$root/usr/share/zsh/vendor-completions/_facecap"

# Documentation: the licences (facecap's MIT, the models' Apache-2.0 with their NOTICE) and a changelog dated by
# the last commit, so that two builds of one commit give the same package.
date=$(git -C "$repo" log -1 --format=%cD 2>/dev/null || date -R)
install -m 0644 "$here/copyright" "$root/usr/share/doc/facecap/copyright"
install -m 0644 "$repo/NOTICE" "$root/usr/share/doc/facecap/NOTICE"
gzip -9n < "$repo/README.md" > "$root/usr/share/doc/facecap/README.md.gz"
printf 'facecap (%s) unstable; urgency=medium\n\n  * Release %s, built from the facecap repository.\n\n -- %s  %s\n' \
    "$version" "$version" "$maintainer" "$date" | gzip -9n > "$root/usr/share/doc/facecap/changelog.gz"
install -m 0644 "$here/lintian-overrides" "$root/usr/share/lintian/overrides/facecap"

# Depends: the shared libraries the binary links, as dpkg-shlibdeps maps them to Debian packages. It wants a
# debian/control to read; a two-line one is enough.
mkdir -p "$work/src/debian"
printf 'Source: facecap\n\nPackage: facecap\nArchitecture: any\n' > "$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O -e"$root/usr/bin/facecap" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

installed=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@MAINTAINER@/$maintainer/" \
    -e "s/@DEPENDS@/$depends/" -e "s/@SIZE@/$installed/" "$here/control" > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$out"
deb="$out/facecap_${version}_${arch}.deb"
SOURCE_DATE_EPOCH=$(date -d "$date" +%s) dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
