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

/* Qwen3-VL's image is the item vLLM profiles (FORMULAS.md, "Multimodal models"): its pass and
 * the width of what it returns known (vc-hf-config.c, qwen3_vl_tower), release 0.11 and later
 * (the model files read), the video's tokens known and not above the image's (the profile takes
 * the first modality of the most tokens, the image on a tie), and at 0.11.0 a dummy video of at
 * most two frames (qwen2_vl.py: max_model_len // T pairs of frames over the 999 videos a prompt
 * may hold, each pair T tokens); the encoder split over TP ranks (--mm-encoder-tp-mode data,
 * run_dp_sharded_mrope_vision_model, is not followed at TP > 1) */
static gboolean
qwen3_vl_followed (const VcInputs *in)
{
  const VcArch *a = &in->arch;
  double t = a->encoder_image_tokens;

  return a->encoder_patch_held > 0 && a->encoder_embed_width > 0 && vc_engine_vllm_minor (in) >= 11 &&
         a->encoder_video_tokens > 0 && a->encoder_video_tokens <= a->encoder_image_tokens && t > 0 &&
         (vc_engine_vllm_minor (in) != 11 || floor ((double) in->seq / t) < 1499) &&
         !(in->mm_encoder_tp_mode == VC_MM_ENCODER_TP_MODE_DATA && MAX (1u, in->layout.tp) > 1);
}

/* Llama 4's tiles an image (vc-hf-config.c, llama4_vllm_image): P tiles and a global one give
 * T = P(k + 1) + k + 3 tokens and E = (P + 1)k embeddings, so P = T - E - 3 (one tile: T = k + 3,
 * E = k); each tile's patches a whole number of embeddings */
static double
llama4_tiles (const VcArch *a)
{
  double t = a->encoder_image_tokens, emb = a->encoder_image_embeds, p = a->encoder_patches;
  double tiles = t - emb - 3 > 0 ? t - emb - 2 : 1;

  if (t <= emb + 2 || emb <= 0 || fmod (p, tiles) != 0 || fmod (emb, tiles) != 0 ||
      fmod (p / tiles, emb / tiles) != 0)
    return 0;
  return tiles;
}

/* Llama 4's tower pass is followed for vLLM 0.10 (mllama4.py at commit 00dd549, the rotary
 * embedding's llama4_vision_rope.py at 10760a0) and for the releases after it to 0.20
 * (--engine-version 0.11, 0.14 and 0.17; 0.21 and later are left out by
 * vc_engine_mm_vllm_followed). In vllm-project/vllm's history, from 1c3ffdbec's parent
 * (2025-09-21, before 0.11.0 branched) to 1c2c1eb8b (2026-04-23, the file's last change, after
 * 0.20), mllama4.py's Llama4VisionModel, Llama4VisionEncoderLayer, Llama4VisionAttention,
 * Llama4VisionMLP, Llama4UnfoldConvolution, Llama4VisionPixelShuffleMLP and
 * Llama4MultiModalProjector run the same forward and Mllama4ProcessingInfo the same dummy image;
 * MultiHeadAttention became MMEncoderAttention (commit 700a5ad6c, pull request #30684), whose
 * flash-attention path reshapes q, k and v as views as before; llama4_vision_rope.py's
 * forward_native keeps the same fp32 q and k, complex products and casts back (its changes,
 * 48ecb4438, 43b752c32 and ea6d067a2, move only the table's dtype cast and device copy); the
 * tower is compiled only with compile_mm_encoder, False by default throughout (ea6d067a2, pull
 * request #30709). The widths known (encoder-intermediate, which the reader gives only where
 * the adapter and projector stay below the layers: vc-hf-config.c, keep_llama4_pass), with
 * --mm-encoder-tp-mode weights: data (vision.py, run_dp_sharded_vision_model) pads the tiles
 * to a multiple of TP with F.pad (a copy of the pixels), runs a rank's share of them through
 * the unsplit tower and gathers the outputs before the projector runs over every tile, a peak
 * against the tower's share that is not followed */
