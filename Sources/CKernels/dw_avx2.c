/* AVX2 + FMA depthwise convolution kernels: fc_dw3x3_avx2 and fc_dw_avx2 (ckernels.h), the AVX-512 ones
 * (dw_avx512.c) on 8-lane registers, for CPUs without AVX-512. A "slab" is 16 channels as there, held in two
 * 8-lane halves, so four outputs of a slab are eight independent chains of fused multiply-adds (enough to cover
 * the FMA latency on two pipes) and the packed weights, biases and slopes are the AVX-512 ones (cp = channels
 * rounded up to 16, zero beyond the channels: every 16-float read of them from a slab's first channel is inside
 * the buffer). Every output lane is the bias, then one fused multiply-add per tap inside the image in ky, kx
 * order, then the activation: the arithmetic of FaceCapCore's depthwise and of the AVX-512 kernels, so the
 * results are bit-identical. Activations past the last channel are neither read nor written: a partial slab's
 * loads are masked (vmaskmovps does not touch masked-out lanes, and does not fault on them) and its stores
 * write only the lanes that exist (store_lanes). As the AVX-512 kernels, each group of outputs prefetches a line
 * of the next step's weights (fc_prefetch_next). Only the functions carry the AVX2 target: the rest of the
 * build is unchanged. */
#include "ckernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "prefetch.h"

#define T2 __attribute__((target("avx2,fma")))
#define ALWAYS __attribute__((always_inline))

typedef struct { __m256 l, h; } V16;
/* The two halves' load masks and the channels that exist from the slab's first one (n, may be ≥ 16). */
typedef struct { __m256i l, h; long n; } M16;

/* Lanes 0..<n of 8 set (n may be ≤ 0 or ≥ 8). */
T2 static inline ALWAYS __m256i lanes8(long n) {
    int k = n <= 0 ? 0 : n >= 8 ? 8 : (int)n;
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(k), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

T2 static inline ALWAYS M16 mask16(long left) { return (M16){lanes8(left), lanes8(left - 8), left}; }

/* An activation slab (16 channels from p): plain loads when `full` (all 16 channels exist), else masked. */
T2 static inline ALWAYS V16 ld16(const float *p, M16 m, const int full) {
    if (full) return (V16){_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8)};
    return (V16){_mm256_maskload_ps(p, m.l), _mm256_maskload_ps(p + 8, m.h)};
}

/* 16 floats of a constant buffer (taps, bias, slopes) from a slab's first channel ch: ch + 16 ≤ cp. */
T2 static inline ALWAYS V16 ldk16(const float *p) { return (V16){_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8)}; }

/* Lanes 0..<n of v to p (n may be ≤ 0 or ≥ 8): plain stores of 8, 4, 2 and 1 lanes, not vmaskmovps, whose store
 * form is slow on AMD's cores (Zen 4 included). Only lanes 0..<n are touched, as with the mask. */
T2 static inline ALWAYS void store_lanes(float *p, __m256 v, long n) {
    if (n >= 8) { _mm256_storeu_ps(p, v); return; }
    if (n <= 0) return;
    __m128 x = _mm256_castps256_ps128(v);
    if (n & 4) { _mm_storeu_ps(p, x); p += 4; x = _mm256_extractf128_ps(v, 1); }
    if (n & 2) { _mm_storel_pi((__m64 *)p, x); p += 2; x = _mm_movehl_ps(x, x); }
    if (n & 1) _mm_store_ss(p, x);
}

T2 static inline ALWAYS void st16(float *p, M16 m, const int full, V16 v) {
    if (full) { _mm256_storeu_ps(p, v.l); _mm256_storeu_ps(p + 8, v.h); }
    else { store_lanes(p, v.l, m.n); store_lanes(p + 8, v.h, m.n - 8); }
}

T2 static inline ALWAYS V16 fma16(V16 x, V16 k, V16 a) {
    return (V16){_mm256_fmadd_ps(x.l, k.l, a.l), _mm256_fmadd_ps(x.h, k.h, a.h)};
}

/* The AVX-512 kernels' act16 on 8 lanes (the same operations: max/min against the bounds, PReLU's product
 * where v < 0, ordered). */
T2 static inline ALWAYS __m256 act8(__m256 v, int act, const float *alpha) {
    __m256 zero = _mm256_setzero_ps();
    switch (act) {
    case FC_ACT_RELU: return _mm256_max_ps(v, zero);
    case FC_ACT_RELU6: return _mm256_min_ps(_mm256_max_ps(v, zero), _mm256_set1_ps(6));
    case FC_ACT_RELU_N1_TO_1: return _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(-1)), _mm256_set1_ps(1));
    case FC_ACT_PRELU:
        return _mm256_blendv_ps(v, _mm256_mul_ps(v, _mm256_loadu_ps(alpha)), _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
    default: return v;
    }
}

