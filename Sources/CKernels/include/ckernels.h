#ifndef FACECAP_CKERNELS_H
#define FACECAP_CKERNELS_H

/* AVX-512 convolution kernels for FaceCapCore's inference engine (GEMM panels, whole 3×3 depthwise layers), chosen
 * at run time on CPUs that have AVX-512F (the Swift kernels target AVX2, Package.swift), and the loops
 * `facecap bench --profile` measures the machine's ceilings with. Pure computation: no I/O, no allocation.
 *
 * Bounds: every pointer comes from FaceCapCore's planner, which sizes each buffer before the first run. Tensors
 * in the arena and constant buffers (packed weights, bias, slopes) all have at least 16 floats of slack past
 * their end (Interpreter.swift, ConstantPool and planMemory), which is what the unmasked 16-lane reads of a
 * bias or slope vector past the last real channel rely on; reads and writes of activations past a panel's or
 * slab's real channels are masked. */

/* 1 when this CPU (and the OS) supports AVX-512F and VL, and FACECAP_NO_AVX512 is not set. */
int fc_has_avx512(void);

/* 1 when this CPU supports AVX2 and FMA and FACECAP_SWIFT_KERNELS is not set: the AVX2 C kernels (the `_avx2`
 * functions) are then used where AVX-512 is not (fc_has_avx512 is 0, or FACECAP_NO_AVX512 is set).
 * FACECAP_SWIFT_KERNELS (any value) keeps FaceCapCore's Swift kernels everywhere (it also turns fc_has_avx512
 * off): for comparing the paths in tests and benchmarks, and a way out. */
int fc_has_avx2(void);

/* The CPUs this process may run on (its affinity mask; cpus.c); 1 when the mask cannot be read. */
int fc_usable_cpus(void);
/* Names `thread` (a pthread_t; at most 15 bytes of `name`, the kernel's limit): 0, or an errno (cpus.c). */
int fc_set_thread_name(unsigned long thread, const char *name);

enum { FC_ACT_NONE = 0, FC_ACT_RELU = 1, FC_ACT_RELU6 = 2, FC_ACT_RELU_N1_TO_1 = 3, FC_ACT_PRELU = 4 };

/* C[rows × valid] = act(bias + A · W + residual) for one packed weight panel of `width` (16, 24 or 32)
 * output channels of which the first `valid` (1…width) exist in C (only those are stored), with the arithmetic of FaceCapCore's kernel6x16 / kernel4x24 followed by gemmEpilogue (one fused
 * multiply-add per k in k order, then the residual added, then the activation). Row r of A starts at
 * a + r·lda and is read as `seg_count` runs of `seg_length` floats `seg_stride` apart; the panel holds
 * `width` floats per k; row r of C starts at c + r·ldc. `res` (or NULL) points at the panel's first channel
 * of the residual's row 0, rows `res_stride` apart, `res_lanes` of its channels exist from there (the rest
 * count as 0); `alpha` points at the panel's first PReLU slope (act FC_ACT_PRELU only). Width 64 (this kernel
 * only) is two full 32-wide panels side by side, the second's k × 32 floats right after the first's (valid 64):
 * both run in one pass over A, 6 rows × 64 channels, with each output's arithmetic unchanged. */
void fc_gemm_panel_avx512(const float *a, long lda, long rows, long seg_count, long seg_length, long seg_stride,
                          const float *w, long width, long valid, const float *bias, float *c, long ldc,
                          const float *res, long res_stride, long res_lanes, int act, const float *alpha);

/* AVX2 GEMM (gemm_avx2.c; only call when fc_has_avx2). fc_gemm_panel_avx512's contract and arithmetic, the same
 * panels of plain channels (16, 24 or 32 wide), in 6 rows × 16 channels (a 24-wide panel 4 × 24) of 8-lane
 * vectors: 12 accumulators in 16 ymm registers. Tails masked (maskload / maskstore); results bit-identical to
 * FaceCapCore's Swift kernel6x16 / kernel4x24 + gemmEpilogue. */
void fc_gemm_panel_avx2(const float *a, long lda, long rows, long seg_count, long seg_length, long seg_stride,
                        const float *w, long width, long valid, const float *bias, float *c, long ldc,
                        const float *res, long res_stride, long res_lanes, int act, const float *alpha);

/* Sets the region (the next step's packed weights) that the GEMM and depthwise kernels prefetch into L2 while
 * they run, a line per inner iteration, until it is covered; NULL or 0 bytes stops it. A hint only. */
void fc_prefetch_next(const void *p, long bytes);

/* Bytes of the region set by fc_prefetch_next that the kernels have not prefetched yet (0 when none is set):
 * for tests that check a kernel advances the prefetch. */
long fc_prefetch_pending(void);

