/*
 * pages.c - prefaulting mapped memory before a per-draw path writes it.
 *
 * A mapping's pages are backed on first touch: each first write into a fresh 4 KiB page of an
 * upload ring is a page fault taken inside a draw (one per 42 quads of 96 bytes; on this
 * project's VMs 1 to 14 us each). xgdi_prefault_pages backs a range in one system call instead,
 * outside the draws (Linux 5.14+: MADV_POPULATE_WRITE, which writes nothing and leaves the
 * contents as they are, so it is safe on memory the GPU may be reading).
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise and MADV_POPULATE_WRITE under -std=c11 */
#endif
#include "internal.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

bool xgdi_prefault_pages(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    long page = sysconf(_SC_PAGESIZE);
    if (p == NULL || n == 0 || page <= 0) return false;
    /* a mapping starts on a page boundary, so rounding the start down stays inside it */
    uintptr_t start = (uintptr_t)p & ~((uintptr_t)page - 1);
    return madvise((void *)start, (uintptr_t)p + n - start, MADV_POPULATE_WRITE) == 0;
#else
    (void)p;
    (void)n;
    return false; /* no such call: the pages fault in on first use, as before */
#endif
}