/* `al` is the slopes at the slab's first channel (cp floats from channel 0: 16 from there are inside), or NULL. */
T2 static inline ALWAYS V16 act16(V16 v, int act, const float *al) {
    if (act != FC_ACT_PRELU) return (V16){act8(v.l, act, 0), act8(v.h, act, 0)};
    return (V16){act8(v.l, act, al), act8(v.h, act, al + 8)};
}

/* One kernel row of four outputs of one 8-lane half at stride 1 (six input pixels) or 2 (nine), taps k0..k2. */
T2 static inline ALWAYS void row4(const float *r, long c, __m256i m, const int full, const int S, __m256 k0,
                                  __m256 k1, __m256 k2, __m256 *a) {
#define X(j) (full ? _mm256_loadu_ps(r + (j) * c) : _mm256_maskload_ps(r + (j) * c, m))
    if (S == 1) {
        __m256 x0 = X(0), x1 = X(1), x2 = X(2), x3 = X(3), x4 = X(4), x5 = X(5);
        a[0] = _mm256_fmadd_ps(x0, k0, a[0]); a[1] = _mm256_fmadd_ps(x1, k0, a[1]);
        a[2] = _mm256_fmadd_ps(x2, k0, a[2]); a[3] = _mm256_fmadd_ps(x3, k0, a[3]);
        a[0] = _mm256_fmadd_ps(x1, k1, a[0]); a[1] = _mm256_fmadd_ps(x2, k1, a[1]);
        a[2] = _mm256_fmadd_ps(x3, k1, a[2]); a[3] = _mm256_fmadd_ps(x4, k1, a[3]);
        a[0] = _mm256_fmadd_ps(x2, k2, a[0]); a[1] = _mm256_fmadd_ps(x3, k2, a[1]);
        a[2] = _mm256_fmadd_ps(x4, k2, a[2]); a[3] = _mm256_fmadd_ps(x5, k2, a[3]);
    } else {
        __m256 x0 = X(0), x1 = X(1), x2 = X(2), x3 = X(3), x4 = X(4), x5 = X(5), x6 = X(6), x7 = X(7), x8 = X(8);
        a[0] = _mm256_fmadd_ps(x0, k0, a[0]); a[1] = _mm256_fmadd_ps(x2, k0, a[1]);
        a[2] = _mm256_fmadd_ps(x4, k0, a[2]); a[3] = _mm256_fmadd_ps(x6, k0, a[3]);
        a[0] = _mm256_fmadd_ps(x1, k1, a[0]); a[1] = _mm256_fmadd_ps(x3, k1, a[1]);
        a[2] = _mm256_fmadd_ps(x5, k1, a[2]); a[3] = _mm256_fmadd_ps(x7, k1, a[3]);
        a[0] = _mm256_fmadd_ps(x2, k2, a[0]); a[1] = _mm256_fmadd_ps(x4, k2, a[1]);
        a[2] = _mm256_fmadd_ps(x6, k2, a[2]); a[3] = _mm256_fmadd_ps(x8, k2, a[3]);
    }
#undef X
}

/* One output row's interior columns (every tap column inside the image) of one slab, kernel rows 0..<rows from
 * p (the first kernel row inside the image; k holds the taps from that row on). As dw_avx512.c's dw_interior:
 * with at least four outputs, groups of four cover the row and the last group is moved back to end at the row's
 * end (up to three outputs recomputed with the same arithmetic from another tensor: the same values); rows of
 * fewer one output at a time. `full` and ROWS (3, or 0 for `rows`) are constants where this is inlined; LO (a
 * constant too) is a last slab of at most 8 channels, whose high half (no channel exists there: it is stored on
 * no lane) is not computed in the groups of four — the detector's 24-, 28-, 56-, 72- and 88-channel layers. */
