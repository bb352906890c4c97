/* The number of CPUs this process may run on: its affinity mask (what `taskset` or a container's cpuset leaves
 * it), not the machine's online count; and a thread's name. _GNU_SOURCE for sched_getaffinity, CPU_COUNT and
 * pthread_setname_np, before any header. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "ckernels.h"

int fc_usable_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return CPU_COUNT(&set);
}

int fc_set_thread_name(unsigned long thread, const char *name) {
    return pthread_setname_np((pthread_t)thread, name);
}

/* What the CPU can run, and the benchmark's probes of its peak multiply-add rate and read bandwidth. */
#if defined(__x86_64__)
#include <immintrin.h>

#define TARGET __attribute__((target("avx512f,avx512vl,avx2,fma")))

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
float fc_fma_loop_avx2(long iterations) { (void)iterations; return 0; }
float fc_fma_loop_avx512(long iterations) { (void)iterations; return 0; }
float fc_read_sum(const float *p, long n) {
    float s = 0;
    for (long i = 0; i < n; i++) s += p[i];
    return s;
}
int fc_has_avx512(void) { return 0; }
int fc_has_avx2(void) { return 0; }
#endif
