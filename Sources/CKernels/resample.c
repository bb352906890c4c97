#include "ckernels.h"

/* YUYV frame → RGB float tensor, bilinear, one pass (FaceCapCore's fillTensor for .yuyv on AVX-512 CPUs).
 *
 * The arithmetic is TensorInput.swift's `resample` with YUYVTaps and ColourTransform, operation for operation
 * and in the same order, with no fused multiply-adds (contraction is off in every function here), so the tensor
 * is bit-identical to the Swift path's (FaceTensorInputTests compares the two on random frames and maps):
 *   position of pixel (i, j): origin + j·dj, then + di once per pixel along the row (sequential sums);
 *   fx = floor(x), ax = x − fx (same for y); the four taps' native (Y, U, V) interpolated as
 *   top = t00 + (t10 − t00)·ax, bottom = t01 + (t11 − t01)·ax, v = top + (bottom − top)·ay;
 *   luma = (Y − yOffset)·yScale, d = U − 128, e = V − 128, (luma + rv·e, luma − gu·d − gv·e, luma + bu·d),
 *   clamped to 0…255 by compare-and-blend, then ·scale + offset.
 * A tap outside the frame reads the nearest edge pixel (replicate) or black (zero border); a position beyond
 * ±1e8 reads the border colour without interpolation, as in Swift.
 *
 * Bounds: the caller (fillTensor) has checked that `p` holds h rows of `row_bytes` bytes with row_bytes ≥ 2·w
 * (YUYV: ceil(w/2) pairs of 4 bytes) and that h·row_bytes < 2^31, so the 32-bit gather offsets cannot wrap.
 * Every tap reads the 4-byte pair of a pixel (x, y) with 0 ≤ x < w and 0 ≤ y < h (coordinates are clamped, or
 * the lane is masked off for the zero border), i.e. bytes y·row_bytes + (x & ~1)·2 … +3 < h·row_bytes. The
 * tensor `dst` holds out_h·out_w·3 floats; 16 pixels are stored as three 16-float stores only when all 16
 * exist in the row (i0 + 16 ≤ out_w), the rest one pixel at a time. */

#if defined(__x86_64__)
#include <immintrin.h>

typedef struct {
    const unsigned char *p;
    long w, h, row_bytes;
    int replicate;
    float y_offset, y_scale, rv, gu, gv, bu, scale, offset;
} Src;

/* The native colour of pixel (x, y), 0 ≤ x < w, 0 ≤ y < h (YUYVTaps.tap). */
static inline void tap(const Src *s, long x, long y, float out[3]) {
    const unsigned char *pair = s->p + y * s->row_bytes + (x & ~1L) * 2;
    out[0] = (float)pair[(x & 1) * 2];
    out[1] = (float)pair[1];
    out[2] = (float)pair[3];
}

/* edgeTap: replicate clamps, zero reads black outside. */
static inline void edge_tap(const Src *s, long x, long y, float out[3]) {
    if (s->replicate) {
        long cx = x < 0 ? 0 : (x > s->w - 1 ? s->w - 1 : x);
        long cy = y < 0 ? 0 : (y > s->h - 1 ? s->h - 1 : y);
        tap(s, cx, cy, out);
    } else if (x >= 0 && x <= s->w - 1 && y >= 0 && y <= s->h - 1) {
        tap(s, x, y, out);
    } else {
        out[0] = s->y_offset; out[1] = 128; out[2] = 128;
    }
}

/* One tensor pixel at frame position (px, py), as the Swift loop body computes it. */
static void one_pixel(const Src *s, float px, float py, float *o) {
#pragma clang fp contract(off)
    float fx = __builtin_floorf(px), fy = __builtin_floorf(py);
    float ax = px - fx, ay = py - fy;
    float c[3];
    if (fx >= -1e8f && fx <= 1e8f && fy >= -1e8f && fy <= 1e8f) {
        long x0 = (long)fx, y0 = (long)fy;
        float t00[3], t10[3], t01[3], t11[3];
        edge_tap(s, x0, y0, t00); edge_tap(s, x0 + 1, y0, t10);
        edge_tap(s, x0, y0 + 1, t01); edge_tap(s, x0 + 1, y0 + 1, t11);
        for (int k = 0; k < 3; k++) {
            float top = t00[k] + (t10[k] - t00[k]) * ax;
            float bottom = t01[k] + (t11[k] - t01[k]) * ax;
            c[k] = top + (bottom - top) * ay;
        }
    } else if (s->replicate) {
        tap(s, 0, 0, c);
    } else {
        c[0] = s->y_offset; c[1] = 128; c[2] = 128;
    }
    float luma = (c[0] - s->y_offset) * s->y_scale, d = c[1] - 128, e = c[2] - 128;
    float v[3] = {luma + s->rv * e, luma - s->gu * d - s->gv * e, luma + s->bu * d};
    for (int k = 0; k < 3; k++) {
        float low = v[k] < 0 ? 0 : v[k];
        float clamped = low > 255 ? 255 : low;
        o[k] = clamped * s->scale + s->offset;
    }
}

