#include "ckernels.h"

#include <stdlib.h>

#if defined(__x86_64__)
#include "prefetch.h"

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

#else
void fc_prefetch_next(const void *p, long bytes) { (void)p; (void)bytes; }
long fc_prefetch_pending(void) { return 0; }
#endif
