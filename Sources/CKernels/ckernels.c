#include "ckernels.h"

#include <stdlib.h>

#if defined(__x86_64__)
#include <immintrin.h>

#include "prefetch.h"

int fc_has_avx512(void) {
    /* FACECAP_NO_AVX512 (any value) keeps the AVX2 kernels: for comparing the two paths, and a way out. */
    if (getenv("FACECAP_NO_AVX512") || getenv("FACECAP_SWIFT_KERNELS")) return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") ? 1 : 0;
}

int fc_has_avx2(void) {
    if (getenv("FACECAP_SWIFT_KERNELS")) return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
}

#define TARGET __attribute__((target("avx512f,avx512vl,avx2,fma")))

/* The weights the next step will read, prefetched into L2 a cache line at a time from inside this step's inner
 * loops (one line per k of a GEMM block, one per group of depthwise outputs), so their misses overlap this step's
 * arithmetic instead of stalling the next step (the iris model's late layers are small and their weights are
 * not in cache from one run to the next on a busy machine). Only a hint: a prefetch never faults and changes no
 * result. FACECAP_NO_PREFETCH (any value) turns it off, for measuring. One thread runs a model, so the cursor is
 * per thread; the AVX2 kernels (gemm_avx2.c, dw_avx2.c) advance the same cursor (prefetch.h). */
FC_TLS const char *fc_pf_cur, *fc_pf_end;
/* FACECAP_NO_PREFETCH, read once as the program is loaded: a constructor runs before main and before any thread
 * of the process (the eye worker) starts, and nothing writes the switch afterwards, so the threads that read it
 * share no write to race on, with no atomic load per call. */
static int pf_off;
__attribute__((constructor)) static void pf_read_switch(void) { pf_off = getenv("FACECAP_NO_PREFETCH") ? 1 : 0; }

void fc_prefetch_next(const void *p, long bytes) {
    const int off = pf_off;
    if (off || !p || bytes <= 0) { fc_pf_cur = fc_pf_end = 0; return; }
    fc_pf_cur = (const char *)p;
    fc_pf_end = (const char *)p + bytes;
}

long fc_prefetch_pending(void) { return fc_pf_cur < fc_pf_end ? (long)(fc_pf_end - fc_pf_cur) : 0; }

#define PREFETCH_LINE() FC_PREFETCH_LINE()

/* Inlined into each caller, so the activation and residual flags below are constants there. */
#define ALWAYS __attribute__((always_inline))

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

/* Stores only the lanes of C that exist (a panel wider than the channels left); a plain store when all do. */
TARGET static inline void put16(float *p, __mmask16 m, __m512 v) {
    if (m == (__mmask16)0xFFFF) _mm512_storeu_ps(p, v); else _mm512_mask_storeu_ps(p, m, v);
}

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

TARGET void fc_gemm_panel_avx512(const float *a, long lda, long rows, long seg_count, long seg_length,
                                 long seg_stride, const float *w, long width, long valid, const float *bias, float *c,
                                 long ldc, const float *res, long res_stride, long res_lanes, int act,
                                 const float *alpha) {
#define CALL(A, R) panel_body(a, lda, rows, seg_count, seg_length, seg_stride, w, width, valid, bias, c, ldc, res, \
                              res_stride, res_lanes, act, alpha, A, R)
    /* One specialised copy per activation and residual: the epilogue then has no branch per store. */
    if (res) {
        switch (act) {
        case FC_ACT_RELU: CALL(FC_ACT_RELU, 1); break;
        case FC_ACT_RELU6: CALL(FC_ACT_RELU6, 1); break;
        case FC_ACT_RELU_N1_TO_1: CALL(FC_ACT_RELU_N1_TO_1, 1); break;
        case FC_ACT_PRELU: CALL(FC_ACT_PRELU, 1); break;
        default: CALL(FC_ACT_NONE, 1);
        }
    } else {
        switch (act) {
        case FC_ACT_RELU: CALL(FC_ACT_RELU, 0); break;
        case FC_ACT_RELU6: CALL(FC_ACT_RELU6, 0); break;
        case FC_ACT_RELU_N1_TO_1: CALL(FC_ACT_RELU_N1_TO_1, 0); break;
        case FC_ACT_PRELU: CALL(FC_ACT_PRELU, 0); break;
        default: CALL(FC_ACT_NONE, 0);
        }
    }