#define TARGET __attribute__((target("avx512f,avx512vl,avx2,fma")))

/* The (Y, U, V) of 16 taps at (x, y): one 4-byte pair per lane, gathered. */
TARGET static inline void taps16(const Src *s, __m512i x, __m512i y, __m512 *cy, __m512 *cu, __m512 *cv) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i max_x = _mm512_set1_epi32((int)(s->w - 1)), max_y = _mm512_set1_epi32((int)(s->h - 1));
    __m512i g;
    if (s->replicate) {
        x = _mm512_min_epi32(_mm512_max_epi32(x, zero), max_x);
        y = _mm512_min_epi32(_mm512_max_epi32(y, zero), max_y);
        __m512i idx = _mm512_add_epi32(_mm512_mullo_epi32(y, _mm512_set1_epi32((int)s->row_bytes)),
                                       _mm512_slli_epi32(_mm512_andnot_si512(_mm512_set1_epi32(1), x), 1));
        g = _mm512_i32gather_epi32(idx, (const void *)s->p, 1);
    } else {
        __mmask16 in = _mm512_cmpge_epi32_mask(x, zero) & _mm512_cmple_epi32_mask(x, max_x)
            & _mm512_cmpge_epi32_mask(y, zero) & _mm512_cmple_epi32_mask(y, max_y);
        /* Black as a pair: Y0 = Y1 = yOffset (16 or 0), U = V = 128; lanes outside keep it. */
        /* Built unsigned: 128 << 24 does not fit a signed int. */
        unsigned off = (unsigned)s->y_offset;
        __m512i black = _mm512_set1_epi32((int)(off | (128u << 8) | (off << 16) | (128u << 24)));
        __m512i idx = _mm512_add_epi32(_mm512_mullo_epi32(y, _mm512_set1_epi32((int)s->row_bytes)),
                                       _mm512_slli_epi32(_mm512_andnot_si512(_mm512_set1_epi32(1), x), 1));
        /* Masked-off lanes read nothing, so their (possibly negative or too large) offsets do not matter. */
        g = _mm512_mask_i32gather_epi32(black, in, idx, (const void *)s->p, 1);
    }
    const __m512i byte = _mm512_set1_epi32(0xFF);
    __m512i shift = _mm512_slli_epi32(_mm512_and_si512(x, _mm512_set1_epi32(1)), 4);
    *cy = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srlv_epi32(g, shift), byte));
    *cu = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(g, 8), byte));
    *cv = _mm512_cvtepi32_ps(_mm512_srli_epi32(g, 24));
}

TARGET static inline __m512 lerp(__m512 a, __m512 b, __m512 t) {
    return _mm512_add_ps(a, _mm512_mul_ps(_mm512_sub_ps(b, a), t));
}

TARGET static inline __m512 clamp255(__m512 v) {
    const __m512 zero = _mm512_setzero_ps(), top = _mm512_set1_ps(255);
    __m512 low = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ), v, zero);
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(low, top, _CMP_GT_OQ), low, top);
}

/* Where element k of the three 16-float stores of 16 RGB pixels comes from: pixel (16q + k) / 3, channel
 * (16q + k) % 3; R and G through one two-source permute (G's indices + 16), then B blended in. */
static const int rg_index[3][16] = {
    {0, 16, 0, 1, 17, 0, 2, 18, 0, 3, 19, 0, 4, 20, 0, 5},
    {21, 0, 6, 22, 0, 7, 23, 0, 8, 24, 0, 9, 25, 0, 10, 26},
    {0, 11, 27, 0, 12, 28, 0, 13, 29, 0, 14, 30, 0, 15, 31, 0},
};
static const int b_index[3][16] = {
    {0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0},
    {0, 5, 0, 0, 6, 0, 0, 7, 0, 0, 8, 0, 0, 9, 0, 0},
    {10, 0, 0, 11, 0, 0, 12, 0, 0, 13, 0, 0, 14, 0, 0, 15},
};
static const __mmask16 b_mask[3] = {0x4924, 0x2492, 0x9249};

