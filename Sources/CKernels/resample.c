#include "ckernels.h"

/* YUV frame → RGB float tensor, bilinear, one pass (FaceCapCore's fillTensor for YUYV and planar 4:2:0, 4:2:2
 * and 4:4:4 frames): 16 tensor pixels per step on AVX-512, 8 on AVX2.
 *
 * The arithmetic is TensorInput.swift's `resample` with YUYVTaps / PlanarYUVTaps and ColourTransform, operation
 * for operation and in the same order, with no fused multiply-adds (contraction is off in every function with
 * scalar float arithmetic; the intrinsics are separate multiplies and adds), so the tensor is bit-identical to
 * the Swift path's (FaceTensorInputTests compares the paths on random frames and maps):
 *   position of pixel (i, j): origin + j·dj, then + di once per pixel along the row (sequential sums);
 *   fx = floor(x), ax = x − fx (same for y); the four taps' native (Y, U, V) interpolated as
 *   top = t00 + (t10 − t00)·ax, bottom = t01 + (t11 − t01)·ax, v = top + (bottom − top)·ay;
 *   luma = (Y − yOffset)·yScale, d = U − 128, e = V − 128, (luma + rv·e, luma − gu·d − gv·e, luma + bu·d),
 *   clamped to 0…255 by compare-and-blend, then ·scale + offset.
 * A tap outside the frame reads the nearest edge pixel (replicate) or black (zero border); a position beyond
 * ±1e8 reads the border colour without interpolation, as in Swift. A step with such a position, and the last
 * pixels of a row that do not fill a step, go through one_pixel (the same arithmetic, one pixel at a time).
 *
 * Bounds. Every tap reads pixel (x, y) with 0 ≤ x < w and 0 ≤ y < h: coordinates are clamped (replicate), or
 * the lane is masked off and reads nothing (zero border). The tensor `dst` holds out_h·out_w·3 floats; a step's
 * pixels are stored with full-width stores only when the whole step lies in the row.
 *   YUYV: the caller (fillTensor) has checked that `p` holds h rows of `row_bytes` bytes with row_bytes ≥ 2·w
 *   and h·row_bytes < 2^31 (so 32-bit gather offsets cannot wrap). A tap reads the 4-byte pair of (x, y), bytes
 *   y·row_bytes + (x & ~1)·2 … +3 < h·row_bytes.
 *   Planar: `p` holds the Y plane (w·h bytes), then U and V (cw·ch bytes each, cw = ceil(w / 2^shift_x),
 *   ch = ceil(h / 2^shift_y)), in all n = w·h + 2·cw·ch < 2^31 bytes, and cw·ch ≥ 3. A gather reads 4 bytes
 *   where we want one, so each plane is read from the side that has 3 bytes to spare: Y and U forward (the
 *   byte at the offset is the lane's low byte; the last Y byte w·h − 1 reads up to w·h + 2, inside U and V
 *   (2·cw·ch ≥ 6 bytes); the last U byte reads up to the first 3 bytes of V, which has ≥ 3), V backward (4 bytes
 *   ending at the wanted byte, which is the high byte: from v_off + c − 3 ≥ v_off − 3 ≥ w·h + cw·ch − 3 ≥ 1, since
 *   cw·ch ≥ 3 and w·h ≥ 1, up to v_off + c < n). The chroma index of (x, y) is
 *   (y >> shift_y)·cw + (x >> shift_x) with x >> shift_x ≤ (w − 1) >> shift_x = cw − 1 (same for y). */

#if defined(__x86_64__)
#include <immintrin.h>

typedef struct {
    const unsigned char *p;
    long w, h;
    int planar, replicate;
    long row_bytes;                       /* YUYV */
    long u_off, v_off, chroma_w;          /* planar: U at p + u_off, V at p + v_off */
    int shift_x, shift_y;                 /* planar: chroma subsampling */
    float y_offset, y_scale, rv, gu, gv, bu, scale, offset;
} Src;

/* The affine map of tensor pixels to frame positions (SamplingGeometry). */
typedef struct {
    float origin_x, origin_y, di_x, di_y, dj_x, dj_y;
    long out_w, out_h;
} Map;

