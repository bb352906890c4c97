#include "ckernels.h"

#if defined(__x86_64__)
#include "avx512.h"

/* The AVX-512 depthwise convolutions (see ckernels.h): 3×3 and any kh × kw, 16 channels at a time. */

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

/* N consecutive outputs of one full 16-channel slab of a 3×3, stride-1 row whose three kernel rows all lie in the
 * image, with the row's left edge pixel (LEFT: the output before them) and right edge pixel (RIGHT: the output after
 * them) folded in; N, LEFT and RIGHT are constants where inlined, so the arrays below are registers. p is the first
 * of the N + 2 input pixels the N windows read per kernel row, o the first output. N outputs are N independent
 * chains of multiply-adds (the four of dw_interior left the FMA pipes waiting on their latency), and an edge pixel
 * reuses the loaded pixels (left: taps kx = 1, 2 on pixels 0, 1; right: kx = 0, 1 on pixels N, N + 1) instead of
 * running alone as one chain. Every output lane: the bias, then one fused multiply-add per tap inside the image in
 * ky, kx order, then the activation, as dw_interior and EDGE: the same bits. */
TARGET static inline ALWAYS void dw_run_s1(const float *p, float *o, long c, long row, const __m512 *k, __m512 bv,
                                           int act, const float *al, const int N, const int LEFT, const int RIGHT) {
    __m512 a[8], el = bv, er = bv;
    for (int j = 0; j < N; j++) a[j] = bv;
    /* One line of the next step's weights per four outputs, as dw_interior. */
    for (int j = 0; j < (N + LEFT + RIGHT) / 4; j++) PREFETCH_LINE();
    for (int ky = 0; ky < 3; ky++) {
        const float *r = p + ky * row;
        __m512 x[10];
        for (int j = 0; j < N + 2; j++) x[j] = _mm512_loadu_ps(r + j * c);
        __m512 k0 = k[3 * ky], k1 = k[3 * ky + 1], k2 = k[3 * ky + 2];
        if (LEFT) { el = _mm512_fmadd_ps(x[0], k1, el); el = _mm512_fmadd_ps(x[1], k2, el); }
        for (int j = 0; j < N; j++) a[j] = _mm512_fmadd_ps(x[j], k0, a[j]);
        for (int j = 0; j < N; j++) a[j] = _mm512_fmadd_ps(x[j + 1], k1, a[j]);
        for (int j = 0; j < N; j++) a[j] = _mm512_fmadd_ps(x[j + 2], k2, a[j]);
        if (RIGHT) { er = _mm512_fmadd_ps(x[N], k0, er); er = _mm512_fmadd_ps(x[N + 1], k1, er); }
    }
    if (LEFT) _mm512_storeu_ps(o - c, act16(el, act, al));
    for (int j = 0; j < N; j++) _mm512_storeu_ps(o + j * c, act16(a[j], act, al));
    if (RIGHT) _mm512_storeu_ps(o + N * c, act16(er, act, al));
}

/* A whole output row of a full slab of a 3×3, stride-1 layer padded by one pixel left and right (SAME: out_w = w,
 * the n = w − 2 outputs 1..<w − 1 interior), its three kernel rows inside the image. p: input pixel 0 of kernel row
 * 0 (the first interior output's first tap), o: output pixel 1. A row of eight pixels (n = 6) is one run of six with
 * both edges; a longer one (n ≥ 8) runs of eight, the left edge with the first, the right edge with the last, which
 * is moved back to end at the row's end (recomputing up to seven outputs with the same arithmetic, as dw_interior
 * does; the caller takes this path only where that recomputes at most two more than dw_interior's groups of four).
 * In bounds: a run at g reads pixels g..g + N + 1 ≤ n + 1 = w − 1 of each kernel row (inside the row) and writes
 * outputs g + 1..g + N, the first run output 0 (o − c) and the last output n + 1 = w − 1 (inside the output row);
 * every access is 16 floats from the slab's first channel ch, ch + 16 ≤ c (a full slab). */
TARGET static void dw_row_s1(const float *p, float *o, long n, long c, long row, const __m512 *kp, __m512 bv,
                             int act, const float *al) {
    __m512 k[9];
    for (int t = 0; t < 9; t++) k[t] = kp[t];
    if (n == 6) { dw_run_s1(p, o, c, row, k, bv, act, al, 6, 1, 1); return; }
    if (n == 8) { dw_run_s1(p, o, c, row, k, bv, act, al, 8, 1, 1); return; }
    dw_run_s1(p, o, c, row, k, bv, act, al, 8, 1, 0);
    for (long g = 8; g + 8 < n; g += 8) dw_run_s1(p + g * c, o + g * c, c, row, k, bv, act, al, 8, 0, 0);
    dw_run_s1(p + (n - 8) * c, o + (n - 8) * c, c, row, k, bv, act, al, 8, 0, 1);
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
    /* Whole rows by dw_row_s1 (SAME, stride 1): where its runs of eight recompute at most two outputs more than
     * groups of four (8·⌈n/8⌉ ≤ 4·⌈n/4⌉ + 2), or the row is eight pixels wide. */
    const long nr = w - 2;
    const int rows_s1 = stride == 1 && pad_left == 1 && out_w == w && ox_lo == 1 && ox_hi == w - 1 &&
                        (nr == 6 || (nr >= 8 && (nr + 7) / 8 * 8 <= (nr + 3) / 4 * 4 + 2));
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
            long n = ox_hi - ox_lo;
            if (rows_s1 && ky_hi - ky_lo == 3 && m == (__mmask16)0xFFFF) {
                /* SAME 3×3 stride 1 (pad_left 1, out_w = w, ox_lo 1, ox_hi w − 1), all three kernel rows in the
                 * image (iy0 ≥ 0, iy0 + 2 < h), a full slab: dw_row_s1 writes the whole row, edges included. */
                dw_row_s1(base + iy0 * row, orow + c, n, c, row, k, bv, act, al);
                continue;
            }
            for (long ox = 0; ox < ox_lo; ox++) EDGE(ox)
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

#else
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
#endif
