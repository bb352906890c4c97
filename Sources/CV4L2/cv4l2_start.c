/*
 * Starting a V4L2 stream: open and query the node, choose and set the format, request, map and queue the buffers,
 * stream on; each stage's failure named (CV4L2_STAGE_*) and everything done so far undone.
 */
#include "cv4l2.h"
#include "cv4l2_device.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void copy_string(char *destination, size_t size, const uint8_t *source, size_t source_size) {
    size_t length = strnlen((const char *)source, source_size);
    if (length >= size) length = size - 1;
    memcpy(destination, source, length);
    destination[length] = 0;
}

static cv4l2_device *fail(cv4l2_device *device, cv4l2_failure *failure, cv4l2_stage stage, int error) {
    failure->stage = stage;
    failure->error = error;
    cv4l2_stop(device);
    return NULL;
}

/* The formats facecap reads itself, in the order it prefers them among those a camera gives natively: YUYV (the
 * analyser's own layout), the 4:2:0 ones (half the bytes), then RGB, then MJPEG (decoded by facecap's own
 * libjpeg-turbo decoder to planes: docs/camera-formats.md has the measurement against libv4l2's conversion). */
static const uint32_t readable_formats[] = {
    V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420, V4L2_PIX_FMT_RGB24,
    V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_XBGR32, V4L2_PIX_FMT_ABGR32, V4L2_PIX_FMT_BGR32, V4L2_PIX_FMT_XRGB32,
    V4L2_PIX_FMT_ARGB32, V4L2_PIX_FMT_RGBX32, V4L2_PIX_FMT_RGBA32, V4L2_PIX_FMT_MJPEG,
};
enum { READABLE_COUNT = sizeof readable_formats / sizeof readable_formats[0] };

int cv4l2_destination_layout(uint32_t pixel_format) {
    switch (pixel_format) {
    case V4L2_PIX_FMT_YUYV: return 1;
    case V4L2_PIX_FMT_RGB24: case V4L2_PIX_FMT_BGR24: case V4L2_PIX_FMT_XBGR32: case V4L2_PIX_FMT_ABGR32:
    case V4L2_PIX_FMT_BGR32: case V4L2_PIX_FMT_XRGB32: case V4L2_PIX_FMT_ARGB32: case V4L2_PIX_FMT_RGBX32:
    case V4L2_PIX_FMT_RGBA32:
        return 2;
    case V4L2_PIX_FMT_NV12: case V4L2_PIX_FMT_YUV420: case V4L2_PIX_FMT_YVU420: return 3;
    case V4L2_PIX_FMT_MJPEG: return 4;
    default: return 0;
    }
}

/* Which format to ask for: `forced` when the camera lists it (natively or through libv4l2), else the first of
 * readable_formats the camera gives natively, else libv4l2's RGB24 (it converts MJPEG and others to it). */