#undef CALL
}

TARGET static inline __m512 act16(__m512 v, int act, const float *alpha) {
    __m512 zero = _mm512_setzero_ps();
    switch (act) {
    case FC_ACT_RELU: return _mm512_max_ps(v, zero);
    case FC_ACT_RELU6: return _mm512_min_ps(_mm512_max_ps(v, zero), _mm512_set1_ps(6));
    case FC_ACT_RELU_N1_TO_1: return _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(-1)), _mm512_set1_ps(1));
    case FC_ACT_PRELU:
        return _mm512_mask_mul_ps(v, _mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ), v, _mm512_loadu_ps(alpha));
    default: return v;
    }
}

/* One output row's interior columns (every tap column inside the image) of one 16-channel slab, kernel rows
 * ky_lo..<ky_hi. `full` (a constant at each call, so the branches fold away) reads the slab with plain loads;
 * otherwise the loads are masked to the slab's m channels. Called with the constants 0 and 3 for rows whose
 * kernel rows all lie in the image, so those loops unroll and the taps stay in registers. */
TARGET static inline ALWAYS void dw_interior(
    const float *p, float *o, long n, long c, long row, long stride, long ky_lo, long ky_hi, const __m512 *k,
    __m512 bv, __mmask16 m, int act, const float *al, const int full) {
#define LD(r, j) (full ? _mm512_loadu_ps((r) + (j) * c) : _mm512_maskz_loadu_ps(m, (r) + (j) * c))
#define FMA4(x0, x1, x2, x3, kk) a0 = _mm512_fmadd_ps(x0, kk, a0); a1 = _mm512_fmadd_ps(x1, kk, a1); \
    a2 = _mm512_fmadd_ps(x2, kk, a2); a3 = _mm512_fmadd_ps(x3, kk, a3);
#define STORE4 put16(o4, m, act16(a0, act, al)); put16(o4 + c, m, act16(a1, act, al)); \
    put16(o4 + 2 * c, m, act16(a2, act, al)); put16(o4 + 3 * c, m, act16(a3, act, al));
    /* With at least four outputs, groups of four cover the row; the last group is
     * moved back to end at the row's end, so it recomputes up to three outputs with the same arithmetic (the
     * input is another tensor: the values written again are the same) instead of running them one at a time. */
    if (stride == 1 && n >= 4) {
        /* Four outputs share six input pixels per kernel row. */
        for (long g = 0; g < n; g += 4) {
            long at = g + 4 <= n ? g : n - 4;
            const float *q = p + at * c;
            float *o4 = o + at * c;
            __m512 a0 = bv, a1 = bv, a2 = bv, a3 = bv;
            PREFETCH_LINE();
            for (long ky = ky_lo; ky < ky_hi; ky++) {
                const float *r = q + ky * row;
                __m512 x0 = LD(r, 0), x1 = LD(r, 1), x2 = LD(r, 2), x3 = LD(r, 3), x4 = LD(r, 4), x5 = LD(r, 5);
                FMA4(x0, x1, x2, x3, k[3 * ky])
                FMA4(x1, x2, x3, x4, k[3 * ky + 1])
                FMA4(x2, x3, x4, x5, k[3 * ky + 2])
            }
            STORE4
        }
        return;
    }
    if (stride == 2 && n >= 4) {
        /* Four outputs share nine input pixels per kernel row. */
        for (long g = 0; g < n; g += 4) {
            long at = g + 4 <= n ? g : n - 4;
            const float *q = p + 2 * at * c;
            float *o4 = o + at * c;
            __m512 a0 = bv, a1 = bv, a2 = bv, a3 = bv;
            PREFETCH_LINE();
            for (long ky = ky_lo; ky < ky_hi; ky++) {
                const float *r = q + ky * row;
                __m512 x0 = LD(r, 0), x1 = LD(r, 1), x2 = LD(r, 2), x3 = LD(r, 3), x4 = LD(r, 4), x5 = LD(r, 5),
                       x6 = LD(r, 6), x7 = LD(r, 7), x8 = LD(r, 8);
                FMA4(x0, x2, x4, x6, k[3 * ky])
                FMA4(x1, x3, x5, x7, k[3 * ky + 1])
                FMA4(x2, x4, x6, x8, k[3 * ky + 2])
            }
            STORE4
        }
        return;
    }
    /* Rows of fewer than four outputs one at a time. */
    for (; n > 0; n--, p += stride * c, o += c) {
        __m512 acc = bv;
        for (long ky = ky_lo; ky < ky_hi; ky++) {
            const float *r = p + ky * row;
            acc = _mm512_fmadd_ps(LD(r, 0), k[3 * ky], acc);
            acc = _mm512_fmadd_ps(LD(r, 1), k[3 * ky + 1], acc);
            acc = _mm512_fmadd_ps(LD(r, 2), k[3 * ky + 2], acc);
        }
        put16(o, m, act16(acc, act, al));
    }
#undef STORE4
#undef FMA4
#undef LD
}

