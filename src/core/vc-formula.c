/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-formula.c: see vc-formula.h. One function per component; the texts follow FORMULAS.md. */
#define G_LOG_DOMAIN "vc-formula"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "vc-engine.h"
#include "vc-engine-comm.h"
#include "vc-engine-mm.h"
#include "vc-engine-state.h"
#include "vc-enums.h"
#include "vc-formula.h"
#include "vc-layout.h"
#include "vc-quant.h"
#include "vc-training-rules.h"
#include "vc-units.h"

/* What every formula may quote: the inputs, the results and the counts as text. */
typedef struct
{
  const VcInputs *in;
  const VcResult *r;
  const VcScenarioResult *sc;
  gboolean rot;                /* rule of thumb */
  char *P;                     /* parameters */
  char *A;                     /* activated parameters */
  char *T;                     /* trainable parameters */
  char *size;                  /* the component's size, in the unit asked for */
  VcUnit unit;
} Terms;

static char *describe_checkpoint_weights (const Terms *t);

/* The weights, and beside them the RoPE tables vLLM and SGLang build on each GPU */
static char *
describe_stored_weights (const Terms *t)
{
  const VcInputs *in = t->in;
  Terms own = *t;
  g_autofree char *own_size = NULL, *table = NULL, *checkpoint = NULL, *rows = NULL;
  guint n_rows, dim;

  if (t->rot || !(t->sc->rope_table > 0) || !vc_engine_rope_table_shape (in, &n_rows, &dim) || n_rows == 0 || dim == 0)
    return describe_checkpoint_weights (t);
  own.size = own_size = vc_format_size (t->sc->bytes[VC_COMPONENT_WEIGHTS] - t->sc->rope_table, t->unit);
  checkpoint = describe_checkpoint_weights (&own);
  table = vc_format_size (t->sc->rope_table, t->unit);
  rows = g_strdup_printf ("%'u", n_rows);
  /* TRANSLATORS: the first %s is the weights' own formula; then the engine, the table's rows,
   * its width, the bytes of a value, its size and the whole */
  return g_strdup_printf (_("%s; plus the RoPE cos/sin tables %s builds on each GPU: %s positions × "
                            "%u rotary dimensions × %g bytes = %s; in all %s"),
                          checkpoint, in->engine == VC_ENGINE_SGLANG ? "SGLang" : "vLLM", rows,
                          dim, t->sc->rope_table / ((double) n_rows * dim),
                          table, t->size);
}

static char *
describe_checkpoint_weights (const Terms *t)
{
  const VcInputs *in = t->in;

  if (t->rot)
    return g_strdup_printf (_("%s parameters × %g bits = %s"), t->P, t->sc->weight_bits, t->size);
  if (t->sc->weights_from_source)
    return g_strdup_printf (_("The tensors of the model's files, %s parameters at %.2f bits a weight = %s"),
                            t->P, t->sc->weight_bits, t->size);
  if (in->mode == VC_MODE_INFERENCE && vc_precision_is_gguf (in->precision) &&
      vc_precision_inference_scenario (in->precision) == t->sc->id)
    return g_strdup_printf (_("Each tensor at the type llama.cpp's %s recipe gives it (output head, some "
                              "attn_v and ffn_down layers higher; norms in F32), %.2f bits a weight = %s"),
                            vc_enum_nick (VC_TYPE_PRECISION, in->precision), t->sc->weight_bits, t->size);
  if (in->mode == VC_MODE_INFERENCE && vc_precision_is_format (in->precision) &&
      vc_precision_inference_scenario (in->precision) == t->sc->id)
    return g_strdup_printf (_("Linear layers in %s with their scales, the rest in 16 bits, %.2f bits a weight = %s"),
                            vc_enum_nick (VC_TYPE_PRECISION, in->precision), t->sc->weight_bits, t->size);
  if (t->sc->weight_bits >= 16)
    return g_strdup_printf (_("%s parameters counted from the architecture × %g bits%s = %s"),
                            t->P, t->sc->weight_bits,
                            t->in->mode == VC_MODE_TRAINING && t->sc->id != VC_SCENARIO_FULL
                              ? _(", plus the LoRA adapters") : "",
                            t->size);
  return g_strdup_printf (_("Linear layers at %.2f bits a weight (scales included); embeddings, "
                            "output head, norms and biases kept in 16 bits%s = %s"),
                          t->sc->weight_bits,
                          t->in->mode == VC_MODE_TRAINING ? _("; plus the LoRA adapters") : "",
                          t->size);
}