static int choose_format(cv4l2_device *device, uint32_t forced, uint32_t preferred, uint32_t *chosen,
                         bool *converted) {
    bool native[READABLE_COUNT] = { false };
    bool rgb24 = false, forced_listed = false, preferred_listed = false, preferred_emulated = false;
    for (uint32_t index = 0; index < 256; index++) {
        struct v4l2_fmtdesc description;
        memset(&description, 0, sizeof description);
        description.index = index;
        description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_ENUM_FMT, &description);
        if (error == EINVAL) break;     /* end of the list */
        if (error) return error;
        if (preferred && description.pixelformat == preferred && cv4l2_destination_layout(preferred)) {
            preferred_listed = true;
            preferred_emulated = (description.flags & V4L2_FMT_FLAG_EMULATED) != 0;
        }
        if (description.pixelformat == forced) {
            forced_listed = true;
            *converted = (description.flags & V4L2_FMT_FLAG_EMULATED) != 0;
        }
        if (!(description.flags & V4L2_FMT_FLAG_EMULATED))
            for (int known = 0; known < READABLE_COUNT; known++)
                if (description.pixelformat == readable_formats[known]) native[known] = true;
        if (description.pixelformat == V4L2_PIX_FMT_RGB24) rgb24 = true;
    }
    if (forced) {
        if (!forced_listed) return ENOENT;
        /* A format facecap does not read itself (UYVY, NV21…) is asked of libv4l2 as RGB24. */
        if (cv4l2_destination_layout(forced)) {
            *chosen = forced;
            return 0;
        }
        if (!rgb24) return ENOENT;
        *chosen = V4L2_PIX_FMT_RGB24;
        *converted = true;
        return 0;
    }
    if (preferred_listed) {
        *chosen = preferred;
        *converted = preferred_emulated;
        return 0;
    }
    for (int known = 0; known < READABLE_COUNT; known++)
        if (native[known]) {
            *chosen = readable_formats[known];
            return 0;
        }
    if (rgb24) {
        *chosen = V4L2_PIX_FMT_RGB24;
        *converted = true;
        return 0;
    }
    return ENOENT;
}

static int set_format(cv4l2_device *device, uint32_t pixel_format, uint32_t width, uint32_t height,
                      struct v4l2_format *format) {
    memset(format, 0, sizeof *format);
    format->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    format->fmt.pix.width = width;
    format->fmt.pix.height = height;
    format->fmt.pix.pixelformat = pixel_format;
    format->fmt.pix.field = V4L2_FIELD_NONE;
    return cv4l2_xioctl(&device->ops, device->fd, VIDIOC_S_FMT, format);
}

/* A frame rate the driver refuses is not fatal: the stream runs at whatever rate it chose. */
static void set_frame_rate(cv4l2_device *device, uint32_t fps) {
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (cv4l2_xioctl(&device->ops, device->fd, VIDIOC_G_PARM, &parm)) return;
    if ((parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME) && fps > 0) {
        device->info.timeperframe = 1;
        struct v4l2_streamparm wanted;
        memset(&wanted, 0, sizeof wanted);
        wanted.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        wanted.parm.capture.timeperframe.numerator = 1;
        wanted.parm.capture.timeperframe.denominator = fps;
        if (cv4l2_xioctl(&device->ops, device->fd, VIDIOC_S_PARM, &wanted) == 0) parm = wanted;
    }
    struct v4l2_fract period = parm.parm.capture.timeperframe;
    if (period.numerator && period.denominator) {
        device->info.fps_numerator = period.denominator;
        device->info.fps_denominator = period.numerator;
    }
}

/* cv4l2_start's stages, in the order v4l-utils' capture tools take them: open and query the node, negotiate the
 * format, request the buffers, map them, queue them and stream on. Each returns 0, or the errno that stopped it
 * with the stage it stopped at in *stage (what `fail` reports and undoes). */

static int open_node(cv4l2_device *device, const char *path, cv4l2_stage *stage) {
    *stage = CV4L2_STAGE_OPEN;
    device->fd = device->ops.open(device->ops.context, path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    /* A stage returns 0 for success: an ops table's open that fails without setting errno (only a fake can) is
     * reported as EIO rather than taken for a success (cv4l2_start reported it with error 0 before the stages). */
    if (device->fd < 0) return errno ? errno : EIO;
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    *stage = CV4L2_STAGE_QUERYCAP;
    int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_QUERYCAP, &cap);
    if (error) return error;
    uint32_t caps = cv4l2_node_caps(&cap);
    *stage = CV4L2_STAGE_NOT_CAPTURE;
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING)) return ENODEV;
    copy_string(device->info.card, sizeof device->info.card, cap.card, sizeof cap.card);
    copy_string(device->info.driver, sizeof device->info.driver, cap.driver, sizeof cap.driver);
    copy_string(device->info.bus, sizeof device->info.bus, cap.bus_info, sizeof cap.bus_info);
    return 0;
}

