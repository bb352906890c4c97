#include "ckernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "dispatch.h"
#include "prefetch.h"

/* The AVX2 GEMM panel kernel: fc_gemm_panel_avx512's contract (the same panels of plain channels, 16, 24 or 32
 * wide) with 16 ymm registers. A 16-wide panel (and each 16-channel half of a 32-wide one) runs 6 rows × 2
 * vectors, a 24-wide one 4 rows × 3 vectors: 12 accumulators, the weight vectors of one k and a broadcast,
 * enough independent multiply-adds to cover the FMA latency on two pipes (the Swift kernel6x16 / kernel4x24
 * blocking). Per output: the bias, one fused multiply-add per k in k order, then the residual added, then the
 * activation, written so that each lane's result is the one FaceCapCore's Swift kernels and gemmEpilogue give
 * (bit-identical). Each k also prefetches a line of the next step's weights (fc_prefetch_next, prefetch.h), as
 * the AVX-512 kernels do: the iris model's 2.6 MB of weights do not stay in L2 from one run to the next. */

#define TARGET __attribute__((target("avx2,fma")))
#define ALWAYS __attribute__((always_inline))

/* Lanes 0..<n of 8 (n clamped to 0…8) as a maskload/maskstore mask. */
TARGET static inline __m256i lanes8(long n) {
    int k = n < 0 ? 0 : n > 8 ? 8 : (int)n;
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(k), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

typedef struct {
    const float *res;   /* residual at the panel's first channel of the block's row 0, or NULL */
    long res_stride;    /* floats between residual rows */
    long res_lanes;     /* residual channels that exist from the panel's first channel on (may be < width) */
    const float *alpha; /* PReLU slopes at the panel's first channel */
    long valid;         /* channels of the panel that exist in C */
} Epi;

/* The residual (lanes it has), then the activation, of the 8 channels at panel lane l0 of row r; the order and
 * the operand order of gemmEpilogue: max8(v, 0) is `v < 0 ? 0 : v`, which is vmaxps(0, v) (it returns its
 * second operand unless the first is greater: −0 and NaN stay as they are, as in Swift); min8(v, 6) is
 * `6 < v ? 6 : v`, vminps(6, v); PReLU is `v < 0 ? v · slope : v`. */
TARGET static inline ALWAYS __m256 epi8(__m256 v, const Epi *e, long r, long l0, const int ACT, const int RES) {
    if (RES && e->res_lanes > l0) {
        /* Masked: only the residual's lanes are read (the rest count as 0, as in Swift). */
        const float *p = e->res + r * e->res_stride + l0;
        long n = e->res_lanes - l0;
        v = _mm256_add_ps(v, n >= 8 ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, lanes8(n)));
    }
    const __m256 zero = _mm256_setzero_ps();
    switch (ACT) {
    case FC_ACT_RELU: v = _mm256_max_ps(zero, v); break;
    case FC_ACT_RELU6: v = _mm256_min_ps(_mm256_set1_ps(6), _mm256_max_ps(zero, v)); break;
    case FC_ACT_RELU_N1_TO_1: v = _mm256_min_ps(_mm256_set1_ps(1), _mm256_max_ps(_mm256_set1_ps(-1), v)); break;
    case FC_ACT_PRELU: {
        /* 8 slopes from lane l0 < valid: inside the slope buffer (its 16 floats of slack, ckernels.h). */
        __m256 s = _mm256_mul_ps(v, _mm256_loadu_ps(e->alpha + l0));
        v = _mm256_blendv_ps(v, s, _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
        break;
    }
    default: break;
    }
    return v;
}

/* Lanes 0..<n (1…7) of v to p: 4, 2 and 1 lanes with plain stores, not vmaskmovps, whose store form is slow on
 * AMD's cores (Zen 4 included; its AVX-512 masked stores are not). The same lanes written, the same values:
 * only lanes 0..<n are touched. */
TARGET static inline ALWAYS void store_lanes(float *p, __m256 v, long n) {
    __m128 x = _mm256_castps256_ps128(v);
    if (n & 4) { _mm_storeu_ps(p, x); p += 4; x = _mm256_extractf128_ps(v, 1); }
    if (n & 2) { _mm_storel_pi((__m64 *)p, x); p += 2; x = _mm_movehl_ps(x, x); }
    if (n & 1) _mm_store_ss(p, x);
}

/* Stores lanes l0… of row r that exist in C (valid − l0 of them, up to 8): a plain store when all 8 do. */
TARGET static inline ALWAYS void put8(float *c, long ldc, long r, long l0, __m256 v, const Epi *e, const int ACT,
                                      const int RES) {
    long n = e->valid - l0;
    if (n <= 0) return;
    v = epi8(v, e, r, l0, ACT, RES);
    if (n >= 8) _mm256_storeu_ps(c + r * ldc + l0, v);
    else store_lanes(c + r * ldc + l0, v, n);
}

/* R rows (1…6, a constant where inlined: the accumulators stay in registers) × 16 channels from panel lane l0;
 * the weights of one k are 16 floats at w, `ws` floats from one k to the next (the panel's width). */
TARGET static inline ALWAYS void block16(const float *a, long lda, long sc, long sl, long ss, const float *w, long ws,
                                         const float *bias, float *c, long ldc, long l0, const Epi *e, const int R,
                                         const int ACT, const int RES) {
    const __m256 b0 = _mm256_loadu_ps(bias), b1 = _mm256_loadu_ps(bias + 8);
    __m256 p0 = b0, q0 = b1, p1 = b0, q1 = b1, p2 = b0, q2 = b1, p3 = b0, q3 = b1, p4 = b0, q4 = b1, p5 = b0,
           q5 = b1;
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        const long first = s * ss, last = first + sl;
        /* One k: the panel holds ws ≥ 16 floats per k from w, 16 from panel lane l0 ≤ ws − 16; row r < R ≤ the
         * rows left and kk < last, inside the row's segments: A as the planner laid it out. */
#define ROW(r, p, q, kk) if (R > (r)) { const __m256 x = _mm256_broadcast_ss(a + (r) * lda + (kk)); \
                                       p = _mm256_fmadd_ps(x, v, p); q = _mm256_fmadd_ps(x, u, q); }
#define STEP(kk) { const __m256 v = _mm256_loadu_ps(wp), u = _mm256_loadu_ps(wp + 8); wp += ws; \
                   ROW(0, p0, q0, kk) ROW(1, p1, q1, kk) ROW(2, p2, q2, kk) ROW(3, p3, q3, kk) \
                   ROW(4, p4, q4, kk) ROW(5, p5, q5, kk) }
        /* Two k a turn (each accumulator still takes its k in order: the same bits): the loop's own work (the
         * counter, its test, the prefetch cursor's test) once per 24 multiply-adds instead of per 12, in a k step
         * of about 30 instructions for 12 (docs/performance.md, iris3 on AVX2: stand-alone 0.93–1.01 of the time
         * for k = 32 and 64). Two lines of the next step's weights a turn, as one a k before (the second only
         * while the range lasts, as FC_PREFETCH_LINE); once it is covered, one test a turn. */
        long k = first;
        for (; k + 2 <= last; k += 2) {
            if (fc_pf_cur < fc_pf_end) {
                _mm_prefetch(fc_pf_cur, _MM_HINT_T1);
                fc_pf_cur += 64;
                FC_PREFETCH_LINE();
            }
            STEP(k) STEP(k + 1)
        }
        if (k < last) {
            FC_PREFETCH_LINE();
            STEP(k)
        }
