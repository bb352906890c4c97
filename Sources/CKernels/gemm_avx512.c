#include "ckernels.h"

#if defined(__x86_64__)
#include "avx512.h"
#include "dispatch.h"

/* The AVX-512 GEMM panel kernel (see ckernels.h): 12, 8 or 4 rows of a 16-, 24- or 32-channel panel with the
 * bias, the residual and the activation fused into the stores. */

/* What follows bias + A·W in the same pass (the Swift engine's gemmEpilogue, fused): the residual, then the
 * activation, per 16- or 8-lane slab. */
typedef struct {
    const float *res;   /* residual at the panel's first channel of row 0, or NULL */
    long res_stride;    /* floats between residual rows */
    long res_lanes;     /* residual channels that exist from the panel's first channel on (may be < width) */
    int act;            /* FC_ACT_* */
    const float *alpha; /* PReLU slopes at the panel's first channel */
    __mmask16 m0, m1;   /* lanes of C that exist in the panel's first and second 16-channel slab */
} Epi;

TARGET static inline void put8(float *p, __mmask16 m, __m256 v) {
    if ((m & 0xFF) == 0xFF) _mm256_storeu_ps(p, v); else _mm256_mask_storeu_ps(p, (__mmask8)m, v);
}

/* ACT (FC_ACT_*) and RES (a residual is added) are constants where these are inlined: no branch per store. */
TARGET static inline ALWAYS __m512 epi16(__m512 v, const Epi *e, long row, long lane0, const int ACT,
                                         const int RES) {
    if (RES && e->res_lanes > lane0) {
        long n = e->res_lanes - lane0;
        __mmask16 m = n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1);
        v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, e->res + row * e->res_stride + lane0));
    }
    __m512 zero = _mm512_setzero_ps();
    switch (ACT) {
    case FC_ACT_RELU: v = _mm512_max_ps(v, zero); break;
    case FC_ACT_RELU6: v = _mm512_min_ps(_mm512_max_ps(v, zero), _mm512_set1_ps(6)); break;
    case FC_ACT_RELU_N1_TO_1: v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(-1)), _mm512_set1_ps(1)); break;
    case FC_ACT_PRELU: {
        __mmask16 neg = _mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ);
        v = _mm512_mask_mul_ps(v, neg, v, _mm512_loadu_ps(e->alpha + lane0));
        break;
    }
    default: break;
    }
    return v;
}

TARGET static inline ALWAYS __m256 epi8(__m256 v, const Epi *e, long row, long lane0, const int ACT,
                                        const int RES) {
    if (RES && e->res_lanes > lane0) {
        long n = e->res_lanes - lane0;
        __mmask8 m = n >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << n) - 1);
        v = _mm256_add_ps(v, _mm256_maskz_loadu_ps(m, e->res + row * e->res_stride + lane0));
    }
    __m256 zero = _mm256_setzero_ps();
    switch (ACT) {
    case FC_ACT_RELU: v = _mm256_max_ps(v, zero); break;
    case FC_ACT_RELU6: v = _mm256_min_ps(_mm256_max_ps(v, zero), _mm256_set1_ps(6)); break;
    case FC_ACT_RELU_N1_TO_1: v = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(-1)), _mm256_set1_ps(1)); break;
    case FC_ACT_PRELU: {
        __mmask8 neg = _mm256_cmp_ps_mask(v, zero, _CMP_LT_OQ);
        v = _mm256_mask_mul_ps(v, neg, v, _mm256_loadu_ps(e->alpha + lane0));
        break;
    }
    default: break;
    }
    return v;
}

#define ST16(r, z) put16(c + (r) * ldc, e->m0, epi16(z, e, r, 0, ACT, RES))
#define ST8(r, y) put8(c + (r) * ldc + 16, e->m1, epi8(y, e, r, 16, ACT, RES))
#define ST16B(r, z) put16(c + (r) * ldc + 16, e->m1, epi16(z, e, r, 16, ACT, RES))

