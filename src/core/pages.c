/*
 * pages.c - prefaulting mapped memory before a per-draw path writes it.
 *
 * A mapping's pages are backed on first touch: each first write into a fresh 4 KiB page of an
 * upload ring is a page fault taken inside a draw (one per 42 quads of 96 bytes; on this
 * project's VMs 1 to 14 us each). xgdi_prefault_pages backs a range in one system call instead,
 * outside the draws (Linux 5.14+: MADV_POPULATE_WRITE, which writes nothing and leaves the
 * contents as they are, so it is safe on memory the GPU may be reading).
 *
 * Backed pages can still be slow to write the first time: on the GPU machine (a VM) the first
 * write into each page of a Vulkan ring, in a GPU's BAR or in system memory the driver maps,
 * cost SpriteBatch End 17-20 ns a sprite instead of 7-9, with no page fault the guest sees
 * (the host maps the page then). MADV_POPULATE_WRITE is refused on such mappings.
 * xgdi_touch_pages writes one byte into each page instead, outside the draws, on memory its
 * caller knows nothing reads.
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

void xgdi_touch_pages(void *p, size_t n)
{
    if (p == NULL || n == 0) return;
    volatile uint8_t *b = p;
    b[0] = 0;
    /* then the first byte of every later 4 KiB page (a larger page gets a few writes more) */
    size_t k = XGDI_TOUCH_PAGE - ((uintptr_t)p & (XGDI_TOUCH_PAGE - 1));
    for (; k < n; k += XGDI_TOUCH_PAGE) b[k] = 0;
}
