/*
 * MJPEG decoding measured: libv4l2's conversion (libv4lconvert, what a camera's MJPEG went through when facecap asked
 * libv4l2 for RGB24 or YUV420) against facecap's own libjpeg-turbo decoder (Sources/CImageCodecs: RGB as photos are
 * decoded, Y/Cb/Cr planes as the camera path now does, and planes at 1/2 through the DCT's scaling), on the same
 * frames: a fixture photo scaled into 640×480 and 1280×720 and encoded 4:2:2 at a webcam's quality.
 *
 *   make -C tools -f - ... (see docs/camera-formats.md for the command), then
 *   tools/mjpeg_bench Tests/Fixtures/images/grace_hopper.jpg [quality] [rounds]
 *
 * Every round times each way once, in turn (alternating), and the medians of the thread's CPU time are printed in
 * milliseconds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jpeglib.h>
#include <libv4l-plugin.h>
#include <libv4lconvert.h>
#include <errno.h>

#include "cimagecodecs.h"

/* Thread CPU time: on a machine shared with other work, wall time measures the scheduler as much as the decoder. */
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static uint8_t *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *data = malloc((size_t)length);
    *size = fread(data, 1, (size_t)length, file);
    fclose(file);
    return data;
}

/* The photo scaled (bilinear) to the frame's height, centred, the sides filled with its edge columns. */
static uint8_t *frame_from_photo(const uint8_t *rgb, int pw, int ph, int width, int height) {
    uint8_t *frame = malloc((size_t)width * height * 3);
    double scale = (double)ph / height;
    double left = (width - pw / scale) / 2;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            double sx = (x - left) * scale, sy = y * scale;
            if (sx < 0) sx = 0;
            if (sx > pw - 1) sx = pw - 1;
            if (sy > ph - 1) sy = ph - 1;
            int x0 = (int)sx, y0 = (int)sy, x1 = x0 + 1 < pw ? x0 + 1 : x0, y1 = y0 + 1 < ph ? y0 + 1 : y0;
            double fx = sx - x0, fy = sy - y0;
            for (int c = 0; c < 3; c++) {
                double top = rgb[(y0 * pw + x0) * 3 + c] * (1 - fx) + rgb[(y0 * pw + x1) * 3 + c] * fx;
                double bottom = rgb[(y1 * pw + x0) * 3 + c] * (1 - fx) + rgb[(y1 * pw + x1) * 3 + c] * fx;
                frame[((size_t)y * width + x) * 3 + c] = (uint8_t)(top * (1 - fy) + bottom * fy + 0.5);
            }
        }
    return frame;
}

/* RGB → baseline JPEG with 4:2:2 chroma (2×1 luma sampling), as UVC cameras encode MJPEG. */
static uint8_t *encode_422(const uint8_t *rgb, int width, int height, int quality, unsigned long *size) {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr error;
    cinfo.err = jpeg_std_error(&error);
    jpeg_create_compress(&cinfo);
    uint8_t *out = NULL;
    jpeg_mem_dest(&cinfo, &out, size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.comp_info[0].h_samp_factor = 2;
    cinfo.comp_info[0].v_samp_factor = 1;
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * width * 3);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return out;
}

static uint8_t *decode_photo(const char *path, int *width, int *height) {
    size_t size = 0;
    uint8_t *data = read_file(path, &size);
    if (!data) return NULL;
    cic_image_info info;
    cic_jpeg_decoder *decoder = cic_jpeg_open(data, size, &info);
    uint8_t *rgb = NULL;
    if (decoder && info.status == CIC_OK && info.channels == 3) {
        rgb = malloc((size_t)info.width * info.height * 3);
        if (cic_jpeg_read(decoder, rgb, (size_t)info.width * 3, &info) != CIC_OK) {
            free(rgb);
            rgb = NULL;
        }
        *width = info.width;
        *height = info.height;
    }
    cic_jpeg_close(decoder);
    free(data);
    return rgb;
}

/* A device for libv4lconvert that is a UVC camera to QUERYCAP and answers nothing else: the conversion itself asks
 * the device nothing. */
static int fake_ioctl(void *priv, int fd, unsigned long request, void *argument) {
    (void)priv;
    (void)fd;
    if (request == VIDIOC_QUERYCAP) {
        struct v4l2_capability *cap = argument;
        memset(cap, 0, sizeof *cap);
        strcpy((char *)cap->driver, "uvcvideo");
        strcpy((char *)cap->card, "bench");
        cap->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
        cap->device_caps = cap->capabilities;
        return 0;
    }
    errno = EINVAL;
    return -1;
}

static const struct libv4l_dev_ops fake_ops = { .ioctl = fake_ioctl };

enum { WAYS = 5 };
static const char *way_names[WAYS] = {
    "libv4lconvert MJPEG->RGB24", "libv4lconvert MJPEG->YU12", "own decoder -> RGB24",
    "own decoder -> Y/Cb/Cr planes", "own decoder -> planes at 1/2",
};

