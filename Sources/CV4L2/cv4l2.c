/*
 * V4L2 streaming capture: dequeue, copy and release on every path; controls. Starting a stream (negotiate, map,
 * stream on) is in cv4l2_start.c.
 *
 * All device calls go through the ops table (cv4l2_ops) so tests can drive a scripted fake.
 */
#include "cv4l2.h"
#include "cv4l2_device.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

int cv4l2_xioctl(const cv4l2_ops *ops, int fd, unsigned long request, void *argument) {
    for (;;) {
        if (ops->ioctl(ops->context, fd, request, argument) != -1) return 0;
        if (errno != EINTR) return errno;
    }
}

int cv4l2_raw_xioctl(const cv4l2_ops *ops, int fd, unsigned long request, void *argument) {
    if (!ops->raw_ioctl) return cv4l2_xioctl(ops, fd, request, argument);
    for (;;) {
        if (ops->raw_ioctl(ops->context, fd, request, argument) != -1) return 0;
        if (errno != EINTR) return errno;
    }
}

/* Bytes of one row of the source in its first plane, and of a whole frame in the destination's layout. */
size_t cv4l2_source_row_bytes(uint32_t pixel_format, uint32_t width) {
    switch (cv4l2_destination_layout(pixel_format)) {
    case 1: return (size_t)((width + 1) / 2) * 4;
    case 3: return width;
    case 4: return 0;
    default:
        return (size_t)width * (pixel_format == V4L2_PIX_FMT_RGB24 || pixel_format == V4L2_PIX_FMT_BGR24 ? 3 : 4);
    }
}

size_t cv4l2_destination_bytes(uint32_t pixel_format, uint32_t width, uint32_t height) {
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
size_t cv4l2_source_min_bytes(uint32_t pixel_format, uint32_t width, uint32_t height, size_t stride) {
    size_t row = cv4l2_source_row_bytes(pixel_format, width), luma = stride * (height - 1) + row;
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

static cv4l2_read_result read_failed(cv4l2_failure *failure, cv4l2_stage stage, int error) {
    failure->stage = stage;
    failure->error = error;
    return CV4L2_READ_FAILED;
}

/* After an EIO the driver may have dequeued a buffer without handing it over; queue any such buffer again. */
static int recover_buffers(cv4l2_device *device) {
    for (uint32_t index = 0; index < device->buffer_count; index++) {
        struct v4l2_buffer buffer = cv4l2_mmap_buffer(index);
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
        when = cv4l2_monotonic_seconds();
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
    device.row_bytes = cv4l2_source_row_bytes(pixel_format, width);
    size_t stride = bytes_per_line < device.row_bytes ? device.row_bytes : bytes_per_line;
    if (source_bytes < cv4l2_source_min_bytes(pixel_format, width, height, stride)
        || capacity < cv4l2_destination_bytes(pixel_format, width, height))
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

    struct v4l2_buffer buffer = cv4l2_mmap_buffer(0);
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
