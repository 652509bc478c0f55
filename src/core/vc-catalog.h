/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-catalog.h: the built-in model presets and GPU catalog, read once from the JSON files in
 * data/ (compiled into the core as a GResource, so nothing is read from disk at run time). */
#pragma once

#include <json-glib/json-glib.h>

#include "vc-arch.h"

G_BEGIN_DECLS

typedef struct
{
  char *id;
  char *name;
  char *family;
  char *source;
  double published_parameters;
  double published_active_parameters;   /* 0 when the model is dense */
  guint max_context;                    /* max_position_embeddings (rope scaling included); 0: unknown */
  VcArch arch;
} VcPreset;

typedef enum
{
  VC_MEMORY_KIND_UNKNOWN,               /* a card the user typed in */
  VC_MEMORY_KIND_GDDR,
  VC_MEMORY_KIND_HBM,
  VC_MEMORY_KIND_UNIFIED,
} VcMemoryKind;

typedef struct
{
  char *id;
  char *name;
  char *vendor;
  double memory_bytes;                  /* as sold: the "GB" of a card's name are GiB */
  double memory_mib;                    /* as nvidia-smi shows it; 0 when unknown */
  double cuda_mib;                      /* the total CUDA reports to a process (torch's total); 0 when unknown */
  char *cuda_source;
  double capacity_bytes;                /* what fits are checked against */
  /* speed figures from the vendor's specifications (data/gpus.json); 0 when unknown, as for
   * a card the user typed in */
  double bandwidth_bytes_per_s;         /* peak memory bandwidth */
  double bf16_flops;                    /* dense 16-bit matrix FLOP/s, FP32 accumulation */
  double fp8_flops;                     /* dense FP8 matrix FLOP/s; 0: no FP8 arithmetic */
  VcMemoryKind memory_kind;
  gboolean unified_memory;              /* shares system memory (Apple silicon) */
  double gpu_share;                     /* unified: part of memory a GPU program may use */
  char *bandwidth_source;
  char *bf16_source;
  char *fp8_source;
} VcGpu;

const VcPreset *vc_presets_get_all (guint      *n_presets);
const VcPreset *vc_presets_lookup  (const char *id);
const VcGpu    *vc_gpus_get_all    (guint      *n_gpus);
const VcGpu    *vc_gpus_lookup     (const char *id);

/* Reads architecture fields named as the estimate's properties ("layers", "hidden-size", …)
 * from `object` into `arch`; members that are not architecture fields are ignored. */
gboolean vc_arch_update_from_json (VcArch     *arch,
                                   JsonObject *object,
                                   const char *context,
                                   GError    **error);

G_END_DECLS
