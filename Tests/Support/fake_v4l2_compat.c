/*
 * A stand-in for libcamera's v4l2-compat.so (what `libcamerify` preloads), for tests and screenshots.
 *
 * Like libcamera's adapter (src/v4l2/v4l2_compat_manager.cpp) it hands out an eventfd for a camera node and
 * answers V4L2 requests on it from its own `ioctl` symbol only, so a program's calls reach it only through the C
 * library's symbols, never through syscall(SYS_ioctl, …) as libv4l2 makes them. Two cameras, chosen by environment:
 *
 *   SHIM_NODE=PATH   that node is a 640x480 RGB24 camera (as libcamera's software ISP gives) whose S_FMT fails with
 *                    EBUSY, so a program's one-line error says how far its calls got;
 *   SHIM_DEV=DIR     opendir("/dev") lists DIR instead, and each /dev/videoN named there is an IPU6 ISYS capture
 *                    queue as the mainline driver has it (ipu6-isys-video.c: caps VIDEO_CAPTURE | META_CAPTURE |
 *                    IO_MC, its Bayer formats then UYVY, YUYV, RGB565, BGR24, at 1932x1092): a MIPI laptop without
 *                    libcamera;
 *   SHIM_SYS=DIR     with either: open() and readlink() of /sys/class/video4linux/... read DIR/class/video4linux/...
 *                    instead (unset: they fail with ENOENT), so a test never reads the host's own nodes' sysfs.
 *
 * Build: cc -shared -fPIC -o v4l2-compat.so fake_v4l2_compat.c -ldl
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

enum { MAX_NODES = 64 };
/* The eventfd handed out for each node (-1: none), and the node's number (-1: the SHIM_NODE camera). */
static int fds[MAX_NODES];
static int numbers[MAX_NODES];
static int used;

DIR *opendir(const char *name) {
    DIR *(*real)(const char *) = (DIR * (*)(const char *)) dlsym(RTLD_NEXT, "opendir");
    const char *dev = getenv("SHIM_DEV");
    return real(dev && strcmp(name, "/dev") == 0 ? dev : name);
}

static int camera_number(const char *path) {
    const char *node = getenv("SHIM_NODE");
    if (node && strcmp(path, node) == 0) return -1;
    int number;
    char rest;
    if (getenv("SHIM_DEV") && sscanf(path, "/dev/video%d%c", &number, &rest) == 1) return number;
    return -2;
}

/* The path to read instead of a /sys/class/video4linux path under SHIM_NODE or SHIM_DEV: "" when there is none
 * (ENOENT); NULL for any other path, which is left alone. */
static const char *sysfs_path(const char *path, char *buffer, size_t size) {
    static const char prefix[] = "/sys/class/video4linux/";
    if ((!getenv("SHIM_DEV") && !getenv("SHIM_NODE")) || strncmp(path, prefix, sizeof prefix - 1) != 0) return NULL;
    const char *root = getenv("SHIM_SYS");
    if (!root || snprintf(buffer, size, "%s%s", root, path + 4) >= (int)size) return "";
    return buffer;
}

ssize_t readlink(const char *path, char *target, size_t size) {
    ssize_t (*real)(const char *, char *, size_t) = (ssize_t(*)(const char *, char *, size_t))dlsym(RTLD_NEXT,
                                                                                                  "readlink");
    char buffer[4096];
    const char *redirected = sysfs_path(path, buffer, sizeof buffer);
    if (redirected && !*redirected) {
        errno = ENOENT;
        return -1;
    }
    return real(redirected ? redirected : path, target, size);
}

int open(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    int mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
    va_end(ap);
    int number = camera_number(path);
    if (number > -2 && used < MAX_NODES) {
        int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        fds[used] = fd;
        numbers[used++] = number;
        return fd;
    }
    int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    char buffer[4096];
    const char *redirected = sysfs_path(path, buffer, sizeof buffer);
    if (redirected && !*redirected) {
        errno = ENOENT;
        return -1;
    }
    return real(redirected ? redirected : path, flags, mode);
}

static int answer(int number, unsigned long request, void *argument) {
    if (request == VIDIOC_QUERYCAP) {
        struct v4l2_capability *cap = argument;
        memset(cap, 0, sizeof *cap);
        strcpy((char *)cap->driver, number < 0 ? "libcamera" : "isys");
        if (number < 0) strcpy((char *)cap->card, "Stand-in camera");
        else snprintf((char *)cap->card, sizeof cap->card, "Intel IPU6 ISYS Capture %d", number % 100);
        strcpy((char *)cap->bus_info, number < 0 ? "platform:libcamera" : "PCI:0000:00:05.0");
        /* V4L2_CAP_IO_MC written out: older headers lack it. */
        cap->device_caps = number < 0 ? V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING
                                      : V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_META_CAPTURE | V4L2_CAP_STREAMING
                                            | 0x20000000;
        cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    if (request == VIDIOC_ENUM_FMT) {
        struct v4l2_fmtdesc *description = argument;
        /* ipu6_isys_pfmts[] in its order, without the metadata formats (those are META_CAPTURE's). */
        static const uint32_t isys[] = {
            V4L2_PIX_FMT_SBGGR12, V4L2_PIX_FMT_SGBRG12, V4L2_PIX_FMT_SGRBG12, V4L2_PIX_FMT_SRGGB12,
            V4L2_PIX_FMT_SBGGR10, V4L2_PIX_FMT_SGBRG10, V4L2_PIX_FMT_SGRBG10, V4L2_PIX_FMT_SRGGB10,
            V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_SGBRG8, V4L2_PIX_FMT_SGRBG8, V4L2_PIX_FMT_SRGGB8,
            V4L2_PIX_FMT_SBGGR12P, V4L2_PIX_FMT_SGBRG12P, V4L2_PIX_FMT_SGRBG12P, V4L2_PIX_FMT_SRGGB12P,
            V4L2_PIX_FMT_SBGGR10P, V4L2_PIX_FMT_SGBRG10P, V4L2_PIX_FMT_SGRBG10P, V4L2_PIX_FMT_SRGGB10P,
            V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB565, V4L2_PIX_FMT_BGR24,
        };
        if (number < 0 && description->index == 0) description->pixelformat = V4L2_PIX_FMT_RGB24;
        else if (number >= 0 && description->index < sizeof isys / sizeof isys[0])
            description->pixelformat = isys[description->index];
        else return EINVAL;
        return 0;
    }
    if (request == VIDIOC_ENUM_FRAMESIZES && ((struct v4l2_frmsizeenum *)argument)->index == 0) {
        struct v4l2_frmsizeenum *size = argument;
        size->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        size->discrete.width = number < 0 ? 640 : 1932;
        size->discrete.height = number < 0 ? 480 : 1092;
        return 0;
    }
    return request == VIDIOC_S_FMT ? EBUSY : EINVAL;
}

int ioctl(int fd, unsigned long request, ...) {
    va_list ap;
    va_start(ap, request);
    void *argument = va_arg(ap, void *);
    va_end(ap);
    for (int index = 0; index < used; index++) {
        if (fds[index] != fd) continue;
        int error = answer(numbers[index], request, argument);
        if (!error) return 0;
        errno = error;
        return -1;
    }
    int (*real)(int, unsigned long, ...) = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    return real(fd, request, argument);
}

int close(int fd) {
    for (int index = 0; index < used; index++)
        if (fds[index] == fd) fds[index] = -1;
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "close");
    return real(fd);
}
