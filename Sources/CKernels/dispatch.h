#ifndef FACECAP_CKERNELS_DISPATCH_H
#define FACECAP_CKERNELS_DISPATCH_H

/* One specialised copy of a kernel per activation and residual, CALL(ACT, RES) with both constants, so the
 * epilogue inlined into each copy has no branch per store. Shared by the AVX-512 and AVX2 GEMM panels
 * (gemm_avx512.c, gemm_avx2.c). Private to CKernels (not in include/). */
#define FC_DISPATCH_ACTIVATION(act, has_residual, CALL) \
    do { \
        if (has_residual) { \
            switch (act) { \
            case FC_ACT_RELU: CALL(FC_ACT_RELU, 1); break; \
            case FC_ACT_RELU6: CALL(FC_ACT_RELU6, 1); break; \
            case FC_ACT_RELU_N1_TO_1: CALL(FC_ACT_RELU_N1_TO_1, 1); break; \
            case FC_ACT_PRELU: CALL(FC_ACT_PRELU, 1); break; \
            default: CALL(FC_ACT_NONE, 1); \
            } \
        } else { \
            switch (act) { \
            case FC_ACT_RELU: CALL(FC_ACT_RELU, 0); break; \
            case FC_ACT_RELU6: CALL(FC_ACT_RELU6, 0); break; \
            case FC_ACT_RELU_N1_TO_1: CALL(FC_ACT_RELU_N1_TO_1, 0); break; \
            case FC_ACT_PRELU: CALL(FC_ACT_PRELU, 0); break; \
            default: CALL(FC_ACT_NONE, 0); \
            } \
        } \
    } while (0)

#endif
