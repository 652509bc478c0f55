/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-inference-page.c: the Inference tab: the model, the weight and KV cache precisions, the
 * serving workload and its layout over GPUs. */
#define G_LOG_DOMAIN "vc-inference-page"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-compat.h"
#include "vc-engine.h"
#include "vc-inference-page.h"
#include "vc-a11y.h"
#include "vc-drop-down.h"
#include "vc-grid-row.h"
#include "vc-input-bind.h"
#include "vc-method-note.h"
#include "vc-model-section.h"
#include "vc-page-choices.h"

struct _VcInferencePage
{
  GtkWidget parent_instance;

  VcEstimate *estimate;

  GtkWidget *box;
  VcModelSection *model_section;
  GtkLabel *method_note;
  GtkGrid *workload_grid;
  VcDropDown *precision;
  VcDropDown *kv_precision;
  GtkSpinButton *batch;
  GtkSpinButton *seq;
  GtkSpinButton *concurrency;
  GtkSwitch *flash_attention;
  GtkSpinButton *overhead_gb;
  VcDropDown *engine;
  GtkSpinButton *memory_fraction;
  GtkSpinButton *block_size;
  GtkSpinButton *max_num_batched_tokens;
  GtkSpinButton *max_num_seqs;
  GtkSpinButton *limit_mm_per_prompt;
  GtkSpinButton *kv_cache_memory;
  VcDropDown *engine_version;
  VcDropDown *mxfp4_backend;
  VcDropDown *mm_encoder_tp_mode;
  VcDropDown *vllm_sampler;
  VcDropDown *sglang_version;
  GtkSwitch *enforce_eager;
  GtkSwitch *disable_custom_all_reduce;
  GtkSpinButton *mem_fraction_static;
  GtkSpinButton *page_size;
  GtkSpinButton *n_ubatch;
  GtkSpinButton *n_batch;
  GtkSwitch *kv_unified;
  GtkWidget *mmproj_box;
  GtkButton *mmproj_choose;
  GtkLabel *mmproj_label;
  GtkButton *mmproj_clear;
  GtkSwitch *mmproj_offload;
  VcDropDown *cache_type_k;
  VcDropDown *cache_type_v;
  GtkGrid *layout_grid;
  GtkLabel *gpu_count;
  GtkSpinButton *tp;
  GtkSpinButton *pp;
  GtkSpinButton *ep;
  GtkSpinButton *dp;
  GtkSpinButton *gpus_per_node;
  GtkSpinButton *gpu_layers;
  GtkSwitch *experts_on_cpu;
};

static const VcChoice engine_choices[] = {
  { VC_ENGINE_GENERIC, N_("Generic") },
  { VC_ENGINE_VLLM, N_("vLLM") },
  { VC_ENGINE_SGLANG, N_("SGLang") },
  { VC_ENGINE_LLAMA_CPP, N_("llama.cpp") },
  { VC_ENGINE_TRANSFORMERS, N_("Transformers") },
  { VC_ENGINE_OLLAMA, N_("Ollama") },
};

/* vLLM's --engine-version: the releases whose arithmetic differs */
static const VcChoice engine_version_choices[] = {
  { VC_VLLM_VERSION_0_10, N_("0.10 and earlier") },
  { VC_VLLM_VERSION_0_11, N_("0.11 to 0.13") },
  { VC_VLLM_VERSION_0_14, N_("0.14 to 0.16") },
  { VC_VLLM_VERSION_0_17, N_("0.17 to 0.19") },
  { VC_VLLM_VERSION_0_21, N_("0.21 and later") },
};

/* vLLM's --mm-encoder-tp-mode: the vision encoder divided over the TP ranks or whole on each */
static const VcChoice mm_encoder_tp_mode_choices[] = {
  { VC_MM_ENCODER_TP_MODE_WEIGHTS, N_("Weights divided (vLLM’s default)") },
  { VC_MM_ENCODER_TP_MODE_DATA, N_("Whole on each GPU, images split (data)") },
};

/* vLLM's --vllm-sampler: the profile run's top-k/top-p sampler */
static const VcChoice vllm_sampler_choices[] = {
  { VC_VLLM_SAMPLER_SORT, N_("PyTorch’s sort (VLLM_USE_FLASHINFER_SAMPLER=0)") },
  { VC_VLLM_SAMPLER_FLASHINFER, N_("FlashInfer’s (VLLM_USE_FLASHINFER_SAMPLER=1)") },
};

