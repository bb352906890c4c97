#include "cimagecodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>
#include <png.h>

#include "cimagecodecs_private.h"

static void copy_message(char *destination, size_t size, const char *text) {
    if (size == 0) return;
    snprintf(destination, size, "%s", text ? text : "unknown error");
}

/* ---- libjpeg error handling ------------------------------------------------------------------------
 * libjpeg reports fatal errors through error_exit, which must not return: we longjmp back to the
 * setjmp of the C function that called into libjpeg. Warnings are silenced (libjpeg would print them
 * to stderr, under the wizard's full-screen UI), except "premature end of file" and "premature end of
 * data segment" (the scan stops at a marker, e.g. EOI, before the image is complete): libjpeg would fill
 * the rest with grey and call it a success, and facecap must report it instead. */

static void jpeg_error_exit(j_common_ptr common) {
    cic_jpeg_error *error = (cic_jpeg_error *)common->err;
    char text[JMSG_LENGTH_MAX];
    (*common->err->format_message)(common, text);
    copy_message(error->message, sizeof error->message, text);
    if (error->status == CIC_OK) {
        error->status = common->err->msg_code == JERR_OUT_OF_MEMORY ? CIC_ERROR_NO_MEMORY
                      : common->err->msg_code == JERR_INPUT_EMPTY ? CIC_ERROR_TRUNCATED
                      : CIC_ERROR_CORRUPT;
    }
    longjmp(error->jump, 1);
}

static void jpeg_emit_message(j_common_ptr common, int level) {
    if (level >= 0) return; /* trace messages */
    if (common->err->msg_code == JWRN_JPEG_EOF || common->err->msg_code == JWRN_HIT_MARKER) {
        ((cic_jpeg_error *)common->err)->status = CIC_ERROR_TRUNCATED;
        jpeg_error_exit(common);
    }
    common->err->num_warnings++;
}

static void jpeg_output_message(j_common_ptr common) { (void)common; }

void cic_jpeg_install_errors(cic_jpeg_error *error) {
    jpeg_std_error(&error->pub);
    error->pub.error_exit = jpeg_error_exit;
    error->pub.emit_message = jpeg_emit_message;
    error->pub.output_message = jpeg_output_message;
    error->status = CIC_OK;
    error->message[0] = 0;
}

static void report(cic_image_info *info, int status, const char *message) {
    info->status = status;
    copy_message(info->message, sizeof info->message, message);
}

/* ---- JPEG decoding --------------------------------------------------------------------------------- */

struct cic_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    cic_jpeg_error error;
    int created;
    int cmyk;
    uint8_t *row; /* CMYK scanline, converted to RGB on the way out */
};

