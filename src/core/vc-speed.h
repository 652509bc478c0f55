/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-speed.h: how fast a model runs on a GPU of the catalog, from the card's memory bandwidth
 * and dense matrix rate (data/gpus.json), free of GObject and of allocation.
 *
 * Decode is bound by memory bandwidth (the bytes read per step: the weights a step touches and
 * the KV cache), prefill and training by compute (2, or 6, FLOPs per parameter and token). The
 * shares of the peaks reached are calibrated on published measurements listed in
 * tests/accuracy/speed.tsv; the formulas are in FORMULAS.md, "Speed".
 */
#pragma once

#include <glib.h>

#include "vc-catalog.h"
#include "vc-estimator.h"
#include "vc-layout.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean known;                  /* the card's figures are known and the GPUs hold the model */
  double gpus;                     /* GPUs the figures are for */
  /* inference */
  double decode_tokens_per_s;      /* all batch × concurrency sequences together */
  double decode_step_seconds;      /* one token of each sequence */
  double prefill_tokens_per_s;
  /* training */
  double step_seconds;             /* one optimizer step of batch × seq tokens */
  double train_tokens_per_s;
} VcSpeed;

/* SGLang's Mamba pool behind an engine's capacity (vc_speed_describe()) */
typedef struct
{
  double request_bytes;            /* one request's state in every layer */
  double requests;                 /* the requests the pool holds */
} VcStatePool;

double vc_speed_bandwidth_efficiency (VcMemoryKind kind);
double vc_speed_compute_efficiency   (VcMemoryKind kind);
double vc_speed_matrix_flops         (const VcInputs         *inputs,
                                      const VcScenarioResult *scenario,
                                      const VcGpu            *gpu);
char  *vc_speed_describe             (const VcInputs         *inputs,
                                      const VcResult         *result,
                                      const VcLayoutResult   *layout,
                                      const VcGpu            *gpu,
                                      const VcGpuFit         *fit,
                                      VcStatePool            *pool);
void   vc_speed_compute              (const VcInputs         *inputs,
                                      const VcResult         *result,
                                      const VcScenarioResult *scenario,
                                      const VcGpu            *gpu,
                                      double                  n_gpus,
                                      VcSpeed                *speed);

G_END_DECLS