T2 static inline ALWAYS void dw_interior(const float *p, float *o, long n, long c, long row, long stride,
                                         long rows, const V16 *k, V16 bv, M16 m, int act, const float *al,
                                         const int full, const int ROWS, const int LO) {
    const long nr = ROWS ? ROWS : rows;
    if ((stride == 1 || stride == 2) && n >= 4) {
        for (long g = 0; g < n; g += 4) {
            long at = g + 4 <= n ? g : n - 4;
            /* Outputs at…at+3: their windows' columns are inside the row (interior). */
            const float *q = p + stride * at * c;
            float *o4 = o + at * c;
            __m256 lo[4] = {bv.l, bv.l, bv.l, bv.l}, hi[4] = {bv.h, bv.h, bv.h, bv.h};
            FC_PREFETCH_LINE();
            for (long ky = 0; ky < nr; ky++) {
                const float *r = q + ky * row;
                if (stride == 1) {
                    row4(r, c, m.l, full, 1, k[3 * ky].l, k[3 * ky + 1].l, k[3 * ky + 2].l, lo);
                    if (!LO) row4(r + 8, c, m.h, full, 1, k[3 * ky].h, k[3 * ky + 1].h, k[3 * ky + 2].h, hi);
                } else {
                    row4(r, c, m.l, full, 2, k[3 * ky].l, k[3 * ky + 1].l, k[3 * ky + 2].l, lo);
                    if (!LO) row4(r + 8, c, m.h, full, 2, k[3 * ky].h, k[3 * ky + 1].h, k[3 * ky + 2].h, hi);
                }
            }
            for (int i = 0; i < 4; i++) st16(o4 + i * c, m, full, act16((V16){lo[i], hi[i]}, act, al));
        }
        return;
    }
    for (; n > 0; n--, p += stride * c, o += c) {
        V16 acc = bv;
        for (long ky = 0; ky < nr; ky++) {
            const float *r = p + ky * row;
            acc = fma16(ld16(r, m, full), k[3 * ky], acc);
            acc = fma16(ld16(r + c, m, full), k[3 * ky + 1], acc);
            acc = fma16(ld16(r + 2 * c, m, full), k[3 * ky + 2], acc);
        }
        st16(o, m, full, act16(acc, act, al));
    }
}

/* A whole 3×3 depthwise convolution: see ckernels.h. The structure of fc_dw3x3_avx512, 16 channels a slab. */
T2 void fc_dw3x3_avx2(const float *in, long h, long w, long c, long stride, long pad_top, long pad_left,
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
            const M16 m = mask16(c - ch);
            const int full = c - ch >= 16;
            /* Taps, bias and slopes: 16 floats from channel ch < c ≤ cp, ch a multiple of 16, cp too. */
            V16 k[9];
            for (int t = 0; t < 9; t++) k[t] = ldk16(wp + t * cp + ch);
            V16 bv = ldk16(bias + ch);
            const float *al = alpha ? alpha + ch : 0;
            const float *base = in + ch;
            float *orow = out + oy * out_w * c + ch;
            /* A pixel near the left or right edge: only the taps inside the image (rows ky_lo..<ky_hi, columns
             * kx_lo..<kx_hi), so every address formed is of a pixel in the image. */
#define EDGE(ox) { \
                long ix0 = (ox) * stride - pad_left; \
                long kx_lo = ix0 < 0 ? -ix0 : 0, kx_hi = w - ix0 < 3 ? w - ix0 : 3; \
                V16 acc = bv; \
                for (long ky = ky_lo; ky < ky_hi; ky++) \
                    for (long kx = kx_lo; kx < kx_hi; kx++) \
                        acc = fma16(ld16(base + (iy0 + ky) * row + (ix0 + kx) * c, m, 0), k[ky * 3 + kx], acc); \
                st16(orow + (ox) * c, m, full, act16(acc, act, al)); }
            for (long ox = 0; ox < ox_lo; ox++) EDGE(ox)
            long n = ox_hi - ox_lo;
            if (n > 0 && ky_hi > ky_lo) {
                /* p addresses the first kernel row inside the image (row iy0 + ky_lo, 0 ≤ it < h) at the first
                 * interior output's first tap column (ox_lo·stride − pad_left ≥ 0); the interior's windows end
                 * inside the row, and kernel rows 0..<ky_hi − ky_lo from there are inside the image; the taps
                 * are passed from kernel row ky_lo on. Full slabs read 16 floats from channel ch, ch + 16 ≤ c;
                 * the last slab's loads are masked. */
                const float *p = base + (iy0 + ky_lo) * row + (ox_lo * stride - pad_left) * c;
                float *o = orow + ox_lo * c;
                long rows = ky_hi - ky_lo;
                if (rows == 3) {
                    if (full) dw_interior(p, o, n, c, row, stride, 3, k, bv, m, act, al, 1, 3, 0);
                    else if (c - ch <= 8) dw_interior(p, o, n, c, row, stride, 3, k, bv, m, act, al, 0, 3, 1);
                    else dw_interior(p, o, n, c, row, stride, 3, k, bv, m, act, al, 0, 3, 0);
                } else if (full) {
                    dw_interior(p, o, n, c, row, stride, rows, k + 3 * ky_lo, bv, m, act, al, 1, 0, 0);
                } else {
                    dw_interior(p, o, n, c, row, stride, rows, k + 3 * ky_lo, bv, m, act, al, 0, 0, 0);
                }
            } else {
                /* No kernel row inside the image (a map shorter than the window's reach): the bias alone. */
                for (long ox = ox_lo; ox < ox_hi; ox++) st16(orow + ox * c, m, full, act16(bv, act, al));
            }
            for (long ox = ox_hi; ox < out_w; ox++) EDGE(ox)