/* vLLM's --mxfp4-backend: the backend of MXFP4 experts */
static const VcChoice mxfp4_backend_choices[] = {
  { VC_MXFP4_BACKEND_AUTO, N_("vLLM’s choice for the card") },
  { VC_MXFP4_BACKEND_MARLIN, N_("Marlin (VLLM_MXFP4_USE_MARLIN=1)") },
  { VC_MXFP4_BACKEND_TRITON, N_("Triton’s kernels (triton_kernels installed)") },
};

/* SGLang's --sglang-version: the sources whose pool rules differ for models with
 * linear-attention or state-space layers */
static const VcChoice sglang_version_choices[] = {
  { VC_SGLANG_VERSION_001CCEF, N_("Commit 001ccef (model runner mixin)") },
  { VC_SGLANG_VERSION_003FCA8, N_("Commit 003fca8 (KV-cache configurator)") },
};

/* llama.cpp's --cache-type-k/-v */
static const VcChoice cache_type_choices[] = {
  { VC_CACHE_TYPE_AUTO, N_("As the KV precision") },
  { VC_CACHE_TYPE_F32, "f32" },
  { VC_CACHE_TYPE_F16, "f16" },
  { VC_CACHE_TYPE_BF16, "bf16" },
  { VC_CACHE_TYPE_Q8_0, "q8_0" },
  { VC_CACHE_TYPE_Q4_0, "q4_0" },
  { VC_CACHE_TYPE_Q4_1, "q4_1" },
  { VC_CACHE_TYPE_IQ4_NL, "iq4_nl" },
  { VC_CACHE_TYPE_Q5_0, "q5_0" },
  { VC_CACHE_TYPE_Q5_1, "q5_1" },
};

G_DEFINE_FINAL_TYPE (VcInferencePage, vc_inference_page, GTK_TYPE_WIDGET)

static void
update_applicable (VcInferencePage *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);

  gboolean arch = in->method == VC_METHOD_ARCHITECTURE;
  gboolean moe = arch && vc_arch_is_moe (&in->arch);
  gboolean vllm = in->engine == VC_ENGINE_VLLM;
  gboolean sglang = in->engine == VC_ENGINE_SGLANG;
  /* llama.cpp or Ollama chosen, or a GGUF file with the engine left generic */
  gboolean llama = arch && vc_engine_is_llama_cpp (in);
  guint n = vc_layout_n_gpus (&in->layout);
  g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u GPU", "%u GPUs", n), n);

  /* what does not apply is hidden with its label: the rule of thumb has no attention to fuse,
   * and vLLM picks its attention kernel itself (its profile run skips attention), no layers to
   * place and no experts to split; only vLLM and SGLang reserve a share of the GPU and cut their
   * cache in blocks, each with its own inputs */
  vc_grid_row_set_visible (GTK_WIDGET (self->flash_attention), arch && !vllm);
  vc_grid_row_set_visible (GTK_WIDGET (self->ep), moe);
  /* llama.cpp's offload, which vLLM and SGLang refuse: shown where it is given, so that it can
   * be taken back */
  vc_grid_row_set_visible (GTK_WIDGET (self->gpu_layers), (arch && !vllm && !sglang) || in->layout.gpu_layers > 0);
  vc_grid_row_set_visible (GTK_WIDGET (self->experts_on_cpu), (moe && !vllm && !sglang) || in->layout.experts_on_cpu);
  vc_grid_row_set_visible (GTK_WIDGET (self->memory_fraction), vllm);
  vc_grid_row_set_visible (GTK_WIDGET (self->block_size), vllm);
  vc_grid_row_set_visible (GTK_WIDGET (self->max_num_batched_tokens), vllm);
  vc_grid_row_set_visible (GTK_WIDGET (self->max_num_seqs), vllm);
  /* vLLM's images a prompt, for a model with a vision encoder, and wherever one is given */
  vc_grid_row_set_visible (GTK_WIDGET (self->limit_mm_per_prompt),
                           (vllm && in->arch.encoder_params > 0) || in->limit_mm_per_prompt != 999);
  vc_grid_row_set_visible (GTK_WIDGET (self->kv_cache_memory), vllm);
  vc_grid_row_set_visible (GTK_WIDGET (self->engine_version), vllm);
  vc_grid_row_set_visible (GTK_WIDGET (self->enforce_eager), vllm);
  /* vLLM's MXFP4 experts, and wherever Marlin is asked for, so that it can be taken back */
  vc_grid_row_set_visible (GTK_WIDGET (self->mxfp4_backend),
                           (vllm && moe && in->precision == VC_PRECISION_MXFP4) ||
                           in->mxfp4_backend != VC_MXFP4_BACKEND_AUTO);
  /* vLLM's encoder mode, for a model with a vision encoder, and wherever data is asked for */
  vc_grid_row_set_visible (GTK_WIDGET (self->mm_encoder_tp_mode),
                           (vllm && in->arch.encoder_params > 0) || in->mm_encoder_tp_mode == VC_MM_ENCODER_TP_MODE_DATA);
  /* vLLM's sampler, and wherever FlashInfer's is asked for, so that it can be taken back */
  vc_grid_row_set_visible (GTK_WIDGET (self->vllm_sampler), vllm || in->vllm_sampler == VC_VLLM_SAMPLER_FLASHINFER);
  vc_grid_row_set_visible (GTK_WIDGET (self->disable_custom_all_reduce), vllm || sglang);
  vc_grid_row_set_visible (GTK_WIDGET (self->mem_fraction_static), sglang);
  vc_grid_row_set_visible (GTK_WIDGET (self->page_size), sglang);
  vc_grid_row_set_visible (GTK_WIDGET (self->sglang_version), sglang);
  /* llama.cpp's (and Ollama's) batch sizes, streams and cache types */
  vc_grid_row_set_visible (GTK_WIDGET (self->n_ubatch), llama);
  vc_grid_row_set_visible (GTK_WIDGET (self->n_batch), llama);
  vc_grid_row_set_visible (GTK_WIDGET (self->kv_unified), llama);
  /* llama.cpp's --mmproj, and wherever one is given, so that it can be taken back */
  vc_grid_row_set_visible (self->mmproj_box, llama || in->mmproj_bytes > 0);
  vc_grid_row_set_visible (GTK_WIDGET (self->mmproj_offload), (llama && in->mmproj_bytes > 0) || !in->mmproj_offload);
  vc_grid_row_set_visible (GTK_WIDGET (self->cache_type_k), llama);
  vc_grid_row_set_visible (GTK_WIDGET (self->cache_type_v), llama);
  /* TP × PP × DP, as the layout has it */
  gtk_label_set_label (self->gpu_count, count);
}

