#ifndef CV4L2_H
#define CV4L2_H
/*
 * V4L2 capture over libv4l2, behind an ops table so tests can plug in a fake device.
 *
 * Every device call (open, close, ioctl, mmap, munmap, poll) goes through a `cv4l2_ops` table. The
 * system table calls libv4l2 (which converts MJPEG and friends to RGB24 when asked); tests install a
 * table whose functions drive a scripted fake. Everything here is plain C so Swift can call it.
 */
#include <linux/videodev2.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>

/* ---- The ops table ------------------------------------------------------------------------- */

/** The device calls the shim makes; `context` is passed back to each so a fake can find its state. */
typedef struct cv4l2_ops {
    void *context;
    /** Returns a file descriptor, or -1 with errno set. */
    int (*open)(void *context, const char *path, int flags);
    int (*close)(void *context, int fd);
    /** Returns 0 (or a non-negative value), or -1 with errno set. */
    int (*ioctl)(void *context, int fd, unsigned long request, void *argument);
    /** Returns the mapping, or MAP_FAILED with errno set. */
    void *(*mmap)(void *context, size_t length, int protection, int flags, int fd, int64_t offset);
    int (*munmap)(void *context, void *address, size_t length);
    int (*poll)(void *context, struct pollfd *fds, nfds_t count, int timeout_ms);
    /** Optional: the device's own answer to an ioctl, past any conversion layer (the system table's `ioctl` is
        libv4l2's, which answers ENUM_FRAMEINTERVALS of RGB3, BGR3, YU12 and YV12 by trying every format the
        camera gives, one TRY_FMT each, at every index, even when the camera gives that format itself). NULL: the
        same as `ioctl`. */
    int (*raw_ioctl)(void *context, int fd, unsigned long request, void *argument);
} cv4l2_ops;

/** The real device calls: v4l2_open (as open + QUERYCAP + v4l2_fd_open)/v4l2_close/v4l2_ioctl/v4l2_mmap/
    v4l2_munmap and poll(2). */
cv4l2_ops cv4l2_system_ops(void);

/** The device calls as plain open/close/ioctl/mmap/munmap/poll of the C library, without libv4l2: the symbols an
    LD_PRELOAD shim such as libcamera's v4l2-compat.so (`libcamerify`) replaces, which libv4l2's raw syscalls bypass. */
cv4l2_ops cv4l2_plain_ops(void);

/** ioctl through `ops`, retried while it fails with EINTR. Returns 0 or the errno of the failure. */
int cv4l2_xioctl(const cv4l2_ops *ops, int fd, unsigned long request, void *argument);

/** As cv4l2_xioctl, through `raw_ioctl` when the table has one: for enumerating what the camera itself gives. */
int cv4l2_raw_xioctl(const cv4l2_ops *ops, int fd, unsigned long request, void *argument);

/* ---- Constants Swift cannot import ---------------------------------------------------------- */

/* Swift cannot import the _IOR/_IOWR macros behind the VIDIOC_* requests, so the shim re-exports them. */
static const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long CV4L2_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long CV4L2_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long CV4L2_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long CV4L2_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long CV4L2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long CV4L2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long CV4L2_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long CV4L2_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long CV4L2_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long CV4L2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long CV4L2_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
static const unsigned long CV4L2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
static const unsigned long CV4L2_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
static const unsigned long CV4L2_VIDIOC_G_EXT_CTRLS = VIDIOC_G_EXT_CTRLS;
static const unsigned long CV4L2_VIDIOC_S_EXT_CTRLS = VIDIOC_S_EXT_CTRLS;
static const unsigned long CV4L2_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;

/* v4l2_fourcc() is a function-like macro Swift cannot import, so the pixel formats facecap names are constants. */
static const uint32_t CV4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const uint32_t CV4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
static const uint32_t CV4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const uint32_t CV4L2_PIX_FMT_UYVY = V4L2_PIX_FMT_UYVY;
static const uint32_t CV4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const uint32_t CV4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
static const uint32_t CV4L2_PIX_FMT_YVU420 = V4L2_PIX_FMT_YVU420;
static const uint32_t CV4L2_PIX_FMT_BGR24 = V4L2_PIX_FMT_BGR24;
static const uint32_t CV4L2_PIX_FMT_XBGR32 = V4L2_PIX_FMT_XBGR32;
static const uint32_t CV4L2_PIX_FMT_XRGB32 = V4L2_PIX_FMT_XRGB32;
static const uint32_t CV4L2_PIX_FMT_RGBX32 = V4L2_PIX_FMT_RGBX32;