/* A whole 3×3 depthwise convolution, 16 channels at a time (the last slab masked): see ckernels.h. Every tap
 * that lies in the image is one fused multiply-add, in ky, kx order from the bias, as in FaceCapCore's depthwise;
 * taps outside (zero padding) are skipped. A partial slab's loads are masked to its channels, so nothing past a
 * pixel's last channel is read. */
TARGET void fc_dw3x3_avx512(const float *in, long h, long w, long c, long stride, long pad_top, long pad_left,
                            long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                            const float *alpha, float *out) {
    long ox_lo = (pad_left + stride - 1) / stride;
    if (ox_lo > out_w) ox_lo = out_w;
    long ox_hi = out_w;
    while (ox_hi > ox_lo && (ox_hi - 1) * stride - pad_left + 2 >= w) ox_hi--;
    const long row = w * c;
    for (long oy = 0; oy < out_h; oy++) {
        long iy0 = oy * stride - pad_top;
        long ky_lo = iy0 < 0 ? -iy0 : 0, ky_hi = h - iy0 < 3 ? h - iy0 : 3;
        for (long ch = 0; ch < c; ch += 16) {
            long left = c - ch;
            __mmask16 m = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
            __m512 k[9];
            for (int t = 0; t < 9; t++) k[t] = _mm512_loadu_ps(wp + t * cp + ch);
            __m512 bv = _mm512_loadu_ps(bias + ch);
            const float *al = alpha ? alpha + ch : 0;
            const float *base = in + ch;
            float *orow = out + oy * out_w * c + ch;
            /* A pixel near the left or right edge: only the taps inside the image. */
#define EDGE(ox) { \
                long ix0 = (ox) * stride - pad_left; \
                long kx_lo = ix0 < 0 ? -ix0 : 0, kx_hi = w - ix0 < 3 ? w - ix0 : 3; \
                __m512 acc = bv; \
                for (long ky = ky_lo; ky < ky_hi; ky++) \
                    for (long kx = kx_lo; kx < kx_hi; kx++) \
                        acc = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, base + (iy0 + ky) * row + (ix0 + kx) * c), \
                                              k[ky * 3 + kx], acc); \
                put16(orow + (ox) * c, m, act16(acc, act, al)); }
            for (long ox = 0; ox < ox_lo; ox++) EDGE(ox)
            long n = ox_hi - ox_lo;
            if (n > 0 && ky_hi > ky_lo) {
                /* p addresses the first kernel row inside the image (row iy0 + ky_lo, 0 ≤ it < h) at the first
                 * interior output's first tap column (ox_lo·stride − pad_left ≥ 0); the interior's windows end
                 * inside the row, and kernel rows 0..<ky_hi − ky_lo from there are inside the image; the taps
                 * are passed from kernel row ky_lo on. Full slabs read 16 floats from channel ch, ch + 16 ≤ c;
                 * the last slab's loads are masked. */
                const float *p = base + (iy0 + ky_lo) * row + (ox_lo * stride - pad_left) * c;
                const __m512 *kr = k + 3 * ky_lo;
                float *o = orow + ox_lo * c;
                long rows = ky_hi - ky_lo;
                if (rows == 3) {
                    /* All three kernel rows (ky_lo = 0): the taps by constant index, so they stay in registers. */
                    if (m == (__mmask16)0xFFFF) dw_interior(p, o, n, c, row, stride, 0, 3, k, bv, m, act, al, 1);
                    else dw_interior(p, o, n, c, row, stride, 0, 3, k, bv, m, act, al, 0);
                } else if (m == (__mmask16)0xFFFF) {
                    dw_interior(p, o, n, c, row, stride, 0, rows, kr, bv, m, act, al, 1);
                } else {
                    dw_interior(p, o, n, c, row, stride, 0, rows, kr, bv, m, act, al, 0);
                }
            } else {
                /* No kernel row inside the image (a map shorter than the window's reach): the bias alone. */
                for (long ox = ox_lo; ox < ox_hi; ox++) put16(orow + ox * c, m, act16(bv, act, al));
            }
            for (long ox = ox_hi; ox < out_w; ox++) EDGE(ox)
