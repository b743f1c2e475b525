/*
 * spin.c - the short poll before a blocking wait for the GPU (renderer.h).
 *
 * Why: on the GPU machine (NVIDIA H200, a VM) a blocking wait for a finished submission returns
 * well after the GPU finished, so a readback of one texel took about as long as a whole 1024x1024
 * mip chain; polling the fence meanwhile returns as soon as the value is visible. The poll is
 * bounded (the budget), then the caller blocks as before, so a long wait costs at most the
 * budget of CPU time.
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
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64)
#include <immintrin.h>
#define SPIN_PAUSE() _mm_pause()
#else
#define SPIN_PAUSE() ((void)0)
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

uint64_t xgdi_wait_spin_budget_ns(bool cpu_device)
{
    const char *v = getenv("XGD_WAIT_SPIN_US");
    /* digits only: strtoul would take a sign (and wrap "-3") or leading spaces */
    if (v != NULL && v[0] >= '0' && v[0] <= '9') {
        char *end;
        unsigned long us = strtoul(v, &end, 10);
        /* a malformed value keeps the default; at most a second */
        if (*end == '\0') return (uint64_t)(us < 1000000ul ? us : 1000000ul) * 1000u;
    }
    return cpu_device ? 0 : (uint64_t)XGDI_WAIT_SPIN_DEFAULT_US * 1000u;
}

bool xgdi_spin_until(bool (*done)(void *ctx), void *ctx, uint64_t budget_ns)
{
    if (done(ctx)) return true;
    if (budget_ns == 0) return false;
    uint64_t end = clock_ns() + budget_ns;
    for (;;) {
        /* a few pauses between polls: each poll may be a call into the driver */
        for (int i = 0; i < 8; i++) SPIN_PAUSE();
        if (done(ctx)) return true;
        if (clock_ns() >= end) return false;
    }
}