/**
 * Which picture layout facecap gets a format's frames in: 1 packed YUYV, 2 packed RGB24 (from RGB3, BGR3 and
 * the 32-bit RGB formats), 3 planar YUV 4:2:0 (from NV12, YU12, YV12), 4 the compressed frame as the camera sent it
 * (MJPEG, which facecap decodes itself); 0 for a format facecap does not read itself (libv4l2 converts it to RGB24).
 */
int cv4l2_destination_layout(uint32_t pixel_format);

/* ---- Controls ------------------------------------------------------------------------------- */

/*
 * The UVC region-of-interest controls came with Linux 6.15 (include/uapi/linux/uvcvideo.h, "uvc-roi" patches by
 * Yunke Cao); the headers facecap builds against may predate them, so their IDs are defined here from that header.
 */
#ifndef V4L2_CID_USER_UVC_BASE
#define V4L2_CID_USER_UVC_BASE (V4L2_CID_USER_BASE + 0x11e0)
#endif
#ifndef V4L2_CID_UVC_REGION_OF_INTEREST_RECT
#define V4L2_CID_UVC_REGION_OF_INTEREST_RECT (V4L2_CID_USER_UVC_BASE + 1)
#endif
#ifndef V4L2_CID_UVC_REGION_OF_INTEREST_AUTO
#define V4L2_CID_UVC_REGION_OF_INTEREST_AUTO (V4L2_CID_USER_UVC_BASE + 2)
#endif
#ifndef V4L2_UVC_REGION_OF_INTEREST_AUTO_EXPOSURE
#define V4L2_UVC_REGION_OF_INTEREST_AUTO_EXPOSURE (1 << 0)
#endif

/* Control IDs are macros built from class bases Swift does not import as constants; the ones facecap steers. */
static const uint32_t CV4L2_CID_BRIGHTNESS = V4L2_CID_BRIGHTNESS;
static const uint32_t CV4L2_CID_GAIN = V4L2_CID_GAIN;
static const uint32_t CV4L2_CID_BACKLIGHT_COMPENSATION = V4L2_CID_BACKLIGHT_COMPENSATION;
static const uint32_t CV4L2_CID_EXPOSURE_AUTO = V4L2_CID_EXPOSURE_AUTO;
static const uint32_t CV4L2_CID_EXPOSURE_ABSOLUTE = V4L2_CID_EXPOSURE_ABSOLUTE;
static const uint32_t CV4L2_CID_EXPOSURE_AUTO_PRIORITY = V4L2_CID_EXPOSURE_AUTO_PRIORITY;
static const uint32_t CV4L2_CID_AUTO_EXPOSURE_BIAS = V4L2_CID_AUTO_EXPOSURE_BIAS;
static const uint32_t CV4L2_CID_UVC_ROI_RECT = V4L2_CID_UVC_REGION_OF_INTEREST_RECT;
static const uint32_t CV4L2_CID_UVC_ROI_AUTO = V4L2_CID_UVC_REGION_OF_INTEREST_AUTO;
static const int32_t CV4L2_UVC_ROI_AUTO_EXPOSURE = V4L2_UVC_REGION_OF_INTEREST_AUTO_EXPOSURE;
static const uint32_t CV4L2_CTRL_FLAG_INACTIVE = V4L2_CTRL_FLAG_INACTIVE;
static const uint32_t CV4L2_CTRL_FLAG_READ_ONLY = V4L2_CTRL_FLAG_READ_ONLY;
static const uint32_t CV4L2_CTRL_FLAG_DISABLED = V4L2_CTRL_FLAG_DISABLED;
static const uint32_t CV4L2_CTRL_FLAG_GRABBED = V4L2_CTRL_FLAG_GRABBED;