#undef EDGE
        }
    }
}

/* Four outputs of one 16-channel slab of a kh × kw depthwise window, every tap column inside the image: kernel
 * rows ky_lo..<ky_hi (those inside the image), for each tap column kx one fused multiply-add per output in ky,
 * kx order from the bias, as FaceCapCore's depthwise. KW (a constant where inlined) lets the input pixels of a
 * kernel row stay in registers: 3 + KW of them at stride 1 (the four windows overlap), 6 + KW at stride 2.
 * Taps are read from the packed weights (L1). */
TARGET static inline ALWAYS void dwk_group4(const float *p, long c, long row, long sx, long ky_lo, long ky_hi,
                                            const float *wk, long kw, long cp, __m512 bv, __mmask16 m,
                                            __m512 *r0, __m512 *r1, __m512 *r2, __m512 *r3, const int KW,
                                            const int SX, const int full) {
    __m512 a0 = bv, a1 = bv, a2 = bv, a3 = bv;
    const long kwn = KW ? KW : kw;
    const long step = SX ? SX : sx;
    for (long ky = ky_lo; ky < ky_hi; ky++) {
        const float *r = p + ky * row;
        const float *t = wk + ky * kwn * cp;
        if (KW && SX) {
            /* The input pixels the four windows of this kernel row read, loaded once. */
            __m512 x[3 * 2 + 8];
            const int nx = 3 * SX + KW;
            for (int j = 0; j < nx; j++)
                x[j] = full ? _mm512_loadu_ps(r + j * c) : _mm512_maskz_loadu_ps(m, r + j * c);
            for (int kx = 0; kx < KW; kx++) {
                __m512 k = _mm512_loadu_ps(t + kx * cp);
                a0 = _mm512_fmadd_ps(x[kx], k, a0);
                a1 = _mm512_fmadd_ps(x[SX + kx], k, a1);
                a2 = _mm512_fmadd_ps(x[2 * SX + kx], k, a2);
                a3 = _mm512_fmadd_ps(x[3 * SX + kx], k, a3);
            }
        } else {
            for (long kx = 0; kx < kwn; kx++) {
                __m512 k = _mm512_loadu_ps(t + kx * cp);
#define LDX(j) (full ? _mm512_loadu_ps(r + ((j) * step + kx) * c) : _mm512_maskz_loadu_ps(m, r + ((j) * step + kx) * c))
                a0 = _mm512_fmadd_ps(LDX(0), k, a0);
                a1 = _mm512_fmadd_ps(LDX(1), k, a1);
                a2 = _mm512_fmadd_ps(LDX(2), k, a2);
                a3 = _mm512_fmadd_ps(LDX(3), k, a3);
#undef LDX
            }
        }
    }
    *r0 = a0; *r1 = a1; *r2 = a2; *r3 = a3;
}

