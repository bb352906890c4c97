#ifndef FACECAP_CKERNELS_H
#define FACECAP_CKERNELS_H

/* AVX-512 GEMM panels for FaceCapCore's inference engine, chosen at run time on CPUs that have AVX-512F
 * (the Swift kernels target AVX2, Package.swift). Pure computation: no I/O, no allocation. */

/* 1 when this CPU (and the OS) supports AVX-512F and VL, and FACECAP_NO_AVX512 is not set. */
int fc_has_avx512(void);

enum { FC_ACT_NONE = 0, FC_ACT_RELU = 1, FC_ACT_RELU6 = 2, FC_ACT_RELU_N1_TO_1 = 3, FC_ACT_PRELU = 4 };

/* C[rows × width] = act(bias + A · W + residual) for one packed weight panel of `width` (16, 24 or 32)
 * output channels, with the arithmetic of FaceCapCore's kernel6x16 / kernel4x24 followed by gemmEpilogue (one fused
 * multiply-add per k in k order, then the residual added, then the activation). Row r of A starts at
 * a + r·lda and is read as `seg_count` runs of `seg_length` floats `seg_stride` apart; the panel holds
 * `width` floats per k; row r of C starts at c + r·ldc. `res` (or NULL) points at the panel's first channel
 * of the residual's row 0, rows `res_stride` apart, `res_lanes` of its channels exist from there (the rest
 * count as 0); `alpha` points at the panel's first PReLU slope (act FC_ACT_PRELU only). */
void fc_gemm_panel_avx512(const float *a, long lda, long rows, long seg_count, long seg_length, long seg_stride,
                          const float *w, long width, const float *bias, float *c, long ldc,
                          const float *res, long res_stride, long res_lanes, int act, const float *alpha);

/* One output row's interior of a 3×3, stride-1 depthwise convolution over 16 channels (two 8-channel
 * blocks side by side), as FaceCapCore's depthwise3x3 computes it: `n` outputs from input `p` (top-left tap
 * of the first output), `c` floats per pixel, rows `row_stride` apart; `wb` the two blocks' packed weights
 * (9 taps × 8 floats each, the second block 72 floats on), `bias` and `alpha` (PReLU) 16 floats. */
void fc_dw3x3_row16_avx512(const float *p, long row_stride, long c, const float *wb, const float *bias,
                           long n, float *out, int act, const float *alpha);

#endif