/** Why: v4l2_ext_control's pointer to a compound control's payload sits in an anonymous union Swift reaches
    awkwardly; the test fake reads and writes the region-of-interest rectangle through it. */
static inline struct v4l2_rect *cv4l2_ext_control_rect(struct v4l2_ext_control *control) {
    return (struct v4l2_rect *)control->ptr;
}

/** Why: v4l2_querymenu is packed and keeps its item's name and value in an anonymous union, which Swift reads
    awkwardly: VIDIOC_QUERYMENU of item `index` of menu control `id` on `fd` through `ops`, the name (a menu) into
    `name` (33 bytes, NUL-terminated) and the value (an integer menu) into `value`. Returns 0 or the errno (EINVAL: no
    such item, menus may skip some). */
int cv4l2_query_menu(const cv4l2_ops *ops, int fd, uint32_t id, uint32_t index, char *name, int64_t *value);

/** Why: UVC metadata nodes report VIDEO_CAPTURE in `capabilities`; only the per-node `device_caps` tell them apart. */
static inline uint32_t cv4l2_node_caps(const struct v4l2_capability *cap) {
    return (cap->capabilities & V4L2_CAP_DEVICE_CAPS) ? cap->device_caps : cap->capabilities;
}

/** Why: v4l2_buffer's `m` union is awkward to write from Swift; the test fake sets the mmap offset here. */
static inline void cv4l2_set_buffer_offset(struct v4l2_buffer *buffer, uint32_t offset) { buffer->m.offset = offset; }

/* ---- Streaming ------------------------------------------------------------------------------ */

/** Where a start or a read failed; with the errno, Swift turns it into a CameraError. */
typedef enum cv4l2_stage {
    CV4L2_STAGE_NONE = 0,
    CV4L2_STAGE_OPEN,
    CV4L2_STAGE_QUERYCAP,
    /** The node has no VIDEO_CAPTURE + STREAMING in its device caps (e.g. a UVC metadata node). */
    CV4L2_STAGE_NOT_CAPTURE,
    CV4L2_STAGE_ENUM_FMT,
    /** Neither YUYV nor (libv4l2-converted) RGB24 is offered. */
    CV4L2_STAGE_NO_FORMAT,
    CV4L2_STAGE_S_FMT,
    CV4L2_STAGE_REQBUFS,
    CV4L2_STAGE_QUERYBUF,
    CV4L2_STAGE_MMAP,
    CV4L2_STAGE_QBUF,
    CV4L2_STAGE_STREAMON,
    CV4L2_STAGE_POLL,
    CV4L2_STAGE_DQBUF,
} cv4l2_stage;

typedef struct cv4l2_failure {
    cv4l2_stage stage;
    int error;
} cv4l2_failure;

/** What the caller asks for; the driver may adjust the size and rate. */
typedef struct cv4l2_request {
    uint32_t width;
    uint32_t height;
    uint32_t fps;
    uint32_t buffer_count;
    /** A format the camera must give (--format), or 0 to choose: the camera's own YUYV, NV12, YU12, YV12, RGB24,
     *  BGR24 or 32-bit RGB in that order, else libv4l2's RGB24. */
    uint32_t pixel_format;
    /** Without `pixel_format`: a format to take when the camera lists it (natively, or libv4l2's RGB24), before the
     *  order above — the one whose sizes give the size asked for at a good rate. 0: none. */
    uint32_t preferred_format;
} cv4l2_request;

/** What was negotiated. */
typedef struct cv4l2_stream_info {
    /** The format read: one of readable_formats (native), or CV4L2_PIX_FMT_RGB24 converted by libv4l2. */
    uint32_t pixel_format;
    uint32_t width;
    uint32_t height;
    uint32_t bytes_per_line;
    uint32_t size_image;
    /** 1 when the driver says the YUV codes use the full 0..255 range. */
    int full_range;
    /** Frames per second as numerator/denominator (the inverse of timeperframe); 0/0 when unknown. */
    uint32_t fps_numerator;
    uint32_t fps_denominator;
    /** 1 when the driver accepts a frame rate (V4L2_CAP_TIMEPERFRAME). */
    int timeperframe;
    uint32_t buffer_count;
    /** The frames are libv4l2's conversion of another format, not the camera's own. */
    int converted;
    /** Bytes a destination of cv4l2_read must hold: a whole frame in its layout, or for MJPEG the largest buffer. */
    size_t frame_bytes;
    char card[33];
    char driver[17];
    char bus[33];
} cv4l2_stream_info;

