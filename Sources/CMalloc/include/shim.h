#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H

#include <stddef.h>

/// Sets glibc's M_TRIM_THRESHOLD: free memory at the top of a heap (the main one and
/// each thread's arena) goes back to the kernel only once it exceeds `bytes`.
/// 1 on success; 0 when refused, or when the C library is not glibc.
int cmalloc_set_trim_threshold(size_t bytes);

/// Sets glibc's M_MMAP_THRESHOLD, which then stays fixed: a block of `bytes` or more is
/// mapped on its own and handed back to the kernel when freed.
/// 1 on success; 0 when refused, or when the C library is not glibc.
int cmalloc_set_mmap_threshold(size_t bytes);

/// The number of blocks now mapped on their own (glibc's mallinfo2().hblks);
/// -1 when the C library is not glibc.
long cmalloc_mapped_blocks(void);

#endif