/* The format asked for or chosen (`choose_format`), set with S_FMT; what the driver answered in *format and the
 * pixel format facecap reads in *pixel_format (libv4l2's RGB24 when `*converted`). */
static int negotiate_format(cv4l2_device *device, const cv4l2_request *request, uint32_t *pixel_format,
                            bool *converted, struct v4l2_format *format, cv4l2_stage *stage) {
    *stage = CV4L2_STAGE_ENUM_FMT;
    int error = choose_format(device, request->pixel_format, request->preferred_format, pixel_format, converted);
    if (error == ENOENT) {
        *stage = CV4L2_STAGE_NO_FORMAT;
        return EINVAL;
    }
    if (error) return error;
    *stage = CV4L2_STAGE_S_FMT;
    error = set_format(device, *pixel_format, request->width, request->height, format);
    if (error == EINVAL || error == ENOTTY) {
        /* A device of one fixed format and size (a relay) may refuse S_FMT: take it as it is. (EBUSY is another
         * program streaming, v4l2loopback answers with its one format, which is taken below.) */
        memset(format, 0, sizeof *format);
        format->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        int current = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_G_FMT, format);
        if (current || !cv4l2_destination_layout(format->fmt.pix.pixelformat)
            || (request->pixel_format && format->fmt.pix.pixelformat != *pixel_format))
            return error;
        *pixel_format = format->fmt.pix.pixelformat;
        *converted = false;
        error = 0;
    }
    if (error) return error;
    if (format->fmt.pix.pixelformat != *pixel_format && !request->pixel_format) {
        if (cv4l2_destination_layout(format->fmt.pix.pixelformat)) {
            /* The driver gave another format it may: facecap reads that one too. */
            *pixel_format = format->fmt.pix.pixelformat;
            *converted = false;
        } else if (*pixel_format != V4L2_PIX_FMT_RGB24) {
            /* The driver would not give this format at this size after all: let libv4l2 convert to RGB24. */
            *pixel_format = V4L2_PIX_FMT_RGB24;
            *converted = true;
            error = set_format(device, *pixel_format, request->width, request->height, format);
            if (error) return error;
        }
    }
    if (format->fmt.pix.pixelformat != *pixel_format) {
        *stage = CV4L2_STAGE_NO_FORMAT;
        return EINVAL;
    }
    uint32_t width = format->fmt.pix.width, height = format->fmt.pix.height;
    if (width == 0 || height == 0 || width > 16384 || height > 16384) return EINVAL;
    return 0;
}

/* The frame's layout from the format the driver set: row and frame sizes, and what the stream info says. */
static void record_layout(cv4l2_device *device, uint32_t pixel_format, bool converted,
                          const struct v4l2_format *format) {
    uint32_t width = format->fmt.pix.width, height = format->fmt.pix.height;
    device->row_bytes = cv4l2_source_row_bytes(pixel_format, width);
    size_t stride = format->fmt.pix.bytesperline;
    if (stride < device->row_bytes) stride = device->row_bytes;   /* drivers that leave it 0 */
    device->min_bytes_used = cv4l2_source_min_bytes(pixel_format, width, height, stride);
    device->frame_bytes = cv4l2_destination_bytes(pixel_format, width, height);
    device->info.pixel_format = pixel_format;
    device->info.converted = converted;
    device->info.width = width;
    device->info.height = height;
    device->info.bytes_per_line = (uint32_t)stride;
    device->info.size_image = format->fmt.pix.sizeimage;
    device->info.full_range = format->fmt.pix.quantization == V4L2_QUANTIZATION_FULL_RANGE;
}

/* REQBUFS for `count` memory-mapped buffers (4 when 0, at most CV4L2_MAX_BUFFERS); fewer than 2 granted is a
 * failure. */