cic_jpeg_decoder *cic_jpeg_open(const uint8_t *data, size_t size, cic_image_info *info) {
    memset(info, 0, sizeof *info);
    cic_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->cinfo.err = &decoder->error.pub;
    cic_jpeg_install_errors(&decoder->error);
    if (setjmp(decoder->error.jump)) {
        report(info, decoder->error.status, decoder->error.message);
        return decoder;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
    jpeg_read_header(&decoder->cinfo, TRUE);
    switch (decoder->cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
        decoder->cinfo.out_color_space = JCS_GRAYSCALE;
        info->channels = 1;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        /* libjpeg cannot convert CMYK to RGB itself; cic_jpeg_read does it per row. */
        decoder->cinfo.out_color_space = JCS_CMYK;
        decoder->cmyk = 1;
        info->channels = 3;
        break;
    default:
        decoder->cinfo.out_color_space = JCS_RGB;
        info->channels = 3;
        break;
    }
    info->width = (int)decoder->cinfo.image_width;
    info->height = (int)decoder->cinfo.image_height;
    /* Sequential Huffman coding spends at least two bits per 8×8 block (a one-bit DC code and a one-bit
     * end-of-block), and there are at least (width/8)×(height/8) blocks. Progressive scans (end-of-band
     * runs) and arithmetic coding can go far lower, so they get no bound. */
    if (!decoder->cinfo.progressive_mode && !decoder->cinfo.arith_code)
        info->min_data_bytes = (uint64_t)(info->width / 8) * (uint64_t)(info->height / 8) / 4;
    info->status = CIC_OK;
    return decoder;
}

int cic_jpeg_read(cic_jpeg_decoder *decoder, uint8_t *pixels, size_t stride, cic_image_info *info) {
    if (setjmp(decoder->error.jump)) {
        report(info, decoder->error.status, decoder->error.message);
        return info->status;
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    jpeg_start_decompress(cinfo);
    if ((int)cinfo->output_width != info->width || (int)cinfo->output_height != info->height) {
        report(info, CIC_ERROR_CORRUPT, "decoded size differs from the header");
        return info->status;
    }
    if (decoder->cmyk) {
        decoder->row = malloc((size_t)cinfo->output_width * 4);
        if (!decoder->row) {
            report(info, CIC_ERROR_NO_MEMORY, "out of memory");
            return info->status;
        }
    }
    /* Adobe applications write CMYK JPEGs with inverted values (255 = no ink). */
    int inverted = cinfo->saw_Adobe_marker;
    while (cinfo->output_scanline < cinfo->output_height) {
        uint8_t *target = pixels + (size_t)cinfo->output_scanline * stride;
        JSAMPROW row = decoder->cmyk ? decoder->row : target;
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            report(info, CIC_ERROR_TRUNCATED, "the data ends before the image does");
            return info->status;
        }
        if (decoder->cmyk) {
            for (JDIMENSION x = 0; x < cinfo->output_width; x++) {
                const uint8_t *p = decoder->row + 4 * x;
                unsigned c = p[0], m = p[1], y = p[2], k = p[3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                target[3 * x + 0] = (uint8_t)((c * k + 127) / 255);
                target[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
                target[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
            }
        }
    }
    /* jpeg_finish_decompress is skipped on purpose: it only checks for the end-of-image marker, and a
       picture whose pixels all decoded is usable even when a camera left that marker out. */
    info->status = CIC_OK;
    return CIC_OK;
}

void cic_jpeg_close(cic_jpeg_decoder *decoder) {
    if (!decoder) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder->row);
    free(decoder);
}

/* ---- JPEG encoding --------------------------------------------------------------------------------- */

typedef struct {
    cic_jpeg_error error;
    struct jpeg_compress_struct cinfo;
    unsigned char *buffer;
    unsigned long size;
} cic_jpeg_encoder;

/* `webcam`: 4:2:2 chroma and libjpeg's standard Huffman tables, as UVC cameras encode MJPEG; else 4:2:0, optimised. */
static int encode(const uint8_t *pixels, int width, int height, int channels, size_t stride, int quality, int webcam,
                  uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    *out = NULL;
    *out_size = 0;
    if (width <= 0 || height <= 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION
        || (channels != 1 && channels != 3)) {
        copy_message(message, message_size, "JPEG cannot hold an image of this size or format");
        return CIC_ERROR_UNSUPPORTED;
    }
    /* On the heap so that nothing libjpeg changes lives in a local that longjmp could roll back. */
    cic_jpeg_encoder *encoder = calloc(1, sizeof *encoder);
    if (!encoder) {
        copy_message(message, message_size, "out of memory");
        return CIC_ERROR_NO_MEMORY;
    }
    encoder->cinfo.err = &encoder->error.pub;
    cic_jpeg_install_errors(&encoder->error);
    if (setjmp(encoder->error.jump)) {
        int status = encoder->error.status;
        copy_message(message, message_size, encoder->error.message);
        jpeg_destroy_compress(&encoder->cinfo);
        free(encoder->buffer);
        free(encoder);
        return status;
    }
    jpeg_create_compress(&encoder->cinfo);
    jpeg_mem_dest(&encoder->cinfo, &encoder->buffer, &encoder->size);
    encoder->cinfo.image_width = (JDIMENSION)width;
    encoder->cinfo.image_height = (JDIMENSION)height;
    encoder->cinfo.input_components = channels;
    encoder->cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&encoder->cinfo);
    jpeg_set_quality(&encoder->cinfo, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    encoder->cinfo.optimize_coding = webcam ? FALSE : TRUE;
    if (webcam && channels == 3) {
        encoder->cinfo.comp_info[0].h_samp_factor = 2;
        encoder->cinfo.comp_info[0].v_samp_factor = 1;
    }
    /* jpeg_set_defaults writes a JFIF APP0 marker and nothing else: no EXIF, no location, no comment. */
    jpeg_start_compress(&encoder->cinfo, TRUE);
    while (encoder->cinfo.next_scanline < encoder->cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)encoder->cinfo.next_scanline * stride);
        jpeg_write_scanlines(&encoder->cinfo, &row, 1);
    }
    jpeg_finish_compress(&encoder->cinfo);
    jpeg_destroy_compress(&encoder->cinfo);
    *out = encoder->buffer;
    *out_size = encoder->size;
    free(encoder);
    return CIC_OK;
}

int cic_jpeg_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride,
                    int quality, uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    return encode(pixels, width, height, channels, stride, quality, 0, out, out_size, message, message_size);
}