/* Of the vision encoder, what vLLM or SGLang divides over the TP ranks, after the weights' text */
static char *
describe_encoder_split (const VcInputs *in,
                        const char     *stored)
{
  gboolean data = in->engine == VC_ENGINE_VLLM && in->mm_encoder_tp_mode == VC_MM_ENCODER_TP_MODE_DATA;
  g_autofree char *split = vc_format_count (data ? in->arch.encoder_vllm_data_tp_params
                                            : in->engine == VC_ENGINE_VLLM ? in->arch.encoder_vllm_tp_params
                                            : in->arch.encoder_sglang_tp_params);
  g_autofree char *all = vc_format_count (in->arch.encoder_params);

  if (data && in->arch.encoder_vllm_data_tp_params == 0)
    return g_strdup_printf (_("%s; of the vision encoder’s %s parameters, with vLLM’s --mm-encoder-tp-mode data all "
                              "whole on each of the %u tensor-parallel ranks"),
                            stored, all, in->layout.tp);
  if (data)
    return g_strdup_printf (_("%s; of the vision encoder’s %s parameters, with vLLM’s --mm-encoder-tp-mode data the "
                              "tower whole on each of the %u tensor-parallel ranks and the %s of its projector’s "
                              "parallel layers divided over them"),
                            stored, all, in->layout.tp, split);
  return g_strdup_printf (_("%s; of the vision encoder’s %s parameters, the %s of %s’s parallel layers "
                            "divided over the %u tensor-parallel ranks, the rest whole on each"),
                          stored, all, split, in->engine == VC_ENGINE_VLLM ? "vLLM" : "SGLang",
                          in->layout.tp);
}

/* The weights, and under vLLM the MXFP4 experts' backend, which pads them on each card beyond
 * what the breakdown (no card) counts (FORMULAS.md, "vLLM's MXFP4 experts") */
static char *
describe_weights (const Terms *t)
{
  const VcInputs *in = t->in;
  g_autofree char *stored = describe_stored_weights (t);

  if (vc_inputs_mmproj_on_gpu (in))
    {
      /* the --mmproj file's tensors, on the first GPU (vc_estimator_inventory) */
      g_autofree char *mm = vc_format_size (in->mmproj_bytes, t->unit);
      g_autofree char *cb = vc_format_size (vc_inputs_mmproj_compute_bytes (in), t->unit);
      char *with = vc_inputs_mmproj_compute_bytes (in) > 0
        ? g_strdup_printf (_("%s, including the multimodal projector file’s tensors, %s, and its compute buffer, %s "
                             "(llama.cpp --mmproj, on the first GPU; the encoder’s graph of its warm-up image)"),
                           stored, mm, cb)
        : g_strdup_printf (_("%s, including the multimodal projector file’s tensors, %s (llama.cpp --mmproj, on the first GPU)"),
                           stored, mm);

      g_free (stored);
      stored = with;
    }
  /* the vision encoder's share that vLLM or SGLang divides over the TP ranks (vc-layout.c) */
  if (!t->rot && in->mode == VC_MODE_INFERENCE && in->layout.tp > 1 && in->arch.encoder_params > 0
      && (vc_layout_encoder_split (in) > 0
          || (in->engine == VC_ENGINE_VLLM && in->mm_encoder_tp_mode == VC_MM_ENCODER_TP_MODE_DATA)))
    {
      char *with = describe_encoder_split (in, stored);

      g_free (stored);
      stored = with;
    }
  if (t->rot || in->mode != VC_MODE_INFERENCE || in->engine != VC_ENGINE_VLLM || in->method != VC_METHOD_ARCHITECTURE ||
      in->precision != VC_PRECISION_MXFP4 || !vc_arch_is_moe (&in->arch))
    return g_steal_pointer (&stored);
  return g_strdup_printf (_("%s; vLLM’s MXFP4 expert backend: %s, whose padding (Marlin: the intermediate size a GPU "
                            "rounded up to 128, the hidden size to 256) each card’s GPU count and KV capacity add"),
                          stored,
                          in->mxfp4_backend == VC_MXFP4_BACKEND_MARLIN
                            ? _("Marlin (VLLM_MXFP4_USE_MARLIN=1) on compute capability 8.0 and later, 10.x from "
                                "release 0.21")
                          : in->mxfp4_backend == VC_MXFP4_BACKEND_TRITON
                            ? _("Triton’s kernels on compute capability 9.x (the scales swizzled beside the stored "
                                "ones, rows rounded up to 256; the biases in fp32), Marlin on 8.x")
                            : _("vLLM’s choice for the card, Marlin on compute capability 8.x, Triton’s kernels on 9.x from "
                                "release 0.14, not known otherwise"));
}

