/* Whole-application proxy: a fork-join hydrodynamics time step shaped like
 * LULESH 2.0's (bench/run-apps builds it plain and traced and compares).
 *
 *   app_hydro [STEPS [ELEMENTS]]      (default 1500 steps, 3000 elements)
 *
 * Every time step runs 30 parallel regions, as LULESH's
 * LagrangeLeapFrog does at -s 10 to -s 30: 27 `parallel for` loops over the
 * elements or nodes (each a few flops on a handful of arrays, the way
 * LULESH's kernels stream its element and node fields), one parallel region
 * with a worksharing loop whose partial minima are combined in a critical
 * section (LULESH's Courant and hydro time constraints), one `parallel for`
 * with a min reduction, and one with a sum reduction (the energy check).
 * With 3000 elements and two threads, one step takes about 1 ms on the
 * development VM, so a two-thread run makes about 300 k OpenMP events per
 * second per thread, LULESH's rate under weft at -s 10.
 *
 * Prints one line: "<seconds of the step loop> <steps> <threads> <check>";
 * the whole process's time (start-up and trace write-out included) is what
 * bench/run-apps compares. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { FIELDS = 16 };

/* Element and node fields, like LULESH's Domain: one array each. */
static double *f[FIELDS];
static long n_elem;

#define X f[0]
#define XD f[1]
#define XDD f[2]
#define FX f[3]
#define E f[4]
#define P f[5]
#define Q f[6]
#define V f[7]
#define VNEW f[8]
#define DELV f[9]
#define VDOV f[10]
#define SS f[11]
#define AREALG f[12]
#define QL f[13]
#define QQ f[14]
#define MASS f[15]

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One loop over all elements, the shape of LULESH's element kernels: each
 * element gathers from its 8 corner nodes (here the next 8 entries) and
 * writes one field, out[i] = mean over corners of (b + c) / 2 * (1 + a[i] * s),
 * or of sqrt(|b * (c + a[i] * s)|) in a `heavy` loop (LULESH's stress and
 * hourglass kernels). The values stay near 1 over any number of steps. */
static void kernel(double *out, const double *a, const double *b, const double *c, double s,
                   int heavy)
{
    long n = n_elem;
    if (heavy) {
#pragma omp parallel for firstprivate(n)
        for (long i = 0; i < n; i++) {
            double acc = 0;
            for (long j = i; j < i + 8; j++)
                acc += sqrt(fabs(b[j] * (c[j] + a[i] * s)));
            out[i] = acc * 0.125;
        }
    } else {
#pragma omp parallel for firstprivate(n)
        for (long i = 0; i < n; i++) {
            double acc = 0;
            for (long j = i; j < i + 8; j++)
                acc += 0.5 * (b[j] + c[j]) * (1.0 + a[i] * s);
            out[i] = acc * 0.125;
        }
    }
}

/* LULESH's CalcCourantConstraintForElems: per-thread minima in a parallel
 * region, combined under a critical section. */
static double courant(void)
{
    double dt = 1e20;
    long n = n_elem;
#pragma omp parallel firstprivate(n)
    {
        double mine = 1e20;
#pragma omp for
        for (long i = 0; i < n; i++) {
            double c = SS[i] * SS[i] + QQ[i] * fabs(VDOV[i]) + 1e-12;
            double d = AREALG[i] / sqrt(c);
            if (d < mine)
                mine = d;
        }
#pragma omp critical
        {
            if (mine < dt)
                dt = mine;
        }
    }
    return dt;
}

static double hydro_constraint(void)
{
    double dt = 1e20;
    long n = n_elem;
#pragma omp parallel for reduction(min : dt) firstprivate(n)
    for (long i = 0; i < n; i++) {
        double d = 1.0 / (fabs(VDOV[i]) + 1e-3);
        if (d < dt)
            dt = d;
    }
    return dt;
}

static double energy(void)
{
    double sum = 0;
    long n = n_elem;
#pragma omp parallel for reduction(+ : sum) firstprivate(n)
    for (long i = 0; i < n; i++)
        sum += E[i] * MASS[i];
    return sum;
}

/* One time step: 27 field kernels (the heavy ones stand for the stress
 * and hourglass force kernels), the two constraints and the energy check,
 * 30 parallel regions. */
static double step(double dt)
{
    for (int k = 0; k < 27; k++) {
        int out = 3 + k % 13; /* fields 3..15 are written, 0..2 only read here */
        kernel(f[out], f[k % 3], f[(k + 5) % FIELDS], f[(k + 9) % FIELDS], dt * 1e-3,
               k % 3 == 0);
    }
    double c = courant();
    double h = hydro_constraint();
    (void)energy();
    double next = c < h ? c : h;
    return next > 1e-6 ? 1e-6 : next;
}

int main(int argc, char **argv)
{
    long steps = argc > 1 ? atol(argv[1]) : 1500;
    n_elem = argc > 2 ? atol(argv[2]) : 3000;
    if (steps <= 0 || n_elem <= 0) {
        fprintf(stderr, "usage: %s [STEPS [ELEMENTS]]\n", argv[0]);
        return 2;
    }
    for (int k = 0; k < FIELDS; k++) {
        f[k] = malloc((size_t)(n_elem + 8) * sizeof(double));
        if (!f[k]) {
            fprintf(stderr, "%s: out of memory\n", argv[0]);
            return 1;
        }
        for (long i = 0; i < n_elem + 8; i++)
            f[k][i] = 1.0 + (double)((i * 7 + k) % 13) * 0.01;
    }
    double start = now_s();
    double dt = 1e-7;
    for (long s = 0; s < steps; s++)
        dt = step(dt);
    double elapsed = now_s() - start;
    double check = energy();
    printf("%.6f %ld %d %.6g\n", elapsed, steps, omp_get_max_threads(), check + dt);
    for (int k = 0; k < FIELDS; k++)
        free(f[k]);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