/* The inputs the estimate by parameter count has no place for (its KV cache is a share of the
 * 16-bit weights, FORMULAS.md's seed rule: no KV precision, no attention kernel; llama.cpp's
 * batches, streams and cache types size the architecture's graph and cache only): the rows
 * hidden under that method but the KV precision's, which stays in view. Expert parallelism,
 * layers on the GPU and experts on the CPU are refused under it, not kept. */
static const char *const unused_by_count[] = {
  "kv-precision", "flash-attention", "n-ubatch", "n-batch", "kv-unified", "cache-type-k", "cache-type-v",
};

/* A value set before switching to the estimate by parameter count stays in the estimate (and in
 * a saved profile) but is not used: said under the method, naming each, as the Training tab
 * does (and vramcalc's note) */
static void
update_method_note (VcInferencePage *self)
{
  vc_method_note_update (self->method_note, self->estimate, GTK_WIDGET (self), VC_TYPE_INFERENCE_PAGE,
                         unused_by_count, G_N_ELEMENTS (unused_by_count));
}

/* The projector's file name on its button, "None" without one */
static void
update_mmproj_label (VcInferencePage *self)
{
  const char *path = vc_estimate_get_mmproj (self->estimate);
  g_autofree char *base = *path ? g_path_get_basename (path) : NULL;

  gtk_label_set_label (self->mmproj_label, base ? base : _("None"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->mmproj_clear), base != NULL);
}