#undef STEP
#undef ROW
    }
    if (e->valid >= l0 + 16 && (!RES || e->res_lanes >= l0 + 16)) {
        /* All 16 lanes exist in C and in the residual: the block's stores with one test, not two or three per
         * vector (put8, epi8), with the slopes loaded once. The same operations in the same order as epi8: the
         * residual added, then the activation with its operand order (the same bits). 0.91–0.96 of the time
         * stand-alone for the residual layers (docs/performance.md, iris3 on AVX2). In bounds: lanes l0..<l0 + 16
         * of each row exist in C, in the residual (res_lanes ≥ l0 + 16) and in the slopes (valid ≥ l0 + 16). */
        const __m256 zero = _mm256_setzero_ps();
        __m256 s0 = zero, s1 = zero;
        if (ACT == FC_ACT_PRELU) {
            s0 = _mm256_loadu_ps(e->alpha + l0);
            s1 = _mm256_loadu_ps(e->alpha + l0 + 8);
        }
#define FIN(v, r, o, slope) { __m256 t = v; \
            if (RES) t = _mm256_add_ps(t, _mm256_loadu_ps(e->res + (r) * e->res_stride + l0 + (o))); \
            switch (ACT) { \
            case FC_ACT_RELU: t = _mm256_max_ps(zero, t); break; \
            case FC_ACT_RELU6: t = _mm256_min_ps(_mm256_set1_ps(6), _mm256_max_ps(zero, t)); break; \
            case FC_ACT_RELU_N1_TO_1: \
                t = _mm256_min_ps(_mm256_set1_ps(1), _mm256_max_ps(_mm256_set1_ps(-1), t)); break; \
            case FC_ACT_PRELU: \
                t = _mm256_blendv_ps(t, _mm256_mul_ps(t, slope), _mm256_cmp_ps(t, zero, _CMP_LT_OQ)); break; \
            default: break; \
            } \
            _mm256_storeu_ps(c + (r) * ldc + l0 + (o), t); }
