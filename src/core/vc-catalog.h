/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-catalog.h: the built-in model catalog and GPU catalog, read once from the files in data/
 * (compiled into the core as a GResource, so nothing is read from disk at run time).
 *
 * Each model of the catalog is its own config.json (data/models/<id>/config.json), read by the
 * reader of an imported config.json (vc-hf-config.c), so that a preset and an import are one
 * path; data/models/index.json gives its name, family, repository, release date and the
 * published parameter count with where it is published. */
#pragma once

#include <json-glib/json-glib.h>

#include "vc-arch.h"

G_BEGIN_DECLS

typedef struct
{
  char *id;
  char *name;
  char *family;                         /* the reader's family id ("qwen3_moe") */
  char *source;                         /* where the published count is published */
  /* the counts the estimate takes: the architecture's exact count (tests/test-catalog-models.c
   * checks it against the published one) */
  double published_parameters;
  double published_active_parameters;   /* 0 when the model is dense */
  guint max_context;                    /* max_position_embeddings (rope scaling included); 0: unknown */
  VcArch arch;
  /* from data/models/index.json */
  char *family_name;                    /* as people name it ("Qwen3") */
  char *repository;                     /* "org/name" on the Hugging Face Hub */
  char *released;                       /* "YYYY-MM" */
  char *config_source;                  /* where the config.json's values were read */
  /* where its preprocessor_config.json and video_preprocessor_config.json, beside config.json in
   * data/models, were read; "" where the catalog has none (vLLM's dummy image then unknown) */
  char *processor_source;
  double published_total;               /* as published, and the unit of its last digit */
  double published_unit;
  gboolean published_truncated;         /* the count cut to that digit, not rounded (Qwen's cards) */
  double published_uncounted;           /* in the published count, not loaded: a multi-token
                                         * prediction layer the checkpoint also holds, or a
                                         * vision encoder the catalog does not count */
  double published_active;              /* 0: none published */
  double published_active_unit;
  char *active_source;
  gboolean vision;                      /* the checkpoint holds a vision model (not counted) */
  guint suggested;                      /* the most-run models: 1 first; 0: not suggested */
  char *search_text;                    /* lower-case text the search matches */
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
  /* NVIDIA's CUDA compute capability (8.0 for an A100); 0.0 when unknown: another vendor, a
   * card NVIDIA's CUDA GPUs page does not list, a card the user typed in */
  guint cc_major;
  guint cc_minor;
  char *compute_capability_source;
  /* NVIDIA's streaming multiprocessors (torch's multi_processor_count), with its source; 0 when
   * unknown: another vendor, a card no source was found for, a card the user typed in. vLLM
   * sizes its Triton sampler's buffer from it (vc_estimator_vllm_triton_buffer) */
  guint sm_count;
  char *sm_count_source;
} VcGpu;

const VcPreset *vc_presets_get_all (guint      *n_presets);
const VcPreset *vc_presets_lookup  (const char *id);
/* The models whose search text holds every word of text (any part of the name, id, family,
 * repository, size such as "70b", "moe", "dense", "vision"), suggested ones first, then in
 * catalog order: at most max of them into found (indices into vc_presets_get_all()). An empty
 * text gives the suggested models. Returns how many were put. */
guint           vc_presets_search  (const char *text,
                                    guint      *found,
                                    guint       max);
const VcGpu    *vc_gpus_get_all    (guint      *n_gpus);
const VcGpu    *vc_gpus_lookup     (const char *id);

/* Reads architecture fields named as the estimate's properties ("layers", "hidden-size", …)
 * from `object` into `arch`; members that are not architecture fields are ignored. */
gboolean vc_arch_update_from_json (VcArch     *arch,
                                   JsonObject *object,
                                   const char *context,
                                   GError    **error);

G_END_DECLS