/* 12 rows × 16 channels: 12 zmm accumulators. */
TARGET static inline ALWAYS void
rows12x16(const float *a, long lda, long sc, long sl, long ss, const float *w, const float *bias, float *c,
          long ldc, const Epi *e, const int ACT, const int RES) {
    __m512 b = _mm512_loadu_ps(bias);
    __m512 c0 = b, c1 = b, c2 = b, c3 = b, c4 = b, c5 = b, c6 = b, c7 = b, c8 = b, c9 = b, c10 = b, c11 = b;
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            __m512 v = _mm512_loadu_ps(wp);
            wp += 16;
            c0 = _mm512_fmadd_ps(_mm512_set1_ps(a[k]), v, c0);
            c1 = _mm512_fmadd_ps(_mm512_set1_ps(a[lda + k]), v, c1);
            c2 = _mm512_fmadd_ps(_mm512_set1_ps(a[2 * lda + k]), v, c2);
            c3 = _mm512_fmadd_ps(_mm512_set1_ps(a[3 * lda + k]), v, c3);
            c4 = _mm512_fmadd_ps(_mm512_set1_ps(a[4 * lda + k]), v, c4);
            c5 = _mm512_fmadd_ps(_mm512_set1_ps(a[5 * lda + k]), v, c5);
            c6 = _mm512_fmadd_ps(_mm512_set1_ps(a[6 * lda + k]), v, c6);
            c7 = _mm512_fmadd_ps(_mm512_set1_ps(a[7 * lda + k]), v, c7);
            c8 = _mm512_fmadd_ps(_mm512_set1_ps(a[8 * lda + k]), v, c8);
            c9 = _mm512_fmadd_ps(_mm512_set1_ps(a[9 * lda + k]), v, c9);
            c10 = _mm512_fmadd_ps(_mm512_set1_ps(a[10 * lda + k]), v, c10);
            c11 = _mm512_fmadd_ps(_mm512_set1_ps(a[11 * lda + k]), v, c11);
        }
    }
    ST16(0, c0); ST16(1, c1); ST16(2, c2); ST16(3, c3); ST16(4, c4); ST16(5, c5);
    ST16(6, c6); ST16(7, c7); ST16(8, c8); ST16(9, c9); ST16(10, c10); ST16(11, c11);
}

/* 4 rows × 16 channels (remainders: a single row is bound by the multiply-add latency). */
TARGET static inline ALWAYS void
rows4x16(const float *a, long lda, long sc, long sl, long ss, const float *w, const float *bias, float *c, long ldc,
         const Epi *e, const int ACT, const int RES) {
    __m512 b = _mm512_loadu_ps(bias);
    __m512 c0 = b, c1 = b, c2 = b, c3 = b;
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            __m512 v = _mm512_loadu_ps(wp);
            wp += 16;
            c0 = _mm512_fmadd_ps(_mm512_set1_ps(a[k]), v, c0);
            c1 = _mm512_fmadd_ps(_mm512_set1_ps(a[lda + k]), v, c1);
            c2 = _mm512_fmadd_ps(_mm512_set1_ps(a[2 * lda + k]), v, c2);
            c3 = _mm512_fmadd_ps(_mm512_set1_ps(a[3 * lda + k]), v, c3);
        }
    }
    ST16(0, c0); ST16(1, c1); ST16(2, c2); ST16(3, c3);
}

TARGET static inline ALWAYS void
row1x16(const float *a, long sc, long sl, long ss, const float *w, const float *bias, float *c, const Epi *e,
        const int ACT, const int RES) {
    const long ldc = 0;
    __m512 c0 = _mm512_loadu_ps(bias);
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            c0 = _mm512_fmadd_ps(_mm512_set1_ps(a[k]), _mm512_loadu_ps(wp), c0);
            wp += 16;
        }
    }
    ST16(0, c0);
}

/* 8 rows × 24 channels: 8 zmm + 8 ymm accumulators. */
TARGET static inline ALWAYS void
rows8x24(const float *a, long lda, long sc, long sl, long ss, const float *w, const float *bias, float *c, long ldc,
         const Epi *e, const int ACT, const int RES) {
    __m512 b = _mm512_loadu_ps(bias);
    __m256 bh = _mm256_loadu_ps(bias + 16);
    __m512 z0 = b, z1 = b, z2 = b, z3 = b, z4 = b, z5 = b, z6 = b, z7 = b;
    __m256 y0 = bh, y1 = bh, y2 = bh, y3 = bh, y4 = bh, y5 = bh, y6 = bh, y7 = bh;
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            __m512 v = _mm512_loadu_ps(wp);
            __m256 vh = _mm256_loadu_ps(wp + 16);
            wp += 24;
#define ROW(r, z, y) { float x = a[(r) * lda + k]; z = _mm512_fmadd_ps(_mm512_set1_ps(x), v, z); \
                       y = _mm256_fmadd_ps(_mm256_set1_ps(x), vh, y); }
            ROW(0, z0, y0) ROW(1, z1, y1) ROW(2, z2, y2) ROW(3, z3, y3)
            ROW(4, z4, y4) ROW(5, z5, y5) ROW(6, z6, y6) ROW(7, z7, y7)