/** Counters a stream keeps; frames never passed on are counted here. */
typedef struct cv4l2_stats {
    uint64_t frames;
    /** Buffers the driver flagged V4L2_BUF_FLAG_ERROR. */
    uint64_t dropped_error_flag;
    /** Buffers with a bytesused too small for a whole frame (or larger than the buffer). */
    uint64_t dropped_bad_size;
    /** Frames the driver skipped (gaps in the buffer sequence numbers). */
    uint64_t sequence_gaps;
    uint64_t eio;
    uint64_t eagain;
    uint64_t eintr;
    uint64_t poll_timeouts;
    /** Buffers found in user space after an EIO and queued again. */
    uint64_t recovered_buffers;
} cv4l2_stats;

/** An open, streaming device; opaque to Swift. */
typedef struct cv4l2_device cv4l2_device;

/**
 * Opens `path`, negotiates a format facecap reads (`cv4l2_request.pixel_format`; a device that refuses S_FMT, such
 * as a relay of fixed format, is taken as it is when its format is one of them), sets the frame rate,
 * maps `buffer_count` buffers and starts streaming. On failure returns NULL with `failure` filled in,
 * and everything opened so far has been released (STREAMOFF, munmap, close, in that order).
 */
cv4l2_device *cv4l2_start(const cv4l2_ops *ops, const char *path, const cv4l2_request *request,
                          cv4l2_stream_info *info, cv4l2_failure *failure);

typedef enum cv4l2_read_result {
    /** A whole frame was copied into the destination. */
    CV4L2_READ_FRAME = 0,
    /** Nothing yet: poll timed out, was interrupted (EINTR), or DQBUF said EAGAIN. */
    CV4L2_READ_NONE,
    /** A buffer came back flagged or short; it was queued again and counted, not passed on. */
    CV4L2_READ_DROPPED,
    /** DQBUF failed with EIO; buffers left in user space were queued again. The caller decides when to give up. */
    CV4L2_READ_IO_ERROR,
    /** The stream cannot go on (ENODEV, POLLERR/POLLHUP = unplugged, or another error); see `failure`. */
    CV4L2_READ_FAILED,
} cv4l2_read_result;

typedef struct cv4l2_frame_info {
    /** Bytes written to the destination (tightly packed rows; planes one after the other for YUV 4:2:0; the
        compressed frame's own length for MJPEG). */
    size_t bytes;
    /** Seconds since STREAMON on the monotonic clock. */
    double timestamp;
    uint32_t sequence;
} cv4l2_frame_info;

/**
 * Waits at most `timeout_ms` for one buffer and copies it, rows packed, into `destination`, which must
 * hold width × height × bytes per pixel. Every buffer dequeued is queued again before this returns.
 */
cv4l2_read_result cv4l2_read(cv4l2_device *device, void *destination, size_t capacity, int timeout_ms,
                             cv4l2_frame_info *frame, cv4l2_failure *failure);

/**
 * What cv4l2_read does to a frame, without a device: `source` (`source_bytes` of `pixel_format`, rows
 * `bytes_per_line` apart, 0 for packed) into `destination` in its layout (cv4l2_destination_layout 1 to 3). Returns 0,
 * or EINVAL for a format it does not convert (MJPEG, or none facecap reads) or buffers too small. For
 * `facecap bench --formats`, which times the conversion of each format.
 */
int cv4l2_convert_frame(uint32_t pixel_format, uint32_t width, uint32_t height, uint32_t bytes_per_line,
                        const void *source, size_t source_bytes, void *destination, size_t capacity);

cv4l2_stats cv4l2_get_stats(const cv4l2_device *device);

/**
 * The streaming file descriptor, for a caller's own poll(): POLLIN means a buffer is ready, and a
 * following cv4l2_read with timeout 0 dequeues it. The device keeps owning it (never close it).
 */
int cv4l2_fd(const cv4l2_device *device);