#define PUT(r, p, q) if (R > (r)) { FIN(p, r, 0, s0) FIN(q, r, 8, s1) }
        PUT(0, p0, q0) PUT(1, p1, q1) PUT(2, p2, q2) PUT(3, p3, q3) PUT(4, p4, q4) PUT(5, p5, q5)
#undef PUT
#undef FIN
        return;
    }
#define PUT(r, p, q) if (R > (r)) { put8(c, ldc, r, l0, p, e, ACT, RES); put8(c, ldc, r, l0 + 8, q, e, ACT, RES); }
    PUT(0, p0, q0) PUT(1, p1, q1) PUT(2, p2, q2) PUT(3, p3, q3) PUT(4, p4, q4) PUT(5, p5, q5)
#undef PUT
}

/* R rows (1…4) × 24 channels: a whole 24-wide panel. */
TARGET static inline ALWAYS void block24(const float *a, long lda, long sc, long sl, long ss, const float *w,
                                         const float *bias, float *c, long ldc, const Epi *e, const int R,
                                         const int ACT, const int RES) {
    const __m256 b0 = _mm256_loadu_ps(bias), b1 = _mm256_loadu_ps(bias + 8), b2 = _mm256_loadu_ps(bias + 16);
    __m256 p0 = b0, q0 = b1, t0 = b2, p1 = b0, q1 = b1, t1 = b2, p2 = b0, q2 = b1, t2 = b2, p3 = b0, q3 = b1,
           t3 = b2;
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        const long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            FC_PREFETCH_LINE();
            /* The panel holds 24 floats per k. */
            const __m256 v = _mm256_loadu_ps(wp), u = _mm256_loadu_ps(wp + 8), z = _mm256_loadu_ps(wp + 16);
            wp += 24;
#define ROW(r, p, q, t) if (R > (r)) { const __m256 x = _mm256_broadcast_ss(a + (r) * lda + k); \
                                      p = _mm256_fmadd_ps(x, v, p); q = _mm256_fmadd_ps(x, u, q); \
                                      t = _mm256_fmadd_ps(x, z, t); }
            ROW(0, p0, q0, t0) ROW(1, p1, q1, t1) ROW(2, p2, q2, t2) ROW(3, p3, q3, t3)
#undef ROW
        }
    }
#define PUT(r, p, q, t) if (R > (r)) { put8(c, ldc, r, 0, p, e, ACT, RES); put8(c, ldc, r, 8, q, e, ACT, RES); \
                                       put8(c, ldc, r, 16, t, e, ACT, RES); }
    PUT(0, p0, q0, t0) PUT(1, p1, q1, t1) PUT(2, p2, q2, t2) PUT(3, p3, q3, t3)
#undef PUT
}

