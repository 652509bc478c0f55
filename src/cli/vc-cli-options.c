/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-cli-options.c: the table of vramcalc's general options, and their help: an input's option
 * reads it from the property it sets (VcEstimate's, or the profile's unit), so that the help,
 * the man page, the completions and the window's tooltip say the same. */
#include "config.h"

#include <glib/gi18n.h>

#include "vc-cli-options.h"
#include "vc-estimate.h"
#include "vc-profile.h"

const VcCliOption vc_cli_options[] = {
  { "mode", OPT_PROPERTY, "mode", "inference|training" },
  { "method", OPT_METHOD, "method", "rule-of-thumb|architecture",
    N_("Default: architecture when the model has one (--preset or architecture options), else rule-of-thumb") },
  { "preset", OPT_PRESET, "preset", "ID", N_("A built-in model (see --list-presets); other options override it") },
  { "config", OPT_CONFIG, NULL, "FILE",
    N_("A model's Hugging Face config.json, or the folder holding it; other options override it") },
  { "model", OPT_MODEL, NULL, "PATH",
    N_("A model's files: a .gguf file, a folder with config.json and safetensors (or a GGUF), or a config.json; read from their headers; other options override them. "
       "Also hf:ORG/NAME[@REVISION][:FILE] or a Hub address (headers read over the network, HF_ENDPOINT, HF_TOKEN and HF_HUB_OFFLINE as the Hub's tools read them) "
       "and ollama:NAME[:TAG] (see --list-local-models)") },
  { "approximate", OPT_APPROXIMATE, NULL, NULL,
    N_("--config, --model: estimate a model whose config holds what is not understood, naming it in the result") },
  { "model-type", OPT_PROPERTY, "model-type", "dense|moe" },
  { "params", OPT_PROPERTY, "parameters", "N" },
  { "active-params", OPT_PROPERTY, "active-parameters", "N" },
  { "precision", OPT_PROPERTY, "precision", "FORMAT" },
  { "training-precision", OPT_PROPERTY, "training-precision", "fp32|fp16|bf16" },
  { "kv-precision", OPT_PROPERTY, "kv-precision", "fp32|fp16|bf16|fp8|int8|int4" },
  { "finetune", OPT_PROPERTY, "finetune", "full|lora|qlora-8bit|qlora-4bit" },
  { "optimizer", OPT_PROPERTY, "optimizer", "NAME" },
  { "optimizer-precision", OPT_PROPERTY, "optimizer-precision", "fp32|bf16" },
  { "batch", OPT_PROPERTY, "batch", "N" },
  { "seq", OPT_PROPERTY, "seq", "N" },
  { "concurrency", OPT_PROPERTY, "concurrency", "N" },
  { "lora-rank", OPT_PROPERTY, "lora-rank", "R" },
  { "lora-percent", OPT_PROPERTY, "lora-percent", "P" },
  { "lora-targets", OPT_PROPERTY, "lora-targets", "LIST" },
  { "mixed-precision", OPT_TRUE, "mixed-precision", NULL, N_("Keep an fp32 master copy of trainable weights") },
  { "no-mixed-precision", OPT_FALSE, "mixed-precision", NULL, NULL },
  { "checkpointing", OPT_PROPERTY, "checkpointing", "none|sqrt|full|selective|selective-layers" },
  { "checkpoint-every", OPT_PROPERTY, "checkpoint-every", "N" },
  { "flash-attention", OPT_TRUE, "flash-attention", NULL, N_("Fused attention, no s × s scores (default)") },
  { "no-flash-attention", OPT_FALSE, "flash-attention", NULL, N_("Eager attention") },
  { "loss", OPT_PROPERTY, "loss", "full|chunked|fused|cce|auto" },
  { "optimizer-impl", OPT_PROPERTY, "optimizer-impl", "auto|foreach|fused" },
  { "compile", OPT_TRUE, "compile", NULL, N_("Training compiled with torch.compile (fused operations keep fewer activations)") },
  { "no-compile", OPT_FALSE, "compile", NULL, NULL },
  { "train-embeddings", OPT_TRUE, "train-embeddings", NULL, N_("LoRA/QLoRA: the token embedding trains too") },
  { "no-train-embeddings", OPT_FALSE, "train-embeddings", NULL, NULL },
  { "expandable-segments", OPT_TRUE, "expandable-segments", NULL, N_("PyTorch's allocator grows one segment per pool (expandable_segments:True)") },
  { "no-expandable-segments", OPT_FALSE, "expandable-segments", NULL, NULL },
  { "trainer", OPT_PROPERTY, "trainer", "generic|hf|trl|axolotl|torchtune|torchtitan|llamafactory|unsloth" },
  { "optimizer-in-backward", OPT_TRUE, "optimizer-in-backward", NULL, N_("Training: each parameter's optimizer step runs in the backward pass and frees its gradient (torchtune's optimizer_in_bwd)") },
  { "no-optimizer-in-backward", OPT_FALSE, "optimizer-in-backward", NULL, NULL },
  { "packing", OPT_TRUE, "packing", NULL, N_("Training: samples packed to the sequence length (torchtune: its block-causal mask and positions; torchtitan always packs, nothing changes)") },
  { "no-packing", OPT_FALSE, "packing", NULL, NULL },
  { "tp", OPT_PROPERTY, "tp", "N" },
  { "pp", OPT_PROPERTY, "pp", "N" },
  { "ep", OPT_PROPERTY, "ep", "N" },
  { "dp", OPT_PROPERTY, "dp", "N" },
  { "zero", OPT_ZERO, "sharding", "0|1|2|3", N_("Training: DeepSpeed ZeRO stage across the DP GPUs (default 0, plain DDP)") },
  { "fsdp", OPT_FSDP, "sharding", "full|grad-op|hybrid",
    N_("Training: FSDP FULL_SHARD (ZeRO-3), SHARD_GRAD_OP (ZeRO-2) or HYBRID_SHARD (ZeRO-3 inside a node)") },
  { "offload", OPT_PROPERTY, "offload", "none|optimizer|optimizer+params" },
  { "grad-accum", OPT_PROPERTY, "grad-accum", "N" },
  { "cp", OPT_PROPERTY, "cp", "N" },
  { "gpu-layers", OPT_GPU_LAYERS, "gpu-layers", "N",
    N_("Inference: N layers on the GPU as llama.cpp -ngl counts them, the output layer and the last N − 1; the rest and the token embedding in system RAM (default: all)") },
  { "experts-on-cpu", OPT_TRUE, "experts-on-cpu", NULL, N_("Inference, MoE: routed experts in system RAM (llama.cpp exps=CPU)") },
  { "no-experts-on-cpu", OPT_FALSE, "experts-on-cpu", NULL, NULL },
  { "gpus-per-node", OPT_PROPERTY, "gpus-per-node", "N" },
  { "overhead", OPT_PROPERTY, "overhead-gb", "GB" },
  /* serving engines and speed (FORMULAS.md, "Engines" and "Speed") */
  { "engine", OPT_PROPERTY, "engine", "NAME" },
  { "gpu-memory-utilization", OPT_PROPERTY, "memory-fraction", "F" },
  { "mem-fraction", OPT_PROPERTY, "mem-fraction-static", "F" },
  { "block-size", OPT_PROPERTY, "block-size", "N" },
  { "max-num-batched-tokens", OPT_PROPERTY, "max-num-batched-tokens", "N" },
  { "max-num-seqs", OPT_PROPERTY, "max-num-seqs", "N" },
  { "limit-mm-per-prompt", OPT_PROPERTY, "limit-mm-per-prompt", "N" },
  { "kv-cache-memory", OPT_PROPERTY, "kv-cache-memory", "GB" },
  /* vLLM's releases, or with --engine sglang SGLang's sources (vramcalc.c, apply_engine_version()) */
  { "engine-version", OPT_ENGINE_VERSION, "engine-version", "0.10|0.11|0.14|0.17|0.21|001ccef|003fca8",
    N_("The engine's release whose memory arithmetic to follow. vLLM: 0.11 (default: 0.11 to 0.13), 0.14 (0.14 to 0.16, checked on 0.15 and 0.16: as 0.11, and 16-bit MoE experts keep their workspace; its sorting sampler is an upper bound for 0.20 and for later releases with VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0, which are not checked), 0.17 (0.17 to 0.19, checked on 0.17, 0.18 and 0.19: as 0.14, with no sort at the profile run), 0.10 (before 0.11: one GPU a model) or 0.21 (0.21 and later: with --enforce-eager or --kv-cache-memory). "
       "SGLang (--engine sglang, the same as --sglang-version): 001ccef (default) or 003fca8") },
  { "enforce-eager", OPT_TRUE, "enforce-eager", NULL,
    N_("vLLM: no CUDA graphs, so none measured before the cache is sized (needed with --engine-version 0.21)") },
  { "no-enforce-eager", OPT_FALSE, "enforce-eager", NULL, NULL },
  { "mxfp4-backend", OPT_PROPERTY, "mxfp4-backend", "auto|marlin|triton" },
  { "vllm-sampler", OPT_PROPERTY, "vllm-sampler", "sort|flashinfer" },
  { "mm-encoder-tp-mode", OPT_PROPERTY, "mm-encoder-tp-mode", "weights|data" },
  { "disable-custom-all-reduce", OPT_TRUE, "disable-custom-all-reduce", NULL,
    N_("vLLM and SGLang: NCCL alone, without the custom all-reduce and its buffers on each GPU (TP 2, 4, 6 or 8)") },
  { "no-disable-custom-all-reduce", OPT_FALSE, "disable-custom-all-reduce", NULL, NULL },
  { "page-size", OPT_PROPERTY, "page-size", "N" },
  { "sglang-version", OPT_PROPERTY, "sglang-version", "001ccef|003fca8" },
  { "parallel", OPT_PROPERTY_ALIAS, "concurrency", "N", N_("llama.cpp/Ollama -np: sequences served at once, the same as --concurrency") },
  { "n-ubatch", OPT_PROPERTY, "n-ubatch", "N" },
  { "n-batch", OPT_PROPERTY, "n-batch", "N" },
  { "mmproj", OPT_MMPROJ, NULL, "FILE",
    N_("llama.cpp/Ollama: the multimodal projector GGUF (mmproj-….gguf, llama-server --mmproj): its vision or audio encoder's tensors counted as weights on the first GPU") },
  { "no-mmproj-offload", OPT_FALSE, "mmproj-offload", NULL,
    N_("llama.cpp/Ollama: the projector in system RAM rather than on the GPU (llama-server --no-mmproj-offload)") },
  { "mmproj-offload", OPT_TRUE, "mmproj-offload", NULL, NULL },
  { "kv-unified", OPT_TRUE, "kv-unified", NULL, N_("llama.cpp/Ollama: one KV buffer shared by all sequences rather than one stream each") },
  { "no-kv-unified", OPT_FALSE, "kv-unified", NULL, NULL },
  { "cache-type-k", OPT_PROPERTY, "cache-type-k", "TYPE" },
  { "cache-type-v", OPT_PROPERTY, "cache-type-v", "TYPE" },
  { "mfu", OPT_PROPERTY, "mfu", "F" },
  { "unit", OPT_PROPERTY, "unit", "gb|gib" },
  { "format", OPT_FORMAT, NULL, "table|json|csv", N_("Output format (default table)") },
  { "print-command", OPT_PRINT_COMMAND, NULL, "llama.cpp|vllm|sglang|ollama|accelerate|deepspeed|fsdp|axolotl|llamafactory|trl|torchtune",
    N_("Print the command that runs the estimate, alone: llama-server, vllm serve, SGLang's launch_server, an Ollama Modelfile, an Accelerate max_memory map, a DeepSpeed JSON or an Accelerate FSDP config with its launch line, an Axolotl or LLaMA-Factory YAML with its launch line, trl sft, or tune run with its recipe config's overrides (flags as of llama.cpp 0017d6f, vLLM 002f10e, SGLang 001067f, Ollama fb30760, Axolotl 067b021, LLaMA-Factory ff6d4d1, TRL f2cd577, torchtune bd2a0fc)") },
  { "profile", OPT_PROFILE, NULL, "FILE", N_("Start from a saved profile; other options override its values") },
  { "save-profile", OPT_SAVE_PROFILE, NULL, "FILE", N_("Save the resulting inputs as a profile") },
  { "explain", OPT_EXPLAIN, NULL, NULL, N_("Show each component's formula and values") },
  { "list-presets", OPT_LIST_PRESETS, NULL, NULL, N_("List the built-in models") },
  { "search", OPT_SEARCH, NULL, "TEXT",
    N_("With --list-presets: only the models matching every word of TEXT (any part of a name, family or size such as 70b, or moe, dense, vision)") },
  { "list-gpus", OPT_LIST_GPUS, NULL, NULL, N_("List the GPU catalog") },
  { "gpu", OPT_GPU, "custom-gpus", "NAME=SIZE", N_("Add a GPU of your own to the table; SIZE in GB or with GB, GiB or MiB (repeatable)") },
  { "this-computer", OPT_THIS_COMPUTER, NULL, NULL, N_("Add this computer's GPUs to the table and make them My GPUs, with what each has free, and its memory the --ram (NVIDIA through libnvidia-ml, AMD through /sys)") },
  { "gpus", OPT_PROPERTY, "gpu-set", "LIST" },
  { "ram", OPT_PROPERTY, "host-ram", "SIZE" },
  { "tensor-split", OPT_PROPERTY, "tensor-split", "LIST" },
  { "pp-partition", OPT_PROPERTY, "pp-partition", "LIST" },
  { "main-gpu", OPT_PROPERTY, "main-gpu", "N" },
  { "split-mode", OPT_PROPERTY, "split-mode", "layer|none" },
  { "n-cpu-moe", OPT_PROPERTY, "n-cpu-moe", "N" },
  { "list-local-gpus", OPT_LIST_LOCAL_GPUS, NULL, NULL, N_("List this computer's GPUs and system memory") },
  { "list-local-models", OPT_LIST_LOCAL_MODELS, NULL, NULL,
    N_("List the models on this computer: Ollama's, LM Studio's and the Hugging Face cache's") },
  { "solve", OPT_SOLVE, NULL, "seq|batch|concurrency",
    N_("Find the longest sequence, the largest batch or the most concurrent requests (inference) that fit on --fit-gpu, the other inputs as given") },
  { "fit-gpu", OPT_FIT_GPU, NULL, "ID", N_("The GPU --solve fits on, and with --engine the card of the engine's figures at the layout set: a catalog id (see --list-gpus) or the NAME of a --gpu NAME=SIZE") },
  { "gpu-count", OPT_GPU_COUNT, NULL, "N", N_("How many of --fit-gpu share the model for --solve (default 1), or serve it with --engine (default TP × PP × DP)") },
  { "chart-gpus", OPT_PROPERTY, "chart-gpus", "LIST" },
  { "version", OPT_VERSION, NULL, NULL, N_("Show the version") },
  { "help", OPT_HELP, NULL, NULL, N_("Show this help"), 'h' },
  /* hidden: the man page and shell completions, written from this table at build time */
  { "generate", OPT_GENERATE, NULL, "man|bash|zsh|fish", NULL },
};