/* A whole 3×3 depthwise convolution (multiplier 1, stride 1 or 2) of an NHWC input `h × w × c` with zero padding
 * `pad_top`/`pad_left`, to `out_h × out_w × c`, with the arithmetic of FaceCapCore's depthwise (bias, then one fused
 * multiply-add per tap inside the image in ky, kx order, then the activation). Tap t = 3·ky + kx of channel ch is
 * wp[t·cp + ch], cp = c rounded up to 16 (zero beyond c); `bias` and `alpha` (PReLU, or NULL) hold cp floats. */
void fc_dw3x3_avx512(const float *in, long h, long w, long c, long stride, long pad_top, long pad_left,
                     long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                     const float *alpha, float *out);

/* A whole kh × kw depthwise convolution (multiplier 1, strides sy and sx, any window size) of an NHWC input
 * `h × w × c` with zero padding, as fc_dw3x3_avx512 (the same arithmetic as FaceCapCore's depthwise). Tap
 * t = ky·kw + kx of channel ch is wp[t·cp + ch]; `bias` and `alpha` hold cp floats. */
void fc_dw_avx512(const float *in, long h, long w, long c, long kh, long kw, long sy, long sx, long pad_top,
                  long pad_left, long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                  const float *alpha, float *out);

/* avx2dw: the two depthwise kernels above on AVX2 + FMA (dw_avx2.c), for CPUs without AVX-512; only call when
 * fc_has_avx2. The same contracts, packed weights (cp = c rounded up to 16), arithmetic and results
 * (bit-identical) as fc_dw3x3_avx512 and fc_dw_avx512. */
void fc_dw3x3_avx2(const float *in, long h, long w, long c, long stride, long pad_top, long pad_left,
                   long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                   const float *alpha, float *out);
void fc_dw_avx2(const float *in, long h, long w, long c, long kh, long kw, long sy, long sx, long pad_top,
                long pad_left, long out_h, long out_w, const float *wp, long cp, const float *bias, int act,
                const float *alpha, float *out);

/* YUYV frame (h rows of row_bytes bytes, w pixels) → RGB float tensor out_h × out_w × 3, bilinear: TensorInput.swift's
 * resample with the same arithmetic in the same order (bit-identical). Pixel (i, j) samples frame position
 * origin + j·dj + i·di (summed as Swift does, one di per pixel). replicate: 1 = nearest edge pixel outside the
 * frame, 0 = black. colour = {yOffset, yScale, rv, gu, gv, bu} (ColourTransform). The _avx512 one only when
 * fc_has_avx512, the _avx2 one only when fc_has_avx2 (same results); the caller guarantees h·row_bytes < 2^31
 * and row_bytes ≥ 2·w (resample.c says why every read is in bounds). */
void fc_resample_yuyv_avx512(const unsigned char *p, long w, long h, long row_bytes, float origin_x,
                             float origin_y, float di_x, float di_y, float dj_x, float dj_y, long out_w,
                             long out_h, int replicate, const float colour[6], float scale, float offset,
                             float *dst);
void fc_resample_yuyv_avx2(const unsigned char *p, long w, long h, long row_bytes, float origin_x,
                           float origin_y, float di_x, float di_y, float dj_x, float dj_y, long out_w,
                           long out_h, int replicate, const float colour[6], float scale, float offset,
                           float *dst);

/* The same for a planar YUV frame: Y (w·h bytes), then U and V (chroma_w·chroma_h bytes each) back to back at p;
 * pixel (x, y) has chroma (x >> shift_x, y >> shift_y) (PlanarYUVTaps: 4:2:0 is 1, 1; 4:2:2 is 1, 0; 4:4:4 is
 * 0, 0). The caller guarantees chroma_w = ceil(w / 2^shift_x), chroma_h = ceil(h / 2^shift_y),
 * w·h + 2·chroma_w·chroma_h < 2^31 and chroma_w·chroma_h ≥ 3 (the gathers read 4 bytes around each byte;
 * resample.c says why every read is in bounds). */
void fc_resample_planar_avx512(const unsigned char *p, long w, long h, long chroma_w, long chroma_h, int shift_x,
                               int shift_y, float origin_x, float origin_y, float di_x, float di_y, float dj_x,
                               float dj_y, long out_w, long out_h, int replicate, const float colour[6],
                               float scale, float offset, float *dst);
void fc_resample_planar_avx2(const unsigned char *p, long w, long h, long chroma_w, long chroma_h, int shift_x,
                             int shift_y, float origin_x, float origin_y, float di_x, float di_y, float dj_x,
                             float dj_y, long out_w, long out_h, int replicate, const float colour[6],
                             float scale, float offset, float *dst);

/* For `facecap bench --profile`, the machine's ceilings. `iterations` rounds of 12 independent 8-lane (AVX2) or
 * 16-lane (AVX-512, only call when fc_has_avx512) fused multiply-adds: 192 or 384 FLOPs per round. */
float fc_fma_loop_avx2(long iterations);
float fc_fma_loop_avx512(long iterations);
/* The sum of n floats (n a multiple of 32), read once with 256-bit loads: for the read bandwidth. */
float fc_read_sum(const float *p, long n);

#endif