TARGET void fc_resample_yuyv_avx512(const unsigned char *p, long w, long h, long row_bytes, float origin_x,
                                    float origin_y, float di_x, float di_y, float dj_x, float dj_y, long out_w,
                                    long out_h, int replicate, const float colour[6], float scale, float offset,
                                    float *dst) {
#pragma clang fp contract(off)
    Src s = {p, w, h, row_bytes, replicate, colour[0], colour[1], colour[2], colour[3], colour[4], colour[5],
             scale, offset};
    const __m512 y_off = _mm512_set1_ps(s.y_offset), y_scale = _mm512_set1_ps(s.y_scale);
    const __m512 rv = _mm512_set1_ps(s.rv), gu = _mm512_set1_ps(s.gu), gv = _mm512_set1_ps(s.gv);
    const __m512 bu = _mm512_set1_ps(s.bu), half = _mm512_set1_ps(128);
    const __m512 vscale = _mm512_set1_ps(scale), voffset = _mm512_set1_ps(offset);
    const __m512 low_limit = _mm512_set1_ps(-1e8f), high_limit = _mm512_set1_ps(1e8f);
    const __m512i one = _mm512_set1_epi32(1);
    __m512i rg[3], bi[3];
    for (int q = 0; q < 3; q++) {
        rg[q] = _mm512_loadu_si512((const void *)rg_index[q]);
        bi[q] = _mm512_loadu_si512((const void *)b_index[q]);
    }
    float px[16], py[16];
    for (long j = 0; j < out_h; j++) {
        float pos_x = origin_x + (float)j * dj_x, pos_y = origin_y + (float)j * dj_y;
        float *out = dst + j * out_w * 3;
        for (long i0 = 0; i0 < out_w; i0 += 16) {
            long n = out_w - i0 < 16 ? out_w - i0 : 16;
            for (long k = 0; k < n; k++) {
                px[k] = pos_x; py[k] = pos_y;
                pos_x += di_x; pos_y += di_y;
            }
            float *o = out + i0 * 3;
            if (n < 16) {
                for (long k = 0; k < n; k++) one_pixel(&s, px[k], py[k], o + 3 * k);
                continue;
            }
            __m512 x = _mm512_loadu_ps(px), y = _mm512_loadu_ps(py);
            __m512 fx = _mm512_roundscale_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            __m512 fy = _mm512_roundscale_ps(y, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            __mmask16 valid = _mm512_cmp_ps_mask(fx, low_limit, _CMP_GE_OQ)
                & _mm512_cmp_ps_mask(fx, high_limit, _CMP_LE_OQ) & _mm512_cmp_ps_mask(fy, low_limit, _CMP_GE_OQ)
                & _mm512_cmp_ps_mask(fy, high_limit, _CMP_LE_OQ);
            if (valid != (__mmask16)0xFFFF) {
                for (long k = 0; k < 16; k++) one_pixel(&s, px[k], py[k], o + 3 * k);
                continue;
            }
            __m512 ax = _mm512_sub_ps(x, fx), ay = _mm512_sub_ps(y, fy);
            /* |fx|, |fy| ≤ 1e8: exact in int32, and the + 1 cannot wrap. */
            __m512i x0 = _mm512_cvttps_epi32(fx), y0 = _mm512_cvttps_epi32(fy);
            __m512i x1 = _mm512_add_epi32(x0, one), y1 = _mm512_add_epi32(y0, one);
            __m512 y00, u00, v00, y10, u10, v10, y01, u01, v01, y11, u11, v11;
            taps16(&s, x0, y0, &y00, &u00, &v00);
            taps16(&s, x1, y0, &y10, &u10, &v10);
            taps16(&s, x0, y1, &y01, &u01, &v01);
            taps16(&s, x1, y1, &y11, &u11, &v11);
            __m512 cy = lerp(lerp(y00, y10, ax), lerp(y01, y11, ax), ay);
            __m512 cu = lerp(lerp(u00, u10, ax), lerp(u01, u11, ax), ay);
            __m512 cv = lerp(lerp(v00, v10, ax), lerp(v01, v11, ax), ay);
            __m512 luma = _mm512_mul_ps(_mm512_sub_ps(cy, y_off), y_scale);
            __m512 d = _mm512_sub_ps(cu, half), e = _mm512_sub_ps(cv, half);
            __m512 r = _mm512_add_ps(luma, _mm512_mul_ps(rv, e));
            __m512 g = _mm512_sub_ps(_mm512_sub_ps(luma, _mm512_mul_ps(gu, d)), _mm512_mul_ps(gv, e));
            __m512 b = _mm512_add_ps(luma, _mm512_mul_ps(bu, d));
            r = _mm512_add_ps(_mm512_mul_ps(clamp255(r), vscale), voffset);
            g = _mm512_add_ps(_mm512_mul_ps(clamp255(g), vscale), voffset);
            b = _mm512_add_ps(_mm512_mul_ps(clamp255(b), vscale), voffset);
            for (int q = 0; q < 3; q++) {
                __m512 t = _mm512_permutex2var_ps(r, rg[q], g);
                t = _mm512_mask_permutexvar_ps(t, b_mask[q], bi[q], b);
                _mm512_storeu_ps(o + 16 * q, t);
            }
        }
    }
}

#else
void fc_resample_yuyv_avx512(const unsigned char *p, long w, long h, long row_bytes, float origin_x,
                             float origin_y, float di_x, float di_y, float dj_x, float dj_y, long out_w,
                             long out_h, int replicate, const float colour[6], float scale, float offset,
                             float *dst) {
    (void)p; (void)w; (void)h; (void)row_bytes; (void)origin_x; (void)origin_y; (void)di_x; (void)di_y;
    (void)dj_x; (void)dj_y; (void)out_w; (void)out_h; (void)replicate; (void)colour; (void)scale; (void)offset;
    (void)dst;
}
#endif