/* The native colour of pixel (x, y), 0 ≤ x < w, 0 ≤ y < h (YUYVTaps.tap, PlanarYUVTaps.tap). */
static inline void tap(const Src *s, long x, long y, float out[3]) {
    if (s->planar) {
        long c = (y >> s->shift_y) * s->chroma_w + (x >> s->shift_x);
        out[0] = (float)s->p[y * s->w + x];
        out[1] = (float)s->p[s->u_off + c];
        out[2] = (float)s->p[s->v_off + c];
    } else {
        const unsigned char *pair = s->p + y * s->row_bytes + (x & ~1L) * 2;
        out[0] = (float)pair[(x & 1) * 2];
        out[1] = (float)pair[1];
        out[2] = (float)pair[3];
    }
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

/* The positions of the next n ≤ 16 pixels of a row, summed one di at a time as Swift does. */
static inline void positions(float *pos_x, float *pos_y, float di_x, float di_y, long n, float *px, float *py) {
#pragma clang fp contract(off)
    for (long k = 0; k < n; k++) {
        px[k] = *pos_x; py[k] = *pos_y;
        *pos_x += di_x; *pos_y += di_y;
    }
}

static Src make_src(const unsigned char *p, long w, long h, int replicate, const float colour[6], float scale,
                    float offset) {
    Src s = {0};
    s.p = p; s.w = w; s.h = h; s.replicate = replicate;
    s.y_offset = colour[0]; s.y_scale = colour[1]; s.rv = colour[2];
    s.gu = colour[3]; s.gv = colour[4]; s.bu = colour[5];
    s.scale = scale; s.offset = offset;
    return s;
}

/* ---- AVX-512: 16 pixels per step ---- */

#define TARGET512 __attribute__((target("avx512f,avx512vl,avx2,fma")))

/* The (Y, U, V) of 16 taps at (x, y), gathered: YUYV one 4-byte pair per lane, planar one byte per plane. */
TARGET512 static inline void taps16(const Src *s, __m512i x, __m512i y, __m512 *cy, __m512 *cu, __m512 *cv) {
    const __m512i zero = _mm512_setzero_si512(), byte = _mm512_set1_epi32(0xFF);
    const __m512i max_x = _mm512_set1_epi32((int)(s->w - 1)), max_y = _mm512_set1_epi32((int)(s->h - 1));
    __mmask16 in = 0xFFFF;
    if (s->replicate) {
        x = _mm512_min_epi32(_mm512_max_epi32(x, zero), max_x);
        y = _mm512_min_epi32(_mm512_max_epi32(y, zero), max_y);
    } else {
        /* Masked-off lanes read nothing, so their (possibly negative or too large) offsets do not matter. */
        in = _mm512_cmpge_epi32_mask(x, zero) & _mm512_cmple_epi32_mask(x, max_x)
            & _mm512_cmpge_epi32_mask(y, zero) & _mm512_cmple_epi32_mask(y, max_y);
    }
    /* Black, what lanes outside keep (replicate has none): Y = yOffset (16 or 0), U = V = 128, placed where
     * each gather's wanted byte lands. Built unsigned: 128 << 24 does not fit a signed int. */
    unsigned off = (unsigned)s->y_offset;
    if (s->planar) {
        const __m512i sx = _mm512_set1_epi32(s->shift_x), sy = _mm512_set1_epi32(s->shift_y);
        __m512i yi = _mm512_add_epi32(_mm512_mullo_epi32(y, _mm512_set1_epi32((int)s->w)), x);
        __m512i ci = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_srlv_epi32(y, sy), _mm512_set1_epi32((int)s->chroma_w)),
                                      _mm512_srlv_epi32(x, sx));
        /* Y and U forward (low byte), V backward from 3 bytes before (high byte): see Bounds above. */
        __m512i gy = _mm512_mask_i32gather_epi32(_mm512_set1_epi32((int)off), in, yi, (const void *)s->p, 1);
        __m512i gu = _mm512_mask_i32gather_epi32(_mm512_set1_epi32(128), in, ci, (const void *)(s->p + s->u_off), 1);
        __m512i gv = _mm512_mask_i32gather_epi32(_mm512_set1_epi32((int)(128u << 24)), in, ci,
                                                 (const void *)(s->p + s->v_off - 3), 1);
        *cy = _mm512_cvtepi32_ps(_mm512_and_si512(gy, byte));
        *cu = _mm512_cvtepi32_ps(_mm512_and_si512(gu, byte));
        *cv = _mm512_cvtepi32_ps(_mm512_srli_epi32(gv, 24));
    } else {
        __m512i black = _mm512_set1_epi32((int)(off | (128u << 8) | (off << 16) | (128u << 24)));
        __m512i idx = _mm512_add_epi32(_mm512_mullo_epi32(y, _mm512_set1_epi32((int)s->row_bytes)),
                                       _mm512_slli_epi32(_mm512_andnot_si512(_mm512_set1_epi32(1), x), 1));
        __m512i g = _mm512_mask_i32gather_epi32(black, in, idx, (const void *)s->p, 1);
        __m512i shift = _mm512_slli_epi32(_mm512_and_si512(x, _mm512_set1_epi32(1)), 4);
        *cy = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srlv_epi32(g, shift), byte));
        *cu = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(g, 8), byte));
        *cv = _mm512_cvtepi32_ps(_mm512_srli_epi32(g, 24));
    }
}

