/* The number of CPUs this process may run on: its affinity mask (what `taskset` or a container's cpuset leaves
 * it), not the machine's online count; and a thread's name. _GNU_SOURCE for sched_getaffinity, CPU_COUNT and
 * pthread_setname_np, before any header. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include "ckernels.h"

int fc_usable_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return CPU_COUNT(&set);
}

int fc_set_thread_name(unsigned long thread, const char *name) {
    return pthread_setname_np((pthread_t)thread, name);
}
