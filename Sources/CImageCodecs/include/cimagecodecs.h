#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H
/*
 * JPEG (libjpeg-turbo) and PNG (libpng) for facecap, with the libraries' setjmp/longjmp error handling
 * kept on this side: a longjmp across Swift frames is undefined behaviour, so every call that can fail
 * inside libjpeg/libpng sets its own jump point here and returns a status instead.
 *
 * Decoding is two-phase so that Swift sees the dimensions (and refuses absurd ones) before anything the
 * size of the image is allocated: `*_open` parses the header, Swift allocates the pixel buffer, `*_read`
 * fills it, `*_close` frees the decoder (always call it, also after an error).
 */
#include <stddef.h>
#include <stdint.h>

/* Outcome of a codec call. */
enum {
    CIC_OK = 0,
    /* The data is not a valid image of this kind (the message says why). */
    CIC_ERROR_CORRUPT = 1,
    /* The data ends before the image does. */
    CIC_ERROR_TRUNCATED = 2,
    /* The codec ran out of memory. */
    CIC_ERROR_NO_MEMORY = 3,
    /* The image uses a feature facecap does not decode (message says which). */
    CIC_ERROR_UNSUPPORTED = 4,
};

/* Size of the message buffer of a decoder; libjpeg's JMSG_LENGTH_MAX is 200. */
#define CIC_MESSAGE_LENGTH 200

/* What a decoder found in the header: width, height and channels of the pixels `*_read` writes
   (1 = grey, 3 = RGB; always 8 bits per channel). */
typedef struct {
    int width;
    int height;
    int channels;
    int status;
    char message[CIC_MESSAGE_LENGTH];
    /* The fewest bytes of compressed data that can hold the declared image, 0 when there is no useful
       bound: lets the caller refuse a tiny file declaring a huge image before allocating its pixels. */
    uint64_t min_data_bytes;
} cic_image_info;

typedef struct cic_jpeg_decoder cic_jpeg_decoder;
typedef struct cic_png_decoder cic_png_decoder;

/* Parses a JPEG header from `data` (which must stay valid until cic_jpeg_close). Returns NULL only when
   out of memory; otherwise check info->status. Grey JPEGs decode to 1 channel, all others to RGB. */
cic_jpeg_decoder *cic_jpeg_open(const uint8_t *data, size_t size, cic_image_info *info);
/* Decodes the whole image into `pixels` (height rows of `stride` bytes). Returns a CIC_ status and
   fills info->message on error. */
int cic_jpeg_read(cic_jpeg_decoder *decoder, uint8_t *pixels, size_t stride, cic_image_info *info);
void cic_jpeg_close(cic_jpeg_decoder *decoder);

/* The same for PNG: palette, 16-bit and low-bit-depth images are expanded to 8 bits per channel,
   alpha is dropped (as image viewers that flatten to RGB do), interlaced images are de-interlaced. */
cic_png_decoder *cic_png_open(const uint8_t *data, size_t size, cic_image_info *info);
int cic_png_read(cic_png_decoder *decoder, uint8_t *pixels, size_t stride, cic_image_info *info);
void cic_png_close(cic_png_decoder *decoder);

/* Encodes 8-bit grey (channels 1) or RGB (channels 3) pixels as a baseline JFIF JPEG (no EXIF or other
   metadata) with optimised Huffman tables. On CIC_OK, *out is a malloc'd buffer of *out_size bytes that
   the caller frees with cic_free. */
int cic_jpeg_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride,
                    int quality, uint8_t **out, size_t *out_size, char *message, size_t message_size);

/* ---- MJPEG frames to planes ------------------------------------------------------------------------
 * A camera's MJPEG frames decoded straight to planar 4:2:2, Y then Cb and Cr at half width (rounded up), the layout
 * of the 4:2:2 JPEGs webcams send (libjpeg-turbo's raw-data output: no colour conversion, no resampling), optionally
 * scaled down by the DCT. One decoder serves a whole stream: cic_mjpeg_open reads a frame's header, the caller sizes
 * the planes (cic_planes_bytes), cic_mjpeg_read decodes. A damaged or short frame is a status (never a crash), after
 * which the decoder takes the next frame. */

/* The JPEG's own sampling (cic_planes_info.layout): grey (neutral chroma is written), 4:2:0 (its chroma rows are
   repeated), 4:2:2, or 4:4:4 (and every other, through libjpeg's YCbCr; chroma of the even columns is kept). */
enum { CIC_PLANES_GRAY = 1, CIC_PLANES_420 = 2, CIC_PLANES_422 = 3, CIC_PLANES_444 = 4 };

typedef struct {
    /* The size decoded (the frame's, divided by the scale, rounded up) and the frame's own. */
    int width;
    int height;
    int source_width;
    int source_height;
    int layout;
    int status;
    char message[CIC_MESSAGE_LENGTH];
} cic_planes_info;

typedef struct cic_mjpeg cic_mjpeg;

/* NULL when out of memory. */
cic_mjpeg *cic_mjpeg_create(void);
void cic_mjpeg_destroy(cic_mjpeg *decoder);
/* Parses the header of the frame in `data` (valid until cic_mjpeg_read returns); `scale_denom` 1, 2, 4 or 8 decodes
   at that fraction of the size. Returns a CIC_ status; info says the size and layout to come. */
int cic_mjpeg_open(cic_mjpeg *decoder, const uint8_t *data, size_t size, int scale_denom, cic_planes_info *info);
/* Decodes the frame opened last into `planes` (`capacity` bytes, at least cic_planes_bytes). Returns a CIC_ status. */
int cic_mjpeg_read(cic_mjpeg *decoder, uint8_t *planes, size_t capacity, cic_planes_info *info);
/* Bytes of the 4:2:2 planes of a `width` × `height` picture. */
size_t cic_planes_bytes(int width, int height);

/* RGB pixels as a camera's MJPEG frame: baseline JPEG with 4:2:2 chroma and the standard Huffman tables, as UVC
   webcams encode (for the format tests and `facecap bench --formats`). Returns as cic_jpeg_encode. */
int cic_jpeg_encode_webcam(const uint8_t *pixels, int width, int height, size_t stride, int quality, uint8_t **out,
                           size_t *out_size, char *message, size_t message_size);

/* free() for buffers this library returned. */
void cic_free(void *pointer);

#endif
