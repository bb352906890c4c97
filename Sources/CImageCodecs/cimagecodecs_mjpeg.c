/*
 * A camera's MJPEG frames straight to planar 4:2:2 (the frame path reads luma and chroma planes): libjpeg-turbo's
 * raw-data output, no colour conversion and no chroma resampling for the 4:2:2 JPEGs webcams send (4:2:0 chroma rows
 * are repeated, grey gets neutral chroma), optionally at 1/2, 1/4 or 1/8 of the size through the DCT's own scaling.
 * One decoder is kept for the whole stream.
 */
#include "cimagecodecs_private.h"

#include <stdlib.h>
#include <string.h>

#include <jerror.h>

/* libjpeg's limits: 4 × 4 sampling factors, blocks of at most 8 rows at a scale of 1 or less. */
enum { MAX_BAND_ROWS = 4 * DCTSIZE };

struct cic_mjpeg {
    struct jpeg_decompress_struct cinfo;
    cic_jpeg_error error;
    int layout;
    uint8_t *band;          /* one iMCU row of every component, padded to whole blocks */
    size_t band_size;
};

static void planes_report(cic_planes_info *info, int status, const char *message) {
    info->status = status;
    snprintf(info->message, sizeof info->message, "%s", message ? message : "unknown error");
}

cic_mjpeg *cic_mjpeg_create(void) {
    cic_mjpeg *volatile decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->cinfo.err = &decoder->error.pub;
    cic_jpeg_install_errors(&decoder->error);
    if (setjmp(decoder->error.jump)) {
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    return decoder;
}

void cic_mjpeg_destroy(cic_mjpeg *decoder) {
    if (!decoder) return;
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder->band);
    free(decoder);
}

/* The planes the JPEG's sampling gives without resampling: grey, 4:2:0, 4:2:2 or 4:4:4 YCbCr; any other (4:1:1,
 * RGB or CMYK JPEGs) is decoded through libjpeg's colour conversion to 4:4:4. */
static int sampling_layout(const struct jpeg_decompress_struct *cinfo, int *raw) {
    *raw = 0;
    if (cinfo->num_components == 1) {
        *raw = 1;
        return CIC_PLANES_GRAY;
    }
    const jpeg_component_info *c = cinfo->comp_info;
    if (cinfo->num_components != 3 || cinfo->jpeg_color_space != JCS_YCbCr || c[1].h_samp_factor != 1
        || c[1].v_samp_factor != 1 || c[2].h_samp_factor != 1 || c[2].v_samp_factor != 1)
        return CIC_PLANES_444;
    *raw = 1;
    if (c[0].h_samp_factor == 2 && c[0].v_samp_factor == 2) return CIC_PLANES_420;
    if (c[0].h_samp_factor == 2 && c[0].v_samp_factor == 1) return CIC_PLANES_422;
    if (c[0].h_samp_factor == 1 && c[0].v_samp_factor == 1) return CIC_PLANES_444;
    *raw = 0;
    return CIC_PLANES_444;
}

int cic_mjpeg_open(cic_mjpeg *decoder, const uint8_t *data, size_t size, int scale_denom, cic_planes_info *info) {
    memset(info, 0, sizeof *info);
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    decoder->error.status = CIC_OK;
    if (setjmp(decoder->error.jump)) {
        planes_report(info, decoder->error.status, decoder->error.message);
        jpeg_abort_decompress(cinfo);
        return info->status;
    }
    if (size < 4) {
        planes_report(info, CIC_ERROR_TRUNCATED, "the frame is too short to be a JPEG");
        return info->status;
    }
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
    int raw = 0;
    decoder->layout = sampling_layout(cinfo, &raw);
    cinfo->raw_data_out = raw ? TRUE : FALSE;
    cinfo->do_fancy_upsampling = FALSE;
    cinfo->out_color_space = decoder->layout == CIC_PLANES_GRAY ? JCS_GRAYSCALE : JCS_YCbCr;
    cinfo->scale_num = 1;
    cinfo->scale_denom = scale_denom == 2 || scale_denom == 4 || scale_denom == 8 ? (unsigned)scale_denom : 1;
    jpeg_calc_output_dimensions(cinfo);
    info->width = (int)cinfo->output_width;
    info->height = (int)cinfo->output_height;
    info->source_width = (int)cinfo->image_width;
    info->source_height = (int)cinfo->image_height;
    info->layout = decoder->layout;
    info->status = CIC_OK;
    return CIC_OK;
}

size_t cic_planes_bytes(int width, int height) {
    return (size_t)width * (size_t)height + 2 * (size_t)((width + 1) / 2) * (size_t)height;
}

/* One iMCU row of raw data into the band, then its rows that fall inside the picture into the 4:2:2 planes: luma and
 * 4:2:2 chroma row for row, 4:2:0 chroma rows twice each, 4:4:4 chroma every other sample. */