#undef ROW
        }
    }
#define PUT(r, z, y) { ST16(r, z); ST8(r, y); }
    PUT(0, z0, y0) PUT(1, z1, y1) PUT(2, z2, y2) PUT(3, z3, y3)
    PUT(4, z4, y4) PUT(5, z5, y5) PUT(6, z6, y6) PUT(7, z7, y7)
#undef PUT
}

TARGET static inline ALWAYS void
rows4x24(const float *a, long lda, long sc, long sl, long ss, const float *w, const float *bias, float *c, long ldc,
         const Epi *e, const int ACT, const int RES) {
    __m512 b = _mm512_loadu_ps(bias);
    __m256 bh = _mm256_loadu_ps(bias + 16);
    __m512 z0 = b, z1 = b, z2 = b, z3 = b;
    __m256 y0 = bh, y1 = bh, y2 = bh, y3 = bh;
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            __m512 v = _mm512_loadu_ps(wp);
            __m256 vh = _mm256_loadu_ps(wp + 16);
            wp += 24;
#define ROW(r, z, y) { float x = a[(r) * lda + k]; z = _mm512_fmadd_ps(_mm512_set1_ps(x), v, z); \
                       y = _mm256_fmadd_ps(_mm256_set1_ps(x), vh, y); }
            ROW(0, z0, y0) ROW(1, z1, y1) ROW(2, z2, y2) ROW(3, z3, y3)
#undef ROW
        }
    }
#define PUT(r, z, y) { ST16(r, z); ST8(r, y); }
    PUT(0, z0, y0) PUT(1, z1, y1) PUT(2, z2, y2) PUT(3, z3, y3)
#undef PUT
}

TARGET static inline ALWAYS void
row1x24(const float *a, long sc, long sl, long ss, const float *w, const float *bias, float *c, const Epi *e,
        const int ACT, const int RES) {
    const long ldc = 0;
    __m512 z = _mm512_loadu_ps(bias);
    __m256 y = _mm256_loadu_ps(bias + 16);
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            z = _mm512_fmadd_ps(_mm512_set1_ps(a[k]), _mm512_loadu_ps(wp), z);
            y = _mm256_fmadd_ps(_mm256_set1_ps(a[k]), _mm256_loadu_ps(wp + 16), y);
            wp += 24;
        }
    }
    ST16(0, z);
    ST8(0, y);
}

/* 12 rows × 32 channels: 24 zmm accumulators, two weight vectors and one broadcast per row and k. */
TARGET static inline ALWAYS void
rows12x32(const float *a, long lda, long sc, long sl, long ss, const float *w, const float *bias, float *c,
          long ldc, const Epi *e, const int ACT, const int RES) {
    __m512 b0 = _mm512_loadu_ps(bias), b1 = _mm512_loadu_ps(bias + 16);
    __m512 p0 = b0, q0 = b1, p1 = b0, q1 = b1, p2 = b0, q2 = b1, p3 = b0, q3 = b1, p4 = b0, q4 = b1, p5 = b0, q5 = b1;
    __m512 p6 = b0, q6 = b1, p7 = b0, q7 = b1, p8 = b0, q8 = b1, p9 = b0, q9 = b1, p10 = b0, q10 = b1, p11 = b0, q11 = b1;
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            __m512 v = _mm512_loadu_ps(wp), u = _mm512_loadu_ps(wp + 16);
            wp += 32;
#define ROW(r, p, q) { __m512 x = _mm512_set1_ps(a[(r) * lda + k]); p = _mm512_fmadd_ps(x, v, p); \
                       q = _mm512_fmadd_ps(x, u, q); }
            ROW(0, p0, q0) ROW(1, p1, q1) ROW(2, p2, q2) ROW(3, p3, q3) ROW(4, p4, q4) ROW(5, p5, q5)
            ROW(6, p6, q6) ROW(7, p7, q7) ROW(8, p8, q8) ROW(9, p9, q9) ROW(10, p10, q10) ROW(11, p11, q11)
