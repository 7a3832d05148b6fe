// Counts heap allocations, for the process and per thread (meshbench and AllocationTests only;
// never linked into the node).
#ifndef MESHNODE_ALLOCATION_COUNTER_H
#define MESHNODE_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Calls to malloc, calloc, realloc (with a new block), posix_memalign, aligned_alloc,
/// memalign, valloc and pvalloc since the process started, from every thread.
uint64_t allocation_counter_total(void);

/// The same calls made by the calling thread since it started.
uint64_t allocation_counter_this_thread(void);

/// 1 when this file's malloc is the one the process uses (the interposition took effect).
int allocation_counter_active(void);

#endif
