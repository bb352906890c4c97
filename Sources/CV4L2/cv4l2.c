/*
 * V4L2 streaming capture: negotiate, map, stream, dequeue, and release on every path.
 *
 * All device calls go through the ops table (cv4l2_ops) so tests can drive a scripted fake.
 */
#include "cv4l2.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* More buffers than this only add latency; uvcvideo itself allows 32. */
enum { CV4L2_MAX_BUFFERS = 8 };

struct cv4l2_device {
    cv4l2_ops ops;
    int fd;
    uint32_t buffer_count;      /* buffers granted by REQBUFS (0 = none requested yet) */
    uint32_t mapped_count;      /* buffers[0..mapped_count) are mapped */
    void *starts[CV4L2_MAX_BUFFERS];
    size_t lengths[CV4L2_MAX_BUFFERS];
    bool streaming;
    cv4l2_stream_info info;
    size_t row_bytes;           /* packed bytes of one row of the source's first plane */
    size_t min_bytes_used;      /* the least bytesused that holds a whole frame */
    size_t frame_bytes;         /* bytes of a whole frame in the destination's layout */
    double stream_start;        /* monotonic seconds at STREAMON */
    bool have_sequence;
    uint32_t last_sequence;
    cv4l2_stats stats;
};

int cv4l2_xioctl(const cv4l2_ops *ops, int fd, unsigned long request, void *argument) {
    for (;;) {
        if (ops->ioctl(ops->context, fd, request, argument) != -1) return 0;
        if (errno != EINTR) return errno;
    }
}

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void copy_string(char *destination, size_t size, const uint8_t *source, size_t source_size) {
    size_t length = strnlen((const char *)source, source_size);
    if (length >= size) length = size - 1;
    memcpy(destination, source, length);
    destination[length] = 0;
}

/* A zeroed capture buffer descriptor for mmap streaming, the argument of QUERYBUF, QBUF and DQBUF. */
static struct v4l2_buffer mmap_buffer(uint32_t index) {
    struct v4l2_buffer buffer;
    memset(&buffer, 0, sizeof buffer);
    buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffer.memory = V4L2_MEMORY_MMAP;
    buffer.index = index;
    return buffer;
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

/* Bytes of one row of the source in its first plane, and of a whole frame in the destination's layout. */
static size_t source_row_bytes(uint32_t pixel_format, uint32_t width) {
    switch (cv4l2_destination_layout(pixel_format)) {
    case 1: return (size_t)((width + 1) / 2) * 4;
    case 3: return width;
    case 4: return 0;
    default:
        return (size_t)width * (pixel_format == V4L2_PIX_FMT_RGB24 || pixel_format == V4L2_PIX_FMT_BGR24 ? 3 : 4);
    }
}

static size_t destination_bytes(uint32_t pixel_format, uint32_t width, uint32_t height) {
    size_t chroma = (size_t)((width + 1) / 2) * ((height + 1) / 2);
    switch (cv4l2_destination_layout(pixel_format)) {
    case 1: return (size_t)((width + 1) / 2) * 4 * height;
    case 3: return (size_t)width * height + 2 * chroma;
    case 4: return 0;   /* a compressed frame is as long as it is: the largest buffer (set once they are mapped) */
    default: return (size_t)width * 3 * height;
    }
}

/* The least bytesused that holds a whole frame with rows `stride` bytes apart (chroma rows of YU12/YV12 half as
 * far, NV12's interleaved ones as far as the luma's). */
static size_t source_min_bytes(uint32_t pixel_format, uint32_t width, uint32_t height, size_t stride) {
    size_t row = source_row_bytes(pixel_format, width), luma = stride * (height - 1) + row;
    size_t chroma_rows = (height + 1) / 2, chroma_width = (width + 1) / 2;
    switch (pixel_format) {
    case V4L2_PIX_FMT_MJPEG:
        return 4;       /* SOI and EOI; whether the picture is whole, only its decoder can tell */
    case V4L2_PIX_FMT_NV12:
        return stride * height + stride * (chroma_rows - 1) + chroma_width * 2;
    case V4L2_PIX_FMT_YUV420:
    case V4L2_PIX_FMT_YVU420: {
        size_t half = stride / 2 > chroma_width ? stride / 2 : chroma_width;
        return stride * height + half * chroma_rows + half * (chroma_rows - 1) + chroma_width;
    }
    default:
        return luma;
    }
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
    device->fd = ops->open(ops->context, path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (device->fd < 0) return fail(device, failure, CV4L2_STAGE_OPEN, errno);

    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    int error = cv4l2_xioctl(ops, device->fd, VIDIOC_QUERYCAP, &cap);
    if (error) return fail(device, failure, CV4L2_STAGE_QUERYCAP, error);
    uint32_t caps = cv4l2_node_caps(&cap);
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING))
        return fail(device, failure, CV4L2_STAGE_NOT_CAPTURE, ENODEV);
    copy_string(device->info.card, sizeof device->info.card, cap.card, sizeof cap.card);
    copy_string(device->info.driver, sizeof device->info.driver, cap.driver, sizeof cap.driver);
    copy_string(device->info.bus, sizeof device->info.bus, cap.bus_info, sizeof cap.bus_info);