/* What a token caches, in words */
static const char *
kv_per_token_text (const VcInputs *in)
{
  if (vc_arch_is_mla (&in->arch))
    return _("one latent of kv_lora_rank + rope dimension per layer");
  if (vc_arch_attention_layers (&in->arch) < in->arch.n_layers)
    return _("2 × KV heads × head dimension × the layers with attention");
  return _("2 × KV heads × head dimension × layers");
}

static char *
describe_kv_cache (const Terms *t)
{
  const VcInputs *in = t->in;
  g_autofree char *clauses = NULL, *padded = NULL;

  if (t->rot)
    return g_strdup_printf (_("0.1 × %s activated parameters × 2 bytes × b·s·C / 2048 "
                              "(b = %u, s = %u, C = %u) = %s"),
                            t->A, in->batch, in->seq, in->concurrency, t->size);
  /* the clauses that apply, in the one slot the message has for them */
  if (vc_engine_context_tokens (in) != in->seq && in->engine == VC_ENGINE_SGLANG)
    /* Translators: SGLang's cache: each request takes whole pages of N tokens */
    padded = g_strdup_printf (_(", each request in whole pages of %u tokens by SGLang (%u)"),
                              in->page_size, vc_engine_context_tokens (in));
  else if (vc_engine_context_tokens (in) != in->seq && !vc_engine_is_llama_cpp (in))
    /* Translators: vLLM's cache: each request takes whole blocks of N tokens */
    padded = g_strdup_printf (_(", each request in whole blocks of %u tokens by vLLM (%u)"),
                              in->block_size, vc_engine_context_tokens (in));
  else if (vc_engine_context_tokens (in) != in->seq)
    padded = g_strdup (_(", each context padded to 256 tokens by llama.cpp"));
  clauses = g_strconcat (in->arch.sliding_window > 0 ? _(", sliding-window layers capped at the window") : "",
                         padded ? padded : "", NULL);
  if (vc_engine_is_llama_cpp (in) && in->method == VC_METHOD_ARCHITECTURE)
    {
      /* llama_context's cells: n_ctx for the full-attention layers, each stream's window */
      VcLlamaCpp l;
      const char *k = vc_engine_cache_type_name (in->cache_type_k, in->kv_precision);
      const char *v = vc_engine_cache_type_name (in->cache_type_v, in->kv_precision);
      g_autofree char *window = NULL;
      double cell;

      vc_engine_llama_cpp (in, &l);
      cell = vc_arch_kv_elements_per_token_layer (&in->arch) * (l.k_bytes + l.v_bytes) / 2.0 *
             vc_arch_attention_layers (&in->arch);
      if (in->arch.sliding_window > 0 && in->arch.sliding_window_layers > 0)
        window = g_strdup_printf (_("; its %u sliding-window layers keep %.0f cells in each of %.0f streams "
                                    "(the window of %u + the %.0f-token micro-batch, padded to 256)"),
                                  in->arch.sliding_window_layers, l.swa_cells, l.n_stream,
                                  in->arch.sliding_window, l.n_ubatch);
      return g_strdup_printf (_("llama.cpp %s keys and %s values: %.0f bytes per cell (%s) × %.0f cells "
                                "(%.0f sequences × %.0f tokens, the context padded to 256, in %.0f %s)%s = %s"),
                              k ? k : "?", v ? v : "?",
                              cell, kv_per_token_text (in), l.n_ctx, l.n_seq, l.n_ctx / l.n_seq,
                              l.n_stream, in->kv_unified ? _("unified stream") : _("streams"),
                              window ? window : "", t->size);
    }
  return g_strdup_printf (_("%.0f bytes per token (%s) × b·s·C tokens (b = %u, s = %u, C = %u)%s = %s"),
                          t->r->kv_bytes_per_token,
                          kv_per_token_text (in),
                          in->batch, in->seq, in->concurrency, clauses, t->size);
}

/* After the sequence state's description (`text`, taken): the one Mamba-2 group TP does not
 * divide, which vLLM and SGLang repeat on every rank (vc-engine-state.c) */
