#define _GNU_SOURCE
#include "MemoryCounter.h"
#include <stddef.h>
#include <stdatomic.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>

// Interposes glibc's allocator entry points for this process and forwards to glibc's own.
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static _Atomic uint64_t allocations;
static _Atomic int64_t liveBytes;

static void *counted(void *pointer) {
    if (pointer) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&liveBytes, (int64_t)malloc_usable_size(pointer), memory_order_relaxed);
    }
    return pointer;
}

static void uncount(void *pointer) {
    if (pointer) {
        atomic_fetch_sub_explicit(&liveBytes, (int64_t)malloc_usable_size(pointer), memory_order_relaxed);
    }
}

void *malloc(size_t size) { return counted(__libc_malloc(size)); }
void *calloc(size_t n, size_t size) { return counted(__libc_calloc(n, size)); }
void *realloc(void *pointer, size_t size) {
    uncount(pointer);
    return counted(__libc_realloc(pointer, size));
}
void free(void *pointer) {
    uncount(pointer);
    __libc_free(pointer);
}

uint64_t rivulet_bench_malloc_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
int64_t rivulet_bench_live_bytes(void) { return atomic_load_explicit(&liveBytes, memory_order_relaxed); }
#else
uint64_t rivulet_bench_malloc_count(void) { return 0; }
int64_t rivulet_bench_live_bytes(void) { return 0; }
#endif
