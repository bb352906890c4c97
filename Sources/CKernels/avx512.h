#ifndef FACECAP_CKERNELS_AVX512_H
#define FACECAP_CKERNELS_AVX512_H

/* What the AVX-512 kernels (gemm_avx512.c, dw_avx512.c) share: their target, the inlining they rely on, the
 * weight prefetch and the masked store. Private to CKernels (not in include/); x86-64 only. */
#include <immintrin.h>

#include "prefetch.h"

#define TARGET __attribute__((target("avx512f,avx512vl,avx2,fma")))

/* Inlined into each caller, so the activation and residual flags are constants there. */
#define ALWAYS __attribute__((always_inline))

#define PREFETCH_LINE() FC_PREFETCH_LINE()

/* Stores only the lanes of C that exist (a panel wider than the channels left); a plain store when all do. */
TARGET static inline void put16(float *p, __mmask16 m, __m512 v) {
    if (m == (__mmask16)0xFFFF) _mm512_storeu_ps(p, v); else _mm512_mask_storeu_ps(p, m, v);
}

#endif