static int read_raw(cic_mjpeg *decoder, uint8_t *planes, cic_planes_info *info) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    int components = cinfo->num_components, scaled = cinfo->min_DCT_scaled_size;
    int band_rows = cinfo->max_v_samp_factor * scaled;
    size_t need = 0;
    for (int index = 0; index < components; index++) {
        jpeg_component_info *c = &cinfo->comp_info[index];
        need += (size_t)c->width_in_blocks * c->DCT_scaled_size * c->v_samp_factor * c->DCT_scaled_size;
    }
    if (need > decoder->band_size) {
        free(decoder->band);
        decoder->band = malloc(need);
        decoder->band_size = decoder->band ? need : 0;
        if (!decoder->band) return CIC_ERROR_NO_MEMORY;
    }
    JSAMPROW rows[3][MAX_BAND_ROWS];
    JSAMPARRAY image[3];
    uint8_t *cursor = decoder->band;
    for (int index = 0; index < components; index++) {
        jpeg_component_info *c = &cinfo->comp_info[index];
        size_t padded = (size_t)c->width_in_blocks * c->DCT_scaled_size;
        for (int row = 0; row < c->v_samp_factor * c->DCT_scaled_size; row++, cursor += padded) rows[index][row] = cursor;
        image[index] = rows[index];
    }
    size_t width = (size_t)info->width, height = (size_t)info->height, chroma_width = (width + 1) / 2;
    if (components == 1) memset(planes + width * height, 128, 2 * chroma_width * height);
    while (cinfo->output_scanline < cinfo->output_height) {
        size_t first = cinfo->output_scanline;
        if (jpeg_read_raw_data(cinfo, image, (JDIMENSION)band_rows) == 0) return CIC_ERROR_TRUNCATED;
        for (int row = 0; row < band_rows && first + row < height; row++)
            memcpy(planes + (first + row) * width, rows[0][row], width);
        for (int index = 1; index < components; index++) {
            uint8_t *plane = planes + width * height + (size_t)(index - 1) * chroma_width * height;
            for (int row = 0; row < band_rows && first + row < height; row++) {
                const uint8_t *source = rows[index][row * cinfo->comp_info[index].v_samp_factor / cinfo->max_v_samp_factor];
                uint8_t *target = plane + (first + row) * chroma_width;
                if (decoder->layout == CIC_PLANES_444)
                    for (size_t x = 0; x < chroma_width; x++) target[x] = source[2 * x];
                else
                    memcpy(target, source, chroma_width);
            }
        }
    }
    return CIC_OK;
}

/* Through libjpeg's colour conversion to interleaved YCbCr, then into the 4:2:2 planes (chroma of even columns). */
static int read_converted(cic_mjpeg *decoder, uint8_t *planes, cic_planes_info *info) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    size_t width = (size_t)info->width, pixels = width * (size_t)info->height, chroma_width = (width + 1) / 2;
    uint8_t *cb = planes + pixels, *cr = cb + chroma_width * (size_t)info->height;
    if (width * 3 > decoder->band_size) {
        free(decoder->band);
        decoder->band = malloc(width * 3);
        decoder->band_size = decoder->band ? width * 3 : 0;
        if (!decoder->band) return CIC_ERROR_NO_MEMORY;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        size_t row = cinfo->output_scanline;
        JSAMPROW line = decoder->band;
        if (jpeg_read_scanlines(cinfo, &line, 1) != 1) return CIC_ERROR_TRUNCATED;
        for (size_t x = 0; x < width; x++) planes[row * width + x] = line[3 * x];
        for (size_t x = 0; x < chroma_width; x++) {
            cb[row * chroma_width + x] = line[6 * x + 1];
            cr[row * chroma_width + x] = line[6 * x + 2];
        }
    }
    return CIC_OK;
}

int cic_mjpeg_read(cic_mjpeg *decoder, uint8_t *planes, size_t capacity, cic_planes_info *info) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (setjmp(decoder->error.jump)) {
        planes_report(info, decoder->error.status, decoder->error.message);
        jpeg_abort_decompress(cinfo);
        return info->status;
    }
    /* The size is the decoder's own (as `cic_mjpeg_open` reported it), whatever the caller's copy says now: the
     * capacity check and every plane index below rest on it. */
    info->width = (int)cinfo->output_width;
    info->height = (int)cinfo->output_height;
    if (capacity < cic_planes_bytes(info->width, info->height)) {
        planes_report(info, CIC_ERROR_NO_MEMORY, "the planes do not fit the buffer");
        jpeg_abort_decompress(cinfo);
        return info->status;
    }
    jpeg_start_decompress(cinfo);
    int status = cinfo->raw_data_out ? read_raw(decoder, planes, info) : read_converted(decoder, planes, info);
    if (status != CIC_OK) planes_report(info, status, "the data ends before the image does");
    /* Not jpeg_finish_decompress: a frame whose picture is whole is taken without looking for its EOI marker. */
    jpeg_abort_decompress(cinfo);
    return status;
}
