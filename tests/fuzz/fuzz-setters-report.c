/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-setters-report: fuzz-setters with the JSON and table reports of each estimate, the GPU
 * table of the whole catalog and what fits on each row included: the slow one of the two, at
 * hundreds of inputs a second. */
#define FUZZ_REPORT 1
#include "fuzz-setters.c"