TARGET512 static inline __m512 lerp16(__m512 a, __m512 b, __m512 t) {
    return _mm512_add_ps(a, _mm512_mul_ps(_mm512_sub_ps(b, a), t));
}

TARGET512 static inline __m512 clamp255_16(__m512 v) {
    const __m512 zero = _mm512_setzero_ps(), top = _mm512_set1_ps(255);
    __m512 low = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ), v, zero);
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(low, top, _CMP_GT_OQ), low, top);
}

/* Where element k of the three 16-float stores of 16 RGB pixels comes from: pixel (16q + k) / 3, channel
 * (16q + k) % 3; R and G through one two-source permute (G's indices + 16), then B blended in. */
static const int rg_index16[3][16] = {
    {0, 16, 0, 1, 17, 0, 2, 18, 0, 3, 19, 0, 4, 20, 0, 5},
    {21, 0, 6, 22, 0, 7, 23, 0, 8, 24, 0, 9, 25, 0, 10, 26},
    {0, 11, 27, 0, 12, 28, 0, 13, 29, 0, 14, 30, 0, 15, 31, 0},
};
static const int b_index16[3][16] = {
    {0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0},
    {0, 5, 0, 0, 6, 0, 0, 7, 0, 0, 8, 0, 0, 9, 0, 0},
    {10, 0, 0, 11, 0, 0, 12, 0, 0, 13, 0, 0, 14, 0, 0, 15},
};
static const __mmask16 b_mask16[3] = {0x4924, 0x2492, 0x9249};

