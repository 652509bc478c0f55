/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-util.h: what the benchmarks share. */
#pragma once

#include <stdlib.h>

#include <glib.h>

static int
bench_compare (const void *a,
               const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Sorts `samples` in place (the slowest is then the last) and returns their median. */
static inline double
bench_sort_median (double *samples,
                   guint   n)
{
  qsort (samples, n, sizeof samples[0], bench_compare);
  return samples[n / 2];
}
