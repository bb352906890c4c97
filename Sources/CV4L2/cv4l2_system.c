/*
 * The real ops tables: libv4l2's, and plain C library calls for running under libcamera's V4L2 adapter.
 */
#include "cv4l2.h"

#include <errno.h>
#include <fcntl.h>
#include <libv4l2.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* libv4l2 prints its own "libv4l2: error …" lines to stderr; facecap reports every failure itself in
 * one clear line (from the errno libv4l2 leaves), so its log goes to /dev/null, as FFmpeg does. (With a log
 * file set, libv4l2 also traces each ioctl there: a few microseconds per frame.) */
static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;

static void quiet_libv4l2(void) {
    if (!v4l2_log_file) v4l2_log_file = fopen("/dev/null", "w");
}

/* v4l2_open is open() then v4l2_fd_open(); the two steps are split so that a path which is not a V4L2
 * device (/dev/null, a tty) is refused by one plain QUERYCAP, before libv4l2's plugins see it: the
 * multi-planar plugin perror()s "Failed to query video capabilities" to stderr otherwise. */
static int system_open(void *context, const char *path, int flags) {
    (void)context;
    pthread_once(&quiet_once, quiet_libv4l2);
    int fd = open(path, flags);
    if (fd < 0) return -1;
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    int status;
    do status = ioctl(fd, VIDIOC_QUERYCAP, &cap); while (status < 0 && errno == EINTR);
    if (status < 0 || v4l2_fd_open(fd, 0) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

static int system_close(void *context, int fd) {
    (void)context;
    return v4l2_close(fd);
}

static int system_ioctl(void *context, int fd, unsigned long request, void *argument) {
    (void)context;
    return v4l2_ioctl(fd, request, argument);
}

static void *system_mmap(void *context, size_t length, int protection, int flags, int fd, int64_t offset) {
    (void)context;
    return v4l2_mmap(NULL, length, protection, flags, fd, offset);
}

static int system_munmap(void *context, void *address, size_t length) {
    (void)context;
    return v4l2_munmap(address, length);
}

/* The kernel's own answer, as the C library's ioctl gives it (the enumerations are stateless: libv4l2 keeps
 * nothing of them). */
static int system_raw_ioctl(void *context, int fd, unsigned long request, void *argument) {
    (void)context;
    return ioctl(fd, request, argument);
}

static int system_poll(void *context, struct pollfd *fds, nfds_t count, int timeout_ms) {
    (void)context;
    return poll(fds, count, timeout_ms);
}

cv4l2_ops cv4l2_system_ops(void) {
    cv4l2_ops ops = {
        .context = NULL,
        .open = system_open,
        .close = system_close,
        .ioctl = system_ioctl,
        .mmap = system_mmap,
        .munmap = system_munmap,
        .poll = system_poll,
        .raw_ioctl = system_raw_ioctl,
    };
    return ops;
}

/* Under `libcamerify` (LD_PRELOAD of libcamera's v4l2-compat.so) a camera libcamera drives is an eventfd that only
 * the preloaded open/ioctl/mmap/munmap/close symbols understand. libv4l2 calls the kernel through syscall(SYS_ioctl,
 * …) (libv4lsyscall-priv.h), past those symbols, so its QUERYCAP in v4l2_fd_open fails on that eventfd. These call
 * the C library's symbols, which the preload replaces; libv4l2's conversions are not needed there, since libcamera
 * gives RGB (its software ISP's RGB888/BGR888/XRGB8888), formats facecap reads itself. */
static int plain_open(void *context, const char *path, int flags) {
    (void)context;
    return open(path, flags);
}

static int plain_close(void *context, int fd) {
    (void)context;
    return close(fd);
}

static int plain_ioctl(void *context, int fd, unsigned long request, void *argument) {
    (void)context;
    return ioctl(fd, request, argument);
}

static void *plain_mmap(void *context, size_t length, int protection, int flags, int fd, int64_t offset) {
    (void)context;
    return mmap(NULL, length, protection, flags, fd, (off_t)offset);
}

static int plain_munmap(void *context, void *address, size_t length) {
    (void)context;
    return munmap(address, length);
}

cv4l2_ops cv4l2_plain_ops(void) {
    cv4l2_ops ops = {
        .context = NULL,
        .open = plain_open,
        .close = plain_close,
        .ioctl = plain_ioctl,
        .mmap = plain_mmap,
        .munmap = plain_munmap,
        .poll = system_poll,
    };
    return ops;
}

/* In cv4l2.c: the table a device was opened with. */
const cv4l2_ops *cv4l2_device_ops(const cv4l2_device *device);

void cv4l2_saved_control_device(const cv4l2_device *device, cv4l2_saved_control *control) {
    const cv4l2_ops *ops = cv4l2_device_ops(device);
    control->fd = cv4l2_fd(device);
    /* The real table: the C library's ioctl on the same descriptor. Under libcamerify (plain_ioctl) that ioctl is
     * libcamera's preloaded adapter, which takes a lock of its own: not to be called from a signal handler, so the
     * crash path leaves such a camera out (fd -1: restore_one skips it; the adapter answers control calls with
     * ENOTTY today, so there is nothing to put back there anyway). */
    if (ops->ioctl == plain_ioctl) control->fd = -1;
    int real = ops->ioctl == system_ioctl || ops->ioctl == plain_ioctl;
    control->ioctl = real ? NULL : ops->ioctl;
    control->context = real ? NULL : ops->context;
}
