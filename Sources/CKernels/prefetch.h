#ifndef FACECAP_CKERNELS_PREFETCH_H
#define FACECAP_CKERNELS_PREFETCH_H

/* The cursor fc_prefetch_next sets (prefetch.c), shared by the AVX-512 kernels (gemm_avx512.c, dw_avx512.c)
 * and the AVX2 ones (gemm_avx2.c, dw_avx2.c): the next step's packed weights, prefetched into L2 a cache line
 * per inner iteration until covered. Private to CKernels (not in include/). One thread runs a model: per thread. */
#include <immintrin.h>

/* initial-exec: a thread pointer offset, no __tls_get_addr call (which the compiler must assume clobbers the
 * vector registers) in the kernels; CKernels is linked into executables, never dlopen'ed. */
#define FC_TLS __thread __attribute__((tls_model("initial-exec")))

extern FC_TLS const char *fc_pf_cur, *fc_pf_end;

/* Only a hint: a prefetch never faults and changes no result. */
#define FC_PREFETCH_LINE() \
    do { if (fc_pf_cur < fc_pf_end) { _mm_prefetch(fc_pf_cur, _MM_HINT_T1); fc_pf_cur += 64; } } while (0)

#endif