    uint32_t pixel_format = 0;
    bool converted = false;
    error = choose_format(device, request->pixel_format, request->preferred_format, &pixel_format, &converted);
    if (error == ENOENT) return fail(device, failure, CV4L2_STAGE_NO_FORMAT, EINVAL);
    if (error) return fail(device, failure, CV4L2_STAGE_ENUM_FMT, error);

    struct v4l2_format format;
    error = set_format(device, pixel_format, request->width, request->height, &format);
    if (error == EINVAL || error == ENOTTY) {
        /* A device of one fixed format and size (a relay) may refuse S_FMT: take it as it is. (EBUSY is another
         * program streaming, v4l2loopback answers with its one format, which is taken below.) */
        memset(&format, 0, sizeof format);
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        int current = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_G_FMT, &format);
        if (current || !cv4l2_destination_layout(format.fmt.pix.pixelformat)
            || (request->pixel_format && format.fmt.pix.pixelformat != pixel_format))
            return fail(device, failure, CV4L2_STAGE_S_FMT, error);
        pixel_format = format.fmt.pix.pixelformat;
        converted = false;
        error = 0;
    }
    if (error) return fail(device, failure, CV4L2_STAGE_S_FMT, error);
    if (format.fmt.pix.pixelformat != pixel_format && !request->pixel_format) {
        if (cv4l2_destination_layout(format.fmt.pix.pixelformat)) {
            /* The driver gave another format it may: facecap reads that one too. */
            pixel_format = format.fmt.pix.pixelformat;
            converted = false;
        } else if (pixel_format != V4L2_PIX_FMT_RGB24) {
            /* The driver would not give this format at this size after all: let libv4l2 convert to RGB24. */
            pixel_format = V4L2_PIX_FMT_RGB24;
            converted = true;
            error = set_format(device, pixel_format, request->width, request->height, &format);
            if (error) return fail(device, failure, CV4L2_STAGE_S_FMT, error);
        }
    }
    if (format.fmt.pix.pixelformat != pixel_format) return fail(device, failure, CV4L2_STAGE_NO_FORMAT, EINVAL);
    uint32_t width = format.fmt.pix.width, height = format.fmt.pix.height;
    if (width == 0 || height == 0 || width > 16384 || height > 16384)
        return fail(device, failure, CV4L2_STAGE_S_FMT, EINVAL);
    device->row_bytes = source_row_bytes(pixel_format, width);
    size_t stride = format.fmt.pix.bytesperline;
    if (stride < device->row_bytes) stride = device->row_bytes;   /* drivers that leave it 0 */
    device->min_bytes_used = source_min_bytes(pixel_format, width, height, stride);
    device->frame_bytes = destination_bytes(pixel_format, width, height);
    device->info.pixel_format = pixel_format;
    device->info.converted = converted;
    device->info.width = width;
    device->info.height = height;
    device->info.bytes_per_line = (uint32_t)stride;
    device->info.size_image = format.fmt.pix.sizeimage;
    device->info.full_range = format.fmt.pix.quantization == V4L2_QUANTIZATION_FULL_RANGE;

    set_frame_rate(device, request->fps);

    struct v4l2_requestbuffers buffers;
    memset(&buffers, 0, sizeof buffers);
    buffers.count = request->buffer_count ? request->buffer_count : 4;
    if (buffers.count > CV4L2_MAX_BUFFERS) buffers.count = CV4L2_MAX_BUFFERS;
    buffers.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffers.memory = V4L2_MEMORY_MMAP;
    error = cv4l2_xioctl(ops, device->fd, VIDIOC_REQBUFS, &buffers);
    if (error) return fail(device, failure, CV4L2_STAGE_REQBUFS, error);
    if (buffers.count > CV4L2_MAX_BUFFERS) buffers.count = CV4L2_MAX_BUFFERS;
    device->buffer_count = buffers.count;
    if (buffers.count < 2) return fail(device, failure, CV4L2_STAGE_REQBUFS, ENOMEM);
    device->info.buffer_count = buffers.count;

    for (uint32_t index = 0; index < buffers.count; index++) {
        struct v4l2_buffer buffer = mmap_buffer(index);
        error = cv4l2_xioctl(ops, device->fd, VIDIOC_QUERYBUF, &buffer);
        if (error) return fail(device, failure, CV4L2_STAGE_QUERYBUF, error);
        void *start = ops->mmap(ops->context, buffer.length, PROT_READ | PROT_WRITE, MAP_SHARED, device->fd,
                                buffer.m.offset);
        if (start == MAP_FAILED) return fail(device, failure, CV4L2_STAGE_MMAP, errno);
        device->starts[index] = start;
        device->lengths[index] = buffer.length;
        device->mapped_count = index + 1;
        if (cv4l2_destination_layout(pixel_format) == 4 && buffer.length > device->frame_bytes)
            device->frame_bytes = buffer.length;
    }
    device->info.frame_bytes = device->frame_bytes;
    for (uint32_t index = 0; index < buffers.count; index++) {
        struct v4l2_buffer buffer = mmap_buffer(index);
        error = cv4l2_xioctl(ops, device->fd, VIDIOC_QBUF, &buffer);
        if (error) return fail(device, failure, CV4L2_STAGE_QBUF, error);
    }
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    error = cv4l2_xioctl(ops, device->fd, VIDIOC_STREAMON, &type);
    if (error) return fail(device, failure, CV4L2_STAGE_STREAMON, error);
    device->streaming = true;
    device->stream_start = monotonic_seconds();
    *info = device->info;
    return device;
}