int cic_jpeg_encode_webcam(const uint8_t *pixels, int width, int height, size_t stride, int quality, uint8_t **out,
                           size_t *out_size, char *message, size_t message_size) {
    return encode(pixels, width, height, 3, stride, quality, 1, out, out_size, message, message_size);
}

/* ---- PNG decoding ----------------------------------------------------------------------------------
 * libpng reports errors through a callback that must not return; ours records the message and
 * longjmps to the jump buffer libpng keeps (png_jmpbuf), set by each function below. */

struct cic_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    int truncated;
    png_bytep *rows;
    char message[CIC_MESSAGE_LENGTH];
};

static void png_error_callback(png_structp png, png_const_charp text) {
    cic_png_decoder *decoder = png_get_error_ptr(png);
    copy_message(decoder->message, sizeof decoder->message, text);
    png_longjmp(png, 1);
}

static void png_warning_callback(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void png_read_callback(png_structp png, png_bytep target, size_t length) {
    cic_png_decoder *decoder = png_get_io_ptr(png);
    if (length > decoder->size - decoder->offset) {
        decoder->truncated = 1;
        png_error(png, "the data ends before the image does");
    }
    memcpy(target, decoder->data + decoder->offset, length);
    decoder->offset += length;
}

static int png_failure(cic_png_decoder *decoder, cic_image_info *info) {
    int status = decoder->truncated ? CIC_ERROR_TRUNCATED
               : strstr(decoder->message, "memory") ? CIC_ERROR_NO_MEMORY
               : CIC_ERROR_CORRUPT;
    report(info, status, decoder->message);
    return status;
}

cic_png_decoder *cic_png_open(const uint8_t *data, size_t size, cic_image_info *info) {
    memset(info, 0, sizeof *info);
    cic_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->data = data;
    decoder->size = size;
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        report(info, size < 8 ? CIC_ERROR_TRUNCATED : CIC_ERROR_CORRUPT, "not a PNG signature");
        return decoder;
    }
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, png_error_callback,
                                          png_warning_callback);
    if (decoder->png) decoder->info = png_create_info_struct(decoder->png);
    if (!decoder->png || !decoder->info) {
        report(info, CIC_ERROR_NO_MEMORY, "out of memory");
        return decoder;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        png_failure(decoder, info);
        return decoder;
    }
    png_set_read_fn(decoder->png, decoder, png_read_callback);
    png_read_info(decoder->png, decoder->info);
    int color_type = png_get_color_type(decoder->png, decoder->info);
    int bit_depth = png_get_bit_depth(decoder->png, decoder->info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(decoder->png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(decoder->png);
    if (bit_depth == 16) png_set_scale_16(decoder->png);
    /* Drops an alpha channel, including one a tRNS chunk would add to a palette image. */
    png_set_strip_alpha(decoder->png);
    png_set_interlace_handling(decoder->png);
    png_read_update_info(decoder->png, decoder->info);
    info->width = (int)png_get_image_width(decoder->png, decoder->info);
    info->height = (int)png_get_image_height(decoder->png, decoder->info);
    info->channels = png_get_channels(decoder->png, decoder->info);
    if ((info->channels != 1 && info->channels != 3) || png_get_bit_depth(decoder->png, decoder->info) != 8) {
        report(info, CIC_ERROR_UNSUPPORTED, "unsupported PNG pixel layout");
        return decoder;
    }
    info->status = CIC_OK;
    return decoder;
}

int cic_png_read(cic_png_decoder *decoder, uint8_t *pixels, size_t stride, cic_image_info *info) {
    if (setjmp(png_jmpbuf(decoder->png))) return png_failure(decoder, info);
    decoder->rows = malloc(sizeof(png_bytep) * (size_t)info->height);
    if (!decoder->rows) {
        report(info, CIC_ERROR_NO_MEMORY, "out of memory");
        return info->status;
    }
    for (int y = 0; y < info->height; y++) decoder->rows[y] = pixels + (size_t)y * stride;
    png_read_image(decoder->png, decoder->rows);
    /* png_read_end is skipped on purpose: what follows the pixels is metadata facecap does not use. */
    info->status = CIC_OK;
    return CIC_OK;
}

void cic_png_close(cic_png_decoder *decoder) {
    if (!decoder) return;
    if (decoder->png) png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
    free(decoder->rows);
    free(decoder);
}

void cic_free(void *pointer) { free(pointer); }