/* R rows (1…3) × 32 channels: a whole 32-wide panel in one pass, four vectors a row, for the rows a 6 × 16 block
 * leaves when they are fewer than four (and maps of 1–3 pixels, the iris model's 2×2 layers' heads): 4·R
 * independent multiply-add chains instead of the 2·R of a 16-channel half, and the panel's weights streamed once
 * instead of once per half. */
TARGET static inline ALWAYS void block32(const float *a, long lda, long sc, long sl, long ss, const float *w,
                                         const float *bias, float *c, long ldc, const Epi *e, const int R,
                                         const int ACT, const int RES) {
    const __m256 b0 = _mm256_loadu_ps(bias), b1 = _mm256_loadu_ps(bias + 8), b2 = _mm256_loadu_ps(bias + 16),
                 b3 = _mm256_loadu_ps(bias + 24);
    __m256 p0 = b0, p1 = b1, p2 = b2, p3 = b3, q0 = b0, q1 = b1, q2 = b2, q3 = b3, t0 = b0, t1 = b1, t2 = b2,
           t3 = b3;
    const float *wp = w;
    for (long s = 0; s < sc; s++) {
        const long first = s * ss;
        for (long k = first; k < first + sl; k++) {
            FC_PREFETCH_LINE();
            /* The panel holds 32 floats per k. */
            const __m256 v0 = _mm256_loadu_ps(wp), v1 = _mm256_loadu_ps(wp + 8), v2 = _mm256_loadu_ps(wp + 16),
                         v3 = _mm256_loadu_ps(wp + 24);
            wp += 32;
            /* Row r < R ≤ the rows left, k inside the row's segments. */
#define ROW(r, x0, x1, x2, x3) if (R > (r)) { const __m256 x = _mm256_broadcast_ss(a + (r) * lda + k); \
                                   x0 = _mm256_fmadd_ps(x, v0, x0); x1 = _mm256_fmadd_ps(x, v1, x1); \
                                   x2 = _mm256_fmadd_ps(x, v2, x2); x3 = _mm256_fmadd_ps(x, v3, x3); }
            ROW(0, p0, p1, p2, p3) ROW(1, q0, q1, q2, q3) ROW(2, t0, t1, t2, t3)
#undef ROW
        }
    }
#define PUT(r, x0, x1, x2, x3) if (R > (r)) { put8(c, ldc, r, 0, x0, e, ACT, RES); put8(c, ldc, r, 8, x1, e, ACT, RES); \
                                   put8(c, ldc, r, 16, x2, e, ACT, RES); put8(c, ldc, r, 24, x3, e, ACT, RES); }
    PUT(0, p0, p1, p2, p3) PUT(1, q0, q1, q2, q3) PUT(2, t0, t1, t2, t3)
#undef PUT
}

/* One panel for one activation, with or without a residual (ACT, RES: constants at each call below). In
 * bounds: A rows are the planner's (a tensor, or the padded copy of one, holding every window); the panel holds
 * `width` floats per k; bias and alpha are read 8 at a time up to the panel's width from its first channel,
 * inside their buffers (the bias padded by 32 zeros, the slopes by 16 floats of slack); C and the residual are
 * only touched on the lanes that exist (maskstore / maskload). */