static cv4l2_read_result read_failed(cv4l2_failure *failure, cv4l2_stage stage, int error) {
    failure->stage = stage;
    failure->error = error;
    return CV4L2_READ_FAILED;
}

/* After an EIO the driver may have dequeued a buffer without handing it over; queue any such buffer again. */
static int recover_buffers(cv4l2_device *device) {
    for (uint32_t index = 0; index < device->buffer_count; index++) {
        struct v4l2_buffer buffer = mmap_buffer(index);
        int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_QUERYBUF, &buffer);
        if (error) return error;
        if (buffer.flags & (V4L2_BUF_FLAG_QUEUED | V4L2_BUF_FLAG_DONE)) continue;
        error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_QBUF, &buffer);
        if (error) return error;
        device->stats.recovered_buffers++;
    }
    return 0;
}

static double buffer_time(const cv4l2_device *device, const struct v4l2_buffer *buffer) {
    double when;
    bool monotonic = (buffer->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) == V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
    if (monotonic && (buffer->timestamp.tv_sec || buffer->timestamp.tv_usec))
        when = (double)buffer->timestamp.tv_sec + (double)buffer->timestamp.tv_usec / 1e6;
    else
        when = monotonic_seconds();
    double since = when - device->stream_start;
    return since > 0 ? since : 0;
}

/* One row of 3- or 4-byte pixels to RGB24: `r`, `g`, `b` are the offsets of the channels within a pixel. */
static void rgb_row(const uint8_t *source, uint8_t *destination, uint32_t width, int size, int r, int g, int b) {
    for (uint32_t x = 0; x < width; x++, source += size, destination += 3) {
        destination[0] = source[r];
        destination[1] = source[g];
        destination[2] = source[b];
    }
}