static gboolean
llama4_followed (const VcInputs *in)
{
  return vc_engine_vllm_minor (in) >= 10 && llama4_tiles (&in->arch) > 0 &&
         in->mm_encoder_tp_mode != VC_MM_ENCODER_TP_MODE_DATA;
}

gboolean
vc_engine_mm_vllm_followed (const VcInputs *in,
                            double          pp)
{
  const VcArch *a = &in->arch;
  /* a SigLIP tower needs its layers known (SGLang's fraction reads them too); the Pixtral
   * reader leaves them 0 for SGLang's sake (vc-hf-config.c, read_pixtral_vision), and the
   * pass's peak is one layer's */
  gboolean tower = (a->encoder_tower == VC_ENCODER_TOWER_SIGLIP && a->encoder_layers > 0) ||
                   a->encoder_tower == VC_ENCODER_TOWER_PIXTRAL ||
                   (a->encoder_tower == VC_ENCODER_TOWER_QWEN3_VL && qwen3_vl_followed (in)) ||
                   (a->encoder_tower == VC_ENCODER_TOWER_LLAMA4 && llama4_followed (in));

  return in->engine == VC_ENGINE_VLLM && a->encoder_params > 0 && tower &&
         a->encoder_width > 0 && a->encoder_intermediate > 0 && a->encoder_patches > 0 &&
         a->encoder_image_tokens > 0 && a->encoder_image_embeds > 0 && in->limit_mm_per_prompt > 0 &&
         in->vllm_version != VC_VLLM_VERSION_0_21 && pp <= 1;
}

gboolean
vc_engine_mm_vllm_dense_mask (const VcInputs *in)
{
  /* vllm/model_executor/models/pixtral.py imports xformers where it can (USE_XFORMERS_OPS) and
   * then passes a BlockDiagonalMask; otherwise transformers' generate_block_attention_mask, a
   * dense (patches × patches) mask in the patches' dtype. vLLM's CUDA requirements pinned
   * xformers (x86_64 Linux) until pull request #29262 removed it (by 2025-12-09: pytorch/pytorch
   * pull request #169914), so 0.10.x and 0.11.0 to 0.11.2 take xformers and 0.13 on the dense
   * mask. --engine-version 0.11 spans both: the dense mask, the larger, is counted, an upper
   * bound as for the embeddings kept (FORMULAS.md) */
  return in->arch.encoder_tower == VC_ENCODER_TOWER_PIXTRAL && vc_engine_vllm_minor (in) >= 11;
}

/* What vLLM counts of an item against the encoder budget and the prompt: its placeholder's
 * tokens, or from release 0.14 its embeddings alone (pull request #30475, commit f5f51e593,
 * 2025-12-16, before #31052 that 0.14.0 carries: MultiModalProfiler.get_mm_max_tokens sums
 * get_num_embeds, "excluding any break/text tokens in-between multimodal embeddings"; as
 * encoder_budget.py's get_mm_max_toks_per_item at 22b64948f, where 0.16.0 branched, and after
 * 0.20). vLLM 0.19.0's own logs say so: Gemma 3's 260-token image of 256 embeddings profiled
 * 32 at a budget of 8,192 (tests/accuracy/measurements.csv, vllm019-gemma3-27b-h100-weights). */
double
vc_engine_mm_vllm_item_tokens (const VcInputs *in)
{
  if (vc_engine_vllm_minor (in) >= 14 && in->arch.encoder_image_embeds > 0)
    return in->arch.encoder_image_embeds;
  return in->arch.encoder_image_tokens;
}