TARGET512 static void rows16(const Src *s, const Map *m, float *dst) {
#pragma clang fp contract(off)
    const __m512 y_off = _mm512_set1_ps(s->y_offset), y_scale = _mm512_set1_ps(s->y_scale);
    const __m512 rv = _mm512_set1_ps(s->rv), gu = _mm512_set1_ps(s->gu), gv = _mm512_set1_ps(s->gv);
    const __m512 bu = _mm512_set1_ps(s->bu), half = _mm512_set1_ps(128);
    const __m512 vscale = _mm512_set1_ps(s->scale), voffset = _mm512_set1_ps(s->offset);
    const __m512 low_limit = _mm512_set1_ps(-1e8f), high_limit = _mm512_set1_ps(1e8f);
    const __m512i one = _mm512_set1_epi32(1);
    __m512i rg[3], bi[3];
    for (int q = 0; q < 3; q++) {
        rg[q] = _mm512_loadu_si512((const void *)rg_index16[q]);
        bi[q] = _mm512_loadu_si512((const void *)b_index16[q]);
    }
    float px[16], py[16];
    for (long j = 0; j < m->out_h; j++) {
        float pos_x = m->origin_x + (float)j * m->dj_x, pos_y = m->origin_y + (float)j * m->dj_y;
        float *out = dst + j * m->out_w * 3;
        for (long i0 = 0; i0 < m->out_w; i0 += 16) {
            long n = m->out_w - i0 < 16 ? m->out_w - i0 : 16;
            positions(&pos_x, &pos_y, m->di_x, m->di_y, n, px, py);
            float *o = out + i0 * 3;
            if (n < 16) {
                for (long k = 0; k < n; k++) one_pixel(s, px[k], py[k], o + 3 * k);
                continue;
            }
            __m512 x = _mm512_loadu_ps(px), y = _mm512_loadu_ps(py);
            __m512 fx = _mm512_roundscale_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            __m512 fy = _mm512_roundscale_ps(y, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            __mmask16 valid = _mm512_cmp_ps_mask(fx, low_limit, _CMP_GE_OQ)
                & _mm512_cmp_ps_mask(fx, high_limit, _CMP_LE_OQ) & _mm512_cmp_ps_mask(fy, low_limit, _CMP_GE_OQ)
                & _mm512_cmp_ps_mask(fy, high_limit, _CMP_LE_OQ);
            if (valid != (__mmask16)0xFFFF) {
                for (long k = 0; k < 16; k++) one_pixel(s, px[k], py[k], o + 3 * k);
                continue;
            }
            __m512 ax = _mm512_sub_ps(x, fx), ay = _mm512_sub_ps(y, fy);
            /* |fx|, |fy| ≤ 1e8: exact in int32, and the + 1 cannot wrap. */
            __m512i x0 = _mm512_cvttps_epi32(fx), y0 = _mm512_cvttps_epi32(fy);
            __m512i x1 = _mm512_add_epi32(x0, one), y1 = _mm512_add_epi32(y0, one);
            __m512 y00, u00, v00, y10, u10, v10, y01, u01, v01, y11, u11, v11;
            taps16(s, x0, y0, &y00, &u00, &v00);
            taps16(s, x1, y0, &y10, &u10, &v10);
            taps16(s, x0, y1, &y01, &u01, &v01);
            taps16(s, x1, y1, &y11, &u11, &v11);
            __m512 cy = lerp16(lerp16(y00, y10, ax), lerp16(y01, y11, ax), ay);
            __m512 cu = lerp16(lerp16(u00, u10, ax), lerp16(u01, u11, ax), ay);
            __m512 cv = lerp16(lerp16(v00, v10, ax), lerp16(v01, v11, ax), ay);
            __m512 luma = _mm512_mul_ps(_mm512_sub_ps(cy, y_off), y_scale);
            __m512 d = _mm512_sub_ps(cu, half), e = _mm512_sub_ps(cv, half);
            __m512 r = _mm512_add_ps(luma, _mm512_mul_ps(rv, e));
            __m512 g = _mm512_sub_ps(_mm512_sub_ps(luma, _mm512_mul_ps(gu, d)), _mm512_mul_ps(gv, e));
            __m512 b = _mm512_add_ps(luma, _mm512_mul_ps(bu, d));
            r = _mm512_add_ps(_mm512_mul_ps(clamp255_16(r), vscale), voffset);
            g = _mm512_add_ps(_mm512_mul_ps(clamp255_16(g), vscale), voffset);
            b = _mm512_add_ps(_mm512_mul_ps(clamp255_16(b), vscale), voffset);
            /* i0 + 16 ≤ out_w: the 48 floats are this row's. */
            for (int q = 0; q < 3; q++) {
                __m512 t = _mm512_permutex2var_ps(r, rg[q], g);
                t = _mm512_mask_permutexvar_ps(t, b_mask16[q], bi[q], b);
                _mm512_storeu_ps(o + 16 * q, t);
            }
        }
    }
}

/* ---- AVX2: 8 pixels per step, the same steps with vector masks instead of mask registers ---- */

#define TARGET2 __attribute__((target("avx2,fma")))

/* All-ones lanes where a > b. */
TARGET2 static inline __m256i gt8(__m256i a, __m256i b) { return _mm256_cmpgt_epi32(a, b); }

/* The (Y, U, V) of 8 taps at (x, y) (taps16 on 8 lanes). */
TARGET2 static inline void taps8(const Src *s, __m256i x, __m256i y, __m256 *cy, __m256 *cu, __m256 *cv) {
    const __m256i zero = _mm256_setzero_si256(), byte = _mm256_set1_epi32(0xFF);
    __m256i in = _mm256_set1_epi32(-1);
    if (s->replicate) {
        x = _mm256_min_epi32(_mm256_max_epi32(x, zero), _mm256_set1_epi32((int)(s->w - 1)));
        y = _mm256_min_epi32(_mm256_max_epi32(y, zero), _mm256_set1_epi32((int)(s->h - 1)));
    } else {
        /* 0 ≤ x < w and 0 ≤ y < h as x > −1, w > x, …; masked-off lanes read nothing. */
        const __m256i minus_one = _mm256_set1_epi32(-1);
        in = _mm256_and_si256(_mm256_and_si256(gt8(x, minus_one), gt8(_mm256_set1_epi32((int)s->w), x)),
                              _mm256_and_si256(gt8(y, minus_one), gt8(_mm256_set1_epi32((int)s->h), y)));
    }
    unsigned off = (unsigned)s->y_offset;
    if (s->planar) {
        const __m256i sx = _mm256_set1_epi32(s->shift_x), sy = _mm256_set1_epi32(s->shift_y);
        __m256i yi = _mm256_add_epi32(_mm256_mullo_epi32(y, _mm256_set1_epi32((int)s->w)), x);
        __m256i ci = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srlv_epi32(y, sy), _mm256_set1_epi32((int)s->chroma_w)),
                                      _mm256_srlv_epi32(x, sx));
        /* Y and U forward (low byte), V backward from 3 bytes before (high byte): see Bounds above. */
        __m256i gy = _mm256_mask_i32gather_epi32(_mm256_set1_epi32((int)off), (const int *)s->p, yi, in, 1);
        __m256i gu = _mm256_mask_i32gather_epi32(_mm256_set1_epi32(128), (const int *)(s->p + s->u_off), ci, in, 1);
        __m256i gv = _mm256_mask_i32gather_epi32(_mm256_set1_epi32((int)(128u << 24)),
                                                 (const int *)(s->p + s->v_off - 3), ci, in, 1);
        *cy = _mm256_cvtepi32_ps(_mm256_and_si256(gy, byte));
        *cu = _mm256_cvtepi32_ps(_mm256_and_si256(gu, byte));
        *cv = _mm256_cvtepi32_ps(_mm256_srli_epi32(gv, 24));
    } else {
        __m256i black = _mm256_set1_epi32((int)(off | (128u << 8) | (off << 16) | (128u << 24)));
        __m256i idx = _mm256_add_epi32(_mm256_mullo_epi32(y, _mm256_set1_epi32((int)s->row_bytes)),
                                       _mm256_slli_epi32(_mm256_andnot_si256(_mm256_set1_epi32(1), x), 1));
        __m256i g = _mm256_mask_i32gather_epi32(black, (const int *)s->p, idx, in, 1);
        __m256i shift = _mm256_slli_epi32(_mm256_and_si256(x, _mm256_set1_epi32(1)), 4);
        *cy = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srlv_epi32(g, shift), byte));
        *cu = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(g, 8), byte));
        *cv = _mm256_cvtepi32_ps(_mm256_srli_epi32(g, 24));
    }
}