/* The frame in the destination's layout (`destination_bytes`): packed rows, or the Y, U and V planes. */
static void copy_frame(const cv4l2_device *device, const uint8_t *source, uint8_t *destination) {
    size_t stride = device->info.bytes_per_line;
    uint32_t width = device->info.width, height = device->info.height;
    uint32_t format = device->info.pixel_format;
    size_t chroma_width = (width + 1) / 2, chroma_rows = (height + 1) / 2;
    switch (format) {
    case V4L2_PIX_FMT_YUYV:
    case V4L2_PIX_FMT_RGB24:
        if (stride == device->row_bytes) {
            memcpy(destination, source, device->row_bytes * height);
            return;
        }
        for (uint32_t row = 0; row < height; row++)
            memcpy(destination + row * device->row_bytes, source + row * stride, device->row_bytes);
        return;
    case V4L2_PIX_FMT_NV12: {
        for (uint32_t row = 0; row < height; row++)
            memcpy(destination + (size_t)row * width, source + row * stride, width);
        uint8_t *u = destination + (size_t)width * height, *v = u + chroma_width * chroma_rows;
        const uint8_t *pairs = source + stride * height;
        for (size_t row = 0; row < chroma_rows; row++, pairs += stride)
            for (size_t x = 0; x < chroma_width; x++) {
                *u++ = pairs[2 * x];
                *v++ = pairs[2 * x + 1];
            }
        return;
    }
    case V4L2_PIX_FMT_YUV420:
    case V4L2_PIX_FMT_YVU420: {
        for (uint32_t row = 0; row < height; row++)
            memcpy(destination + (size_t)row * width, source + row * stride, width);
        size_t half = stride / 2 > chroma_width ? stride / 2 : chroma_width;
        const uint8_t *first = source + stride * height, *second = first + half * chroma_rows;
        uint8_t *u = destination + (size_t)width * height, *v = u + chroma_width * chroma_rows;
        /* YV12 holds V before U. */
        if (format == V4L2_PIX_FMT_YVU420) {
            uint8_t *swap = u;
            u = v;
            v = swap;
        }
        for (size_t row = 0; row < chroma_rows; row++) {
            memcpy(u + row * chroma_width, first + row * half, chroma_width);
            memcpy(v + row * chroma_width, second + row * half, chroma_width);
        }
        return;
    }
    default:
        break;
    }
    /* RGB in another order or 32 bits a pixel (V4L2's names give the channels in memory order, last first for
     * the little-endian ones: XBGR32 "XR24" is B, G, R, X in memory). */
    int size = 4, r = 2, g = 1, b = 0;
    switch (format) {
    case V4L2_PIX_FMT_BGR24: size = 3; break;
    case V4L2_PIX_FMT_XRGB32: case V4L2_PIX_FMT_ARGB32: r = 1; g = 2; b = 3; break;
    case V4L2_PIX_FMT_RGBX32: case V4L2_PIX_FMT_RGBA32: r = 0; g = 1; b = 2; break;
    default: break;  /* XBGR32, ABGR32, BGR32: B, G, R, X */
    }
    for (uint32_t row = 0; row < height; row++)
        rgb_row(source + row * stride, destination + (size_t)row * width * 3, width, size, r, g, b);
}

int cv4l2_convert_frame(uint32_t pixel_format, uint32_t width, uint32_t height, uint32_t bytes_per_line,
                        const void *source, size_t source_bytes, void *destination, size_t capacity) {
    int layout = cv4l2_destination_layout(pixel_format);
    if (layout == 0 || layout == 4 || width == 0 || height == 0 || width > 16384 || height > 16384) return EINVAL;
    cv4l2_device device;
    memset(&device, 0, sizeof device);
    device.row_bytes = source_row_bytes(pixel_format, width);
    size_t stride = bytes_per_line < device.row_bytes ? device.row_bytes : bytes_per_line;
    if (source_bytes < source_min_bytes(pixel_format, width, height, stride)
        || capacity < destination_bytes(pixel_format, width, height))
        return EINVAL;
    device.info.pixel_format = pixel_format;
    device.info.width = width;
    device.info.height = height;
    device.info.bytes_per_line = (uint32_t)stride;
    copy_frame(&device, source, destination);
    return 0;
}

