/* The number of CPUs this process may run on: its affinity mask (what `taskset` or a container's cpuset leaves
 * it), not the machine's online count. _GNU_SOURCE for sched_getaffinity and CPU_COUNT, before any header. */
#define _GNU_SOURCE
#include <sched.h>

#include "ckernels.h"

int fc_usable_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return CPU_COUNT(&set);
}
