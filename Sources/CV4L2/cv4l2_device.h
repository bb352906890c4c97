/*
 * The V4L2 shim's own: the device's state, shared by starting a stream (cv4l2_start.c) and reading it (cv4l2.c).
 * Not part of the module's interface (include/ holds that).
 */
#ifndef CV4L2_DEVICE_H
#define CV4L2_DEVICE_H

#include "cv4l2.h"

#include <stdbool.h>
#include <string.h>
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

static inline double cv4l2_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* A zeroed capture buffer descriptor for mmap streaming, the argument of QUERYBUF, QBUF and DQBUF. */
static inline struct v4l2_buffer cv4l2_mmap_buffer(uint32_t index) {
    struct v4l2_buffer buffer;
    memset(&buffer, 0, sizeof buffer);
    buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffer.memory = V4L2_MEMORY_MMAP;
    buffer.index = index;
    return buffer;
}

/* Bytes of one row of the source in its first plane, of a whole frame in the destination's layout, and the least
 * bytesused that holds a whole frame (cv4l2.c). */
size_t cv4l2_source_row_bytes(uint32_t pixel_format, uint32_t width);
size_t cv4l2_destination_bytes(uint32_t pixel_format, uint32_t width, uint32_t height);
size_t cv4l2_source_min_bytes(uint32_t pixel_format, uint32_t width, uint32_t height, size_t stride);

#endif