#undef EDGE
        }
    }
}

/* Four outputs of one slab of a kh × kw window, every tap column inside the image, kernel rows 0..<rows from p
 * (taps from wk): per tap one fused multiply-add per output in ky, kx order from the bias. KW, SX (constants
 * where inlined, or 0) let a kernel row's input pixels be loaded once per half (3·SX + KW of them). */
T2 static inline ALWAYS void dwk_group4(const float *p, long c, long row, long sx, long rows, const float *wk,
                                        long kw, long cp, V16 bv, M16 m, V16 *res, const int KW, const int SX,
                                        const int full) {
    __m256 lo[4] = {bv.l, bv.l, bv.l, bv.l}, hi[4] = {bv.h, bv.h, bv.h, bv.h};
    const long kwn = KW ? KW : kw;
    const long step = SX ? SX : sx;
    for (long ky = 0; ky < rows; ky++) {
        const float *r = p + ky * row;
        const float *t = wk + ky * kwn * cp;
        if (KW && SX) {
            for (int half = 0; half < 2; half++) {
                __m256 *a = half ? hi : lo;
                __m256i mh = half ? m.h : m.l;
                const float *rh = r + 8 * half;
                __m256 x[3 * 2 + 8];
                const int nx = 3 * SX + KW;
                for (int j = 0; j < nx; j++)
                    x[j] = full ? _mm256_loadu_ps(rh + j * c) : _mm256_maskload_ps(rh + j * c, mh);
                for (int kx = 0; kx < KW; kx++) {
                    __m256 k = _mm256_loadu_ps(t + kx * cp + 8 * half);
                    a[0] = _mm256_fmadd_ps(x[kx], k, a[0]);
                    a[1] = _mm256_fmadd_ps(x[SX + kx], k, a[1]);
                    a[2] = _mm256_fmadd_ps(x[2 * SX + kx], k, a[2]);
                    a[3] = _mm256_fmadd_ps(x[3 * SX + kx], k, a[3]);
                }
            }
        } else {
            for (long kx = 0; kx < kwn; kx++) {
                V16 k = ldk16(t + kx * cp);
                for (int j = 0; j < 4; j++) {
                    V16 x = ld16(r + (j * step + kx) * c, m, full);
                    lo[j] = _mm256_fmadd_ps(x.l, k.l, lo[j]);
                    hi[j] = _mm256_fmadd_ps(x.h, k.h, hi[j]);
                }
            }
        }
    }
    for (int j = 0; j < 4; j++) res[j] = (V16){lo[j], hi[j]};
}

/* One output pixel whose window may cross the image's edge, all channels, two slabs (32 channels, four chains)
 * at a time: for each tap inside the image, in ky, kx order, one fused multiply-add per lane from the bias.
 * FULL: both slabs exist and are whole; otherwise loads and stores are masked to the channels that exist (a
 * slab past the last channel has an empty mask: it reads and writes nothing). */
T2 static inline ALWAYS void dwk_pixel2(const float *in, long w, long c, long kw, long ix0, long iy0, long ky_lo,
                                        long ky_hi, const float *wp, long cp, const float *bias, long ch, int act,
                                        const float *alpha, float *o, const int FULL) {
    const long row = w * c;
    long kx_lo = ix0 < 0 ? -ix0 : 0, kx_hi = w - ix0 < kw ? w - ix0 : kw;
    const M16 m0 = mask16(c - ch), m1 = mask16(c - ch - 16);
    /* Bias and taps: a slab past the last channel still starts below cp only if ch + 16 < cp; its constants
     * are read masked (empty mask: nothing read). */
    V16 a0 = FULL ? ldk16(bias + ch) : ld16(bias + ch, m0, 0);
    V16 a1 = FULL ? ldk16(bias + ch + 16) : ld16(bias + ch + 16, m1, 0);
    for (long ky = ky_lo; ky < ky_hi; ky++) {
        for (long kx = kx_lo; kx < kx_hi; kx++) {
            /* Inside the image: row iy0 + ky (ky_lo..<ky_hi), column ix0 + kx (kx_lo..<kx_hi). */
            const float *x = in + (iy0 + ky) * row + (ix0 + kx) * c + ch;
            const float *k = wp + (ky * kw + kx) * cp + ch;
            a0 = fma16(ld16(x, m0, FULL), FULL ? ldk16(k) : ld16(k, m0, 0), a0);
            a1 = fma16(ld16(x + 16, m1, FULL), FULL ? ldk16(k + 16) : ld16(k + 16, m1, 0), a1);
        }
    }
    /* Only slabs that exist take the activation (slopes read 16 at a time from the slab's channel < c). */
    st16(o + ch, m0, FULL, act16(a0, act, alpha ? alpha + ch : 0));
    if (FULL || c - ch > 16) st16(o + ch + 16, m1, FULL, act16(a1, act, alpha ? alpha + ch + 16 : 0));
}

