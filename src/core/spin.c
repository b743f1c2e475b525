/*
 * spin.c - the optional poll before a blocking wait for the GPU (renderer.h).
 *
 * On the GPU machine (NVIDIA H200, a VM) a blocking wait for a finished submission returns well
 * after the GPU finished. Polling the fence instead (xgd-bench --mips-only, XGD_WAIT_SPIN_US=1000
 * against 0, same runs): a mip chain alone 0.14-0.18 ms instead of 0.20-0.25 on Vulkan, 0.45
 * instead of 0.49-0.52 on Direct3D 12; back-buffer readback 5.2 GB/s instead of 3.8 on Vulkan,
 * 6.0 instead of 4.8 on Direct3D 12. The poll is bounded (the budget), then the caller blocks as
 * before. But the per-draw loop after a polled readback (vk-raw-bench, whose frames end with
 * one) runs bimodally on those hosts (about 1.0-1.25x raw, or about 1.4-1.5x), and it was in the
 * slow mode in 9 of 15 runs with polling against 4 of 15 without (11 of this code, 4 of the code
 * before it): not proof, but per-draw cost is the figure games live on and no target needs the
 * poll (mip generation on Vulkan stays above 20x the CPU route without it), so polling is off
 * unless $XGD_WAIT_SPIN_US asks for it (a readback-heavy tool may want it).
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#endif
#include "renderer.h"

#include <stdlib.h>
#include <time.h>

#ifdef _WIN32
#include <windows.h>
#endif

static uint64_t clock_ns(void)
{
#ifdef _WIN32
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (uint64_t)((double)c.QuadPart * 1e9 / (double)f.QuadPart);
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

uint64_t xgdi_wait_spin_budget_ns(void)
{
    const char *v = getenv("XGD_WAIT_SPIN_US");
    /* digits only: strtoul would take a sign (and wrap "-3") or leading spaces */
    if (v == NULL || v[0] < '0' || v[0] > '9') return 0;
    char *end;
    unsigned long us = strtoul(v, &end, 10);
    if (*end != '\0') return 0;                                     /* malformed: off */
    return (uint64_t)(us < 1000000ul ? us : 1000000ul) * 1000u; /* at most a second */
}

bool xgdi_spin_until(bool (*done)(void *ctx), void *ctx, uint64_t budget_ns)
{
    if (done(ctx)) return true;
    if (budget_ns == 0) return false;
    uint64_t end = clock_ns() + budget_ns;
    for (;;) {
        /* each poll is a call into the driver, which paces the loop (PAUSE instructions
           between polls made no difference on the H200 machine) */
        if (done(ctx)) return true;
        if (clock_ns() >= end) return false;
    }
}
