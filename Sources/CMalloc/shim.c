#include "shim.h"

#include <limits.h>
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int cmalloc_set_trim_threshold(size_t bytes) {
    return bytes > INT_MAX ? 0 : mallopt(M_TRIM_THRESHOLD, (int)bytes);
}

int cmalloc_set_mmap_threshold(size_t bytes) {
    return bytes > INT_MAX ? 0 : mallopt(M_MMAP_THRESHOLD, (int)bytes);
}

long cmalloc_mapped_blocks(void) {
    return (long)mallinfo2().hblks;
}
#else
int cmalloc_set_trim_threshold(size_t bytes) {
    (void)bytes;
    return 0;
}

int cmalloc_set_mmap_threshold(size_t bytes) {
    (void)bytes;
    return 0;
}

long cmalloc_mapped_blocks(void) {
    return -1;
}
#endif