void
vc_inference_page_set_estimate (VcInferencePage *self,
                                VcEstimate      *estimate)
{
  g_return_if_fail (VC_IS_INFERENCE_PAGE (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (self->estimate == NULL);

  self->estimate = g_object_ref (estimate);
  vc_model_section_set_estimate (self->model_section, estimate);
  vc_bind_choices (self->precision, estimate, "precision",
                   vc_weight_precision_choices, vc_n_weight_precision_choices);
  vc_bind_choices (self->kv_precision, estimate, "kv-precision",
                   vc_precision_choices, vc_n_precision_choices);
  vc_bind_spin (self->batch, estimate, "batch", 1, 0);
  vc_bind_spin (self->seq, estimate, "seq", 256, 0);
  vc_bind_spin (self->concurrency, estimate, "concurrency", 1, 0);
  vc_bind_active (GTK_WIDGET (self->flash_attention), estimate, "flash-attention");
  vc_bind_spin_with_default (self->overhead_gb, estimate, "overhead-gb", 0.1, 1);
  vc_bind_choices (self->engine, estimate, "engine", engine_choices, G_N_ELEMENTS (engine_choices));
  vc_bind_spin (self->memory_fraction, estimate, "memory-fraction", 0.01, 2);
  vc_bind_spin (self->block_size, estimate, "block-size", 1, 0);
  /* 0 is the engine's own choice, shown as a word */
  vc_bind_spin_with_word (self->max_num_batched_tokens, estimate, "max-num-batched-tokens", 256, 0, 0,
                          C_("engine value", "Default"));
  vc_bind_spin_with_word (self->max_num_seqs, estimate, "max-num-seqs", 8, 0, 0, C_("engine value", "Default"));
  vc_bind_spin (self->limit_mm_per_prompt, estimate, "limit-mm-per-prompt", 1, 0);
  vc_bind_spin_with_word (self->kv_cache_memory, estimate, "kv-cache-memory", 1, 1, 0, C_("kv cache memory", "Profiled"));
  vc_bind_choices (self->engine_version, estimate, "engine-version", engine_version_choices,
                   G_N_ELEMENTS (engine_version_choices));
  vc_bind_choices (self->sglang_version, estimate, "sglang-version", sglang_version_choices,
                   G_N_ELEMENTS (sglang_version_choices));
  vc_bind_choices (self->mxfp4_backend, estimate, "mxfp4-backend", mxfp4_backend_choices,
                   G_N_ELEMENTS (mxfp4_backend_choices));
  vc_bind_choices (self->mm_encoder_tp_mode, estimate, "mm-encoder-tp-mode", mm_encoder_tp_mode_choices,
                   G_N_ELEMENTS (mm_encoder_tp_mode_choices));
  vc_bind_choices (self->vllm_sampler, estimate, "vllm-sampler", vllm_sampler_choices,
                   G_N_ELEMENTS (vllm_sampler_choices));
  vc_bind_active (GTK_WIDGET (self->enforce_eager), estimate, "enforce-eager");
  vc_bind_active (GTK_WIDGET (self->disable_custom_all_reduce), estimate, "disable-custom-all-reduce");
  vc_bind_spin_with_word (self->mem_fraction_static, estimate, "mem-fraction-static", 0.01, 3, 0,
                          C_("engine value", "Default"));
  vc_bind_spin (self->page_size, estimate, "page-size", 1, 0);
  /* 0 takes the engine's default, shown as a word and read back from it */
  vc_bind_spin_with_word (self->n_ubatch, estimate, "n-ubatch", 64, 0, 0, C_("batch", "Default"));
  vc_bind_spin_with_word (self->n_batch, estimate, "n-batch", 64, 0, 0, C_("batch", "Default"));
  vc_bind_active (GTK_WIDGET (self->kv_unified), estimate, "kv-unified");
  vc_bind_active (GTK_WIDGET (self->mmproj_offload), estimate, "mmproj-offload");
  g_signal_connect_object (estimate, "notify::mmproj", G_CALLBACK (update_mmproj_label), self, G_CONNECT_SWAPPED);
  update_mmproj_label (self);
  vc_bind_choices (self->cache_type_k, estimate, "cache-type-k", cache_type_choices, G_N_ELEMENTS (cache_type_choices));
  vc_bind_choices (self->cache_type_v, estimate, "cache-type-v", cache_type_choices, G_N_ELEMENTS (cache_type_choices));
  vc_bind_spin (self->tp, estimate, "tp", 1, 0);
  vc_bind_spin (self->pp, estimate, "pp", 1, 0);
  vc_bind_spin (self->ep, estimate, "ep", 1, 0);
  vc_bind_spin (self->dp, estimate, "dp", 1, 0);
  vc_bind_spin (self->gpus_per_node, estimate, "gpus-per-node", 1, 0);
  /* "Layers on the GPU": 0 means every layer, shown as a word and read back from it */
  vc_bind_spin_with_word (self->gpu_layers, estimate, "gpu-layers", 1, 0, 0, C_("layers", "All"));
  vc_bind_active (GTK_WIDGET (self->experts_on_cpu), estimate, "experts-on-cpu");

  /* the GPU count and what applies follow the layout and the model */
  g_signal_connect_object (estimate, "changed", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::method", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::engine", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::mxfp4-backend", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::vllm-sampler", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::mm-encoder-tp-mode", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::gpu-layers", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::experts-on-cpu", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  update_applicable (self);
  g_signal_connect_object (estimate, "notify::method", G_CALLBACK (update_method_note), self, G_CONNECT_SWAPPED);
  for (guint i = 0; i < G_N_ELEMENTS (unused_by_count); i++)
    {
      g_autofree char *signal = g_strconcat ("notify::", unused_by_count[i], NULL);

      g_signal_connect_object (estimate, signal, G_CALLBACK (update_method_note), self, G_CONNECT_SWAPPED);
    }
  update_method_note (self);
}

GtkWidget *
vc_inference_page_get_model_section (VcInferencePage *self)
{
  g_return_val_if_fail (VC_IS_INFERENCE_PAGE (self), NULL);
  return GTK_WIDGET (self->model_section);
}

static void
vc_inference_page_dispose (GObject *object)
{
  VcInferencePage *self = VC_INFERENCE_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), VC_TYPE_INFERENCE_PAGE);
  g_clear_object (&self->estimate);
  G_OBJECT_CLASS (vc_inference_page_parent_class)->dispose (object);
}

static void
vc_inference_page_class_init (VcInferencePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_inference_page_dispose;

  g_type_ensure (VC_TYPE_MODEL_SECTION);
  g_type_ensure (VC_TYPE_DROP_DOWN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-inference-page.ui");
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, box);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, model_section);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, method_note);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, workload_grid);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, precision);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, kv_precision);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, batch);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, seq);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, concurrency);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, flash_attention);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, overhead_gb);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, engine);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, memory_fraction);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, block_size);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, max_num_batched_tokens);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, max_num_seqs);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, limit_mm_per_prompt);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, kv_cache_memory);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, engine_version);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, mxfp4_backend);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, mm_encoder_tp_mode);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, vllm_sampler);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, sglang_version);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, enforce_eager);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, disable_custom_all_reduce);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, mem_fraction_static);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, page_size);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, n_ubatch);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, n_batch);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, kv_unified);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, mmproj_box);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, mmproj_choose);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, mmproj_label);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, mmproj_clear);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, mmproj_offload);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, cache_type_k);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, cache_type_v);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, layout_grid);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, gpu_count);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, tp);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, pp);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, ep);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, dp);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, gpus_per_node);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, gpu_layers);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, experts_on_cpu);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* Set after the template is built, not in the .ui: see vc_widget_set_tooltip_text(). An input
 * that vramcalc sets too has none here: its tooltip is its property's blurb, vramcalc's help. */
