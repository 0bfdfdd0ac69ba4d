#define _GNU_SOURCE
#include "MallocCounter.h"
#include <stddef.h>
#include <stdatomic.h>

#if defined(__linux__) && defined(__GLIBC__)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static _Atomic uint64_t allocations;

void *malloc(size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_realloc(p, size); }

uint64_t rivulet_probe_malloc_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
#else
uint64_t rivulet_probe_malloc_count(void) { return 0; }
#endif
