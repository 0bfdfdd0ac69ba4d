#include <stdint.h>

/// Number of malloc/calloc/realloc calls made by this process so far (glibc only; 0 elsewhere).
uint64_t rivulet_bench_malloc_count(void);

/// Bytes currently allocated through malloc/calloc/realloc and not yet freed, as usable sizes
/// (glibc only; 0 elsewhere).
int64_t rivulet_bench_live_bytes(void);