static const VcTooltip tooltips[] = {
  { "enforce_eager", N_("vLLM’s --enforce-eager: no CUDA graphs, so 0.21 and later have none to take from the cache") },
  { "disable_custom_all_reduce", N_("vLLM’s and SGLang’s --disable-custom-all-reduce: NCCL alone, so no custom all-reduce buffers on each GPU at TP 2, 4, 6 or 8") },
  { "mmproj_choose", N_("llama.cpp --mmproj: the model’s vision or audio encoder in its own GGUF file (mmproj-….gguf), counted as weights on the first GPU") },
  { "kv_unified", N_("llama.cpp --kv-unified: one KV buffer shared by every sequence, rather than one stream and one sliding window each") },
  { "gpu_layers", N_("As llama.cpp -ngl: the other layers and the token embedding in system RAM; 0 puts every layer on the GPU") },
  { "experts_on_cpu", N_("Mixture of experts: routed experts kept in system RAM, as llama.cpp --override-tensor exps=CPU") },
};

static void
vc_inference_page_init (VcInferencePage *self)
{
  g_autoptr(GtkSizeGroup) labels = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  gtk_widget_init_template (GTK_WIDGET (self));
  vc_widget_set_template_tooltips (GTK_WIDGET (self), VC_TYPE_INFERENCE_PAGE, tooltips, G_N_ELEMENTS (tooltips));
  vc_a11y_label_mnemonics (GTK_WIDGET (self));
  vc_model_section_align_labels (self->model_section, labels);
  vc_size_group_add_grid_labels (labels, self->workload_grid);
  vc_size_group_add_grid_labels (labels, self->layout_grid);
}
