// Counts heap allocations made by the whole process (meshbench only; never linked into the node).
#ifndef MESHBENCH_ALLOCATION_COUNTER_H
#define MESHBENCH_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Calls to malloc, calloc, realloc (with a new block), posix_memalign, aligned_alloc,
/// memalign, valloc and pvalloc since the process started, from every thread.
uint64_t meshbench_allocation_count(void);

/// 1 when this file's malloc is the one the process uses (the interposition took effect).
int meshbench_allocation_counter_active(void);

#endif