/* One output pixel whose window may cross the image's edge, all channels, four 16-channel slabs at a time (four
 * independent chains of multiply-adds instead of one): for each tap inside the image, in ky, kx order, one fused
 * multiply-add per slab from the bias, as FaceCapCore's depthwise. FULL (a constant where inlined): all four
 * slabs exist and are whole (plain loads); otherwise every load is masked to the slab's channels, and a slab past
 * the last channel (mask 0) reads and writes nothing. */
TARGET static inline ALWAYS void dwk_pixel4(const float *in, long w, long c, long kw, long ix0, long iy0,
                                            long ky_lo, long ky_hi, const float *wp, long cp, const float *bias,
                                            long ch, int act, const float *alpha, float *o, const int FULL) {
    const long row = w * c;
    long kx_lo = ix0 < 0 ? -ix0 : 0, kx_hi = w - ix0 < kw ? w - ix0 : kw;
    __mmask16 m[4];
    for (int i = 0; i < 4; i++) {
        long left = c - ch - 16 * i;
        m[i] = FULL || left >= 16 ? (__mmask16)0xFFFF : left <= 0 ? 0 : (__mmask16)((1u << left) - 1);
    }
#define LD(i, ptr) (FULL ? _mm512_loadu_ps(ptr) : _mm512_maskz_loadu_ps(m[i], ptr))
    __m512 a0 = LD(0, bias + ch), a1 = LD(1, bias + ch + 16), a2 = LD(2, bias + ch + 32), a3 = LD(3, bias + ch + 48);
    for (long ky = ky_lo; ky < ky_hi; ky++) {
        for (long kx = kx_lo; kx < kx_hi; kx++) {
            /* Inside the image: row iy0 + ky (ky_lo..<ky_hi), column ix0 + kx (kx_lo..<kx_hi). */
            const float *x = in + (iy0 + ky) * row + (ix0 + kx) * c + ch;
            const float *k = wp + (ky * kw + kx) * cp + ch;
            a0 = _mm512_fmadd_ps(LD(0, x), LD(0, k), a0);
            a1 = _mm512_fmadd_ps(LD(1, x + 16), LD(1, k + 16), a1);
            a2 = _mm512_fmadd_ps(LD(2, x + 32), LD(2, k + 32), a2);
            a3 = _mm512_fmadd_ps(LD(3, x + 48), LD(3, k + 48), a3);
        }
    }
#undef LD
    /* Only slabs that exist take the activation (its slopes are read 16 at a time from the slab's channel). */
    if (m[0]) put16(o + ch, m[0], act16(a0, act, alpha ? alpha + ch : 0));
    if (m[1]) put16(o + ch + 16, m[1], act16(a1, act, alpha ? alpha + ch + 16 : 0));
    if (m[2]) put16(o + ch + 32, m[2], act16(a2, act, alpha ? alpha + ch + 32 : 0));
    if (m[3]) put16(o + ch + 48, m[3], act16(a3, act, alpha ? alpha + ch + 48 : 0));
}

TARGET static void dwk_pixel(const float *in, long w, long c, long kw, long ix0, long iy0, long ky_lo, long ky_hi,
                             const float *wp, long cp, const float *bias, int act, const float *alpha, float *o) {
    long ch = 0;
    for (; ch + 64 <= c; ch += 64) dwk_pixel4(in, w, c, kw, ix0, iy0, ky_lo, ky_hi, wp, cp, bias, ch, act, alpha, o, 1);
    if (ch < c) dwk_pixel4(in, w, c, kw, ix0, iy0, ky_lo, ky_hi, wp, cp, bias, ch, act, alpha, o, 0);
}