cv4l2_read_result cv4l2_read(cv4l2_device *device, void *destination, size_t capacity, int timeout_ms,
                             cv4l2_frame_info *frame, cv4l2_failure *failure) {
    failure->stage = CV4L2_STAGE_NONE;
    failure->error = 0;
    if (!device->streaming) return read_failed(failure, CV4L2_STAGE_DQBUF, EBADF);
    if (capacity < device->frame_bytes) return read_failed(failure, CV4L2_STAGE_DQBUF, EINVAL);

    struct pollfd waiting = { .fd = device->fd, .events = POLLIN };
    int ready = device->ops.poll(device->ops.context, &waiting, 1, timeout_ms < 0 ? 0 : timeout_ms);
    if (ready < 0) {
        /* EINTR: a signal arrived; return so the caller can look at its stop flag, then call again. */
        if (errno == EINTR) {
            device->stats.eintr++;
            return CV4L2_READ_NONE;
        }
        return read_failed(failure, CV4L2_STAGE_POLL, errno);
    }
    if (ready == 0) {
        device->stats.poll_timeouts++;
        return CV4L2_READ_NONE;
    }
    /* After an unplug every file operation fails and poll reports POLLERR|POLLHUP. */
    if (waiting.revents & (POLLERR | POLLHUP | POLLNVAL)) return read_failed(failure, CV4L2_STAGE_POLL, ENODEV);
    if (!(waiting.revents & POLLIN)) return CV4L2_READ_NONE;

    struct v4l2_buffer buffer = mmap_buffer(0);
    int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_DQBUF, &buffer);
    if (error == EAGAIN) {
        device->stats.eagain++;
        return CV4L2_READ_NONE;
    }
    if (error == EIO) {
        device->stats.eio++;
        int recovery = recover_buffers(device);
        if (recovery) return read_failed(failure, CV4L2_STAGE_QBUF, recovery);
        return CV4L2_READ_IO_ERROR;
    }
    if (error) return read_failed(failure, CV4L2_STAGE_DQBUF, error);
    if (buffer.index >= device->buffer_count) return read_failed(failure, CV4L2_STAGE_DQBUF, EINVAL);

    /* Sequence gaps are frames the driver never handed over; damaged buffers it did hand over are counted
     * apart, below, so every buffer moves the sequence on. */
    if (device->have_sequence && buffer.sequence > device->last_sequence + 1)
        device->stats.sequence_gaps += buffer.sequence - device->last_sequence - 1;
    device->have_sequence = true;
    device->last_sequence = buffer.sequence;

    cv4l2_read_result result = CV4L2_READ_FRAME;
    if (buffer.flags & V4L2_BUF_FLAG_ERROR) {
        device->stats.dropped_error_flag++;
        result = CV4L2_READ_DROPPED;
    } else if (buffer.bytesused < device->min_bytes_used || buffer.bytesused > device->lengths[buffer.index]) {
        device->stats.dropped_bad_size++;
        result = CV4L2_READ_DROPPED;
    } else {
        bool compressed = cv4l2_destination_layout(device->info.pixel_format) == 4;
        if (compressed)
            memcpy(destination, device->starts[buffer.index], buffer.bytesused);
        else
            copy_frame(device, device->starts[buffer.index], destination);
        frame->bytes = compressed ? buffer.bytesused : device->frame_bytes;
        frame->timestamp = buffer_time(device, &buffer);
        frame->sequence = buffer.sequence;
        device->stats.frames++;
    }
    /* The buffer goes back to the driver before anything else happens, whatever its content was. */
    error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_QBUF, &buffer);
    if (error) return read_failed(failure, CV4L2_STAGE_QBUF, error);
    return result;
}

cv4l2_stats cv4l2_get_stats(const cv4l2_device *device) { return device->stats; }

int cv4l2_fd(const cv4l2_device *device) { return device->fd; }