static char *
add_repeated_group (const Terms *t,
                    char        *text)
{
  const VcInputs *in = t->in;
  double tp = MAX (1u, in->layout.tp), repeated = vc_engine_state_repeated_bytes (in, tp);
  double rank_conv, rank_ssm;
  g_autofree char *head = text;
  g_autofree char *on_rank = NULL, *more = NULL;

  if (in->mode != VC_MODE_INFERENCE || !(repeated > 0) ||
      !vc_engine_state_rank_state (in, tp, &rank_conv, &rank_ssm))
    return g_steal_pointer (&head);
  on_rank = vc_format_count (rank_conv);
  more = vc_format_size (repeated, t->unit);
  if (in->engine == VC_ENGINE_VLLM)
    return g_strdup_printf (_("%s; at TP %u vLLM repeats the mixer’s one group on every rank: "
                              "%s convolution values a layer on each, and %s of weights more than "
                              "an even split"),
                            head, (guint) tp, on_rank, more);
  return g_strdup_printf (_("%s; at TP %u SGLang repeats the mixer’s one group on every rank: "
                            "%s convolution values a layer on each, and %s of weights more than "
                            "an even split"),
                          head, (guint) tp, on_rank, more);
}

/* After SGLang's pool (`text`, taken), over several pipeline stages where followed
 * (vc_engine_state_sglang_stages()): the busiest stage's share of the Mamba layers, from the
 * least memory any GPU has left, and the fewest cells of any stage */
static char *
add_sglang_stages (const Terms *t,
                   char        *text)
{
  const VcInputs *in = t->in;
  guint pp = MAX (1u, in->layout.pp), first = 0, most = 0;
  g_autofree char *head = text;

  if (pp <= 1 || !vc_engine_state_sglang_followed (in, MAX (1u, in->layout.tp), pp))
    return g_steal_pointer (&head);
  for (guint s = 0; s < pp; s++)
    {
      guint n = vc_layout_stage_size (in, pp, s);
      double attention, mixers;

      if (vc_arch_stage_kinds (&in->arch, first, n, &attention, &mixers))
        most = MAX (most, (guint) mixers);
      first += n;
    }
  return g_strdup_printf (_("%s; over %u pipeline stages every stage charges a request the state of the "
                            "busiest stage’s %u Mamba layers, from the least memory any GPU has left after "
                            "its weights, and the fewest cells of any stage are kept"),
                          head, pp, most);
}

/* Linear-attention and state-space layers: a state per sequence, whatever the context */
static char *
describe_sequence_state (const Terms *t)
{
  const VcInputs *in = t->in;
  g_autofree char *values = vc_format_count (in->arch.recurrent_state);
  g_autofree char *text = g_strdup_printf (_("%u linear-attention or state-space layers × %s values each per sequence "
                                             "(convolution and recurrent state, which do not grow with the context) "
                                             "× b·C sequences (b = %u, C = %u) at the KV precision = %s"),
                                           MIN (in->arch.recurrent_layers, in->arch.n_layers), values,
                                           in->batch, in->concurrency, t->size);
  g_autofree char *conv = NULL;

  /* SGLang's Mamba pool (vc-engine-state.c) */
  if (in->mode != VC_MODE_INFERENCE || in->engine != VC_ENGINE_SGLANG || in->arch.recurrent_conv == 0 ||
      in->arch.recurrent_conv >= in->arch.recurrent_state)
    return add_repeated_group (t, g_steal_pointer (&text));
  conv = vc_format_count (in->arch.recurrent_conv);
  {
    g_autofree char *base = g_steal_pointer (&text);

    text = g_strdup_printf (_("%s; SGLang (%s) keeps them in a Mamba pool sized before the KV cache, "
                              "%s convolution values in bfloat16 and the rest in float32, "
                              "0.9 / 1.9 of what its share leaves, in whole requests"),
                            base, vc_enum_nick (VC_TYPE_SGLANG_VERSION, in->sglang_version), conv);
  }
  return add_repeated_group (t, add_sglang_stages (t, g_steal_pointer (&text)));
}