/* A whole kh × kw depthwise convolution (multiplier 1, strides sy, sx): see ckernels.h. Per output row: the
 * interior (every tap column in the image) four outputs at a time per 16-channel slab, the last group moved back
 * to end at the interior's end (up to three outputs recomputed with the same arithmetic, from another tensor, so
 * the values written again are the same); the edge pixels, and the whole row when its interior holds fewer than
 * four outputs, one pixel at a time over all channels (dwk_pixel). */
TARGET void fc_dw_avx512(const float *in, long h, long w, long c, long kh, long kw, long sy, long sx, long pad_top,
                         long pad_left, long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                         const float *alpha, float *out) {
    /* Output columns whose kw input columns all lie in the image. */
    long ox_lo = (pad_left + sx - 1) / sx;
    if (ox_lo > out_w) ox_lo = out_w;
    long ox_hi = out_w;
    while (ox_hi > ox_lo && (ox_hi - 1) * sx - pad_left + kw - 1 >= w) ox_hi--;
    const long row = w * c;
    const int grouped = ox_hi - ox_lo >= 4;
    for (long oy = 0; oy < out_h; oy++) {
        long iy0 = oy * sy - pad_top;
        long ky_lo = iy0 < 0 ? -iy0 : 0, ky_hi = h - iy0 < kh ? h - iy0 : kh;
        if (ky_hi < ky_lo) ky_hi = ky_lo;
        float *orow = out + oy * out_w * c;
        if (grouped && ky_hi > ky_lo) {
            for (long ch = 0; ch < c; ch += 16) {
                long left = c - ch;
                __mmask16 m = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
                __m512 bv = _mm512_loadu_ps(bias + ch);
                const float *al = alpha ? alpha + ch : 0;
                const int full = m == (__mmask16)0xFFFF;
                PREFETCH_LINE();
                for (long g = ox_lo; g < ox_hi; g += 4) {
                    long at = g + 4 <= ox_hi ? g : ox_hi - 4;
                    /* In bounds: p addresses row iy0 + ky_lo, the first kernel row inside the image (formed
                     * only when there is one), at the first tap column of output at, and the windows of
                     * outputs at…at+3 lie inside the image's columns (interior); kernel rows 0..<ky_hi − ky_lo
                     * from there are inside its rows; the taps are passed from kernel row ky_lo on (wk). */
                    const float *p = in + ch + (iy0 + ky_lo) * row + (at * sx - pad_left) * c;
                    const float *wk = wp + ch + ky_lo * kw * cp;
                    __m512 a0, a1, a2, a3;
#define G(KW, SX, F) dwk_group4(p, c, row, sx, 0, ky_hi - ky_lo, wk, kw, cp, bv, m, &a0, &a1, &a2, &a3, KW, SX, F)
                    if (kw == 5 && sx == 1) { if (full) G(5, 1, 1); else G(5, 1, 0); }
                    else if (kw == 5 && sx == 2) { if (full) G(5, 2, 1); else G(5, 2, 0); }
                    else if (full) G(0, 0, 1);
                    else G(0, 0, 0);
#undef G
                    float *o4 = orow + at * c + ch;
                    put16(o4, m, act16(a0, act, al)); put16(o4 + c, m, act16(a1, act, al));
                    put16(o4 + 2 * c, m, act16(a2, act, al)); put16(o4 + 3 * c, m, act16(a3, act, al));
                }
            }
        }
        for (long ox = 0; ox < out_w; ox++) {
            if (grouped && ky_hi > ky_lo && ox == ox_lo) { ox = ox_hi - 1; continue; }
            dwk_pixel(in, w, c, kw, ox * sx - pad_left, iy0, ky_lo, ky_hi, wp, cp, bias, act, alpha,
                      orow + ox * c);
        }
    }
}

#define TARGET2 __attribute__((target("avx2,fma")))

