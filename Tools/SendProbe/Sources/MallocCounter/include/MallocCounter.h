#include <stdint.h>
/// Number of malloc/calloc/realloc calls made by this process since it started (Linux only;
/// returns 0 elsewhere).
uint64_t rivulet_probe_malloc_count(void);