const guint vc_cli_n_options = G_N_ELEMENTS (vc_cli_options);

/* The property an input's option sets: the estimate's, else the profile's (the unit). */
static GParamSpec *
find_property (const char *name)
{
  static GObjectClass *classes[2];
  GParamSpec *pspec = NULL;

  if (classes[0] == NULL)
    {
      classes[0] = g_type_class_ref (VC_TYPE_ESTIMATE);
      classes[1] = g_type_class_ref (VC_TYPE_PROFILE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (classes) && pspec == NULL; i++)
    pspec = g_object_class_find_property (classes[i], name);
  return pspec;
}

/* The help of an option, untranslated (GOption and the man page translate it): the blurb of the
 * property an OPT_PROPERTY option sets, else the table's own text; NULL for a hidden option. */
const char *
vc_cli_option_help (const VcCliOption *opt)
{
  GParamSpec *pspec;

  if (opt->kind != OPT_PROPERTY)
    return opt->help;
  pspec = find_property (opt->property);
  g_assert (pspec != NULL);
  return g_param_spec_get_blurb (pspec);
}

/* The option that stands for the one setting @property (--parallel for --concurrency), or NULL */
const VcCliOption *
vc_cli_option_alias_of (const char *property)
{
  for (guint i = 0; i < vc_cli_n_options; i++)
    if (vc_cli_options[i].kind == OPT_PROPERTY_ALIAS && g_strcmp0 (vc_cli_options[i].property, property) == 0)
      return &vc_cli_options[i];
  return NULL;
}