#undef ROW
        }
    }
#define PUT(r, p, q) { ST16(r, p); ST16B(r, q); }
    PUT(0, p0, q0) PUT(1, p1, q1) PUT(2, p2, q2) PUT(3, p3, q3) PUT(4, p4, q4) PUT(5, p5, q5)
    PUT(6, p6, q6) PUT(7, p7, q7) PUT(8, p8, q8) PUT(9, p9, q9) PUT(10, p10, q10) PUT(11, p11, q11)
#undef PUT
}

/* 6 rows × 64 channels: two adjacent, full 32-wide panels (w, and w2 = the second's first k) in one pass over A,
 * 24 zmm accumulators, four weight vectors and one broadcast per row and k (10 loads per 24 multiply-adds against
 * the 12 × 32 block's 14: A's rows are broadcast once for 64 channels). Per output the same arithmetic as the
 * 12 × 32 block of each panel. */
#define ST16C(r, z) put16(c + (r) * ldc + 32, (__mmask16)0xFFFF, epi16(z, e, r, 32, ACT, RES))
#define ST16D(r, z) put16(c + (r) * ldc + 48, (__mmask16)0xFFFF, epi16(z, e, r, 48, ACT, RES))
TARGET static inline ALWAYS void
rows6x64(const float *a, long lda, long sc, long sl, long ss, const float *w, const float *w2, const float *bias,
         float *c, long ldc, const Epi *e, const int ACT, const int RES) {
    __m512 b0 = _mm512_loadu_ps(bias), b1 = _mm512_loadu_ps(bias + 16);
    __m512 b2 = _mm512_loadu_ps(bias + 32), b3 = _mm512_loadu_ps(bias + 48);
    __m512 p0 = b0, q0 = b1, s0 = b2, t0 = b3, p1 = b0, q1 = b1, s1 = b2, t1 = b3, p2 = b0, q2 = b1, s2 = b2, t2 = b3;
    __m512 p3 = b0, q3 = b1, s3 = b2, t3 = b3, p4 = b0, q4 = b1, s4 = b2, t4 = b3, p5 = b0, q5 = b1, s5 = b2, t5 = b3;
    const float *wp = w, *wq = w2;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            __m512 v = _mm512_loadu_ps(wp), u = _mm512_loadu_ps(wp + 16);
            __m512 y = _mm512_loadu_ps(wq), z = _mm512_loadu_ps(wq + 16);
            wp += 32;
            wq += 32;
#define ROW(r, p, q, s_, t) { __m512 x = _mm512_set1_ps(a[(r) * lda + k]); p = _mm512_fmadd_ps(x, v, p); \
                       q = _mm512_fmadd_ps(x, u, q); s_ = _mm512_fmadd_ps(x, y, s_); t = _mm512_fmadd_ps(x, z, t); }
            ROW(0, p0, q0, s0, t0) ROW(1, p1, q1, s1, t1) ROW(2, p2, q2, s2, t2)
            ROW(3, p3, q3, s3, t3) ROW(4, p4, q4, s4, t4) ROW(5, p5, q5, s5, t5)
#undef ROW
        }
    }
#define PUT(r, p, q, s_, t) { ST16(r, p); ST16B(r, q); ST16C(r, s_); ST16D(r, t); }
    PUT(0, p0, q0, s0, t0) PUT(1, p1, q1, s1, t1) PUT(2, p2, q2, s2, t2)
    PUT(3, p3, q3, s3, t3) PUT(4, p4, q4, s4, t4) PUT(5, p5, q5, s5, t5)
#undef PUT
}
#undef ST16C
#undef ST16D