/* 12 independent chains: enough to cover the FMA latency (4–5 cycles) on two pipes. */
#define FMA12(T, fma, set1, zero, lanes) \
    T a0 = set1(1.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, \
      a11 = a0; \
    T m = set1(0.999999f), d = set1(1e-7f); \
    for (long i = 0; i < iterations; i++) { \
        a0 = fma(a0, m, d); a1 = fma(a1, m, d); a2 = fma(a2, m, d); a3 = fma(a3, m, d); \
        a4 = fma(a4, m, d); a5 = fma(a5, m, d); a6 = fma(a6, m, d); a7 = fma(a7, m, d); \
        a8 = fma(a8, m, d); a9 = fma(a9, m, d); a10 = fma(a10, m, d); a11 = fma(a11, m, d); \
    } \
    float out[lanes]; \
    (void)zero; \
    T s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;

TARGET2 float fc_fma_loop_avx2(long iterations) {
    FMA12(__m256, _mm256_fmadd_ps, _mm256_set1_ps, 0, 8)
    _mm256_storeu_ps(out, s);
    return out[0];
}

TARGET float fc_fma_loop_avx512(long iterations) {
    FMA12(__m512, _mm512_fmadd_ps, _mm512_set1_ps, 0, 16)
    _mm512_storeu_ps(out, s);
    return out[0];
}
#undef FMA12

TARGET2 float fc_read_sum(const float *p, long n) {
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    for (long i = 0; i + 32 <= n; i += 32) {
        s0 = _mm256_add_ps(s0, _mm256_loadu_ps(p + i));
        s1 = _mm256_add_ps(s1, _mm256_loadu_ps(p + i + 8));
        s2 = _mm256_add_ps(s2, _mm256_loadu_ps(p + i + 16));
        s3 = _mm256_add_ps(s3, _mm256_loadu_ps(p + i + 24));
    }
    float out[8];
    _mm256_storeu_ps(out, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
    return out[0] + out[1] + out[2] + out[3] + out[4] + out[5] + out[6] + out[7];
}

#else
void fc_prefetch_next(const void *p, long bytes) { (void)p; (void)bytes; }
long fc_prefetch_pending(void) { return 0; }
void fc_dw_avx512(const float *in, long h, long w, long c, long kh, long kw, long sy, long sx, long pad_top,
                  long pad_left, long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                  const float *alpha, float *out) {
    (void)in; (void)h; (void)w; (void)c; (void)kh; (void)kw; (void)sy; (void)sx; (void)pad_top; (void)pad_left;
    (void)out_h; (void)out_w; (void)wp; (void)cp; (void)bias; (void)act; (void)alpha; (void)out;
}
void fc_dw3x3_avx512(const float *in, long h, long w, long c, long stride, long pad_top, long pad_left,
                     long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                     const float *alpha, float *out) {
    (void)in; (void)h; (void)w; (void)c; (void)stride; (void)pad_top; (void)pad_left; (void)out_h; (void)out_w;
    (void)wp; (void)cp; (void)bias; (void)act; (void)alpha; (void)out;
}
float fc_fma_loop_avx2(long iterations) { (void)iterations; return 0; }
float fc_fma_loop_avx512(long iterations) { (void)iterations; return 0; }
float fc_read_sum(const float *p, long n) {
    float s = 0;
    for (long i = 0; i < n; i++) s += p[i];
    return s;
}
int fc_has_avx512(void) { return 0; }
int fc_has_avx2(void) { return 0; }
void fc_gemm_panel_avx512(const float *a, long lda, long rows, long seg_count, long seg_length, long seg_stride,
                          const float *w, long width, long valid, const float *bias, float *c, long ldc,
                          const float *res, long res_stride, long res_lanes, int act, const float *alpha) {
    (void)a; (void)lda; (void)rows; (void)seg_count; (void)seg_length; (void)seg_stride;
    (void)w; (void)width; (void)valid; (void)bias; (void)c; (void)ldc; (void)res; (void)res_stride; (void)res_lanes;
    (void)act; (void)alpha;
}
#endif