/** STREAMOFF, munmap every buffer, close, free; in that order, whatever state the device is in. */
void cv4l2_stop(cv4l2_device *device);

/* ---- Controls of a streaming device ----------------------------------------------------------- */

/**
 * Opens `path` for its controls only (no format, no buffers, no streaming): to write back controls facecap changed
 * on a camera that went away and came back. Release it with cv4l2_stop. NULL with `error` set on failure.
 */
cv4l2_device *cv4l2_open_controls(const cv4l2_ops *ops, const char *path, int *error);

/** What VIDIOC_QUERY_EXT_CTRL says of one control. */
typedef struct cv4l2_control_info {
    uint32_t type;
    int64_t minimum;
    int64_t maximum;
    uint64_t step;
    int64_t default_value;
    uint32_t flags;
} cv4l2_control_info;

/** VIDIOC_QUERY_EXT_CTRL for `id` on the streaming device. Returns 0, or the errno (EINVAL: no such control). */
int cv4l2_query_control(cv4l2_device *device, uint32_t id, cv4l2_control_info *info);

/** VIDIOC_G_CTRL / VIDIOC_S_CTRL of an integer, boolean or menu control. Return 0 or the errno. */
int cv4l2_get_control(cv4l2_device *device, uint32_t id, int32_t *value);
int cv4l2_set_control(cv4l2_device *device, uint32_t id, int32_t value);

/** VIDIOC_G_EXT_CTRLS / VIDIOC_S_EXT_CTRLS of a rectangle control (the UVC region of interest). Return 0 or the
    errno. */
int cv4l2_get_rect_control(cv4l2_device *device, uint32_t id, struct v4l2_rect *rect);
int cv4l2_set_rect_control(cv4l2_device *device, uint32_t id, const struct v4l2_rect *rect);

/* ---- Controls written back on a crash ------------------------------------------------------- */

/*
 * The controls facecap changed on the cameras open now, each with its value before and the value facecap last
 * wrote: a copy the Swift ledger publishes whenever that set changes, kept in fixed memory so that a fatal-signal
 * handler (a Swift trap, SIGSEGV… in any thread) can write them back with async-signal-safe calls only.
 */
enum { CV4L2_SAVED_CONTROLS_MAX = 32 };

typedef struct cv4l2_saved_control {
    /** The open device's descriptor. */
    int fd;
    /** The call to make on it: NULL for the C library's ioctl (the real devices: libv4l2's v4l2_ioctl takes locks a
     *  crashed thread may hold), else a test fake's (its ops table's, with `context`). */
    int (*ioctl)(void *context, int fd, unsigned long request, void *argument);
    void *context;
    uint32_t id;
    /** 1: a rectangle control (the UVC region of interest, through G/S_EXT_CTRLS); 0: an integer one (G/S_CTRL). */
    int is_rect;
    int32_t original;
    int32_t written;
    struct v4l2_rect original_rect;
    struct v4l2_rect written_rect;
} cv4l2_saved_control;

/** Fills `control`'s fd, ioctl and context for a control of the open `device`. */
void cv4l2_saved_control_device(const cv4l2_device *device, cv4l2_saved_control *control);

/** Replaces the published set with `count` controls (at most CV4L2_SAVED_CONTROLS_MAX are kept; the number kept is
 *  returned). One writer at a time (the thread that changes the controls); lock-free for the reader. */
int cv4l2_saved_controls_publish(const cv4l2_saved_control *controls, int count);

/** The number of controls published now (-1: none could be read whole); for tests. */
int cv4l2_saved_controls_count(void);

/** What cv4l2_restore_saved_controls did with each control. */
enum { CV4L2_SAVED_RESTORED = 1, CV4L2_SAVED_LEFT_ALONE = 2, CV4L2_SAVED_FAILED = 3 };

/**
 * Async-signal-safe: writes back each published control, the last changed first, where it still holds the value
 * facecap last wrote (read first: a control another program changed is left alone). Only the first call after a
 * publish writes anything. Returns the number of controls it looked at; `outcomes` (may be NULL) gets each one's
 * CV4L2_SAVED_* in the published order, up to `capacity`.
 */
int cv4l2_restore_saved_controls(int *outcomes, int capacity);

#endif
