/*
 * bench_time.h - the clock and the median every bench program reports with (xgd-bench,
 * vk-raw-bench, d3d12-raw-bench), and the calling core's reference loops they print beside
 * their timings. The includer defines _POSIX_C_SOURCE for clock_gettime.
 */
#ifndef XGD_BENCH_TIME_H
#define XGD_BENCH_TIME_H

#include <stdint.h>
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

/* Reference loops of the calling thread, for telling a slow host or core from a slow path.
   bench_ref_chain_ns: nanoseconds of a step of one dependent integer chain (xorshift: each
   operation waits on the last), so the core's clock and little else.
   bench_ref_wide_ns: the same step in eight independent chains, per step of one chain: a core
   runs these as fast as its execution ports allow, so unlike the single chain they slow down
   when another hardware thread shares the core (on a VM, a neighbour's vCPU on the sibling
   hyperthread) or the core is throttled, as throughput-bound code such as a draw loop or
   SpriteBatch does. On the H200 machine (session 19, 84 passes) every pass whose wide step
   read under 0.60 ns had SpriteBatch's Draw calls at 6.3-8.6 ns a sprite and every pass above
   0.60 at 9.9-15.0, passes of one process included, while the single chain stayed at
   2.02-2.34 ns. */
static inline double bench_ref_chain_ns(int steps)
{
    volatile uint64_t sink;
    uint64_t x = 88172645463325252ull;
    double t0 = bench_clock_s();
    for (int i = 0; i < steps; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    double t = bench_clock_s() - t0;
    sink = x;
    (void)sink;
    return t * 1e9 / steps;
}

static inline double bench_ref_wide_ns(int steps)
{
    volatile uint64_t sink;
    uint64_t x[8];
    for (int k = 0; k < 8; k++) x[k] = 88172645463325252ull + (uint64_t)k * 0x9E3779B97F4A7C15ull;
    double t0 = bench_clock_s();
    for (int i = 0; i < steps; i++) {
        for (int k = 0; k < 8; k++) {
            x[k] ^= x[k] << 13;
            x[k] ^= x[k] >> 7;
            x[k] ^= x[k] << 17;
        }
    }
    double t = bench_clock_s() - t0;
    sink = x[0] ^ x[1] ^ x[2] ^ x[3] ^ x[4] ^ x[5] ^ x[6] ^ x[7];
    (void)sink;
    return t * 1e9 / ((double)steps * 8);
}

#endif
