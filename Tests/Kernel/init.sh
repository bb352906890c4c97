#!/bin/busybox sh
# /init of the test initramfs (run by the guest kernel as PID 1, with busybox as its only tool).
#
# It loads the modules that reach the host's root over virtio-9p, mounts that root read-only, gives
# it the kernel file systems and a writable tmpfs, then runs the repository's guest test script with
# the host's own binaries (bash, v4l2-ctl, the Swift runtime, the facecap build). vivid itself is
# loaded by that script, from the kernel cache in the repository, so the initramfs only changes when
# the kernel (or this file) does. Whatever happens, the VM powers off: the host reads the result
# lines from the serial console and reports a guest that stops without its end marker as a failure.
#
# Parameters arrive from the kernel command line as environment variables (the kernel hands every
# unknown `name=value` to init): FACECAP_REPO (absolute path of the repository on the host),
# FACECAP_GUEST (guest script, relative to the repository) and FACECAP_ARGS (its arguments,
# comma-separated because the command line splits on spaces).

/bin/busybox --install -s /bin
export PATH=/bin

fail() {
    echo "@@KTEST@@ FAIL guest-boot $*"
    echo "@@KTEST@@ END"
    poweroff -f
}

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev

while read -r module; do
    [ -n "$module" ] || continue
    insmod "/modules/$module" || fail "could not load $module (see the kernel messages above)"
done < /modules/order

mkdir -p /root
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose hostroot /root ||
    fail "could not mount the host's root over 9p (is qemu's -virtfs hostroot given?)"

[ -f "/root$FACECAP_REPO/$FACECAP_GUEST" ] ||
    fail "guest script $FACECAP_REPO/$FACECAP_GUEST not found through the 9p share"
# A clone under /tmp (or /run) would vanish under the tmpfs mounted there below: keep a handle on it.
mkdir -p /repo
mount --bind "/root$FACECAP_REPO" /repo

# The host's root is read-only: the kernel file systems and every writable place are mounted over it.
mount --bind /dev /root/dev
mount -t proc proc /root/proc
mount -t sysfs sys /root/sys
for dir in /tmp /run /var/tmp; do
    mount -t tmpfs -o mode=1777 tmpfs "/root$dir"
done
if [ ! -f "/root$FACECAP_REPO/$FACECAP_GUEST" ]; then
    mkdir -p "/root$FACECAP_REPO" && mount --bind /repo "/root$FACECAP_REPO" ||
        fail "could not show the repository at $FACECAP_REPO again over the guest's tmpfs"
fi

args=$(echo "$FACECAP_ARGS" | tr ',' ' ')
# The host's environment, not the initramfs's: a plain login-like PATH and a writable HOME.
chroot /root /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/tmp LANG=C.UTF-8 TERM=dumb \
    /bin/bash "$FACECAP_REPO/$FACECAP_GUEST" "$FACECAP_REPO" $args
echo "@@KTEST@@ EXIT $?"
sync
poweroff -f
