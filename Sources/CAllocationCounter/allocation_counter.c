// Interposes glibc's allocation functions in the executable that links this target (meshbench,
// the test runner of AllocationTests): each call is counted, then handed to glibc's own
// implementation (__libc_malloc and friends), so the allocator and its behaviour are unchanged.
// Symbols defined in the executable take precedence over libc's for every shared library
// (libswiftCore, libcrypto, ...), so their allocations count too. Counted twice: for the whole
// process and for the calling thread (initial-exec TLS in the executable: reading it never
// allocates, so malloc may touch it).
#include "allocation_counter.h"

#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static uint64_t allocations;
static __thread __attribute__((tls_model("initial-exec"))) uint64_t thread_allocations;
static int active;

static inline void count(void) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    thread_allocations += 1;
}

uint64_t allocation_counter_total(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

uint64_t allocation_counter_this_thread(void) { return thread_allocations; }

int allocation_counter_active(void) { return __atomic_load_n(&active, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    count();
    __atomic_store_n(&active, 1, __ATOMIC_RELAXED);
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    // realloc(NULL, n) is a malloc; growing a block may move it: count every call that
    // returns a block, as each may be a new allocation.
    if (size != 0) count();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return 22; // EINVAL
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return 12; // ENOMEM
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    count();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    count();
    return __libc_pvalloc(size);
}
