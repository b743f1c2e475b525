/*
 * bench_time.h - the clock and the median every bench program reports with (xgd-bench,
 * vk-raw-bench, d3d12-raw-bench). The includer defines _POSIX_C_SOURCE for clock_gettime.
 */
#ifndef XGD_BENCH_TIME_H
#define XGD_BENCH_TIME_H

#include <stdlib.h>
#include <time.h>

/* CLOCK_MONOTONIC seconds */
static inline double bench_clock_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* the median of v[0..n) (sorts v) */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