static int run_way(int way, struct v4lconvert_data *convert, const uint8_t *jpeg, size_t size, int width,
                   int height, uint8_t *out, size_t capacity, cic_mjpeg *mjpeg) {
    if (way < 2) {
        struct v4l2_format src, dst;
        memset(&src, 0, sizeof src);
        src.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        src.fmt.pix.width = (uint32_t)width;
        src.fmt.pix.height = (uint32_t)height;
        src.fmt.pix.pixelformat = V4L2_PIX_FMT_MJPEG;
        src.fmt.pix.sizeimage = (uint32_t)size;
        dst = src;
        dst.fmt.pix.pixelformat = way == 0 ? V4L2_PIX_FMT_RGB24 : V4L2_PIX_FMT_YUV420;
        dst.fmt.pix.bytesperline = way == 0 ? (uint32_t)width * 3 : (uint32_t)width;
        dst.fmt.pix.sizeimage = way == 0 ? (uint32_t)(width * height * 3) : (uint32_t)(width * height * 3 / 2);
        return v4lconvert_convert(convert, &src, &dst, (unsigned char *)jpeg, (int)size, out, (int)capacity) > 0;
    }
    if (way == 2) {
        cic_image_info info;
        cic_jpeg_decoder *decoder = cic_jpeg_open(jpeg, size, &info);
        int ok = info.status == CIC_OK && cic_jpeg_read(decoder, out, (size_t)width * 3, &info) == CIC_OK;
        cic_jpeg_close(decoder);
        return ok;
    }
    cic_planes_info info;
    if (cic_mjpeg_open(mjpeg, jpeg, size, way == 4 ? 2 : 1, &info) != CIC_OK) return 0;
    return cic_mjpeg_read(mjpeg, out, capacity, &info) == CIC_OK;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s PHOTO.jpg [quality] [rounds]\n", argv[0]);
        return 2;
    }
    int quality = argc > 2 ? atoi(argv[2]) : 80, rounds = argc > 3 ? atoi(argv[3]) : 101;
    int pw = 0, ph = 0;
    uint8_t *photo = decode_photo(argv[1], &pw, &ph);
    if (!photo) {
        fprintf(stderr, "cannot decode %s\n", argv[1]);
        return 1;
    }
    int fd = open("/dev/null", O_RDWR);
    struct v4lconvert_data *convert = v4lconvert_create_with_dev_ops(fd, NULL, &fake_ops);
    if (!convert) {
        fprintf(stderr, "v4lconvert_create failed\n");
        return 1;
    }
    cic_mjpeg *mjpeg = cic_mjpeg_create();
    static const int sizes[2][2] = { { 640, 480 }, { 1280, 720 } };
    printf("quality %d, 4:2:2, %d rounds, medians of thread CPU time in ms\n", quality, rounds);
    for (int s = 0; s < 2; s++) {
        int width = sizes[s][0], height = sizes[s][1];
        uint8_t *frame = frame_from_photo(photo, pw, ph, width, height);
        unsigned long size = 0;
        uint8_t *jpeg = encode_422(frame, width, height, quality, &size);
        size_t capacity = (size_t)width * height * 3;
        uint8_t *out = malloc(capacity);
        double *times = malloc(sizeof(double) * WAYS * (size_t)rounds);
        for (int round = 0; round < rounds; round++)
            for (int way = 0; way < WAYS; way++) {
                double start = now_ms();
                if (!run_way(way, convert, jpeg, size, width, height, out, capacity, mjpeg)) {
                    fprintf(stderr, "%s failed at %dx%d: %s\n", way_names[way], width, height,
                            way < 2 ? v4lconvert_get_error_message(convert) : "decoder");
                    return 1;
                }
                times[way * rounds + round] = now_ms() - start;
            }
        /* The luma planes of libv4lconvert's YU12 and of the own decoder must agree (the same IDCT, no resampling). */
        uint8_t *other = malloc(capacity);
        run_way(1, convert, jpeg, size, width, height, other, capacity, mjpeg);
        run_way(3, convert, jpeg, size, width, height, out, capacity, mjpeg);
        long difference = 0;
        for (size_t i = 0; i < (size_t)width * height; i++) difference += abs(out[i] - other[i]);
        free(other);
        printf("%dx%d (%lu bytes; luma of the two decoders differs by %.3f on average)\n", width, height, size,
               (double)difference / ((double)width * height));
        for (int way = 0; way < WAYS; way++)
            printf("  %-32s %7.3f\n", way_names[way], median(times + way * rounds, rounds));
        free(times);
        free(out);
        free(jpeg);
        free(frame);
    }
    cic_mjpeg_destroy(mjpeg);
    v4lconvert_destroy(convert);
    close(fd);
    free(photo);
    return 0;
}