TARGET static inline ALWAYS void
rows4x32(const float *a, long lda, long sc, long sl, long ss, const float *w, const float *bias, float *c, long ldc,
         const Epi *e, const int ACT, const int RES) {
    __m512 b0 = _mm512_loadu_ps(bias), b1 = _mm512_loadu_ps(bias + 16);
    __m512 p0 = b0, q0 = b1, p1 = b0, q1 = b1, p2 = b0, q2 = b1, p3 = b0, q3 = b1;
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            __m512 v = _mm512_loadu_ps(wp), u = _mm512_loadu_ps(wp + 16);
            wp += 32;
#define ROW(r, p, q) { __m512 x = _mm512_set1_ps(a[(r) * lda + k]); p = _mm512_fmadd_ps(x, v, p); \
                       q = _mm512_fmadd_ps(x, u, q); }
            ROW(0, p0, q0) ROW(1, p1, q1) ROW(2, p2, q2) ROW(3, p3, q3)
#undef ROW
        }
    }
#define PUT(r, p, q) { ST16(r, p); ST16B(r, q); }
    PUT(0, p0, q0) PUT(1, p1, q1) PUT(2, p2, q2) PUT(3, p3, q3)
#undef PUT
}

TARGET static inline ALWAYS void
row1x32(const float *a, long sc, long sl, long ss, const float *w, const float *bias, float *c, const Epi *e,
        const int ACT, const int RES) {
    const long ldc = 0;
    __m512 p = _mm512_loadu_ps(bias), q = _mm512_loadu_ps(bias + 16);
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            PREFETCH_LINE();
            __m512 x = _mm512_set1_ps(a[k]);
            p = _mm512_fmadd_ps(x, _mm512_loadu_ps(wp), p);
            q = _mm512_fmadd_ps(x, _mm512_loadu_ps(wp + 16), q);
            wp += 32;
        }
    }
    ST16(0, p);
    ST16B(0, q);
}

/* In bounds: A rows are the planner's (a tensor, or the padded copy of one, holding every window); the panel holds
 * width floats per k; bias and alpha are read `width` floats from the panel's first channel, inside their
 * buffers (padded by 32 + 16 floats); C and the residual are only touched on the lanes that exist (masks). */
/* One panel, for one activation and with or without a residual (ACT, RES: constants at each call below). */
TARGET static inline ALWAYS void panel_body(const float *a, long lda, long rows, long seg_count, long seg_length,
                                            long seg_stride, const float *w, long width, long valid,
                                            const float *bias, float *c, long ldc, const float *res,
                                            long res_stride, long res_lanes, int act, const float *alpha,
                                            const int ACT, const int RES) {
    long r = 0;
    __mmask16 m0 = valid >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << valid) - 1);
    long rest = valid - 16;
    __mmask16 m1 = rest >= 16 ? (__mmask16)0xFFFF : rest <= 0 ? 0 : (__mmask16)((1u << rest) - 1);
    /* The epilogue of rows r… reads the residual from row r on. */
#define EPI(r) (&(Epi){res ? res + (r) * res_stride : 0, res_stride, res_lanes, act, alpha, m0, m1})
    if (width == 32) {
        for (; r + 12 <= rows; r += 12)
            rows12x32(a + r * lda, lda, seg_count, seg_length, seg_stride, w, bias, c + r * ldc, ldc, EPI(r), ACT, RES);
        for (; r + 4 <= rows; r += 4)
            rows4x32(a + r * lda, lda, seg_count, seg_length, seg_stride, w, bias, c + r * ldc, ldc, EPI(r), ACT, RES);
        for (; r < rows; r++) row1x32(a + r * lda, seg_count, seg_length, seg_stride, w, bias, c + r * ldc,
                                         EPI(r), ACT, RES);
    } else if (width == 16) {
        for (; r + 12 <= rows; r += 12)
            rows12x16(a + r * lda, lda, seg_count, seg_length, seg_stride, w, bias, c + r * ldc, ldc, EPI(r), ACT, RES);
        for (; r + 4 <= rows; r += 4)
            rows4x16(a + r * lda, lda, seg_count, seg_length, seg_stride, w, bias, c + r * ldc, ldc, EPI(r), ACT, RES);
        for (; r < rows; r++) row1x16(a + r * lda, seg_count, seg_length, seg_stride, w, bias, c + r * ldc,
                                         EPI(r), ACT, RES);
    } else {
        for (; r + 8 <= rows; r += 8)
            rows8x24(a + r * lda, lda, seg_count, seg_length, seg_stride, w, bias, c + r * ldc, ldc, EPI(r), ACT, RES);
        for (; r + 4 <= rows; r += 4)
            rows4x24(a + r * lda, lda, seg_count, seg_length, seg_stride, w, bias, c + r * ldc, ldc, EPI(r), ACT, RES);
        for (; r < rows; r++) row1x24(a + r * lda, seg_count, seg_length, seg_stride, w, bias, c + r * ldc,
                                         EPI(r), ACT, RES);
    }