static int request_buffers(cv4l2_device *device, uint32_t count, cv4l2_stage *stage) {
    struct v4l2_requestbuffers buffers;
    memset(&buffers, 0, sizeof buffers);
    buffers.count = count ? count : 4;
    if (buffers.count > CV4L2_MAX_BUFFERS) buffers.count = CV4L2_MAX_BUFFERS;
    buffers.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffers.memory = V4L2_MEMORY_MMAP;
    *stage = CV4L2_STAGE_REQBUFS;
    int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_REQBUFS, &buffers);
    if (error) return error;
    if (buffers.count > CV4L2_MAX_BUFFERS) buffers.count = CV4L2_MAX_BUFFERS;
    device->buffer_count = buffers.count;
    if (buffers.count < 2) return ENOMEM;
    device->info.buffer_count = buffers.count;
    return 0;
}

/* QUERYBUF and mmap for each buffer; `mapped_count` follows, so `fail` unmaps exactly those. A compressed
 * format's frame is as long as the largest buffer. */
static int map_buffers(cv4l2_device *device, uint32_t pixel_format, cv4l2_stage *stage) {
    for (uint32_t index = 0; index < device->buffer_count; index++) {
        struct v4l2_buffer buffer = cv4l2_mmap_buffer(index);
        *stage = CV4L2_STAGE_QUERYBUF;
        int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_QUERYBUF, &buffer);
        if (error) return error;
        *stage = CV4L2_STAGE_MMAP;
        void *start = device->ops.mmap(device->ops.context, buffer.length, PROT_READ | PROT_WRITE, MAP_SHARED,
                                       device->fd, buffer.m.offset);
        if (start == MAP_FAILED) return errno ? errno : ENOMEM;   /* as for open, above */
        device->starts[index] = start;
        device->lengths[index] = buffer.length;
        device->mapped_count = index + 1;
        if (cv4l2_destination_layout(pixel_format) == 4 && buffer.length > device->frame_bytes)
            device->frame_bytes = buffer.length;
    }
    device->info.frame_bytes = device->frame_bytes;
    return 0;
}

/* Every buffer queued, then STREAMON; the stream's clock starts. */
static int queue_and_stream(cv4l2_device *device, cv4l2_stage *stage) {
    *stage = CV4L2_STAGE_QBUF;
    for (uint32_t index = 0; index < device->buffer_count; index++) {
        struct v4l2_buffer buffer = cv4l2_mmap_buffer(index);
        int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_QBUF, &buffer);
        if (error) return error;
    }
    *stage = CV4L2_STAGE_STREAMON;
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_STREAMON, &type);
    if (error) return error;
    device->streaming = true;
    device->stream_start = cv4l2_monotonic_seconds();
    return 0;
}

cv4l2_device *cv4l2_start(const cv4l2_ops *ops, const char *path, const cv4l2_request *request,
                          cv4l2_stream_info *info, cv4l2_failure *failure) {
    failure->stage = CV4L2_STAGE_NONE;
    failure->error = 0;
    cv4l2_device *device = calloc(1, sizeof *device);
    if (!device) {
        failure->stage = CV4L2_STAGE_OPEN;
        failure->error = ENOMEM;
        return NULL;
    }
    device->ops = *ops;
    cv4l2_stage stage = CV4L2_STAGE_NONE;
    uint32_t pixel_format = 0;
    bool converted = false;
    struct v4l2_format format;
    int error = open_node(device, path, &stage);
    if (!error) error = negotiate_format(device, request, &pixel_format, &converted, &format, &stage);
    if (!error) {
        record_layout(device, pixel_format, converted, &format);
        set_frame_rate(device, request->fps);   /* a rate refused is not fatal */
        error = request_buffers(device, request->buffer_count, &stage);
    }
    if (!error) error = map_buffers(device, pixel_format, &stage);
    if (!error) error = queue_and_stream(device, &stage);
    if (error) return fail(device, failure, stage, error);
    *info = device->info;
    return device;
}

