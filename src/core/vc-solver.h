/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-solver.h: the inverse question. Given a GPU (its capacity) and a count of them, the
 * longest sequence, the largest batch or the most concurrent requests whose estimate fits, at
 * the other inputs' values; and the smallest count of a GPU that holds the estimate.
 *
 * Like the estimator, free of GObject and of allocation: the window's GPU table calls it for
 * every GPU of the catalog on every change.
 */
#pragma once

#include <glib.h>

#include "vc-catalog.h"
#include "vc-estimator.h"
#include "vc-types.h"

G_BEGIN_DECLS

typedef struct
{
  VcSolveVariable variable;
  gboolean found;            /* FALSE: not even a value of 1 fits */
  guint value;               /* the largest value that fits; 0 when none does */
  VcSolveLimit limit;        /* what stops it at `value` */
  guint gpu_count;
  double capacity_bytes;     /* of one GPU */
  double total_bytes;        /* per GPU, at `value` (at 1 when nothing fits) */
  guint n_evaluations;       /* estimates computed to find it */
  double usable_bytes;       /* what the engine may use of one GPU, at 1 when nothing fits */
} VcSolution;

gboolean vc_solver_applies      (VcMode                  mode,
                                 VcSolveVariable         variable);
guint    vc_solver_input_max    (VcSolveVariable         variable);
guint    vc_solver_model_context (const VcInputs         *inputs);
guint    vc_solver_get          (const VcInputs         *inputs,
                                 VcSolveVariable         variable);
void     vc_solver_set          (VcInputs               *inputs,
                                 VcSolveVariable         variable,
                                 guint                   value);
gboolean vc_solver_fits_at      (const VcInputs         *inputs,
                                 VcSolveVariable         variable,
                                 guint                   value,
                                 double                  capacity_bytes,
                                 guint                   gpu_count,
                                 double                 *bytes);
double   vc_solver_components_at (const VcInputs        *inputs,
                                  VcSolveVariable        variable,
                                  guint                  value,
                                  double                 bytes[VC_N_COMPONENTS]);
void     vc_solver_solve        (const VcInputs         *inputs,
                                 VcSolveVariable         variable,
                                 double                  capacity_bytes,
                                 guint                   gpu_count,
                                 VcSolution             *solution);
typedef struct _VcSolverMemo VcSolverMemo;
VcSolverMemo *vc_solver_memo_new (void);
void     vc_solver_memo_free    (VcSolverMemo           *memo);
void     vc_solver_solve_memo   (VcSolverMemo           *memo,
                                 const VcGpu            *gpu,
                                 const VcInputs         *inputs,
                                 VcSolveVariable         variable,
                                 double                  capacity_bytes,
                                 guint                   gpu_count,
                                 VcSolution             *solution);
gboolean vc_solver_fits_at_memo (VcSolverMemo           *memo,
                                 const VcGpu            *gpu,
                                 const VcInputs         *inputs,
                                 VcSolveVariable         variable,
                                 guint                   value,
                                 double                  capacity_bytes,
                                 guint                   gpu_count,
                                 double                 *bytes);
guint    vc_solver_min_gpus     (const VcInputs         *inputs,
                                 double                  capacity_bytes);

char    *vc_solution_format_value (const VcSolution     *solution);
const char *vc_solve_limit_name  (VcSolveLimit            limit);
char    *vc_solution_describe   (const VcSolution       *solution,
                                 const char             *gpu_name,
                                 const char             *need_text,
                                 const char             *capacity_text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VcSolverMemo, vc_solver_memo_free)

G_END_DECLS