T2 static void dwk_pixel(const float *in, long w, long c, long kw, long ix0, long iy0, long ky_lo, long ky_hi,
                         const float *wp, long cp, const float *bias, int act, const float *alpha, float *o) {
    long ch = 0;
    for (; ch + 32 <= c; ch += 32) dwk_pixel2(in, w, c, kw, ix0, iy0, ky_lo, ky_hi, wp, cp, bias, ch, act, alpha, o, 1);
    if (ch < c) dwk_pixel2(in, w, c, kw, ix0, iy0, ky_lo, ky_hi, wp, cp, bias, ch, act, alpha, o, 0);
}

/* A whole kh × kw depthwise convolution: see ckernels.h. The structure of fc_dw_avx512: per output row the
 * interior four outputs at a time per slab (the last group moved back to end at the interior's end), the edge
 * pixels, and the whole row when its interior holds fewer than four outputs, one pixel at a time. */
T2 void fc_dw_avx2(const float *in, long h, long w, long c, long kh, long kw, long sy, long sx, long pad_top,
                   long pad_left, long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                   const float *alpha, float *out) {
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
                const M16 m = mask16(c - ch);
                const int full = c - ch >= 16;
                V16 bv = ldk16(bias + ch);
                const float *al = alpha ? alpha + ch : 0;
                FC_PREFETCH_LINE();
                for (long g = ox_lo; g < ox_hi; g += 4) {
                    long at = g + 4 <= ox_hi ? g : ox_hi - 4;
                    /* In bounds: p addresses row iy0 + ky_lo, the first kernel row inside the image (formed
                     * only when there is one), at the first tap column of output at, and the windows of
                     * outputs at…at+3 lie inside the image's columns (interior); kernel rows 0..<ky_hi − ky_lo
                     * from there are inside its rows; the taps are passed from kernel row ky_lo on (wk). */
                    const float *p = in + ch + (iy0 + ky_lo) * row + (at * sx - pad_left) * c;
                    const float *wk = wp + ch + ky_lo * kw * cp;
                    V16 a[4];
#define G(KW, SX, F) dwk_group4(p, c, row, sx, ky_hi - ky_lo, wk, kw, cp, bv, m, a, KW, SX, F)
                    if (kw == 5 && sx == 1) { if (full) G(5, 1, 1); else G(5, 1, 0); }
                    else if (kw == 5 && sx == 2) { if (full) G(5, 2, 1); else G(5, 2, 0); }
                    else if (full) G(0, 0, 1);
                    else G(0, 0, 0);
#undef G
                    float *o4 = orow + at * c + ch;
                    for (int j = 0; j < 4; j++) st16(o4 + j * c, m, full, act16(a[j], act, al));
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

#else
void fc_dw3x3_avx2(const float *in, long h, long w, long c, long stride, long pad_top, long pad_left,
                   long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                   const float *alpha, float *out) {
    (void)in; (void)h; (void)w; (void)c; (void)stride; (void)pad_top; (void)pad_left; (void)out_h; (void)out_w;
    (void)wp; (void)cp; (void)bias; (void)act; (void)alpha; (void)out;
}
void fc_dw_avx2(const float *in, long h, long w, long c, long kh, long kw, long sy, long sx, long pad_top,
                long pad_left, long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                const float *alpha, float *out) {
    (void)in; (void)h; (void)w; (void)c; (void)kh; (void)kw; (void)sy; (void)sx; (void)pad_top; (void)pad_left;
    (void)out_h; (void)out_w; (void)wp; (void)cp; (void)bias; (void)act; (void)alpha; (void)out;
}
#endif