/* Context parallelism and packing, after a training activation's description (`text`, taken). */
static char *
add_training_rules (const Terms *t,
                    char        *text)
{
  const VcInputs *in = t->in;
  g_autoptr(GString) s = g_string_new (text);
  guint cp = vc_training_cp (in);

  g_free (text);
  if (cp > 1)
    {
      g_autofree char *ring = vc_format_size (vc_estimator_ring_bytes (in), t->unit);

      g_string_append_printf (s, _("; context parallelism: this GPU computes b·s / CP = %.0f tokens of CP %u, "
                                   "with ring attention’s all-gathered keys and values and fp32 gradient "
                                   "buffers in one layer (%s)"),
                              vc_training_rank_tokens (in), cp, ring);
    }
  if (vc_training_packing_bytes (in) > 0)
    {
      g_autofree char *mask = vc_format_size (vc_training_packing_bytes (in), t->unit);

      g_string_append_printf (s, _("; the packed batch’s positions, document ids and block mask (%s)"), mask);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* vLLM's multimodal profile run, where followed (vc-engine-mm.c): the images through the
 * encoder, and the embeddings kept through the text pass; "" otherwise */
static char *
vllm_mm_clause (const Terms *t,
                guint        tokens,
                guint        seqs)
{
  VcVllmMmProfile mm;
  g_autofree char *pass = NULL, *kept = NULL, *items = NULL;

  if (!vc_engine_mm_vllm_profile (t->in, tokens, seqs, 1, &mm))
    return g_strdup ("");
  pass = vc_format_size (mm.encoder_pass_bytes, t->unit);
  kept = vc_format_size (mm.cache_bytes, t->unit);
  items = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%.0f image", "%.0f images", (gulong) mm.items), mm.items);
  if (mm.deepstack_bytes > 0)
    {
      g_autofree char *deep = vc_format_size (mm.deepstack_bytes, t->unit);

      /* Translators: ", or first the encoder's pass over 1 image (2.4 GB), whose embeddings
       * (738 MB at an encoder budget of 16384 tokens) the text pass adds to, with Qwen3-VL's
       * deepstack buffers (201 MB) held throughout" */
      return g_strdup_printf (_(", or first the encoder’s pass over %s (%s), whose embeddings "
                                "(%s at an encoder budget of %.0f tokens) the text pass adds to, with Qwen3-VL’s "
                                "deepstack buffers (%s) held throughout"),
                              items, pass, kept, mm.budget_tokens, deep);
    }
  /* Translators: ", or first the encoder's pass over 31 images (3.2 GB), whose embeddings
   * (2.9 GB at an encoder budget of 8192 tokens) the text pass adds to" */
  return g_strdup_printf (_(", or first the encoder’s pass over %s (%s), whose embeddings "
                            "(%s at an encoder budget of %.0f tokens) the text pass adds to"),
                          items, pass, kept, mm.budget_tokens);
}

/* the MoE experts' workspace vLLM 0.14 and later keep (vc-estimator.c), where there is one */
static char *
vllm_moe_clause (const Terms *t,
                 guint        tokens)
{
  double bytes = vc_estimator_vllm_moe_workspace_bytes (t->in, tokens, 1);
  double bound = vc_estimator_vllm_moe_workspace_bound_bytes (t->in, tokens, 1);
  g_autofree char *size = NULL;

  /* quantized experts: their kernel, and so its workspace, is the machine's; its bound */
  if (bound > 0 && t->in->kv_cache_memory_gb <= 0)
    {
      size = vc_format_size (bound, t->unit);
      /* Translators: ", not counting the quantized MoE experts' workspace (up to 670 MB), ..." */
      return g_strdup_printf (_(", not counting the quantized MoE experts’ workspace (up to %s), whose kernel "
                                "vLLM picks by the kernels installed and the card"),
                              size);
    }
  if (!(bytes > 0))
    return g_strdup ("");
  size = vc_format_size (bytes, t->unit);
  /* Translators: ", and the MoE experts' workspace (512 MB), which the sampler finds still held" */
  return g_strdup_printf (_(", and the MoE experts’ workspace (%s), still held at the sampler"), size);
}

/* vLLM 0.17's Triton top-k/top-p kernel's buffer (vc-estimator.c), where the profile run takes
 * that kernel: counted on a card whose SM count is known, its bound otherwise */
static char *
vllm_triton_clause (const Terms *t,
                    guint        requests)
{
  double bytes, bound;
  g_autofree char *size = NULL;

  if (!vc_estimator_vllm_triton_buffer (t->in, requests, &bytes, &bound))
    return g_strdup ("");
  size = vc_format_size (bytes > 0 ? bytes : bound, t->unit);
  if (bytes > 0)
    /* Translators: ", and the Triton top-k/top-p kernel's buffer (132 SMs: 80 MB)" */
    return g_strdup_printf (_(", and the Triton top-k/top-p kernel’s buffer (%u SMs: %s)"), t->in->gpu_sm_count, size);
  /* Translators: ", and the Triton top-k/top-p kernel's buffer, min(SMs, requests) rows of the
   * vocabulary rounded up to a power of two, at most the card's SMs: not counted without a
   * card (up to 622 MB)" */
  return g_strdup_printf (_(", and the Triton top-k/top-p kernel’s buffer, min(SMs, requests) rows of the "
                            "vocabulary rounded up to a power of two, at most the card’s SMs: not counted "
                            "without a card’s SM count (up to %s)"),
                          size);
}

/* the profile run vLLM reserves (FORMULAS.md, "Engines") */
static char *
describe_vllm_profile (const Terms *t)
{
  const VcInputs *in = t->in;
  guint tokens, seqs;
  g_autofree char *mm = NULL, *non_torch = NULL, *moe = NULL, *workspace = NULL, *triton = NULL;

  vc_engine_vllm_batch (in, NULL, &tokens, &seqs);
  mm = vllm_mm_clause (t, tokens, seqs);
  workspace = vllm_moe_clause (t, tokens);
  triton = vllm_triton_clause (t, MIN (seqs, tokens));
  moe = g_strconcat (workspace, triton, NULL);
  non_torch = vc_format_size (VC_VLLM_NON_TORCH_BYTES, t->unit);
  return g_strdup_printf (_("vLLM’s profile run: the larger of a forward pass of %u tokens "
                            "(max_num_batched_tokens) and the sampler’s logits for %u requests "
                            "(max_num_seqs) × %u vocabulary at %.0f bytes each, with the hidden "
                            "states%s%s, plus the %s outside PyTorch (cuBLAS’s handles, the kernels "
                            "CUDA loads) vLLM logs on one GPU; vLLM’s defaults for cards of 70 GiB "
                            "or more unless given, each card’s own in its GPU count, fit and KV "
                            "capacity; vLLM %s: %s = %s"),
                          tokens, MIN (seqs, tokens), in->arch.vocab_size,
                          vc_estimator_vllm_sampler_bytes_per_logit (in, MIN (seqs, tokens)), moe, mm, non_torch,
                          vc_enum_nick (VC_TYPE_VLLM_VERSION, in->vllm_version),
                          in->enforce_eager ? _("eager, no CUDA graphs")
                          : in->vllm_version == VC_VLLM_VERSION_0_10
                            ? _("CUDA graphs captured after the cache is sized, NCCL set up after the memory snapshot")
                            : _("CUDA graphs captured after the cache is sized, outside the memory share"),
                          t->size);
}

static char *
describe_activations (const Terms *t)
{
  const VcInputs *in = t->in;

  if (t->rot)
    return g_strdup_printf (_("0.1 × %s activated parameters × 2 bytes × b·s / 2048 "
                              "(b = %u, s = %u)%s = %s"),
                            t->A, in->batch, in->seq,
                            in->mode == VC_MODE_TRAINING && in->checkpointing != VC_CHECKPOINTING_NONE
                              ? _(", reduced by gradient checkpointing") : "",
                            t->size);
  if (vc_engine_is_llama_cpp (in) && in->method == VC_METHOD_ARCHITECTURE)
    {
      VcLlamaCpp l;
      g_autofree char *output = NULL;

      VcLlamaGraph g;

      vc_engine_llama_cpp (in, &l);
      output = vc_format_size (l.output_bytes, t->unit);
      if (vc_estimator_llama_cpp_graph (in, &g))
        return g_strdup_printf (_("llama.cpp compute buffer: ggml-alloc’s high-water mark over the worst-case graph "
                                  "of %u tokens (-ub %u, -b %u; %u outputs, %u streams of %.0f cells), each tensor "
                                  "placed in the best-fitting free block or in place of its parent, freed after "
                                  "its last use (%s); the %s output buffer (one token’s logits a sequence) "
                                  "is in system memory = %s"),
                                g.n_tokens, vc_engine_default_ubatch (in), vc_engine_default_batch (in),
                                g.n_outputs, g.n_stream, g.n_kv,
                                in->flash_attention ? _("flash attention, no scores stored")
                                                    : _("the f32 scores of every head against its stream's cells"),
                                output, t->size);
      return g_strdup_printf (_("llama.cpp compute buffer for a micro-batch of %.0f tokens (-ub %u, -b %u): the largest of "
                                "the attention (%s), the feed-forward block and the f32 logits of every token, "
                                "each beside the attention masks over %.0f cells a stream; the %s output buffer "
                                "(one token's logits a sequence) is in system memory = %s"),
                              l.n_ubatch, vc_engine_default_ubatch (in), vc_engine_default_batch (in),
                              in->flash_attention ? _("flash attention, no scores stored")
                                                  : _("the f32 scores of every head against its stream's cells"),
                              l.n_ctx_seq, output, t->size);
    }
  if (in->mode == VC_MODE_INFERENCE && in->engine == VC_ENGINE_VLLM)
    return describe_vllm_profile (t);
  if (in->mode == VC_MODE_INFERENCE)
    {
      g_autofree char *clauses =
        g_strconcat (in->flash_attention ? "" : _(", the s × s attention scores"),
                     vc_engine_transient_bytes (in, t->sc->bytes[VC_COMPONENT_KV_CACHE]) > 0
                       ? _(", one layer's keys and values copied as Transformers appends to its cache") : "",
                     NULL);

      return g_strdup_printf (_("Largest one-layer transient for up to 8192 prefill tokens, "
                                "the residual stream%s and the last position's logits = %s"),
                              clauses, t->size);
    }
  if (t->sc->peak_phase == VC_PHASE_STEP)
    return g_strdup_printf (_("None at the peak (the optimizer step, after the backward pass freed them) = %s"), t->size);
  if (t->sc->peak_phase == VC_PHASE_BACKWARD)
    return add_training_rules (t, g_strdup_printf (_("Peak at the end of the backward pass: one layer's transient "
                                                     "for b·s = %u tokens = %s"), in->batch * in->seq, t->size));
  return add_training_rules (t, g_strdup_printf (_("Peak at the start of the backward pass: what autograd saved for "
                            "b·s = %u tokens in %u layers (%s), plus the logits "
                            "b·s × %u vocabulary × %s = %s"),
                          in->batch * in->seq, in->arch.n_layers,
                          vc_trainer_offloads_checkpoints (in) ? _("layer inputs offloaded to system RAM, one layer recomputed")
                          : in->checkpointing == VC_CHECKPOINTING_FULL ? _("layer inputs only, one layer recomputed")
                          : in->checkpointing == VC_CHECKPOINTING_SQRT ? _("√L checkpoints")
                          : in->checkpointing == VC_CHECKPOINTING_SELECTIVE_LAYERS
                          ? _("every N-th layer’s input, all the other layers save, one layer recomputed (torchtitan’s selective per layer)")
                          : in->checkpointing == VC_CHECKPOINTING_SELECTIVE
                          ? _("each layer’s input and the outputs torchtitan’s selective per-op checkpointing keeps: "
                              "every other matrix product and the attention, one layer recomputed")
                          : _("no checkpointing"),
                          in->arch.vocab_size,
                          vc_trainer_loss (in) == VC_LOSS_FUSED ? _("one chunk of logits at a time, with the input's and the head's gradients (fused linear cross-entropy)")
                          : vc_trainer_loss (in) == VC_LOSS_CCE ? _("no logits, an fp32 log-sum-exp a token (cut cross-entropy)")
                          : vc_trainer_compiles_loss (in)
                          ? (vc_trainer_loss (in) == VC_LOSS_CHUNKED ? _("2 bytes (compiled chunked loss)")
                                                         : _("fp32 logits and their gradient (compiled loss)"))
                          : vc_trainer_frees_logits (in)
                          ? _("12 bytes: the fp32 log-softmax, its gradient and the input’s, the 16-bit logits freed before the backward pass (torchtitan)")
                          : vc_trainer_loss (in) == VC_LOSS_CHUNKED ? _("4 bytes (chunked loss)")
                                                      : _("16-bit logits, fp32 copy and its log-softmax"),
                          t->size));
}

static char *
describe_gradients (const Terms *t)
{
  if (!t->rot && t->sc->peak_phase == VC_PHASE_FORWARD)
    return g_strdup_printf (_("Not yet allocated at the peak (start of the backward pass); "
                              "%s trainable parameters"), t->T);
  if (t->in->optimizer_in_backward)
    return g_strdup_printf (_("The optimizer steps each parameter in the backward pass and frees its "
                              "gradient: the largest trainable tensor's gradient alone, of %s trainable "
                              "parameters = %s"), t->T, t->size);
  return g_strdup_printf (_("%s trainable parameters × %g bytes = %s"), t->T,
                          vc_precision_bytes ((VcPrecision) t->in->training_precision),
                          t->size);
}

static const char *
optimizer_state (const VcInputs *in)
{
  gboolean bf16 = in->optimizer_precision == VC_STATE_PRECISION_BF16;

  switch (in->optimizer)
    {
    case VC_OPTIMIZER_SGD:
      return _("none");
    case VC_OPTIMIZER_ADAMW_8BIT:
      return _("2 × 1 byte");
    case VC_OPTIMIZER_PAGED_ADAMW_8BIT:
      return _("2 × 1 byte and an fp32 absmax per 256, fp32 under 4,096 elements");
    case VC_OPTIMIZER_SGD_MOMENTUM:
    case VC_OPTIMIZER_RMSPROP:
      return bf16 ? _("1 × 2 bytes") : _("1 × 4 bytes");
    default:
      return bf16 ? _("2 × 2 bytes") : _("2 × 4 bytes");
    }
}

static char *
describe_optimizer (const Terms *t)
{
  if (t->in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT && !t->rot)
    {
      g_autofree char *paged = vc_format_size (t->sc->paged_optimizer, t->unit);

      return g_strdup_printf (_("%s trainable parameters × %s state (%s): what PyTorch allocates "
                                "(absmax, tensors under 100,000 elements) = %s; the states of larger "
                                "tensors, %s, are paged (CUDA unified memory, which the driver moves to "
                                "system RAM when the GPU runs short) and left out of the total"),
                              t->T, vc_enum_nick (VC_TYPE_OPTIMIZER, t->in->optimizer),
                              optimizer_state (t->in), t->size, paged);
    }
  if (!t->rot && t->sc->peak_phase == VC_PHASE_STEP)
    {
      g_autofree char *step = vc_format_size (t->sc->step_temporary, t->unit);

      return g_strdup_printf (_("%s trainable parameters × %s state (%s), plus the foreach step’s "
                                "temporary at the peak, one state a parameter (torch._foreach_sqrt), "
                                "%s = %s"), t->T,
                              vc_enum_nick (VC_TYPE_OPTIMIZER, t->in->optimizer),
                              optimizer_state (t->in), step, t->size);
    }
  return g_strdup_printf (_("%s trainable parameters × %s state (%s) = %s"), t->T,
                          vc_enum_nick (VC_TYPE_OPTIMIZER, t->in->optimizer),
                          optimizer_state (t->in), t->size);
}

/**
 * vc_formula_describe:
 * @scenario_index: a scenario of the estimate's result
 * @component: one of its components
 * @unit: the unit of the size shown
 *
 * Returns: (transfer full): how the component's size is computed, with the values used
 */
char *
vc_formula_describe (VcEstimate  *estimate,
                     guint        scenario_index,
                     VcComponent  component,
                     VcUnit       unit)
{
  g_autofree char *P = NULL, *A = NULL, *T = NULL, *size = NULL;
  Terms t;

  g_return_val_if_fail (VC_IS_ESTIMATE (estimate), NULL);
  t.in = vc_estimate_get_inputs (estimate);
  t.r = vc_estimate_get_result (estimate);
  g_return_val_if_fail (scenario_index < t.r->n_scenarios, NULL);
  t.sc = &t.r->scenarios[scenario_index];
  t.rot = t.in->method == VC_METHOD_RULE_OF_THUMB;
  t.P = P = vc_format_count (t.r->parameters);
  t.A = A = vc_format_count (t.r->active_parameters);
  t.T = T = vc_format_count (t.sc->trainable_parameters);
  t.size = size = vc_format_size (t.sc->bytes[component], unit);
  t.unit = unit;

  switch (component)
    {
    case VC_COMPONENT_WEIGHTS:
      return describe_weights (&t);
    case VC_COMPONENT_KV_CACHE:
      return describe_kv_cache (&t);
    case VC_COMPONENT_SEQUENCE_STATE:
      return describe_sequence_state (&t);
    case VC_COMPONENT_ACTIVATIONS:
      return describe_activations (&t);
    case VC_COMPONENT_GRADIENTS:
      return describe_gradients (&t);
    case VC_COMPONENT_OPTIMIZER:
      return describe_optimizer (&t);
    case VC_COMPONENT_MASTER_WEIGHTS:
      return g_strdup_printf (_("fp32 master copy: %s trainable parameters × 4 bytes = %s"), T, size);
    case VC_COMPONENT_OVERHEAD:
      {
        /* vLLM's and SGLang's custom all-reduce under TP (vc-engine-comm.c) */
        g_autofree char *comm = vc_engine_comm_describe (t.in, MAX (1u, t.in->layout.tp));

        return g_strdup_printf (_("CUDA context, kernels, library workspaces and framework, per GPU%s = %s%s"),
                                t.in->overhead_gb < 0 ? _(" (default)") : "", size, comm);
      }
    default:
      return g_strdup ("");
    }
}