TARGET static inline ALWAYS void panel_body(const float *a, long lda, long rows, long sc, long sl, long ss,
                                            const float *w, long width, long valid, const float *bias, float *c,
                                            long ldc, const float *res, long res_stride, long res_lanes,
                                            const float *alpha, const int ACT, const int RES) {
    /* The epilogue of rows r… reads the residual from row r on. */
#define EPI(r) (&(Epi){res ? res + (r) * res_stride : 0, res_stride, res_lanes, alpha, valid})
    if (width == 24) {
        long r = 0;
        for (; r + 4 <= rows; r += 4)
            block24(a + r * lda, lda, sc, sl, ss, w, bias, c + r * ldc, ldc, EPI(r), 4, ACT, RES);
        const float *ar = a + r * lda;
        float *cr = c + r * ldc;
        switch (rows - r) {
        case 3: block24(ar, lda, sc, sl, ss, w, bias, cr, ldc, EPI(r), 3, ACT, RES); break;
        case 2: block24(ar, lda, sc, sl, ss, w, bias, cr, ldc, EPI(r), 2, ACT, RES); break;
        case 1: block24(ar, lda, sc, sl, ss, w, bias, cr, ldc, EPI(r), 1, ACT, RES); break;
        default: break;
        }
        return;
    }
    /* 16 or 32 wide: 16-channel halves (a 32-wide panel's second half from lane 16, when it has channels). */
    const long tail = rows % 6;
    if (width == 32 && valid > 16 && tail > 0 && tail < 4) {
        /* Both halves in 6-row blocks, then the last 1–3 rows across the whole panel (block32). */
        const long r = rows - tail;
        for (long l0 = 0; l0 < 32; l0 += 16)
            for (long r6 = 0; r6 < r; r6 += 6)
                block16(a + r6 * lda, lda, sc, sl, ss, w + l0, width, bias + l0, c + r6 * ldc, ldc, l0, EPI(r6), 6,
                        ACT, RES);
        const float *ar = a + r * lda;
        float *cr = c + r * ldc;
        switch (tail) {
        case 3: block32(ar, lda, sc, sl, ss, w, bias, cr, ldc, EPI(r), 3, ACT, RES); break;
        case 2: block32(ar, lda, sc, sl, ss, w, bias, cr, ldc, EPI(r), 2, ACT, RES); break;
        default: block32(ar, lda, sc, sl, ss, w, bias, cr, ldc, EPI(r), 1, ACT, RES); break;
        }
        return;
    }
    for (long l0 = 0; l0 < width && l0 < valid; l0 += 16) {
        long r = 0;
        for (; r + 6 <= rows; r += 6)
            block16(a + r * lda, lda, sc, sl, ss, w + l0, width, bias + l0, c + r * ldc, ldc, l0, EPI(r), 6, ACT,
                    RES);
        const float *ar = a + r * lda;
        float *cr = c + r * ldc;
        switch (rows - r) {
        case 5: block16(ar, lda, sc, sl, ss, w + l0, width, bias + l0, cr, ldc, l0, EPI(r), 5, ACT, RES); break;
        case 4: block16(ar, lda, sc, sl, ss, w + l0, width, bias + l0, cr, ldc, l0, EPI(r), 4, ACT, RES); break;
        case 3: block16(ar, lda, sc, sl, ss, w + l0, width, bias + l0, cr, ldc, l0, EPI(r), 3, ACT, RES); break;
        case 2: block16(ar, lda, sc, sl, ss, w + l0, width, bias + l0, cr, ldc, l0, EPI(r), 2, ACT, RES); break;
        case 1: block16(ar, lda, sc, sl, ss, w + l0, width, bias + l0, cr, ldc, l0, EPI(r), 1, ACT, RES); break;
        default: break;
        }
    }
#undef EPI
}

TARGET void fc_gemm_panel_avx2(const float *a, long lda, long rows, long seg_count, long seg_length, long seg_stride,
                               const float *w, long width, long valid, const float *bias, float *c, long ldc,
                               const float *res, long res_stride, long res_lanes, int act, const float *alpha) {
#define CALL(A, R) panel_body(a, lda, rows, seg_count, seg_length, seg_stride, w, width, valid, bias, c, ldc, res, \
                              res_stride, res_lanes, alpha, A, R)
    FC_DISPATCH_ACTIVATION(act, res && res_lanes > 0, CALL);
#undef CALL
}

#else
void fc_gemm_panel_avx2(const float *a, long lda, long rows, long seg_count, long seg_length, long seg_stride,
                        const float *w, long width, long valid, const float *bias, float *c, long ldc,
                        const float *res, long res_stride, long res_lanes, int act, const float *alpha) {
    (void)a; (void)lda; (void)rows; (void)seg_count; (void)seg_length; (void)seg_stride;
    (void)w; (void)width; (void)valid; (void)bias; (void)c; (void)ldc; (void)res; (void)res_stride; (void)res_lanes;
    (void)act; (void)alpha;
}
#endif
