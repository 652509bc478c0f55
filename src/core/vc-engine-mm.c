/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine-mm.c: vLLM's profile run for a multimodal model, as vLLM 0.10 and 0.11 run it
 * (vllm/v1/worker/gpu_model_runner.py, profile_run): a batch of dummy images of the largest size
 * through the vision encoder (get_multimodal_embeddings), their embeddings kept in encoder_cache
 * while the text model's dummy batch and the sampler run. What each step keeps, and the sources,
 * are in FORMULAS.md, "Multimodal models".
 */
#define G_LOG_DOMAIN "vc-engine-mm"

#include "config.h"

#include <math.h>

#include "vc-engine-mm.h"
#include "vc-engine.h"

gboolean
vc_engine_mm_vllm_followed (const VcInputs *in,
                            double          pp)
{
  const VcArch *a = &in->arch;

  return in->engine == VC_ENGINE_VLLM && a->encoder_params > 0 && a->encoder_layers > 0 &&
         a->encoder_width > 0 && a->encoder_intermediate > 0 && a->encoder_patches > 0 &&
         a->encoder_image_tokens > 0 && a->encoder_image_embeds > 0 && in->limit_mm_per_prompt > 0 &&
         a->encoder_tower == VC_ENCODER_TOWER_SIGLIP && in->vllm_version != VC_VLLM_VERSION_0_21 && pp <= 1;
}

gboolean
vc_engine_mm_vllm_items (const VcInputs *in,
                         double          batch_tokens,
                         double          seqs,
                         double         *budget_tokens,
                         double         *items)
{
  double t = in->arch.encoder_image_tokens, per_prompt;

  *budget_tokens = *items = 0;
  if (t <= 0 || in->limit_mm_per_prompt == 0)
    return FALSE;
  /* vllm/v1/core/encoder_cache_manager.py, compute_mm_encoder_budget: the compute budget and
   * the cache size are each max(max_num_batched_tokens, the tokens of an item) by default */
  *budget_tokens = MAX (batch_tokens, t);
  /* vllm/v1/worker/utils.py, MultiModalBudget._get_max_items (chunked prefill on, V1's
   * default), the per-prompt limit --limit-mm-per-prompt's (MultiModalConfig.get_limit_per_prompt:
   * 999 where it names none) */
  per_prompt = MAX (1.0, MIN ((double) in->limit_mm_per_prompt, floor ((double) in->seq / t)));
  *items = MAX (1.0, MIN (floor (*budget_tokens / t), seqs * per_prompt));
  return TRUE;
}

/* The most values one patch keeps at once in one SigLIP encoder layer past the first
 * (vllm/model_executor/models/siglip.py: SiglipVisionTransformer.forward holds the embeddings
 * while SiglipEncoder runs, each SiglipEncoderLayer its input as the residual): at the output
 * projection the embeddings, the residual, layer_norm1's output, qkv (3h / tp), attention's
 * output (h / tp) and out_proj's; in the MLP the embeddings, the residual, layer_norm2's output,
 * fc1's output and the activation's (I / tp each); at fc2 the activation's and fc2's. Under TP
 * the row-parallel projections' all-reduce returns a new tensor beside their partial sums. */
static double
patch_peak_values (const VcArch *a,
                   double        tp)
{
  double h = a->encoder_width, inter = a->encoder_intermediate;
  double reduced = tp > 1 ? h : 0;
  double attn = 4 * h + 4 * h / tp + reduced;
  double act = 3 * h + 2 * inter / tp;
  double fc2 = 4 * h + inter / tp + reduced;

  return MAX (attn, MAX (act, fc2));
}

gboolean
vc_engine_mm_vllm_profile (const VcInputs  *in,
                           double           batch_tokens,
                           double           seqs,
                           double           tp,
                           VcVllmMmProfile *out)
{
  const VcArch *a = &in->arch;
  double e = 2.0, t, pixels, originals, rows;

  *out = (VcVllmMmProfile) { 0 };
  if (!vc_engine_mm_vllm_followed (in, MAX (1u, in->layout.pp)))
    return FALSE;
  tp = MAX (1.0, tp);
  t = a->encoder_image_tokens;
  vc_engine_mm_vllm_items (in, batch_tokens, seqs, &out->budget_tokens, &out->items);
  /* the dummy batch's pixel values (cast to the model's dtype by the processor) stay referenced
   * by profile_run throughout */
  pixels = out->items * a->encoder_pixel_values * e;
  out->encoder_pass_bytes = pixels + out->items * a->encoder_patches * patch_peak_values (a, tp) * e;
  /* the embeddings, the text model's width each: when an item returns fewer rows than its
   * budget, profile_run copies each into new_zeros((encoder_budget, hidden)) (0.10 and 0.11.x;
   * pull request #29386 made it the item's tokens), the loop's last item keeping the batch they
   * are views of */
  originals = out->items * a->encoder_image_embeds * a->hidden_size * e;
  rows = a->encoder_image_embeds < out->budget_tokens ? out->budget_tokens : 0;
  out->cache_bytes = pixels + originals + out->items * rows * a->hidden_size * e;
  rows = a->encoder_image_embeds < t ? t : 0;
  out->later_cache_bytes = pixels + originals + out->items * rows * a->hidden_size * e;
  /* --engine-version 0.14 (0.14.0 to 0.16) and 0.17 (0.17.0 to 0.19) came after pull request
   * #29386 (after 0.11.2) */
  if (vc_engine_vllm_minor (in) >= 14)
    out->cache_bytes = out->later_cache_bytes;
  return TRUE;
}

double
vc_engine_mm_vllm_peak (const VcVllmMmProfile *profile,
                        double                 text_peak)
{
  return MAX (profile->encoder_pass_bytes, text_peak + profile->cache_bytes);
}
