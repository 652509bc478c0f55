/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine-mm.h: vLLM's profile run for a multimodal model (FORMULAS.md, "Multimodal models"):
 * the batch of dummy images it passes through the vision encoder, and the embeddings it keeps
 * while the text model's dummy batch runs. Free of GObject and of allocation.
 */
#pragma once

#include <glib.h>

#include "vc-estimator.h"

G_BEGIN_DECLS

typedef struct
{
  double budget_tokens;            /* the encoder budget: min(compute, cache) */
  double items;                    /* dummy images of the profile's batch */
  double encoder_pass_bytes;       /* the encoder's forward peak over them, with their pixels */
  double cache_bytes;              /* what stays while the text model's dummy batch runs */
  double later_cache_bytes;        /* the same as 0.12 and 0.13 keep them (pull request #29386) */
  double mask_bytes;               /* the encoder attention's dense mask, within the pass (Pixtral
                                    * without xformers); 0 where there is none */
  double deepstack_bytes;          /* Qwen3-VL's deepstack buffers, held through the profile run */
} VcVllmMmProfile;

/* Whether vLLM's multimodal profile run is followed for the inputs' model at `pp` stages: an
 * encoder whose image vLLM profiles is known (the architecture's encoder-* fields) and whose
 * tower's pass is followed (SigLIP's, Pixtral's, Qwen3-VL's, Llama 4's), images
 * allowed (--limit-mm-per-prompt above 0), releases 0.10 to 0.20 (--engine-version 0.10 to
 * 0.17), one pipeline stage */
gboolean vc_engine_mm_vllm_followed (const VcInputs *inputs,
                                     double          pp);
/* Whether the inputs' encoder attention takes a dense mask over every patch of the batch in
 * the release given (a Pixtral tower without xformers, 0.11 counted as the later releases) */
gboolean vc_engine_mm_vllm_dense_mask (const VcInputs *inputs);
/* What an image counts against vLLM's encoder budget in the release given: its placeholder's
 * tokens (encoder-image-tokens), or from 0.14 its embeddings (encoder-image-embeds) */
double   vc_engine_mm_vllm_item_tokens (const VcInputs *inputs);
/* The encoder budget and the dummy images of vLLM's profile run with `batch_tokens`
 * (max_num_batched_tokens) and `seqs` (max_num_seqs), wherever an image's tokens are known
 * (encoder-image-tokens), whether or not the tower's pass is followed; FALSE where they are not
 * known or images are off */
gboolean vc_engine_mm_vllm_items    (const VcInputs *inputs,
                                     double          batch_tokens,
                                     double          seqs,
                                     double         *budget_tokens,
                                     double         *items);
/* vLLM's multimodal profile run with `batch_tokens` (max_num_batched_tokens) and `seqs`
 * (max_num_seqs), the encoder split over `tp` ranks; FALSE where it is not followed */
gboolean vc_engine_mm_vllm_profile  (const VcInputs  *inputs,
                                     double           batch_tokens,
                                     double           seqs,
                                     double           tp,
                                     VcVllmMmProfile *out);
/* The profile run's peak with the text model's own (`text_peak`): the higher of the encoder's
 * pass and the text pass with the embeddings kept */
double   vc_engine_mm_vllm_peak     (const VcVllmMmProfile *profile,
                                     double                 text_peak);

G_END_DECLS