#undef EPI
}

/* Two full 32-wide panels side by side (width 64: the second's weights right after the first's, 32 floats per k
 * each): 6-row blocks across both (rows6x64), then the last rows panel by panel. In bounds as panel_body: the
 * second panel's bias and slopes are the 32 floats after the first's, inside their buffers (both panels' 64
 * channels exist); its residual pointer is formed at most res_lanes floats past the first's (inside the residual
 * row) and read only on the lanes that exist from there. */
TARGET static inline ALWAYS void pair_body(const float *a, long lda, long rows, long seg_count, long seg_length,
                                           long seg_stride, const float *w, const float *bias, float *c, long ldc,
                                           const float *res, long res_stride, long res_lanes, int act,
                                           const float *alpha, const int ACT, const int RES) {
    const float *w2 = w + 32 * seg_count * seg_length;
    /* 6-row blocks, one fewer when that leaves 2 or 3 rows (then 8 or 9: two 4-row blocks of each panel instead
     * of single rows, each one chain per 16 channels bound by the multiply-add latency). */
    long blocks = rows / 6;
    if (blocks > 0 && (rows - 6 * blocks == 2 || rows - 6 * blocks == 3)) blocks--;
    long r = 0;
    const Epi e = {0, res_stride, res_lanes, act, alpha, (__mmask16)0xFFFF, (__mmask16)0xFFFF};
    for (; r < 6 * blocks; r += 6) {
        Epi er = e;
        er.res = res ? res + r * res_stride : 0;
        rows6x64(a + r * lda, lda, seg_count, seg_length, seg_stride, w, w2, bias, c + r * ldc, ldc, &er, ACT, RES);
    }
    if (r == rows) return;
    const long shift = res_lanes < 0 ? 0 : res_lanes < 32 ? res_lanes : 32;
    const float *res2 = res ? res + shift : 0;
    panel_body(a + r * lda, lda, rows - r, seg_count, seg_length, seg_stride, w, 32, 32, bias, c + r * ldc, ldc,
               res ? res + r * res_stride : 0, res_stride, res_lanes, act, alpha, ACT, RES);
    panel_body(a + r * lda, lda, rows - r, seg_count, seg_length, seg_stride, w2, 32, 32, bias + 32, c + r * ldc + 32,
               ldc, res2 ? res2 + r * res_stride : 0, res_stride, res_lanes - shift, act, alpha ? alpha + 32 : 0, ACT,
               RES);
}

TARGET void fc_gemm_panel_avx512(const float *a, long lda, long rows, long seg_count, long seg_length,
                                 long seg_stride, const float *w, long width, long valid, const float *bias, float *c,
                                 long ldc, const float *res, long res_stride, long res_lanes, int act,
                                 const float *alpha) {
#define CALL(A, R) panel_body(a, lda, rows, seg_count, seg_length, seg_stride, w, width, valid, bias, c, ldc, res, \
                              res_stride, res_lanes, act, alpha, A, R)
#define PAIR(A, R) pair_body(a, lda, rows, seg_count, seg_length, seg_stride, w, bias, c, ldc, res, res_stride, \
                             res_lanes, act, alpha, A, R)
    if (width == 64) FC_DISPATCH_ACTIVATION(act, res != 0, PAIR);
    else FC_DISPATCH_ACTIVATION(act, res != 0, CALL);
#undef PAIR
#undef CALL
}

#else
void fc_gemm_panel_avx512(const float *a, long lda, long rows, long seg_count, long seg_length, long seg_stride,
                          const float *w, long width, long valid, const float *bias, float *c, long ldc,
                          const float *res, long res_stride, long res_lanes, int act, const float *alpha) {
    (void)a; (void)lda; (void)rows; (void)seg_count; (void)seg_length; (void)seg_stride;
    (void)w; (void)width; (void)valid; (void)bias; (void)c; (void)ldc; (void)res; (void)res_stride; (void)res_lanes;
    (void)act; (void)alpha;
}
#endif
