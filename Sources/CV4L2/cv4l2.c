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
    size_t row_bytes;           /* packed bytes of one row in the destination */
    size_t min_bytes_used;      /* the least bytesused that holds a whole frame */
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

/* Which format to ask for: the camera's own YUYV, else RGB24 (libv4l2 converts MJPEG and others to it). */
static int choose_format(cv4l2_device *device, uint32_t *chosen) {
    bool native_yuyv = false, rgb24 = false;
    for (uint32_t index = 0; index < 256; index++) {
        struct v4l2_fmtdesc description;
        memset(&description, 0, sizeof description);
        description.index = index;
        description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        int error = cv4l2_xioctl(&device->ops, device->fd, VIDIOC_ENUM_FMT, &description);
        if (error == EINVAL) break;     /* end of the list */
        if (error) return error;
        if (description.pixelformat == V4L2_PIX_FMT_YUYV && !(description.flags & V4L2_FMT_FLAG_EMULATED))
            native_yuyv = true;
        if (description.pixelformat == V4L2_PIX_FMT_RGB24) rgb24 = true;
    }
    if (native_yuyv) *chosen = V4L2_PIX_FMT_YUYV;
    else if (rgb24) *chosen = V4L2_PIX_FMT_RGB24;
    else return ENOENT;
    return 0;
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
    error = choose_format(device, &pixel_format);
    if (error == ENOENT) return fail(device, failure, CV4L2_STAGE_NO_FORMAT, EINVAL);
    if (error) return fail(device, failure, CV4L2_STAGE_ENUM_FMT, error);

    struct v4l2_format format;
    error = set_format(device, pixel_format, request->width, request->height, &format);
    if (error) return fail(device, failure, CV4L2_STAGE_S_FMT, error);
    if (format.fmt.pix.pixelformat != pixel_format && pixel_format == V4L2_PIX_FMT_YUYV) {
        /* The driver would not give YUYV at this size after all: let libv4l2 convert to RGB24. */
        pixel_format = V4L2_PIX_FMT_RGB24;
        error = set_format(device, pixel_format, request->width, request->height, &format);
        if (error) return fail(device, failure, CV4L2_STAGE_S_FMT, error);
    }
    if (format.fmt.pix.pixelformat != pixel_format) return fail(device, failure, CV4L2_STAGE_NO_FORMAT, EINVAL);
    uint32_t width = format.fmt.pix.width, height = format.fmt.pix.height;
    if (width == 0 || height == 0 || width > 16384 || height > 16384)
        return fail(device, failure, CV4L2_STAGE_S_FMT, EINVAL);
    device->row_bytes = pixel_format == V4L2_PIX_FMT_YUYV ? (size_t)((width + 1) / 2) * 4 : (size_t)width * 3;
    size_t stride = format.fmt.pix.bytesperline;
    if (stride < device->row_bytes) stride = device->row_bytes;   /* drivers that leave it 0 */
    device->min_bytes_used = stride * (height - 1) + device->row_bytes;
    device->info.pixel_format = pixel_format;
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
    }
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

static void copy_frame(const cv4l2_device *device, const uint8_t *source, uint8_t *destination) {
    size_t stride = device->info.bytes_per_line;
    if (stride == device->row_bytes) {
        memcpy(destination, source, device->row_bytes * device->info.height);
        return;
    }
    for (uint32_t row = 0; row < device->info.height; row++)
        memcpy(destination + row * device->row_bytes, source + row * stride, device->row_bytes);
}

cv4l2_read_result cv4l2_read(cv4l2_device *device, void *destination, size_t capacity, int timeout_ms,
                             cv4l2_frame_info *frame, cv4l2_failure *failure) {
    failure->stage = CV4L2_STAGE_NONE;
    failure->error = 0;
    if (!device->streaming) return read_failed(failure, CV4L2_STAGE_DQBUF, EBADF);
    if (capacity < device->row_bytes * device->info.height) return read_failed(failure, CV4L2_STAGE_DQBUF, EINVAL);

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
        copy_frame(device, device->starts[buffer.index], destination);
        frame->bytes = device->row_bytes * device->info.height;
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