gboolean
vc_engine_mm_vllm_items (const VcInputs *in,
                         double          batch_tokens,
                         double          seqs,
                         double         *budget_tokens,
                         double         *items)
{
  double t = vc_engine_mm_vllm_item_tokens (in), per_prompt;

  *budget_tokens = *items = 0;
  if (t <= 0 || in->limit_mm_per_prompt == 0)
    return FALSE;
  /* vllm/v1/core/encoder_cache_manager.py, compute_mm_encoder_budget: the compute budget and
   * the cache size are each max(max_num_batched_tokens, the tokens of an item) by default
   * (encoder_budget.py, MultiModalBudget, from 0.14) */
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

/* The most values one patch keeps at once in one PixtralHFTransformerBlock past the first
 * (vllm/model_executor/models/pixtral.py): PixtralHFVisionModel.forward holds the patch
 * convolution's outputs (patch_embeds_list) and PixtralHFTransformer.forward ln_pre's
 * (hidden_states_pool) throughout, the loop the block's input. At the attention's o_proj: the
 * block's input, attention_norm's output, qkv (3h / tp), q and k after the 2-D RoPE (h / tp
 * each, new tensors), the attention's output (h / tp) and o_proj's (h); the RoPE of k holds at
 * most qkv, q's and three of k's temporaries (7h / tp), below that. In the MLP
 * (PixtralHFMLP.forward): the block's input, h (its residual), ffn_norm's output until the
 * activation's is made, gate_up (2I / tp) and the activation's (I / tp), then down_proj's (h);
 * at the last add the input, h, the MLP's and the sum. Under TP the row-parallel projections'
 * all-reduce returns a new tensor beside their partial sums. */
static double
pixtral_patch_peak_values (const VcArch *a,
                           double        tp,
                           double       *at_attention)
{
  double h = a->encoder_width, inter = a->encoder_intermediate;
  double reduced = tp > 1 ? h : 0;
  double held = 2 * h;
  double attn = held + 3 * h + 6 * h / tp + reduced;
  double mlp = held + 3 * h + 3 * inter / tp + reduced;
  double add = held + 4 * h;

  *at_attention = attn;
  return MAX (attn, MAX (mlp, add));
}

/* The attention's dense mask (vc_engine_mm_vllm_dense_mask) over n patches, and what the
 * attention point adds to it: PyTorch's memory-efficient kernel (the one
 * scaled_dot_product_attention takes for a bf16 mask; flash attention takes none) pads a mask
 * whose strides are not multiples of 8 elements into a new tensor before expanding it over the
 * heads (aten/src/ATen/native/transformers/attention.cpp, preprocess_mask, aligned_tensor and
 * pad_bias, as the releases with cuDNN attention have them), made at each call */
static void
pixtral_mask_bytes (double  n,
                    double  e,
                    double *mask,
                    double *padded)
{
  double rest = fmod (n, 8);

  *mask = n * n * e;
  *padded = rest > 0 ? n * (n + 8 - rest) * e : 0;
}

static double
pixtral_pass_bytes (const VcInputs *in,
                    double          items,
                    double          tp,
                    double          e,
                    double         *mask)
{
  const VcArch *a = &in->arch;
  double n = items * a->encoder_patches, padded = 0, attn;
  double values = pixtral_patch_peak_values (a, tp, &attn);

  *mask = 0;
  if (vc_engine_mm_vllm_dense_mask (in))
    pixtral_mask_bytes (n, e, mask, &padded);
  return *mask + MAX (n * values * e, n * attn * e + padded);
}

/* The most values one patch keeps at once in one Qwen3_VisionBlock (vLLM qwen3_vl.py; its
 * Qwen2_5_VisionAttention in qwen2_5_vl.py at commit 002d181), besides what it keeps through
 * the blocks (encoder-patch-held). At the attention: the block's input and norm1's output (2h),
 * qkv (3h / tp; under TP all_gather_interleave gathers the ranks' qkv into a list, 3h, and
 * concatenates it, 3h more, kept as q, k and v), then torch.cat of q and k (2h / tp) rotated by
 * apply_rotary_emb_torch (o1 and o2, h / tp each, and their torch.cat, 2h / tp), or at proj the
 * concatenation, the rotated pair, the attention's output (h / tp) and proj's (h, and the
 * all-reduce's new tensor under TP). In the MLP: the input, norm2's output, linear_fc1's and the
 * activation's (I / tp each), or at linear_fc2 the activation's and its output (h, and the
 * all-reduce's). The residual add: 3h. */
static double
qwen3_vl_block_values (const VcArch *a,
                       double        tp)
{
  double h = a->encoder_width, inter = a->encoder_intermediate;
  double reduced = tp > 1 ? h : 0, attn, mlp;

  if (tp > 1)
    attn = 2 * h + 3 * h / tp + 3 * h + MAX (3 * h, MAX (6 * h / tp, 5 * h / tp + h + reduced));
  else
    attn = 2 * h + 3 * h + MAX (6 * h, 5 * h + h);
  mlp = 2 * h + MAX (2 * inter / tp, inter / tp + h + reduced);
  return MAX (attn, MAX (mlp, 3 * h));
}

/* Qwen3_VisionTransformer.forward over n items (vLLM qwen3_vl.py at commits 002d7b9 and
 * 4f5768c): the blocks with what each patch keeps through them (pos_embeds, the rotary tables,
 * the deepstack features); the merger after the last block (its input and norm's output, 2h a
 * patch, then linear_fc1's and the GELU's, h / tp each, or linear_fc2's, out / m² a patch and the
 * all-reduce's under TP); and torch.cat of the merger's output with the deepstack features, the
 * embeddings' width a row. P patches and E embeddings an item. */
static double
qwen3_vl_pass_bytes (const VcInputs *in,
                     double          items,
                     double          tp,
                     double          e)
{
  const VcArch *a = &in->arch;
  double p = items * a->encoder_patches, emb = items * a->encoder_image_embeds;
  double held = a->encoder_patch_held, h = a->encoder_width, out = a->hidden_size;
  double blocks = p * (held + qwen3_vl_block_values (a, tp));
  double merger = p * (held + 2 * h + h / tp) + (tp > 1 ? 2 : 1) * emb * out;
  double cat = p * held + emb * (out + a->encoder_embed_width);

  merger = MAX (merger, p * (held + 2 * h + 2 * h / tp));
  return MAX (blocks, MAX (merger, cat)) * e;
}

/* The most values one token keeps at once in a Llama4VisionEncoderLayer past the first (vLLM
 * mllama4.py at commit 00dd549), besides layernorm_pre's output, which Llama4VisionModel.forward
 * holds through the layers (h). At the rotary embedding (llama4_vision_rope.py at 10760a0:
 * forward_cuda runs forward_native): the layer's input, input_layernorm's output (2h), qkv
 * (3h / tp), q and k in fp32 (query.float(), key.float(): 2h / tp bf16 values each), their
 * complex products with the table (2h / tp each) and the two casts back (h / tp each, made while
 * the four live). At o_proj: 2h, qkv, the rotated q and k (2h / tp), the attention's output
 * (h / tp) and o_proj's (h, and the all-reduce's new tensor under TP). The residual adds: 3h. In
 * the MLP: 2h, fc1's and GELU's (I / tp each), or at fc2 GELU's and fc2's (h, and the
 * all-reduce's). */
static double
llama4_token_values (const VcArch *a,
                     double        tp)
{
  double h = a->encoder_width, inter = a->encoder_intermediate;
  double reduced = tp > 1 ? h : 0, held = h;
  double rope = 2 * h + 3 * h / tp + 10 * h / tp;
  double oproj = 2 * h + 6 * h / tp + h + reduced;
  double gelu = 2 * h + 2 * inter / tp;
  double fc2 = 2 * h + inter / tp + h + reduced;

  return held + MAX (MAX (rope, oproj), MAX (3 * h, MAX (gelu, fc2)));
}

gboolean
vc_engine_mm_vllm_profile (const VcInputs  *in,
                           double           batch_tokens,
                           double           seqs,
                           double           tp,
                           VcVllmMmProfile *out)
{
  const VcArch *a = &in->arch;
  double e = 2.0, t, pixels, originals, rows, width;

  *out = (VcVllmMmProfile) { 0 };
  if (!vc_engine_mm_vllm_followed (in, MAX (1u, in->layout.pp)))
    return FALSE;
  tp = MAX (1.0, tp);
  t = a->encoder_image_tokens;
  vc_engine_mm_vllm_items (in, batch_tokens, seqs, &out->budget_tokens, &out->items);
  /* the dummy batch's pixel values (cast to the model's dtype by the processor) stay referenced
   * by profile_run throughout */
  pixels = out->items * a->encoder_pixel_values * e;
  if (a->encoder_tower == VC_ENCODER_TOWER_PIXTRAL)
    out->encoder_pass_bytes = pixels + pixtral_pass_bytes (in, out->items, tp, e, &out->mask_bytes);
  else if (a->encoder_tower == VC_ENCODER_TOWER_QWEN3_VL)
    out->encoder_pass_bytes = pixels + qwen3_vl_pass_bytes (in, out->items, tp, e);
  /* Llama 4: every tile's patches and its class token through the layers; the patch embedding
   * and the adapter and projector after them stay below (vc-hf-config.c, keep_llama4_pass) */
  else if (a->encoder_tower == VC_ENCODER_TOWER_LLAMA4)
    out->encoder_pass_bytes = pixels + out->items * (a->encoder_patches + llama4_tiles (a)) *
                                       llama4_token_values (a, tp) * e;
  else
    out->encoder_pass_bytes = pixels + out->items * a->encoder_patches * patch_peak_values (a, tp) * e;
  /* the embeddings, the text model's width each: when an item returns fewer rows than its
   * budget, profile_run copies each into new_zeros((encoder_budget, hidden)) (0.10 and 0.11.x;
   * pull request #29386 made it the item's tokens), the loop's last item keeping the batch they
   * are views of */
  width = a->encoder_embed_width > 0 ? a->encoder_embed_width : a->hidden_size;
  originals = out->items * a->encoder_image_embeds * width * e;
  rows = a->encoder_image_embeds < out->budget_tokens ? out->budget_tokens : 0;
  out->cache_bytes = pixels + originals + out->items * rows * width * e;
  rows = a->encoder_image_embeds < t ? t : 0;
  out->later_cache_bytes = pixels + originals + out->items * rows * width * e;
  /* Qwen3-VL's deepstack buffers (Qwen3VLForConditionalGeneration.__init__: one torch.zeros of
   * max_num_batched_tokens × the text width per deepstack level, made with the model, held
   * through the profile run), whole on every TP rank */
  if (a->encoder_tower == VC_ENCODER_TOWER_QWEN3_VL && a->encoder_embed_width > a->hidden_size)
    out->deepstack_bytes = (a->encoder_embed_width / a->hidden_size - 1.0) * batch_tokens * a->hidden_size * e;
  /* --engine-version 0.14 (0.14.0 to 0.16) and 0.17 (0.17.0 to 0.19) came after pull request
   * #30475 (commit f5f51e593), which took the copy out: profile_run keeps each item's own
   * embeddings (encoder_cache["tmp_{i}"] = output, as at 22b64948f and after 0.20) */
  if (vc_engine_vllm_minor (in) >= 14)
    out->cache_bytes = pixels + originals;
  return TRUE;
}

double
vc_engine_mm_vllm_peak (const VcVllmMmProfile *profile,
                        double                 text_peak)
{
  return profile->deepstack_bytes + MAX (profile->encoder_pass_bytes, text_peak + profile->cache_bytes);
}