/* For cv4l2_system.c only (not in the header): the table a device was opened with. */
const cv4l2_ops *cv4l2_device_ops(const cv4l2_device *device);
const cv4l2_ops *cv4l2_device_ops(const cv4l2_device *device) { return &device->ops; }

void cv4l2_stop(cv4l2_device *device) {
    if (!device) return;
    if (device->fd >= 0) {
        /* STREAMOFF also takes back every queued buffer, so it runs whenever buffers were requested. */
        if (device->streaming || device->buffer_count > 0) {
            int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            cv4l2_xioctl(&device->ops, device->fd, VIDIOC_STREAMOFF, &type);
            device->streaming = false;
        }
        for (uint32_t index = 0; index < device->mapped_count; index++)
            device->ops.munmap(device->ops.context, device->starts[index], device->lengths[index]);
        device->mapped_count = 0;
        device->ops.close(device->ops.context, device->fd);
        device->fd = -1;
    }
    free(device);
}

/* ---- Controls ------------------------------------------------------------------------------- */

int cv4l2_query_control(cv4l2_device *device, uint32_t id, cv4l2_control_info *info) {
    struct v4l2_query_ext_ctrl query;
    memset(&query, 0, sizeof query);
    query.id = id;
    int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_QUERY_EXT_CTRL, &query);
    if (error) return error;
    /* Without the NEXT flags the answer is about `id` itself; an answer about another control is not trusted. */
    if (query.id != id) return EINVAL;
    info->type = query.type;
    info->minimum = query.minimum;
    info->maximum = query.maximum;
    info->step = query.step;
    info->default_value = query.default_value;
    info->flags = query.flags;
    return 0;
}

int cv4l2_get_control(cv4l2_device *device, uint32_t id, int32_t *value) {
    struct v4l2_control control = {.id = id, .value = 0};
    int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_G_CTRL, &control);
    if (!error) *value = control.value;
    return error;
}

int cv4l2_set_control(cv4l2_device *device, uint32_t id, int32_t value) {
    struct v4l2_control control = {.id = id, .value = value};
    return cv4l2_xioctl(&device->ops, device->fd, VIDIOC_S_CTRL, &control);
}

/* One compound control through the extended-controls call: G_EXT_CTRLS or S_EXT_CTRLS. */
static int rect_control(cv4l2_device *device, unsigned long request, uint32_t id, struct v4l2_rect *rect) {
    struct v4l2_ext_control control;
    memset(&control, 0, sizeof control);
    control.id = id;
    control.size = sizeof *rect;
    control.ptr = rect;
    struct v4l2_ext_controls controls;
    memset(&controls, 0, sizeof controls);
    controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    controls.count = 1;
    controls.controls = &control;
    return cv4l2_xioctl(&device->ops, device->fd, request, &controls);
}

int cv4l2_get_rect_control(cv4l2_device *device, uint32_t id, struct v4l2_rect *rect) {
    return rect_control(device, VIDIOC_G_EXT_CTRLS, id, rect);
}

int cv4l2_set_rect_control(cv4l2_device *device, uint32_t id, const struct v4l2_rect *rect) {
    struct v4l2_rect copy = *rect;
    return rect_control(device, VIDIOC_S_EXT_CTRLS, id, &copy);
}

cv4l2_device *cv4l2_open_controls(const cv4l2_ops *ops, const char *path, int *error) {
    cv4l2_device *device = calloc(1, sizeof *device);
    if (!device) {
        *error = ENOMEM;
        return NULL;
    }
    device->ops = *ops;
    device->fd = ops->open(ops->context, path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (device->fd < 0) {
        *error = errno;
        free(device);
        return NULL;
    }
    *error = 0;
    return device;
}

int cv4l2_query_menu(const cv4l2_ops *ops, int fd, uint32_t id, uint32_t index, char *name, int64_t *value) {
    struct v4l2_querymenu item;
    memset(&item, 0, sizeof item);
    item.id = id;
    item.index = index;
    int error = cv4l2_xioctl(ops, fd, VIDIOC_QUERYMENU, &item);
    if (error) return error;
    memcpy(name, item.name, sizeof item.name);
    name[sizeof item.name] = 0;
    *value = item.value;
    return 0;
}