TARGET2 static inline __m256 lerp8(__m256 a, __m256 b, __m256 t) {
    return _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), t));
}

TARGET2 static inline __m256 clamp255_8(__m256 v) {
    const __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255);
    __m256 low = _mm256_blendv_ps(v, zero, _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
    return _mm256_blendv_ps(low, top, _mm256_cmp_ps(low, top, _CMP_GT_OQ));
}

/* Element k of the three 8-float stores of 8 RGB pixels is channel (8q + k) % 3 of pixel (8q + k) / 3: each
 * store permutes R, G and B by the pixel index and blends G and B in where the channel is 1 and 2. */
static const int pixel_index8[3][8] = {
    {0, 0, 0, 1, 1, 1, 2, 2},
    {2, 3, 3, 3, 4, 4, 4, 5},
    {5, 5, 6, 6, 6, 7, 7, 7},
};

TARGET2 static void rows8(const Src *s, const Map *m, float *dst) {
#pragma clang fp contract(off)
    const __m256 y_off = _mm256_set1_ps(s->y_offset), y_scale = _mm256_set1_ps(s->y_scale);
    const __m256 rv = _mm256_set1_ps(s->rv), gu = _mm256_set1_ps(s->gu), gv = _mm256_set1_ps(s->gv);
    const __m256 bu = _mm256_set1_ps(s->bu), half = _mm256_set1_ps(128);
    const __m256 vscale = _mm256_set1_ps(s->scale), voffset = _mm256_set1_ps(s->offset);
    const __m256 low_limit = _mm256_set1_ps(-1e8f), high_limit = _mm256_set1_ps(1e8f);
    const __m256i one = _mm256_set1_epi32(1);
    __m256i pi[3];
    for (int q = 0; q < 3; q++) pi[q] = _mm256_loadu_si256((const __m256i *)pixel_index8[q]);
    float px[8], py[8];
    for (long j = 0; j < m->out_h; j++) {
        float pos_x = m->origin_x + (float)j * m->dj_x, pos_y = m->origin_y + (float)j * m->dj_y;
        float *out = dst + j * m->out_w * 3;
        for (long i0 = 0; i0 < m->out_w; i0 += 8) {
            long n = m->out_w - i0 < 8 ? m->out_w - i0 : 8;
            positions(&pos_x, &pos_y, m->di_x, m->di_y, n, px, py);
            float *o = out + i0 * 3;
            if (n < 8) {
                for (long k = 0; k < n; k++) one_pixel(s, px[k], py[k], o + 3 * k);
                continue;
            }
            __m256 x = _mm256_loadu_ps(px), y = _mm256_loadu_ps(py);
            __m256 fx = _mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            __m256 fy = _mm256_round_ps(y, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            __m256 valid = _mm256_and_ps(
                _mm256_and_ps(_mm256_cmp_ps(fx, low_limit, _CMP_GE_OQ), _mm256_cmp_ps(fx, high_limit, _CMP_LE_OQ)),
                _mm256_and_ps(_mm256_cmp_ps(fy, low_limit, _CMP_GE_OQ), _mm256_cmp_ps(fy, high_limit, _CMP_LE_OQ)));
            if (_mm256_movemask_ps(valid) != 0xFF) {
                for (long k = 0; k < 8; k++) one_pixel(s, px[k], py[k], o + 3 * k);
                continue;
            }
            __m256 ax = _mm256_sub_ps(x, fx), ay = _mm256_sub_ps(y, fy);
            /* |fx|, |fy| ≤ 1e8: exact in int32, and the + 1 cannot wrap. */
            __m256i x0 = _mm256_cvttps_epi32(fx), y0 = _mm256_cvttps_epi32(fy);
            __m256i x1 = _mm256_add_epi32(x0, one), y1 = _mm256_add_epi32(y0, one);
            __m256 y00, u00, v00, y10, u10, v10, y01, u01, v01, y11, u11, v11;
            taps8(s, x0, y0, &y00, &u00, &v00);
            taps8(s, x1, y0, &y10, &u10, &v10);
            taps8(s, x0, y1, &y01, &u01, &v01);
            taps8(s, x1, y1, &y11, &u11, &v11);
            __m256 cy = lerp8(lerp8(y00, y10, ax), lerp8(y01, y11, ax), ay);
            __m256 cu = lerp8(lerp8(u00, u10, ax), lerp8(u01, u11, ax), ay);
            __m256 cv = lerp8(lerp8(v00, v10, ax), lerp8(v01, v11, ax), ay);
            __m256 luma = _mm256_mul_ps(_mm256_sub_ps(cy, y_off), y_scale);
            __m256 d = _mm256_sub_ps(cu, half), e = _mm256_sub_ps(cv, half);
            __m256 r = _mm256_add_ps(luma, _mm256_mul_ps(rv, e));
            __m256 g = _mm256_sub_ps(_mm256_sub_ps(luma, _mm256_mul_ps(gu, d)), _mm256_mul_ps(gv, e));
            __m256 b = _mm256_add_ps(luma, _mm256_mul_ps(bu, d));
            r = _mm256_add_ps(_mm256_mul_ps(clamp255_8(r), vscale), voffset);
            g = _mm256_add_ps(_mm256_mul_ps(clamp255_8(g), vscale), voffset);
            b = _mm256_add_ps(_mm256_mul_ps(clamp255_8(b), vscale), voffset);
            /* i0 + 8 ≤ out_w: the 24 floats are this row's. Channel masks per store (bit k = element k):
             * G where (8q + k) % 3 == 1, B where it is 2. */
            __m256 t0 = _mm256_permutevar8x32_ps(r, pi[0]);
            t0 = _mm256_blend_ps(t0, _mm256_permutevar8x32_ps(g, pi[0]), 0x92);
            t0 = _mm256_blend_ps(t0, _mm256_permutevar8x32_ps(b, pi[0]), 0x24);
            __m256 t1 = _mm256_permutevar8x32_ps(r, pi[1]);
            t1 = _mm256_blend_ps(t1, _mm256_permutevar8x32_ps(g, pi[1]), 0x24);
            t1 = _mm256_blend_ps(t1, _mm256_permutevar8x32_ps(b, pi[1]), 0x49);
            __m256 t2 = _mm256_permutevar8x32_ps(r, pi[2]);
            t2 = _mm256_blend_ps(t2, _mm256_permutevar8x32_ps(g, pi[2]), 0x49);
            t2 = _mm256_blend_ps(t2, _mm256_permutevar8x32_ps(b, pi[2]), 0x92);
            _mm256_storeu_ps(o, t0);
            _mm256_storeu_ps(o + 8, t1);
            _mm256_storeu_ps(o + 16, t2);
        }
    }
}

/* ---- Entry points ---- */

static Map make_map(float origin_x, float origin_y, float di_x, float di_y, float dj_x, float dj_y, long out_w,
                    long out_h) {
    Map m = {origin_x, origin_y, di_x, di_y, dj_x, dj_y, out_w, out_h};
    return m;
}

static Src yuyv_src(const unsigned char *p, long w, long h, long row_bytes, int replicate, const float colour[6],
                    float scale, float offset) {
    Src s = make_src(p, w, h, replicate, colour, scale, offset);
    s.row_bytes = row_bytes;
    return s;
}

static Src planar_src(const unsigned char *p, long w, long h, long chroma_w, long chroma_h, int shift_x,
                      int shift_y, int replicate, const float colour[6], float scale, float offset) {
    Src s = make_src(p, w, h, replicate, colour, scale, offset);
    s.planar = 1;
    s.u_off = w * h;
    s.v_off = w * h + chroma_w * chroma_h;
    s.chroma_w = chroma_w;
    s.shift_x = shift_x; s.shift_y = shift_y;
    return s;
}

void fc_resample_yuyv_avx512(const unsigned char *p, long w, long h, long row_bytes, float origin_x,
                             float origin_y, float di_x, float di_y, float dj_x, float dj_y, long out_w,
                             long out_h, int replicate, const float colour[6], float scale, float offset,
                             float *dst) {
    Src s = yuyv_src(p, w, h, row_bytes, replicate, colour, scale, offset);
    Map m = make_map(origin_x, origin_y, di_x, di_y, dj_x, dj_y, out_w, out_h);
    rows16(&s, &m, dst);
}

void fc_resample_yuyv_avx2(const unsigned char *p, long w, long h, long row_bytes, float origin_x,
                           float origin_y, float di_x, float di_y, float dj_x, float dj_y, long out_w,
                           long out_h, int replicate, const float colour[6], float scale, float offset,
                           float *dst) {
    Src s = yuyv_src(p, w, h, row_bytes, replicate, colour, scale, offset);
    Map m = make_map(origin_x, origin_y, di_x, di_y, dj_x, dj_y, out_w, out_h);
    rows8(&s, &m, dst);
}

void fc_resample_planar_avx512(const unsigned char *p, long w, long h, long chroma_w, long chroma_h, int shift_x,
                               int shift_y, float origin_x, float origin_y, float di_x, float di_y, float dj_x,
                               float dj_y, long out_w, long out_h, int replicate, const float colour[6],
                               float scale, float offset, float *dst) {
    Src s = planar_src(p, w, h, chroma_w, chroma_h, shift_x, shift_y, replicate, colour, scale, offset);
    Map m = make_map(origin_x, origin_y, di_x, di_y, dj_x, dj_y, out_w, out_h);
    rows16(&s, &m, dst);
}

void fc_resample_planar_avx2(const unsigned char *p, long w, long h, long chroma_w, long chroma_h, int shift_x,
                             int shift_y, float origin_x, float origin_y, float di_x, float di_y, float dj_x,
                             float dj_y, long out_w, long out_h, int replicate, const float colour[6],
                             float scale, float offset, float *dst) {
    Src s = planar_src(p, w, h, chroma_w, chroma_h, shift_x, shift_y, replicate, colour, scale, offset);
    Map m = make_map(origin_x, origin_y, di_x, di_y, dj_x, dj_y, out_w, out_h);
    rows8(&s, &m, dst);
}

#else
/* Not x86-64: never called (fc_has_avx512 and fc_has_avx2 are 0, so fillTensor keeps the Swift loop). */
void fc_resample_yuyv_avx512(const unsigned char *p, long w, long h, long row_bytes, float origin_x,
                             float origin_y, float di_x, float di_y, float dj_x, float dj_y, long out_w,
                             long out_h, int replicate, const float colour[6], float scale, float offset,
                             float *dst) {
    (void)p; (void)w; (void)h; (void)row_bytes; (void)origin_x; (void)origin_y; (void)di_x; (void)di_y;
    (void)dj_x; (void)dj_y; (void)out_w; (void)out_h; (void)replicate; (void)colour; (void)scale; (void)offset;
    (void)dst;
}

void fc_resample_yuyv_avx2(const unsigned char *p, long w, long h, long row_bytes, float origin_x,
                           float origin_y, float di_x, float di_y, float dj_x, float dj_y, long out_w,
                           long out_h, int replicate, const float colour[6], float scale, float offset,
                           float *dst) {
    fc_resample_yuyv_avx512(p, w, h, row_bytes, origin_x, origin_y, di_x, di_y, dj_x, dj_y, out_w, out_h,
                            replicate, colour, scale, offset, dst);
}

void fc_resample_planar_avx512(const unsigned char *p, long w, long h, long chroma_w, long chroma_h, int shift_x,
                               int shift_y, float origin_x, float origin_y, float di_x, float di_y, float dj_x,
                               float dj_y, long out_w, long out_h, int replicate, const float colour[6],
                               float scale, float offset, float *dst) {
    (void)p; (void)w; (void)h; (void)chroma_w; (void)chroma_h; (void)shift_x; (void)shift_y; (void)origin_x;
    (void)origin_y; (void)di_x; (void)di_y; (void)dj_x; (void)dj_y; (void)out_w; (void)out_h; (void)replicate;
    (void)colour; (void)scale; (void)offset; (void)dst;
}

void fc_resample_planar_avx2(const unsigned char *p, long w, long h, long chroma_w, long chroma_h, int shift_x,
                             int shift_y, float origin_x, float origin_y, float di_x, float di_y, float dj_x,
                             float dj_y, long out_w, long out_h, int replicate, const float colour[6],
                             float scale, float offset, float *dst) {
    fc_resample_planar_avx512(p, w, h, chroma_w, chroma_h, shift_x, shift_y, origin_x, origin_y, di_x, di_y,
                              dj_x, dj_y, out_w, out_h, replicate, colour, scale, offset, dst);
}
#endif
