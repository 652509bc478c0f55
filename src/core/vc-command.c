/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-command.c: the command that runs an estimate (vc-command.h).
 *
 * Each engine's flags and keys come from its own parser, at the version named in
 * engine_sources[] and in tests/data/command-flags/ (the allow-lists the tests hold every
 * emitted flag against). FORMULAS.md, "Commands", gives each rule.
 */
#define G_LOG_DOMAIN "vc-command"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "vc-command.h"
#include "vc-plan.h"
#include "vc-engine.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-layout.h"

#define MIB (1024.0 * 1024.0)

static const char *engine_ids[VC_N_COMMAND_ENGINES] = {
  [VC_COMMAND_LLAMA_CPP] = "llama.cpp",
  [VC_COMMAND_VLLM] = "vllm",
  [VC_COMMAND_SGLANG] = "sglang",
  [VC_COMMAND_OLLAMA] = "ollama",
  [VC_COMMAND_ACCELERATE] = "accelerate",
  [VC_COMMAND_DEEPSPEED] = "deepspeed",
  [VC_COMMAND_FSDP] = "fsdp",
  [VC_COMMAND_AXOLOTL] = "axolotl",
  [VC_COMMAND_LLAMAFACTORY] = "llamafactory",
  [VC_COMMAND_TRL] = "trl",
  [VC_COMMAND_TORCHTUNE] = "torchtune",
};

/* The parser each engine's flags were checked against */
static const char *engine_sources[VC_N_COMMAND_ENGINES] = {
  [VC_COMMAND_LLAMA_CPP] = "llama.cpp 0017d6f (common/arg.cpp)",
  [VC_COMMAND_VLLM] = "vLLM 002f10e (vllm/engine/arg_utils.py, vllm/config/cache.py)",
  [VC_COMMAND_SGLANG] = "SGLang 001067f (python/sglang/srt/server_args.py)",
  [VC_COMMAND_OLLAMA] = "Ollama fb30760 (docs/modelfile.mdx, api/types.go, envconfig/config.go)",
  [VC_COMMAND_ACCELERATE] = "Transformers from_pretrained and Accelerate max_memory (accelerate/utils/modeling.py)",
  [VC_COMMAND_DEEPSPEED] = "DeepSpeed config JSON (docs/_pages/config-json.md), torchrun, Transformers TrainingArguments",
  [VC_COMMAND_FSDP] = "Accelerate FSDP config (accelerate/commands/config/config_args.py), Transformers TrainingArguments",
  [VC_COMMAND_AXOLOTL] = "Axolotl 067b021 (src/axolotl/utils/schemas/config.py, peft.py, training.py, model.py; cli/main.py)",
  [VC_COMMAND_LLAMAFACTORY] = "LLaMA-Factory ff6d4d1 (src/llamafactory/hparams/model_args.py, finetuning_args.py, data_args.py; launcher.py)",
  [VC_COMMAND_TRL] = "TRL f2cd577 (trl/trainer/sft_config.py, model_config.py, trl/cli/accelerate_config.py)",
  [VC_COMMAND_TORCHTUNE] = "torchtune bd2a0fc (recipes/configs/, recipes/*_finetune_*.py, torchtune/_cli/run.py, torchtune/config/_utils.py)",
};

/* Every flag or key the builders below can emit, per engine: the allow-list test holds each
 * against tests/data/command-flags/ENGINE.txt, and each built command's flags against these. */
static const char *llama_cpp_flags[] = {
  "-m", "-hf", "-hff", "-ngl", "-sm", "-ts", "-mg", "-c", "-np", "--no-kv-unified", "-fa",
  "-ctk", "-ctv", "-b", "-ub", "--cpu-moe", "--n-cpu-moe", "--mmproj", "--no-mmproj-offload", NULL
};
static const char *vllm_flags[] = {
  "--tensor-parallel-size", "--pipeline-parallel-size", "--data-parallel-size",
  "--enable-expert-parallel", "--max-model-len", "--gpu-memory-utilization", "--max-num-seqs",
  "--max-num-batched-tokens", "--kv-cache-memory-bytes", "--block-size", "--dtype",
  "--quantization", "--kv-cache-dtype", "VLLM_PP_LAYER_PARTITION", "--disable-custom-all-reduce",
  "VLLM_MXFP4_USE_MARLIN", "--mm-encoder-tp-mode", "--limit-mm-per-prompt", "VLLM_USE_FLASHINFER_SAMPLER",
  "--enforce-eager", NULL
};
static const char *sglang_flags[] = {
  "--model-path", "--tp-size", "--pp-size", "--dp-size", "--ep-size", "--context-length",
  "--mem-fraction-static", "--page-size", "--dtype", "--quantization", "--kv-cache-dtype",
  "--disable-custom-all-reduce", NULL
};
static const char *ollama_flags[] = {
  "FROM", "PARAMETER", "num_ctx", "num_gpu", "num_batch", "main_gpu", "OLLAMA_NUM_PARALLEL",
  "OLLAMA_KV_CACHE_TYPE", "OLLAMA_FLASH_ATTENTION", "create", "-f", NULL
};
static const char *accelerate_flags[] = {
  "device_map", "max_memory", "torch_dtype", "quantization_config", "load_in_8bit",
  "load_in_4bit", "bnb_4bit_quant_type", NULL
};
static const char *deepspeed_flags[] = {
  "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "bf16", "fp16", "enabled",
  "zero_optimization", "stage", "offload_optimizer", "offload_param", "device",
  "--nproc_per_node", "--deepspeed", "--per_device_train_batch_size",
  "--gradient_accumulation_steps", "--bf16", "--fp16", "--gradient_checkpointing",
  "PYTORCH_CUDA_ALLOC_CONF", NULL
};
static const char *fsdp_flags[] = {
  "compute_environment", "distributed_type", "fsdp_config", "fsdp_auto_wrap_policy",
  "fsdp_offload_params", "fsdp_sharding_strategy", "mixed_precision", "num_machines",
  "num_processes", "--config_file", "--per_device_train_batch_size",
  "--gradient_accumulation_steps", "--bf16", "--fp16", "--gradient_checkpointing",
  "PYTORCH_CUDA_ALLOC_CONF", NULL
};
static const char *axolotl_flags[] = {
  "base_model", "adapter", "load_in_8bit", "load_in_4bit", "lora_r", "lora_target_linear",
  "lora_target_modules", "lora_modules_to_save", "sequence_len", "micro_batch_size",
  "gradient_accumulation_steps", "optimizer", "bf16", "fp16", "gradient_checkpointing",
  "attn_implementation", "torch_compile", "chunked_cross_entropy", "plugins",
  "liger_fused_linear_cross_entropy", "cut_cross_entropy", "deepspeed", "datasets",
  "PYTORCH_CUDA_ALLOC_CONF", "--num_processes", NULL
};
static const char *llamafactory_flags[] = {
  "model_name_or_path", "stage", "do_train", "finetuning_type", "lora_rank", "lora_target",
  "additional_target", "quantization_bit", "cutoff_len", "per_device_train_batch_size",
  "gradient_accumulation_steps", "optim", "bf16", "fp16", "pure_bf16",
  "disable_gradient_checkpointing", "flash_attn", "torch_compile", "enable_liger_kernel",
  "deepspeed", "dataset", "template", "PYTORCH_CUDA_ALLOC_CONF", "FORCE_TORCHRUN",
  "NPROC_PER_NODE", NULL
};
static const char *trl_flags[] = {
  "--model_name_or_path", "--dataset_name", "--dtype", "--use_peft", "--lora_r",
  "--lora_target_modules", "--lora_modules_to_save", "--load_in_8bit", "--load_in_4bit",
  "--bnb_4bit_quant_type", "--max_length", "--per_device_train_batch_size",
  "--gradient_accumulation_steps", "--optim", "--bf16", "--fp16", "--gradient_checkpointing",
  "--attn_implementation", "--torch_compile", "--loss_type", "--use_liger_kernel",
  "--accelerate_config", "--num_processes", "PYTORCH_CUDA_ALLOC_CONF", NULL
};
static const char *torchtune_flags[] = {
  "--nproc_per_node", "--config", "batch_size", "gradient_accumulation_steps", "tokenizer.max_seq_len",
  "dtype", "enable_activation_checkpointing", "compile", "optimizer", "~optimizer.fused", "optimizer.fused",
  "optimizer_in_bwd", "loss", "model.lora_rank", "model.lora_attn_modules", "model.apply_lora_to_mlp",
  "model.apply_lora_to_output", "fsdp_cpu_offload", "PYTORCH_CUDA_ALLOC_CONF", NULL
};

/* a refusal: @error set, %FALSE returned */
#define refuse(error, ...) vc_error_set ((error), VC_ERROR_INVALID_COMBINATION, __VA_ARGS__)

const char *
vc_command_engine_id (VcCommandEngine engine)
{
  g_return_val_if_fail (engine < VC_N_COMMAND_ENGINES, NULL);
  return engine_ids[engine];
}

const char *
vc_command_engine_source (VcCommandEngine engine)
{
  g_return_val_if_fail (engine < VC_N_COMMAND_ENGINES, NULL);
  return engine_sources[engine];
}

const char * const *
vc_command_flags (VcCommandEngine engine)
{
  static const char **flags[VC_N_COMMAND_ENGINES] = {
    [VC_COMMAND_LLAMA_CPP] = llama_cpp_flags, [VC_COMMAND_VLLM] = vllm_flags,
    [VC_COMMAND_SGLANG] = sglang_flags, [VC_COMMAND_OLLAMA] = ollama_flags,
    [VC_COMMAND_ACCELERATE] = accelerate_flags, [VC_COMMAND_DEEPSPEED] = deepspeed_flags,
    [VC_COMMAND_FSDP] = fsdp_flags, [VC_COMMAND_AXOLOTL] = axolotl_flags,
    [VC_COMMAND_LLAMAFACTORY] = llamafactory_flags, [VC_COMMAND_TRL] = trl_flags,
    [VC_COMMAND_TORCHTUNE] = torchtune_flags,
  };

  g_return_val_if_fail (engine < VC_N_COMMAND_ENGINES, NULL);
  return (const char * const *) flags[engine];
}

char *
vc_command_engine_list (void)
{
  return g_strjoinv (", ", (char **) engine_ids);
}

gboolean
vc_command_engine_from_id (const char      *id,
                           VcCommandEngine *engine,
                           GError         **error)
{
  g_autofree char *list = NULL;

  for (guint i = 0; i < VC_N_COMMAND_ENGINES; i++)
    if (g_strcmp0 (id, engine_ids[i]) == 0)
      {
        *engine = i;
        return TRUE;
      }
  list = vc_command_engine_list ();
  g_set_error (error, VC_ERROR, VC_ERROR_UNKNOWN_ID, _("unknown engine “%s” for a command; accepted: %s"),
               id ? id : "", list);
  return FALSE;
}

/* The command of the estimate's own engine: the serving engine in inference (Transformers:
 * its max_memory map); in training the trainer's own config where it has one (Axolotl,
 * LLaMA-Factory, TRL, torchtune), else the sharding's framework; FALSE when there is none. */
gboolean
vc_command_estimate_engine (const VcInputs  *in,
                            VcCommandEngine *engine)
{
  VcLayout l;

  if (in->mode == VC_MODE_TRAINING)
    {
      switch (in->trainer)
        {
        case VC_TRAINER_AXOLOTL: *engine = VC_COMMAND_AXOLOTL; return TRUE;
        case VC_TRAINER_LLAMAFACTORY: *engine = VC_COMMAND_LLAMAFACTORY; return TRUE;
        case VC_TRAINER_TRL: *engine = VC_COMMAND_TRL; return TRUE;
        case VC_TRAINER_TORCHTUNE: *engine = VC_COMMAND_TORCHTUNE; return TRUE;
        default: break;
        }
      vc_layout_get_effective (in, &l);
      if (vc_layout_zero_stage (l.sharding) == 0)
        return FALSE;
      *engine = l.sharding >= VC_SHARDING_FSDP_GRAD_OP ? VC_COMMAND_FSDP : VC_COMMAND_DEEPSPEED;
      return TRUE;
    }
  switch (in->engine)
    {
    case VC_ENGINE_VLLM: *engine = VC_COMMAND_VLLM; return TRUE;
    case VC_ENGINE_SGLANG: *engine = VC_COMMAND_SGLANG; return TRUE;
    case VC_ENGINE_LLAMA_CPP: *engine = VC_COMMAND_LLAMA_CPP; return TRUE;
    case VC_ENGINE_OLLAMA: *engine = VC_COMMAND_OLLAMA; return TRUE;
    case VC_ENGINE_TRANSFORMERS: *engine = VC_COMMAND_ACCELERATE; return TRUE;
    case VC_ENGINE_GENERIC:
    default:
      return FALSE;
    }
}

void
vc_command_request_init (VcCommandRequest *req,
                         const VcInputs   *inputs)
{
  *req = (VcCommandRequest) { 0 };
  req->inputs = inputs;
  req->main_gpu = -1;
}

/* A model as vramcalc --model names it: hf:ORG/NAME[:FILE], ollama:NAME[:TAG] or a path. */
gboolean
vc_command_request_set_model (VcCommandRequest *req,
                              const char       *spec,
                              GError          **error)
{
  char **owned = req->owned;
  g_autofree char *base = NULL;

  g_clear_pointer (&req->owned[0], g_free);
  g_clear_pointer (&req->owned[1], g_free);
  req->model_kind = VC_COMMAND_MODEL_NONE;
  req->model = req->model_file = NULL;
  if (spec == NULL || *spec == '\0')
    return TRUE;
  if (g_str_has_prefix (spec, "hf:"))
    {
      const char *rest = spec + 3;
      const char *colon = strchr (rest, ':');

      if (strchr (rest, '@') != NULL)
        return refuse (error, _("the command names no revision of a Hub model (%s): give hf:ORG/NAME or hf:ORG/NAME:FILE"),
                       spec);
      owned[0] = colon ? g_strndup (rest, colon - rest) : g_strdup (rest);
      owned[1] = colon ? g_strdup (colon + 1) : NULL;
      req->model_kind = VC_COMMAND_MODEL_HUB;
      req->model = owned[0];
      req->model_file = owned[1];
      return TRUE;
    }
  if (g_str_has_prefix (spec, "ollama:"))
    {
      owned[0] = g_strdup (spec + 7);
      req->model_kind = VC_COMMAND_MODEL_OLLAMA;
      req->model = owned[0];
      return TRUE;
    }
  if (g_str_has_prefix (spec, "https://") || g_str_has_prefix (spec, "http://"))
    return refuse (error, _("the command names a Hub model as hf:ORG/NAME, not an address (%s)"), spec);
  /* a bare config.json stands for its folder, as the engines load it */
  base = g_path_get_basename (spec);
  owned[0] = g_str_equal (base, "config.json") ? g_path_get_dirname (spec) : g_strdup (spec);
  req->model_kind = VC_COMMAND_MODEL_PATH;
  req->model = owned[0];
  return TRUE;
}

/* What the plan on "My GPUs" decided, where the estimate has a set and its engine plans on it:
 * the cards (llama.cpp's split, as the plan assigned the layers, and the options given),
 * Accelerate's memory map (what each card lets the engine use, and the RAM given), and vLLM's
 * and SGLang's degrees over the set. A refused plan leaves the request as the layout has it. */
static void
request_from_plan (VcCommandRequest *req,
                   VcEstimate       *estimate)
{
  const VcGpuSet *set = vc_estimate_get_gpu_set (estimate);
  const char *engine;
  VcPlanOptions options;
  VcPlan plan = { 0 };

  if (set == NULL || vc_gpu_set_get_n (set) == 0 || !vc_estimate_compute_plan (estimate, &plan, NULL))
    return;
  engine = vc_plan_engine_id (req->inputs);
  vc_estimate_get_plan_options (estimate, &options);
  req->n_devices = plan.devices->len;
  for (guint i = 0; i < MIN (plan.devices->len, VC_COMMAND_MAX_DEVICES); i++)
    {
      const VcPlanDevice *d = vc_plan_get_device (&plan, i);

      /* llama.cpp's split as the layers each card holds, the output counted: the split points
       * are then whole layers, and llama.cpp puts each layer where the plan does (the plan's
       * shares rounded to six digits moved a layer on a boundary: 24 + 12 GB, layer 22) */
      if (g_str_equal (engine, "llama.cpp"))
        req->split[i] = d->n_layers + (d->output ? 1 : 0);
      req->max_memory_bytes[i] = d->limit_bytes;
    }
  req->cpu_memory_bytes = plan.ram_bytes;
  if (options.main_gpu > 0 || options.split_mode == VC_SPLIT_MODE_NONE)
    req->main_gpu = (int) options.main_gpu;
  req->row_split = options.split_mode == VC_SPLIT_MODE_ROW;
  req->no_split = options.split_mode == VC_SPLIT_MODE_NONE;
  req->n_cpu_moe = options.n_cpu_moe;
  if (options.pp_partition != NULL && g_str_equal (engine, "vllm"))
    {
      g_autoptr(GString) counts = g_string_new (NULL);

      for (guint i = 0; i < options.n_pp_partition; i++)
        g_string_append_printf (counts, "%s%u", i > 0 ? "," : "", options.pp_partition[i]);
      g_free (req->pp_partition);
      req->pp_partition = g_string_free (g_steal_pointer (&counts), FALSE);
    }
  if (!plan.training && (plan.engine == VC_ENGINE_VLLM || plan.engine == VC_ENGINE_SGLANG) && plan.tp > 0)
    {
      req->planned = g_memdup2 (req->inputs, sizeof *req->inputs);
      req->planned->layout.tp = plan.tp;
      req->planned->layout.pp = MAX (1u, plan.pp);
      req->planned->layout.dp = 1;
      req->inputs = req->planned;
    }
  g_free ((double *) options.tensor_split);
  g_free ((guint *) options.pp_partition);
  vc_plan_clear (&plan);
}

/* The built-in model's repository, and the need on each GPU, from an estimate. */
void
vc_command_request_from_estimate (VcCommandRequest *req,
                                  VcEstimate       *estimate)
{
  const char *preset_id = vc_estimate_get_preset (estimate);
  const VcPreset *preset = preset_id && *preset_id ? vc_presets_lookup (preset_id) : NULL;
  const VcLayoutResult *lr = vc_estimate_get_layout_result (estimate);

  vc_command_request_init (req, vc_estimate_get_inputs (estimate));
  if (vc_estimate_get_inputs (estimate)->mmproj_bytes > 0 && *vc_estimate_get_mmproj (estimate) != '\0')
    req->mmproj = vc_estimate_get_mmproj (estimate);
  if (preset != NULL && preset->repository != NULL && *preset->repository)
    {
      req->model_kind = VC_COMMAND_MODEL_HUB;
      req->model = preset->repository;
    }
  if (lr != NULL)
    req->per_gpu_bytes = lr->reserved > 0 ? lr->reserved : lr->total;
  request_from_plan (req, estimate);
}

void
vc_command_request_clear (VcCommandRequest *req)
{
  g_clear_pointer (&req->owned[0], g_free);
  g_clear_pointer (&req->owned[1], g_free);
  g_clear_pointer (&req->planned, g_free);
  g_clear_pointer (&req->pp_partition, g_free);
}

void
vc_command_free (VcCommand *command)
{
  if (command == NULL)
    return;
  g_strfreev (command->argv);
  g_free (command->file_name);
  g_free (command->file_text);
  g_free (command->text);
  g_free (command);
}

/* ---- building ---- */

static void
add (GPtrArray  *argv,
     const char *arg)
{
  g_ptr_array_add (argv, g_strdup (arg));
}

static void
add_uint (GPtrArray  *argv,
          const char *flag,
          guint64     value)
{
  add (argv, flag);
  g_ptr_array_add (argv, g_strdup_printf ("%" G_GUINT64_FORMAT, value));
}

static char *
format_number (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6g", value));
}

static void
add_number (GPtrArray  *argv,
            const char *flag,
            double      value)
{
  add (argv, flag);
  g_ptr_array_add (argv, format_number (value));
}

static gboolean
is_safe_word (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isalnum (*s) && strchr ("-_./:,=+@%", *s) == NULL)
      return FALSE;
  return TRUE;
}

static char *
join_shell (char **argv)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; argv[i]; i++)
    {
      g_autofree char *quoted = is_safe_word (argv[i]) ? g_strdup (argv[i]) : g_shell_quote (argv[i]);

      if (i > 0)
        g_string_append_c (s, ' ');
      g_string_append (s, quoted);
    }
  return g_string_free (s, FALSE);
}

static VcCommand *
command_new (VcCommandEngine engine,
             GPtrArray      *argv,
             const char     *file_name,
             char           *file_text)
{
  VcCommand *c = g_new0 (VcCommand, 1);
  g_autofree char *line = NULL;

  c->engine = engine;
  g_ptr_array_add (argv, NULL);
  c->argv = (char **) g_ptr_array_free (argv, FALSE);
  line = join_shell (c->argv);
  c->file_name = g_strdup (file_name);
  c->file_text = file_text;
  if (file_name != NULL)
    c->text = g_strdup_printf ("cat > %s <<'EOF'\n%sEOF\n%s\n", file_name, file_text, line);
  else
    c->text = g_steal_pointer (&line);
  return c;
}

static gboolean
is_gguf_name (const char *name)
{
  g_autofree char *lower = name ? g_ascii_strdown (name, -1) : NULL;

  return lower != NULL && g_str_has_suffix (lower, ".gguf");
}

static gboolean
need_model (const VcCommandRequest *req,
            VcCommandEngine         engine,
            GError                **error)
{
  if (req->model_kind == VC_COMMAND_MODEL_NONE || req->model == NULL || *req->model == '\0')
    return refuse (error, _("%s: the command needs the model by name: choose a built-in model or read the model’s files"),
                   engine_ids[engine]);
  return TRUE;
}

/* A checkpoint folder or Hub repository, as vLLM, SGLang and Transformers load one */
static gboolean
need_checkpoint (const VcCommandRequest *req,
                 VcCommandEngine         engine,
                 GError                **error)
{
  if (!need_model (req, engine, error))
    return FALSE;
  if (req->model_kind == VC_COMMAND_MODEL_OLLAMA || is_gguf_name (req->model) ||
      (req->model_kind == VC_COMMAND_MODEL_HUB && req->model_file != NULL))
    return refuse (error, _("%s loads a checkpoint folder or a Hub repository, not %s"),
                   engine_ids[engine], req->model);
  return TRUE;
}

static gboolean
has_split (const VcCommandRequest *req)
{
  for (guint i = 0; i < VC_COMMAND_MAX_DEVICES; i++)
    if (req->split[i] > 0)
      return TRUE;
  return FALSE;
}

static gboolean
check_devices (const VcCommandRequest *req,
               GError                **error)
{
  if (req->n_devices > VC_COMMAND_MAX_DEVICES)
    return refuse (error, _("a command names at most %u GPUs, not %u"), VC_COMMAND_MAX_DEVICES, req->n_devices);
  for (guint i = 0; i < VC_COMMAND_MAX_DEVICES; i++)
    if (req->split[i] < 0 || !isfinite (req->split[i]) || req->max_memory_bytes[i] < 0 ||
        !isfinite (req->max_memory_bytes[i]))
      return refuse (error, _("a GPU’s split or memory is negative or not a number"));
  return TRUE;
}

/* A cache type as llama.cpp is told it: "auto" over a 16-bit KV precision is its default f16,
 * of the same bytes (left out, NULL); else the type's name ("" when llama.cpp has none) */
static const char *
cache_type_flag (VcCacheType type,
                 VcPrecision kv_precision)
{
  const char *name = vc_engine_cache_type_name (type, kv_precision);

  if (name == NULL)
    return "";
  if (g_str_equal (name, "f16") ||
      (type == VC_CACHE_TYPE_AUTO && (kv_precision == VC_PRECISION_BF16 || kv_precision == VC_PRECISION_FP16)))
    return NULL;
  return name;
}

/* Every layer on the GPU: llama.cpp's "all", else the layers -ngl counts */
static char *
gpu_layers_value (const VcLayout *l)
{
  return l->gpu_layers > 0 ? g_strdup_printf ("%u", l->gpu_layers) : g_strdup ("all");
}

static gboolean
llama_cpp_model (GPtrArray              *argv,
                 const VcCommandRequest *req,
                 GError                **error)
{
  if (!need_model (req, VC_COMMAND_LLAMA_CPP, error))
    return FALSE;
  if (req->model_kind == VC_COMMAND_MODEL_PATH && is_gguf_name (req->model))
    {
      add (argv, "-m");
      add (argv, req->model);
      return TRUE;
    }
  if (req->model_kind == VC_COMMAND_MODEL_HUB && is_gguf_name (req->model_file))
    {
      add (argv, "-hf");
      add (argv, req->model);
      add (argv, "-hff");
      add (argv, req->model_file);
      return TRUE;
    }
  return refuse (error, _("llama.cpp loads a GGUF file: %s is not one (read a .gguf, or hf:ORG/NAME:FILE.gguf)"),
                 req->model);
}

/* llama-server (tools/server), its flags from common/arg.cpp */
static VcCommand *
build_llama_cpp (const VcCommandRequest *req,
                 GError                **error)
{
  const VcInputs *in = req->inputs;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  VcLayout l;
  VcLlamaCpp lc;
  guint n;
  const char *ctk, *ctv;

  vc_layout_get_effective (in, &l);
  if (l.tp > 1 || l.ep > 1)
    return refuse (error, _("llama.cpp splits layers across GPUs, not tensors or experts: TP %u and EP %u cannot be expressed (use PP)"),
                   l.tp, l.ep), NULL;
  if (l.dp > 1)
    return refuse (error, _("one llama-server serves one copy of the model: DP %u cannot be expressed"), l.dp), NULL;
  n = req->n_devices > 0 ? req->n_devices : l.pp;
  vc_engine_llama_cpp (in, &lc);
  ctk = cache_type_flag (in->cache_type_k, in->kv_precision);
  ctv = cache_type_flag (in->cache_type_v, in->kv_precision);
  if ((ctk && !*ctk) || (ctv && !*ctv))
    return refuse (error, _("llama.cpp has no fp8 KV cache: choose a cache type (f16, q8_0, q4_0…)")), NULL;

  add (argv, "llama-server");
  if (!llama_cpp_model (argv, req, error))
    return NULL;
  g_ptr_array_add (argv, g_strdup ("-ngl"));
  g_ptr_array_add (argv, gpu_layers_value (&l));
  if (req->row_split || req->no_split)
    {
      add (argv, "-sm");
      add (argv, req->row_split ? "row" : "none");
    }
  /* with --split-mode none the model loads on the main GPU alone (src/llama.cpp,
   * llama_model_load_from_file_impl): no split to give */
  if (!req->no_split && (n > 1 || has_split (req)))
    {
      GString *ts = g_string_new (NULL);

      for (guint i = 0; i < MAX (n, 1); i++)
        {
          g_autofree char *v = format_number (has_split (req) ? req->split[i] : 1);

          g_string_append_printf (ts, "%s%s", i ? "," : "", v);
        }
      add (argv, "-ts");
      g_ptr_array_add (argv, g_string_free (ts, FALSE));
    }
  if (req->main_gpu >= 0)
    add_uint (argv, "-mg", req->main_gpu);
  add_uint (argv, "-c", (guint64) lc.n_ctx_requested);
  add_uint (argv, "-np", (guint64) lc.n_seq);
  /* the parser's default is a unified cache; the estimate's streams are one per sequence */
  if (!in->kv_unified && lc.n_seq > 1)
    add (argv, "--no-kv-unified");
  /* the default is "auto": the estimate states which */
  add (argv, "-fa");
  add (argv, in->flash_attention ? "on" : "off");
  if (ctk != NULL)
    {
      add (argv, "-ctk");
      add (argv, ctk);
    }
  if (ctv != NULL)
    {
      add (argv, "-ctv");
      add (argv, ctv);
    }
  if (in->n_batch > 0)
    add_uint (argv, "-b", in->n_batch);
  if (in->n_ubatch > 0)
    add_uint (argv, "-ub", in->n_ubatch);
  if (l.experts_on_cpu)
    add (argv, "--cpu-moe");
  else if (req->n_cpu_moe > 0)
    add_uint (argv, "--n-cpu-moe", req->n_cpu_moe);
  /* common/arg.cpp: -mm/--mmproj FILE, and --no-mmproj-offload (mmproj_use_gpu = false) */
  if (req->mmproj != NULL)
    {
      add (argv, "--mmproj");
      add (argv, req->mmproj);
      if (!in->mmproj_offload)
        add (argv, "--no-mmproj-offload");
    }
  return command_new (VC_COMMAND_LLAMA_CPP, g_steal_pointer (&argv), NULL, NULL);
}

/* What vLLM and SGLang cannot do of llama.cpp's placements */
static gboolean
check_gpu_only (const VcCommandRequest *req,
                const VcLayout         *l,
                VcCommandEngine         engine,
                GError                **error)
{
  if (l->gpu_layers > 0 || l->experts_on_cpu || req->n_cpu_moe > 0)
    return refuse (error, _("%s keeps every layer on the GPUs: layers or experts in system RAM cannot be expressed"),
                   engine_ids[engine]);
  if (has_split (req) || req->row_split || req->main_gpu >= 0)
    return refuse (error, _("%s shards tensors equally: a per-GPU split or main GPU cannot be expressed"),
                   engine_ids[engine]);
  return TRUE;
}

static gboolean
weights_are_source (const VcInputs *in)
{
  return in->source_weights_bytes > 0 && in->precision == in->source_precision;
}

/* --dtype and --quantization: the checkpoint's own format says nothing; a float precision is
 * the dtype (bf16 left to "auto" unless the checkpoint is of another); fp8 and nf4 are
 * quantized while loading; other formats need a checkpoint already in them. */
static gboolean
add_weight_format (GPtrArray      *argv,
                   const VcInputs *in,
                   VcCommandEngine engine,
                   GError        **error)
{
  if (weights_are_source (in))
    return TRUE;
  switch (in->precision)
    {
    case VC_PRECISION_BF16:
      if (in->source_weights_bytes > 0)
        {
          add (argv, "--dtype");
          add (argv, "bfloat16");
        }
      return TRUE;
    case VC_PRECISION_FP16:
      add (argv, "--dtype");
      add (argv, "float16");
      return TRUE;
    case VC_PRECISION_FP32:
      add (argv, "--dtype");
      add (argv, "float32");
      return TRUE;
    case VC_PRECISION_FP8:
      add (argv, "--quantization");
      add (argv, "fp8");
      return TRUE;
    case VC_PRECISION_NF4:
      add (argv, "--quantization");
      add (argv, "bitsandbytes");
      return TRUE;
    default:
      return refuse (error, _("%s quantizes to %s only from a checkpoint already in it: read such a checkpoint's files"),
                     engine_ids[engine], vc_enum_nick (VC_TYPE_PRECISION, in->precision));
    }
}

/* --kv-cache-dtype: fp8, or the model's own dtype ("auto", left out): a 16-bit cache beside
 * 16-bit or quantized weights (fp16 and bf16 are of the same bytes), fp32 beside fp32 */
static gboolean
add_kv_dtype (GPtrArray      *argv,
              const VcInputs *in,
              VcCommandEngine engine,
              GError        **error)
{
  gboolean kv16 = in->kv_precision == VC_PRECISION_BF16 || in->kv_precision == VC_PRECISION_FP16;

  if (in->kv_precision == VC_PRECISION_FP8)
    {
      add (argv, "--kv-cache-dtype");
      add (argv, engine == VC_COMMAND_SGLANG ? "fp8_e4m3" : "fp8");
      return TRUE;
    }
  if (in->precision == VC_PRECISION_FP32 ? in->kv_precision == VC_PRECISION_FP32 : kv16)
    return TRUE;
  return refuse (error, _("%s keeps the KV cache in the model’s dtype or in fp8: a KV cache in %s cannot be expressed"),
                 engine_ids[engine], vc_enum_nick (VC_TYPE_PRECISION, in->kv_precision));
}

/* vllm serve (vllm/entrypoints/cli/serve.py), EngineArgs' flags (vllm/engine/arg_utils.py) */
static VcCommand *
build_vllm (const VcCommandRequest *req,
            GError                **error)
{
  const VcInputs *in = req->inputs;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  VcCommand *cmd;
  VcLayout l;

  vc_layout_get_effective (in, &l);
  if (!need_checkpoint (req, VC_COMMAND_VLLM, error) || !check_gpu_only (req, &l, VC_COMMAND_VLLM, error))
    return NULL;
  if (l.ep > 1 && l.ep != l.tp * l.dp)
    return refuse (error, _("vLLM’s expert parallelism spans TP × DP = %u GPUs: EP %u cannot be expressed"),
                   l.tp * l.dp, l.ep), NULL;
  if (req->n_devices > 0 && req->n_devices != l.tp * l.pp * l.dp)
    return refuse (error, _("%s runs on TP × PP × DP = %u GPUs, not %u"), "vllm", l.tp * l.pp * l.dp,
                   req->n_devices), NULL;
  add (argv, "vllm");
  add (argv, "serve");
  add (argv, req->model);
  if (l.tp > 1)
    add_uint (argv, "--tensor-parallel-size", l.tp);
  if (l.pp > 1)
    add_uint (argv, "--pipeline-parallel-size", l.pp);
  if (l.dp > 1)
    add_uint (argv, "--data-parallel-size", l.dp);
  if (l.ep > 1)
    add (argv, "--enable-expert-parallel");
  add_uint (argv, "--max-model-len", in->seq);
  /* stated: the default has moved between versions (0.9, then 0.92) */
  add_number (argv, "--gpu-memory-utilization", in->memory_fraction);
  if (in->max_num_seqs > 0)
    add_uint (argv, "--max-num-seqs", in->max_num_seqs);
  if (in->max_num_batched_tokens > 0)
    add_uint (argv, "--max-num-batched-tokens", in->max_num_batched_tokens);
  /* the images a prompt may hold, as vLLM takes the limit: JSON of modality to count */
  if (in->limit_mm_per_prompt != 999)
    {
      add (argv, "--limit-mm-per-prompt");
      g_ptr_array_add (argv, g_strdup_printf ("{\"image\": %u}", in->limit_mm_per_prompt));
    }
  if (in->kv_cache_memory_gb > 0)
    add_uint (argv, "--kv-cache-memory-bytes", (guint64) llround (in->kv_cache_memory_gb * 1e9));
  if (in->block_size != 16)
    add_uint (argv, "--block-size", in->block_size);
  if (in->disable_custom_all_reduce)
    add (argv, "--disable-custom-all-reduce");
  /* no CUDA graphs, as the figures take it (EngineArgs.enforce_eager; what --engine-version 0.21
   * needs, its graphs' memory being measured out of the cache otherwise) */
  if (in->enforce_eager)
    add (argv, "--enforce-eager");
  /* MultiModalConfig.mm_encoder_tp_mode (vllm/config/multimodal.py), weights by default */
  if (in->mm_encoder_tp_mode == VC_MM_ENCODER_TP_MODE_DATA)
    {
      add (argv, "--mm-encoder-tp-mode");
      add (argv, "data");
    }
  if (!add_weight_format (argv, in, VC_COMMAND_VLLM, error) || !add_kv_dtype (argv, in, VC_COMMAND_VLLM, error))
    return NULL;
  cmd = command_new (VC_COMMAND_VLLM, g_steal_pointer (&argv), NULL, NULL);
  /* Marlin for MXFP4 experts: an environment variable too (vllm/envs.py, VLLM_MXFP4_USE_MARLIN,
   * read by get_mxfp4_backend and the kernel oracle's select_mxfp4_moe_backend) */
  if (in->mxfp4_backend == VC_MXFP4_BACKEND_MARLIN)
    {
      char *text = g_strdup_printf ("VLLM_MXFP4_USE_MARLIN=1 %s", cmd->text);

      g_free (cmd->text);
      cmd->text = text;
    }
  /* FlashInfer's sampler: an environment variable (vllm/envs.py, VLLM_USE_FLASHINFER_SAMPLER,
   * read by TopKTopPSampler in vllm/v1/sample/ops/topk_topp_sampler.py) */
  if (in->vllm_sampler == VC_VLLM_SAMPLER_FLASHINFER)
    {
      char *text = g_strdup_printf ("VLLM_USE_FLASHINFER_SAMPLER=1 %s", cmd->text);

      g_free (cmd->text);
      cmd->text = text;
    }
  /* the layers of each pipeline stage: an environment variable, not a flag (vllm/envs.py,
   * VLLM_PP_LAYER_PARTITION, read by get_pp_indices in vllm/distributed/utils.py) */
  if (req->pp_partition != NULL && l.pp > 1)
    {
      char *text = g_strdup_printf ("VLLM_PP_LAYER_PARTITION=%s %s", req->pp_partition, cmd->text);

      g_free (cmd->text);
      cmd->text = text;
    }
  return cmd;
}

/* python -m sglang.launch_server, ServerArgs' flags (python/sglang/srt/server_args.py) */
static VcCommand *
build_sglang (const VcCommandRequest *req,
              GError                **error)
{
  const VcInputs *in = req->inputs;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  VcLayout l;

  vc_layout_get_effective (in, &l);
  if (!need_checkpoint (req, VC_COMMAND_SGLANG, error) || !check_gpu_only (req, &l, VC_COMMAND_SGLANG, error))
    return NULL;
  if (req->n_devices > 0 && req->n_devices != l.tp * l.pp * l.dp)
    return refuse (error, _("%s runs on TP × PP × DP = %u GPUs, not %u"), "sglang", l.tp * l.pp * l.dp,
                   req->n_devices), NULL;
  add (argv, "python");
  add (argv, "-m");
  add (argv, "sglang.launch_server");
  add (argv, "--model-path");
  add (argv, req->model);
  if (l.tp > 1)
    add_uint (argv, "--tp-size", l.tp);
  if (l.pp > 1)
    add_uint (argv, "--pp-size", l.pp);
  if (l.dp > 1)
    add_uint (argv, "--dp-size", l.dp);
  if (l.ep > 1)
    add_uint (argv, "--ep-size", l.ep);
  add_uint (argv, "--context-length", in->seq);
  if (in->mem_fraction_static > 0)
    add_number (argv, "--mem-fraction-static", in->mem_fraction_static);
  if (in->page_size != 1)
    add_uint (argv, "--page-size", in->page_size);
  if (in->disable_custom_all_reduce)
    add (argv, "--disable-custom-all-reduce");
  if (!add_weight_format (argv, in, VC_COMMAND_SGLANG, error) || !add_kv_dtype (argv, in, VC_COMMAND_SGLANG, error))
    return NULL;
  return command_new (VC_COMMAND_SGLANG, g_steal_pointer (&argv), NULL, NULL);
}

/* The name `ollama create` gives the model: the file's or model's name in Ollama's letters */
static char *
ollama_name (const char *model)
{
  g_autofree char *base = g_path_get_basename (model);
  char *name;

  if (is_gguf_name (base))
    base[strlen (base) - 5] = '\0';
  name = g_ascii_strdown (base, -1);
  for (char *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '-' && *p != '_')
      *p = '-';
  return name;
}

/* An Ollama Modelfile (docs/modelfile.mdx; its PARAMETERs are api/types.go's Runner options)
 * and the server's settings from envconfig/config.go */
static VcCommand *
build_ollama (const VcCommandRequest *req,
              GError                **error)
{
  const VcInputs *in = req->inputs;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) file = g_string_new (NULL);
  g_autoptr(GString) env = g_string_new (NULL);
  g_autofree char *name = NULL;
  VcLayout l;
  VcLlamaCpp lc;
  const char *ctk;

  vc_layout_get_effective (in, &l);
  if (!need_model (req, VC_COMMAND_OLLAMA, error))
    return NULL;
  if (!(req->model_kind == VC_COMMAND_MODEL_OLLAMA ||
        (req->model_kind == VC_COMMAND_MODEL_PATH && is_gguf_name (req->model))))
    return refuse (error, _("an Ollama Modelfile starts FROM an Ollama model or a GGUF file: %s is neither"),
                   req->model), NULL;
  if (l.tp > 1 || l.pp > 1 || l.dp > 1 || l.ep > 1 || has_split (req) || req->row_split || req->n_devices > 1)
    return refuse (error, _("Ollama places a model’s layers across GPUs itself: a split across GPUs cannot be expressed")), NULL;
  if (l.experts_on_cpu || req->n_cpu_moe > 0)
    return refuse (error, _("Ollama has no setting for experts in system RAM")), NULL;
  /* a second FROM line names the projector file: parser/parser.go (Modelfile.CreateRequest)
   * gathers the files of every FROM, and server/create.go stores a GGUF whose general.type is
   * "projector" or "mmproj" (isProjectorGGUF) as the model's projector layer; whether it goes
   * on the GPU Ollama decides itself (llm/llama_server.go, shouldDisableMMProjOffload) */
  if (req->mmproj != NULL && req->model_kind != VC_COMMAND_MODEL_PATH)
    return refuse (error, _("an Ollama Modelfile takes a projector file beside a GGUF file (a second FROM line): "
                            "%s is an Ollama model, which holds its own projector or none"), req->model), NULL;
  if (req->mmproj != NULL && !in->mmproj_offload)
    return refuse (error, _("Ollama decides itself whether the projector goes on the GPU (it adds "
                            "--no-mmproj-offload where the GPUs lack room): --no-mmproj-offload cannot be written "
                            "in a Modelfile; print the llama.cpp command")), NULL;
  /* one type for keys and values, f16 (Ollama's default, left out), q8_0 or q4_0 */
  ctk = vc_engine_ollama_kv_type (in);
  if (ctk == NULL)
    return refuse (error, _("Ollama takes one KV cache type, f16, q8_0 or q4_0, for keys and values alike")), NULL;
  if (g_str_equal (ctk, "f16"))
    ctk = NULL;
  vc_engine_llama_cpp (in, &lc);

  g_string_append_printf (file, "FROM %s\n", req->model);
  if (req->mmproj != NULL)
    g_string_append_printf (file, "FROM %s\n", req->mmproj);
  g_string_append_printf (file, "PARAMETER num_ctx %u\n", in->seq);
  if (l.gpu_layers > 0)
    g_string_append_printf (file, "PARAMETER num_gpu %u\n", l.gpu_layers);
  else if (in->method == VC_METHOD_ARCHITECTURE && in->arch.n_layers > 0)
    /* every repeating layer and the output layer, as Ollama counts them and passes them as -ngl
     * (llm/llama_server.go: BlockCount() + 1) */
    g_string_append_printf (file, "PARAMETER num_gpu %u\n", in->arch.n_layers + 1);
  if (in->n_ubatch > 0)
    g_string_append_printf (file, "PARAMETER num_batch %u\n", in->n_ubatch);
  if (req->main_gpu >= 0)
    g_string_append_printf (file, "PARAMETER main_gpu %d\n", req->main_gpu);

  if (lc.n_seq > 1)
    g_string_append_printf (env, " OLLAMA_NUM_PARALLEL=%u", (guint) lc.n_seq);
  if (ctk != NULL)
    g_string_append_printf (env, " OLLAMA_KV_CACHE_TYPE=%s", ctk);
  if (!in->flash_attention)
    g_string_append (env, " OLLAMA_FLASH_ATTENTION=0");
  if (env->len > 0)
    {
      g_autofree char *line = g_strdup_printf ("# ollama serve runs with%s\n", env->str);

      g_string_prepend (file, line);
    }

  name = ollama_name (req->model);
  add (argv, "ollama");
  add (argv, "create");
  add (argv, name);
  add (argv, "-f");
  add (argv, "Modelfile");
  return command_new (VC_COMMAND_OLLAMA, g_steal_pointer (&argv), "Modelfile", g_string_free (g_steal_pointer (&file), FALSE));
}

/* Accelerate's memory strings ("12345MiB", utils/modeling.py convert_file_size_to_int),
 * rounded up so the map never holds less than the estimate */
static char *
mib_string (double bytes)
{
  return g_strdup_printf ("\"%.0fMiB\"", ceil (bytes / MIB));
}

static gboolean
python_dtype (GString        *s,
              const VcInputs *in,
              GError        **error)
{
  if (weights_are_source (in))
    return TRUE;
  switch (in->precision)
    {
    case VC_PRECISION_BF16: g_string_append (s, "    torch_dtype=torch.bfloat16,\n"); return TRUE;
    case VC_PRECISION_FP16: g_string_append (s, "    torch_dtype=torch.float16,\n"); return TRUE;
    case VC_PRECISION_FP32: g_string_append (s, "    torch_dtype=torch.float32,\n"); return TRUE;
    case VC_PRECISION_INT8:
      g_string_append (s, "    quantization_config=BitsAndBytesConfig(load_in_8bit=True),\n");
      return TRUE;
    case VC_PRECISION_NF4:
      g_string_append (s, "    quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\"),\n");
      return TRUE;
    default:
      return refuse (error, _("%s quantizes to %s only from a checkpoint already in it: read such a checkpoint's files"),
                     "accelerate", vc_enum_nick (VC_TYPE_PRECISION, in->precision));
    }
}

/* Transformers' from_pretrained with device_map="auto" and Accelerate's max_memory map */
static VcCommand *
build_accelerate (const VcCommandRequest *req,
                  GError                **error)
{
  const VcInputs *in = req->inputs;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) s = g_string_new (NULL);
  g_autofree char *quoted = NULL;
  gboolean planned = FALSE;
  VcLayout l;
  guint n;

  vc_layout_get_effective (in, &l);
  if (!need_checkpoint (req, VC_COMMAND_ACCELERATE, error))
    return NULL;
  if (l.dp > 1 || l.tp > 1 || l.ep > 1)
    return refuse (error, _("device_map=\"auto\" places one copy of the model layer by layer: TP %u, EP %u and DP %u cannot be expressed"),
                   l.tp, l.ep, l.dp), NULL;
  if (l.gpu_layers > 0 || l.experts_on_cpu || req->n_cpu_moe > 0 || req->row_split || has_split (req))
    return refuse (error, _("llama.cpp’s placements (layers or experts in RAM, a tensor split) are not a max_memory map")), NULL;
  for (guint i = 0; i < VC_COMMAND_MAX_DEVICES; i++)
    planned |= req->max_memory_bytes[i] > 0;
  n = req->n_devices > 0 ? req->n_devices : l.pp;
  if (!planned && !(req->per_gpu_bytes > 0))
    return refuse (error, _("the max_memory map needs each GPU’s memory, and the estimate has none")), NULL;

  g_string_append (s, "import torch\nfrom transformers import AutoModelForCausalLM");
  if (!weights_are_source (in) && (in->precision == VC_PRECISION_INT8 || in->precision == VC_PRECISION_NF4))
    g_string_append (s, ", BitsAndBytesConfig");
  quoted = g_strescape (req->model, NULL);
  g_string_append_printf (s, "\n\nmodel = AutoModelForCausalLM.from_pretrained(\n    \"%s\",\n", quoted);
  g_string_append (s, "    device_map=\"auto\",\n    max_memory={");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *v = mib_string (planned ? req->max_memory_bytes[i] : req->per_gpu_bytes);

      g_string_append_printf (s, "%s%u: %s", i ? ", " : "", i, v);
    }
  if (req->cpu_memory_bytes > 0)
    {
      g_autofree char *v = mib_string (req->cpu_memory_bytes);

      g_string_append_printf (s, ", \"cpu\": %s", v);
    }
  g_string_append (s, "},\n");
  if (!python_dtype (s, in, error))
    return NULL;
  g_string_append (s, ")\n");
  add (argv, "python3");
  add (argv, "-c");
  add (argv, s->str);
  {
    VcCommand *c = command_new (VC_COMMAND_ACCELERATE, g_steal_pointer (&argv), NULL, NULL);

    g_free (c->text);
    c->text = g_string_free (g_steal_pointer (&s), FALSE);
    return c;
  }
}

static gboolean
check_training (const VcCommandRequest *req,
                VcCommandEngine         engine,
                const VcLayout         *l,
                GError                **error)
{
  const VcInputs *in = req->inputs;

  if (in->mode != VC_MODE_TRAINING)
    return refuse (error, _("%s runs training: the estimate is of inference"), engine_ids[engine]);
  if (l->dp > l->gpus_per_node)
    return refuse (error, _("the launch line covers one machine: DP %u is more than the %u GPUs of a node"),
                   l->dp, l->gpus_per_node);
  if (in->checkpointing == VC_CHECKPOINTING_SQRT)
    return refuse (error, _("Transformers’ gradient checkpointing keeps every layer’s input: √L segments cannot be expressed"));
  if (in->checkpointing == VC_CHECKPOINTING_SELECTIVE || in->checkpointing == VC_CHECKPOINTING_SELECTIVE_LAYERS)
    return refuse (error, _("Transformers’ gradient checkpointing keeps every layer’s input: torchtitan’s selective checkpointing (per operator or every N-th layer) cannot be expressed"));
  if (MAX (1u, l->cp) > 1)
    return refuse (error, _("the launch line has no context parallelism: CP %u cannot be expressed"), l->cp);
  if (req->n_devices > 0 && req->n_devices != l->dp)
    return refuse (error, _("%s runs on TP × PP × DP = %u GPUs, not %u"), engine_ids[engine], l->dp, req->n_devices);
  return TRUE;
}

/* Transformers TrainingArguments' own flags, which must match the config's */
static void
add_training_args (GPtrArray      *argv,
                   const VcInputs *in,
                   const VcLayout *l)
{
  add_uint (argv, "--per_device_train_batch_size", in->batch);
  add_uint (argv, "--gradient_accumulation_steps", l->grad_accum);
  if (in->training_precision == VC_TRAINING_PRECISION_BF16)
    add (argv, "--bf16");
  else if (in->training_precision == VC_TRAINING_PRECISION_FP16)
    add (argv, "--fp16");
  if (in->checkpointing == VC_CHECKPOINTING_FULL)
    add (argv, "--gradient_checkpointing");
}

/* PyTorch's allocator setting, in the launch line's environment */
static void
env_prefix (GPtrArray      *argv,
            const VcInputs *in)
{
  if (in->expandable_segments)
    add (argv, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
}

/* What the training commands share: the effective layout, checked for one machine
 * (check_training()), the launch line and the file it reads. A builder adds its own keys to
 * the file and its own words to the line. */
typedef struct
{
  const VcCommandRequest *req;
  VcCommandEngine engine;
  VcLayout l;
  GPtrArray *argv;
  const char *file_name;           /* NULL: the launch line alone */
  GString *file;
} Training;

static void
training_clear (Training *t)
{
  g_clear_pointer (&t->argv, g_ptr_array_unref);
  if (t->file != NULL)
    g_string_free (g_steal_pointer (&t->file), TRUE);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Training, training_clear)

static gboolean
training_init (Training               *t,
               VcCommandEngine         engine,
               const VcCommandRequest *req,
               const char             *file_name,
               GError                **error)
{
  t->req = req;
  t->engine = engine;
  vc_layout_get_effective (req->inputs, &t->l);
  t->argv = g_ptr_array_new_with_free_func (g_free);
  t->file_name = file_name;
  t->file = file_name != NULL ? g_string_new (NULL) : NULL;
  return check_training (req, engine, &t->l, error);
}

/* How a launcher is told its processes, one a GPU of the data-parallel group */
typedef enum
{
  PROCS_IN_FILE,                   /* the file's num_processes (Accelerate's config) */
  PROCS_TORCHRUN,                  /* torchrun --nproc_per_node=N, always */
  PROCS_TUNE,                      /* tune run --nproc_per_node N, past one GPU */
  PROCS_ACCELERATE,                /* --num_processes N, always (TRL's, beside its config) */
  PROCS_ACCELERATE_AFTER_DASHES,   /* -- --num_processes N, past one GPU: `axolotl train`
                                    * passes what follows -- to accelerate launch */
  PROCS_TORCHRUN_ENV,              /* FORCE_TORCHRUN=1 NPROC_PER_NODE=N before the program,
                                    * past one GPU (LLaMA-Factory's launcher.py) */
} Procs;

/* where the processes go among a launch line's words */
static const char processes_here[] = "";
#define PROCESSES processes_here

/* The launch line's words, NULL-terminated, PROCESSES among them where the launcher takes its
 * processes (@procs), after PyTorch's allocator setting where @environment (env_prefix()) */
static void
training_launch (Training   *t,
                 gboolean    environment,
                 Procs       procs,
                 const char *first,
                 ...)
{
  guint dp = t->l.dp;
  va_list ap;

  if (environment)
    env_prefix (t->argv, t->req->inputs);
  va_start (ap, first);
  for (const char *word = first; word != NULL; word = va_arg (ap, const char *))
    {
      if (word != PROCESSES)
        {
          add (t->argv, word);
          continue;
        }
      switch (procs)
        {
        case PROCS_TORCHRUN:
          g_ptr_array_add (t->argv, g_strdup_printf ("--nproc_per_node=%u", dp));
          break;
        case PROCS_TUNE:
          if (dp > 1)
            add_uint (t->argv, "--nproc_per_node", dp);
          break;
        case PROCS_ACCELERATE:
          add_uint (t->argv, "--num_processes", dp);
          break;
        case PROCS_ACCELERATE_AFTER_DASHES:
          if (dp > 1)
            {
              add (t->argv, "--");
              add_uint (t->argv, "--num_processes", dp);
            }
          break;
        case PROCS_TORCHRUN_ENV:
          if (dp > 1)
            {
              add (t->argv, "FORCE_TORCHRUN=1");
              g_ptr_array_add (t->argv, g_strdup_printf ("NPROC_PER_NODE=%u", dp));
            }
          break;
        case PROCS_IN_FILE:
        default:
          g_assert_not_reached ();
        }
    }
  va_end (ap);
}

static VcCommand *
training_command (Training *t)
{
  return command_new (t->engine, g_steal_pointer (&t->argv), t->file_name,
                      t->file != NULL ? g_string_free (g_steal_pointer (&t->file), FALSE) : NULL);
}

/* A DeepSpeed JSON (docs/_pages/config-json.md) and torchrun with the Trainer's --deepspeed */
static VcCommand *
build_deepspeed (const VcCommandRequest *req,
                 GError                **error)
{
  const VcInputs *in = req->inputs;
  g_auto(Training) t = { 0 };
  GString *f;

  if (!training_init (&t, VC_COMMAND_DEEPSPEED, req, "ds_config.json", error))
    return NULL;
  f = t.file;
  if (t.l.sharding >= VC_SHARDING_FSDP_GRAD_OP)
    return refuse (error, _("the estimate shards with FSDP: its command is fsdp, not deepspeed")), NULL;
  g_string_append_printf (f, "{\n  \"train_micro_batch_size_per_gpu\": %u,\n  \"gradient_accumulation_steps\": %u,\n",
                          in->batch, t.l.grad_accum);
  if (in->training_precision == VC_TRAINING_PRECISION_BF16)
    g_string_append (f, "  \"bf16\": { \"enabled\": true },\n");
  else if (in->training_precision == VC_TRAINING_PRECISION_FP16)
    g_string_append (f, "  \"fp16\": { \"enabled\": true },\n");
  g_string_append_printf (f, "  \"zero_optimization\": {\n    \"stage\": %u", vc_layout_zero_stage (t.l.sharding));
  if (t.l.offload != VC_OFFLOAD_NONE)
    g_string_append (f, ",\n    \"offload_optimizer\": { \"device\": \"cpu\" }");
  if (t.l.offload == VC_OFFLOAD_OPTIMIZER_PARAMS)
    g_string_append (f, ",\n    \"offload_param\": { \"device\": \"cpu\" }");
  g_string_append (f, "\n  }\n}\n");

  training_launch (&t, TRUE, PROCS_TORCHRUN, "torchrun", PROCESSES, "train.py", "--deepspeed", "ds_config.json", NULL);
  add_training_args (t.argv, in, &t.l);
  return training_command (&t);
}

/* An Accelerate config for FSDP (commands/config/config_args.py, utils/dataclasses.py
 * FullyShardedDataParallelPlugin) and accelerate launch */
static VcCommand *
build_fsdp (const VcCommandRequest *req,
            GError                **error)
{
  const VcInputs *in = req->inputs;
  g_auto(Training) t = { 0 };
  GString *f;
  const char *strategy;
  const char *mixed;

  if (!training_init (&t, VC_COMMAND_FSDP, req, "fsdp_config.yaml", error))
    return NULL;
  f = t.file;
  switch (t.l.sharding)
    {
    case VC_SHARDING_FSDP_FULL: strategy = "FULL_SHARD"; break;
    case VC_SHARDING_FSDP_GRAD_OP: strategy = "SHARD_GRAD_OP"; break;
    case VC_SHARDING_FSDP_HYBRID: strategy = "HYBRID_SHARD"; break;
    default:
      return refuse (error, _("the estimate does not shard with FSDP: its command is deepspeed, not fsdp")), NULL;
    }
  if (t.l.offload == VC_OFFLOAD_OPTIMIZER)
    return refuse (error, _("FSDP offloads parameters, gradients and optimizer state together: offloading the optimizer alone cannot be expressed")), NULL;
  mixed = in->training_precision == VC_TRAINING_PRECISION_BF16 ? "bf16"
          : in->training_precision == VC_TRAINING_PRECISION_FP16 ? "fp16" : "'no'";
  g_string_append (f, "compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nfsdp_config:\n");
  g_string_append (f, "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n");
  g_string_append_printf (f, "  fsdp_offload_params: %s\n", t.l.offload == VC_OFFLOAD_OPTIMIZER_PARAMS ? "true" : "false");
  g_string_append_printf (f, "  fsdp_sharding_strategy: %s\n", strategy);
  g_string_append_printf (f, "mixed_precision: %s\nnum_machines: 1\nnum_processes: %u\n", mixed, t.l.dp);

  /* the processes are the file's num_processes */
  training_launch (&t, TRUE, PROCS_IN_FILE, "accelerate", "launch", "--config_file", "fsdp_config.yaml", "train.py", NULL);
  add_training_args (t.argv, in, &t.l);
  return training_command (&t);
}

/* ---- trainers' own configs ---- */

/* What the Hugging Face trainers (Axolotl, LLaMA-Factory and TRL run Transformers' Trainer) are
 * told alike: the model, on one machine, with data parallelism alone, no optimizer step in the
 * backward pass (torchtune's). */
static gboolean
check_hf_trainer (const Training *t,
                  GError        **error)
{
  const VcInputs *in = t->req->inputs;
  const VcLayout *l = &t->l;
  VcCommandEngine engine = t->engine;

  if (!need_checkpoint (t->req, engine, error))
    return FALSE;
  if (l->tp > 1 || l->pp > 1 || l->ep > 1)
    return refuse (error, _("%s trains with data parallelism: TP %u, PP %u and EP %u cannot be expressed"),
                   engine_ids[engine], l->tp, l->pp, l->ep);
  if (in->optimizer_in_backward)
    return refuse (error, _("%s has no optimizer step in the backward pass (torchtune’s optimizer_in_bwd)"),
                   engine_ids[engine]);
  return TRUE;
}

/* Transformers' optimizer names (transformers/training_args.py, OptimizerNames), which the three
 * take: torch's AdamW, SGD (without momentum) and RMSprop, bitsandbytes' AdamW8bit and
 * PagedAdamW8bit */
static const char *
hf_optimizer (const VcInputs  *in,
              VcCommandEngine  engine,
              GError         **error)
{
  switch (in->optimizer)
    {
    /* the step the estimate counts (--optimizer-impl, or the trainer's): adamw_torch is foreach */
    case VC_OPTIMIZER_ADAMW:
      return vc_trainer_optimizer_impl (in) == VC_OPTIMIZER_IMPL_FUSED ? "adamw_torch_fused" : "adamw_torch";
    case VC_OPTIMIZER_SGD: return "sgd";
    case VC_OPTIMIZER_RMSPROP: return "rmsprop";
    case VC_OPTIMIZER_ADAMW_8BIT: return "adamw_bnb_8bit";
    case VC_OPTIMIZER_PAGED_ADAMW_8BIT: return "paged_adamw_8bit";
    case VC_OPTIMIZER_ADAM:
    case VC_OPTIMIZER_SGD_MOMENTUM:
    default:
      refuse (error, _("%s takes Transformers’ optimizers, which have no %s: adamw, sgd, rmsprop, adamw-8bit or paged-adamw-8bit"),
              engine_ids[engine], vc_enum_nick (VC_TYPE_OPTIMIZER, in->optimizer));
      return NULL;
    }
}

/* LoRA's targets as PEFT names the Llama-style projections */
static char *
lora_module_list (VcLoraTargets targets,
                  const char   *separator)
{
  static const char *names[] = { "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj" };
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) v = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (targets & (1u << i))
      g_strv_builder_add (b, names[i]);
  v = g_strv_builder_end (b);
  return g_strjoinv (separator, v);
}

/* The parameters' and the optimizer state's precision as a Hugging Face trainer keeps them:
 * PEFT's adapters in fp32 (get_peft_model's autocast_adapter_dtype), so fp32 state; a fully
 * trained model's state follows its parameters (torch.optim creates it like them), bf16 or
 * fp16 when the model is loaded so and trains without an fp32 copy. */
static gboolean
check_hf_state (const VcInputs  *in,
                VcCommandEngine  engine,
                gboolean         full_fp32_master,
                GError         **error)
{
  gboolean bf16_state = in->optimizer_precision == VC_STATE_PRECISION_BF16;
  gboolean sixteen = in->training_precision != VC_TRAINING_PRECISION_FP32;

  if (in->finetune != VC_FINETUNE_FULL)
    {
      if (bf16_state)
        return refuse (error, _("%s trains PEFT’s adapters in fp32 with fp32 optimizer state: bf16 state cannot be expressed"),
                       engine_ids[engine]);
      if (in->mixed_precision)
        return refuse (error, _("%s keeps no fp32 copy beside the adapters, themselves fp32: mixed precision cannot be expressed"),
                       engine_ids[engine]);
      return TRUE;
    }
  if (in->mixed_precision && !full_fp32_master)
    return refuse (error, _("%s loads the model in the training precision: an fp32 master copy cannot be expressed"),
                   engine_ids[engine]);
  if (sixteen && !in->mixed_precision && !bf16_state)
    return refuse (error, _("%s creates the optimizer state in the parameters’ 16 bits: fp32 state beside 16-bit parameters cannot be expressed"),
                   engine_ids[engine]);
  if ((!sixteen || in->mixed_precision) && bf16_state)
    return refuse (error, _("%s creates the optimizer state in the parameters’ fp32: bf16 state cannot be expressed"),
                   engine_ids[engine]);
  return TRUE;
}

/* Axolotl's YAML (AxolotlInputConfig, src/axolotl/utils/schemas/) and `axolotl train`, whose
 * arguments after -- go to accelerate launch (cli/utils/train.py) */
static VcCommand *
build_axolotl (const VcCommandRequest *req,
               GError                **error)
{
  const VcInputs *in = req->inputs;
  g_auto(Training) t = { 0 };
  GString *f;
  const char *optim, *ds = NULL;
  VcLoss loss = vc_trainer_loss (in);

  if (!training_init (&t, VC_COMMAND_AXOLOTL, req, "config.yml", error) || !check_hf_trainer (&t, error) ||
      !check_hf_state (in, VC_COMMAND_AXOLOTL, FALSE, error) ||
      !(optim = hf_optimizer (in, VC_COMMAND_AXOLOTL, error)))
    return NULL;
  f = t.file;
  /* the DeepSpeed configs Axolotl ships (deepspeed_configs/): zero2.json offloads the optimizer */
  switch (t.l.sharding)
    {
    case VC_SHARDING_NONE: break;
    case VC_SHARDING_ZERO_1: ds = t.l.offload == VC_OFFLOAD_NONE ? "zero1.json" : NULL; break;
    case VC_SHARDING_ZERO_2: ds = t.l.offload == VC_OFFLOAD_OPTIMIZER ? "zero2.json" : NULL; break;
    case VC_SHARDING_ZERO_3:
      ds = t.l.offload == VC_OFFLOAD_NONE ? "zero3.json"
           : t.l.offload == VC_OFFLOAD_OPTIMIZER_PARAMS && in->training_precision == VC_TRAINING_PRECISION_BF16
           ? "zero3_bf16_cpuoffload_all.json" : NULL;
      break;
    default:
      return refuse (error, _("%s: FSDP is given with the fsdp command’s config"), "axolotl"), NULL;
    }
  if (t.l.sharding != VC_SHARDING_NONE && ds == NULL)
    return refuse (error, _("%s ships no DeepSpeed config for ZeRO-%u with offload %s"), "axolotl",
                   vc_layout_zero_stage (t.l.sharding), vc_enum_nick (VC_TYPE_OFFLOAD, t.l.offload)), NULL;

  g_string_append_printf (f, "base_model: %s\n", req->model);
  if (in->finetune != VC_FINETUNE_FULL)
    {
      g_autofree char *targets = lora_module_list (in->lora_targets, ", ");

      g_string_append_printf (f, "adapter: %s\n", in->finetune == VC_FINETUNE_QLORA_4BIT ? "qlora" : "lora");
      if (in->finetune == VC_FINETUNE_QLORA_8BIT)
        g_string_append (f, "load_in_8bit: true\n");
      else if (in->finetune == VC_FINETUNE_QLORA_4BIT)
        g_string_append (f, "load_in_4bit: true\n");
      g_string_append_printf (f, "lora_r: %u\n", in->lora_rank);
      if (in->lora_targets == VC_LORA_TARGETS_ALL_LINEAR)
        g_string_append (f, "lora_target_linear: true\n");
      else
        g_string_append_printf (f, "lora_target_modules: [%s]\n", targets);
      if (in->train_embeddings)
        g_string_append (f, "lora_modules_to_save: [embed_tokens]\n");
    }
  g_string_append_printf (f, "sequence_len: %u\nmicro_batch_size: %u\ngradient_accumulation_steps: %u\n",
                          in->seq, in->batch, t.l.grad_accum);
  g_string_append_printf (f, "optimizer: %s\n", optim);
  g_string_append_printf (f, "bf16: %s\n", in->training_precision == VC_TRAINING_PRECISION_BF16 ? "true" : "false");
  if (in->training_precision == VC_TRAINING_PRECISION_FP16)
    g_string_append (f, "fp16: true\n");
  g_string_append_printf (f, "gradient_checkpointing: %s\n", in->checkpointing == VC_CHECKPOINTING_FULL ? "true" : "false");
  g_string_append_printf (f, "attn_implementation: %s\n", in->flash_attention ? "sdpa" : "eager");
  if (in->compile)
    g_string_append (f, "torch_compile: true\n");
  if (loss == VC_LOSS_CHUNKED)
    g_string_append (f, "chunked_cross_entropy: true\n");
  else if (loss == VC_LOSS_FUSED)
    g_string_append (f, "plugins:\n  - axolotl.integrations.liger.LigerPlugin\nliger_fused_linear_cross_entropy: true\n");
  else if (loss == VC_LOSS_CCE)
    g_string_append (f, "plugins:\n  - axolotl.integrations.cut_cross_entropy.CutCrossEntropyPlugin\ncut_cross_entropy: true\n");
  if (ds != NULL)
    g_string_append_printf (f, "deepspeed: deepspeed_configs/%s\n", ds);
  g_string_append (f, "# datasets: yours\n");

  training_launch (&t, TRUE, PROCS_ACCELERATE_AFTER_DASHES, "axolotl", "train", "config.yml", PROCESSES, NULL);
  return training_command (&t);
}

/* LLaMA-Factory's YAML (src/llamafactory/hparams/: model_args.py, finetuning_args.py,
 * data_args.py, and Transformers' TrainingArguments) and `llamafactory-cli train`, run under
 * torchrun on NPROC_PER_NODE GPUs with FORCE_TORCHRUN (launcher.py) */
static VcCommand *
build_llamafactory (const VcCommandRequest *req,
                    GError                **error)
{
  const VcInputs *in = req->inputs;
  g_auto(Training) t = { 0 };
  GString *f;
  const char *optim, *ds = NULL;
  VcLoss loss = vc_trainer_loss (in);

  if (!training_init (&t, VC_COMMAND_LLAMAFACTORY, req, "train.yaml", error) || !check_hf_trainer (&t, error) ||
      !(optim = hf_optimizer (in, VC_COMMAND_LLAMAFACTORY, error)))
    return NULL;
  f = t.file;
  /* a fully trained model's parameters are cast to fp32 for training unless pure_bf16
   * (model/adapter.py, cast_trainable_params_to_fp32): the fp32 copy of mixed precision */
  if (in->finetune == VC_FINETUNE_FULL && in->training_precision == VC_TRAINING_PRECISION_BF16 && !in->mixed_precision)
    {
      if (in->optimizer_precision != VC_STATE_PRECISION_BF16)
        return refuse (error, _("%s creates the optimizer state in the parameters’ 16 bits: fp32 state beside 16-bit parameters cannot be expressed"),
                       "llamafactory"), NULL;
    }
  else if (in->finetune == VC_FINETUNE_FULL && in->training_precision != VC_TRAINING_PRECISION_FP32 && !in->mixed_precision)
    return refuse (error, _("%s trains a full model in fp32 unless pure_bf16: 16-bit parameters without an fp32 copy are bf16 only"),
                   "llamafactory"), NULL;
  else if (!check_hf_state (in, VC_COMMAND_LLAMAFACTORY, TRUE, error))
    return NULL;
  if (loss == VC_LOSS_CHUNKED || loss == VC_LOSS_CCE)
    return refuse (error, _("%s has no %s loss: full, or fused (Liger)"), "llamafactory",
                   vc_enum_nick (VC_TYPE_LOSS, loss)), NULL;
  /* examples/deepspeed/: ds_z2_offload offloads the optimizer, ds_z3_offload it and the parameters */
  switch (t.l.sharding)
    {
    case VC_SHARDING_NONE: break;
    case VC_SHARDING_ZERO_2:
      ds = t.l.offload == VC_OFFLOAD_NONE ? "ds_z2_config.json"
           : t.l.offload == VC_OFFLOAD_OPTIMIZER ? "ds_z2_offload_config.json" : NULL;
      break;
    case VC_SHARDING_ZERO_3:
      ds = t.l.offload == VC_OFFLOAD_NONE ? "ds_z3_config.json"
           : t.l.offload == VC_OFFLOAD_OPTIMIZER_PARAMS ? "ds_z3_offload_config.json" : NULL;
      break;
    case VC_SHARDING_ZERO_1:
      break;
    default:
      return refuse (error, _("%s: FSDP is given with the fsdp command’s config"), "llamafactory"), NULL;
    }
  if (t.l.sharding != VC_SHARDING_NONE && ds == NULL)
    return refuse (error, _("%s ships no DeepSpeed config for ZeRO-%u with offload %s"), "llamafactory",
                   vc_layout_zero_stage (t.l.sharding), vc_enum_nick (VC_TYPE_OFFLOAD, t.l.offload)), NULL;

  g_string_append_printf (f, "model_name_or_path: %s\nstage: sft\ndo_train: true\n", req->model);
  g_string_append_printf (f, "finetuning_type: %s\n", in->finetune == VC_FINETUNE_FULL ? "full" : "lora");
  if (in->finetune != VC_FINETUNE_FULL)
    {
      g_autofree char *targets = lora_module_list (in->lora_targets, ",");

      g_string_append_printf (f, "lora_rank: %u\nlora_target: %s\n", in->lora_rank,
                              in->lora_targets == VC_LORA_TARGETS_ALL_LINEAR ? "all" : targets);
      if (in->train_embeddings)
        g_string_append (f, "additional_target: embed_tokens\n");
      if (in->finetune == VC_FINETUNE_QLORA_8BIT)
        g_string_append (f, "quantization_bit: 8\n");
      else if (in->finetune == VC_FINETUNE_QLORA_4BIT)
        g_string_append (f, "quantization_bit: 4\n");
    }
  g_string_append_printf (f, "cutoff_len: %u\nper_device_train_batch_size: %u\ngradient_accumulation_steps: %u\n",
                          in->seq, in->batch, t.l.grad_accum);
  g_string_append_printf (f, "optim: %s\n", optim);
  if (in->training_precision == VC_TRAINING_PRECISION_BF16)
    g_string_append (f, "bf16: true\n");
  else if (in->training_precision == VC_TRAINING_PRECISION_FP16)
    g_string_append (f, "fp16: true\n");
  if (in->finetune == VC_FINETUNE_FULL && in->training_precision == VC_TRAINING_PRECISION_BF16 && !in->mixed_precision)
    g_string_append (f, "pure_bf16: true\n");
  /* checkpointing is on unless disabled (model_args.py) */
  if (in->checkpointing != VC_CHECKPOINTING_FULL)
    g_string_append (f, "disable_gradient_checkpointing: true\n");
  if (!in->flash_attention)
    g_string_append (f, "flash_attn: disabled\n");
  if (in->compile)
    g_string_append (f, "torch_compile: true\n");
  if (loss == VC_LOSS_FUSED)
    g_string_append (f, "enable_liger_kernel: true\n");
  if (ds != NULL)
    g_string_append_printf (f, "deepspeed: examples/deepspeed/%s\n", ds);
  g_string_append (f, "# dataset, template: yours\n");

  training_launch (&t, TRUE, PROCS_TORCHRUN_ENV, PROCESSES, "llamafactory-cli", "train", "train.yaml", NULL);
  return training_command (&t);
}

/* ModelConfig's PEFT and bitsandbytes flags */
static void
add_trl_peft (GPtrArray      *argv,
              const VcInputs *in)
{
  add (argv, "--use_peft");
  add_uint (argv, "--lora_r", in->lora_rank);
  add (argv, "--lora_target_modules");
  if (in->lora_targets == VC_LORA_TARGETS_ALL_LINEAR)
    add (argv, "all-linear");
  else
    {
      g_autofree char *targets = lora_module_list (in->lora_targets, " ");
      g_auto(GStrv) v = g_strsplit (targets, " ", -1);

      for (guint i = 0; v[i]; i++)
        add (argv, v[i]);
    }
  if (in->train_embeddings)
    {
      add (argv, "--lora_modules_to_save");
      add (argv, "embed_tokens");
    }
  if (in->finetune == VC_FINETUNE_QLORA_8BIT)
    add (argv, "--load_in_8bit");
  else if (in->finetune == VC_FINETUNE_QLORA_4BIT)
    {
      add (argv, "--load_in_4bit");
      add (argv, "--bnb_4bit_quant_type");
      add (argv, "nf4");
    }
}

/* TRL's `trl sft` (trl/cli): SFTConfig's, ModelConfig's and ScriptArguments' flags, and
 * accelerate launch's through --accelerate_config (the configs TRL ships, trl/accelerate_configs/)
 * and --num_processes */
static VcCommand *
build_trl (const VcCommandRequest *req,
           GError                **error)
{
  const VcInputs *in = req->inputs;
  g_auto(Training) t = { 0 };
  GPtrArray *argv;
  const char *optim, *acc = NULL, *dtype;
  VcLoss loss = vc_trainer_loss (in);

  if (!training_init (&t, VC_COMMAND_TRL, req, NULL, error) || !check_hf_trainer (&t, error) ||
      !check_hf_state (in, VC_COMMAND_TRL, TRUE, error) ||
      !(optim = hf_optimizer (in, VC_COMMAND_TRL, error)))
    return NULL;
  if (loss == VC_LOSS_CCE)
    return refuse (error, _("%s has no %s loss: full, chunked (chunked_nll) or fused (Liger)"), "trl",
                   vc_enum_nick (VC_TYPE_LOSS, loss)), NULL;
  switch (t.l.sharding)
    {
    case VC_SHARDING_NONE: acc = t.l.dp > 1 ? "multi_gpu" : NULL; break;
    case VC_SHARDING_ZERO_1: acc = "zero1"; break;
    case VC_SHARDING_ZERO_2: acc = "zero2"; break;
    case VC_SHARDING_ZERO_3: acc = "zero3"; break;
    case VC_SHARDING_FSDP_FULL: acc = "fsdp2"; break;
    default:
      return refuse (error, _("%s ships accelerate configs for DDP, ZeRO 1 to 3 and FSDP’s full sharding: %s cannot be expressed"),
                     "trl", vc_enum_nick (VC_TYPE_SHARDING, t.l.sharding)), NULL;
    }
  if (t.l.offload != VC_OFFLOAD_NONE)
    return refuse (error, _("%s’s accelerate configs offload nothing: offload %s cannot be expressed"), "trl",
                   vc_enum_nick (VC_TYPE_OFFLOAD, t.l.offload)), NULL;
  /* the model is loaded in ModelConfig's dtype (float32 unless told): fp32 when the trained
   * parameters keep an fp32 copy or train in fp32 */
  dtype = in->training_precision == VC_TRAINING_PRECISION_FP32 || in->mixed_precision ? "float32"
          : in->training_precision == VC_TRAINING_PRECISION_FP16 ? "float16" : "bfloat16";
  if (in->finetune != VC_FINETUNE_FULL && in->training_precision == VC_TRAINING_PRECISION_FP32)
    dtype = "float32";

  if (acc != NULL)
    training_launch (&t, TRUE, PROCS_ACCELERATE, "trl", "sft", "--accelerate_config", acc, PROCESSES, NULL);
  else
    training_launch (&t, TRUE, PROCS_ACCELERATE, "trl", "sft", NULL);
  argv = t.argv;
  add (argv, "--model_name_or_path");
  add (argv, req->model);
  add (argv, "--dataset_name");
  add (argv, "DATASET");
  add (argv, "--dtype");
  add (argv, dtype);
  if (in->finetune != VC_FINETUNE_FULL)
    add_trl_peft (argv, in);
  add_uint (argv, "--max_length", in->seq);
  add_uint (argv, "--per_device_train_batch_size", in->batch);
  add_uint (argv, "--gradient_accumulation_steps", t.l.grad_accum);
  add (argv, "--optim");
  add (argv, optim);
  /* SFTConfig turns bf16 and gradient checkpointing on unless told (sft_config.py) */
  add (argv, "--bf16");
  add (argv, in->training_precision == VC_TRAINING_PRECISION_BF16 ? "true" : "false");
  if (in->training_precision == VC_TRAINING_PRECISION_FP16)
    add (argv, "--fp16");
  add (argv, "--gradient_checkpointing");
  add (argv, in->checkpointing == VC_CHECKPOINTING_FULL ? "true" : "false");
  add (argv, "--attn_implementation");
  add (argv, in->flash_attention ? "sdpa" : "eager");
  if (in->compile)
    add (argv, "--torch_compile");
  if (loss == VC_LOSS_FUSED)
    add (argv, "--use_liger_kernel");
  else
    {
      add (argv, "--loss_type");
      add (argv, loss == VC_LOSS_CHUNKED ? "chunked_nll" : "nll");
    }
  return training_command (&t);
}

/* torchtune's recipe configs for the built-in models (recipes/configs/ at bd2a0fc): which of
 * full_single_device, full (distributed), lora_single_device, lora (distributed) and
 * qlora_single_device exist, and each one's optimizer */
enum
{
  TT_FULL_SD = 1 << 0,
  TT_FULL = 1 << 1,
  TT_LORA_SD = 1 << 2,
  TT_LORA = 1 << 3,
  TT_QLORA_SD = 1 << 4,
};

/* the optimizer a config names: torch.optim.AdamW(fused=True) unless listed */
typedef enum
{
  TT_OPT_ADAMW_FUSED,
  TT_OPT_PAGED_ADAMW_8BIT,         /* bitsandbytes.optim.PagedAdamW8bit */
  TT_OPT_PAGED_ADAMW,              /* bitsandbytes.optim.PagedAdamW (32-bit) */
} TtOptimizer;

typedef struct
{
  const char *repository;
  const char *config;              /* "llama3_1/8B" */
  guint variants;
  TtOptimizer full_sd_optimizer;   /* full_single_device's; the others are AdamW(fused) */
} TtModel;

static const TtModel torchtune_models[] = {
  { "meta-llama/Llama-2-7b-hf", "llama2/7B", TT_FULL | TT_LORA_SD | TT_LORA | TT_QLORA_SD, 0 },
  { "meta-llama/Llama-2-13b-hf", "llama2/13B", TT_FULL | TT_LORA | TT_QLORA_SD, 0 },
  { "meta-llama/Meta-Llama-3-8B", "llama3/8B", 0x1f, TT_OPT_PAGED_ADAMW_8BIT },
  { "meta-llama/Meta-Llama-3-8B-Instruct", "llama3/8B", 0x1f, TT_OPT_PAGED_ADAMW_8BIT },
  { "meta-llama/Llama-3.1-8B", "llama3_1/8B", 0x1f, TT_OPT_PAGED_ADAMW_8BIT },
  { "meta-llama/Llama-3.1-8B-Instruct", "llama3_1/8B", 0x1f, TT_OPT_PAGED_ADAMW_8BIT },
  { "meta-llama/Llama-3.2-1B", "llama3_2/1B", 0x1f, TT_OPT_PAGED_ADAMW_8BIT },
  { "meta-llama/Llama-3.2-1B-Instruct", "llama3_2/1B", 0x1f, TT_OPT_PAGED_ADAMW_8BIT },
  { "meta-llama/Llama-3.2-3B", "llama3_2/3B", 0x1f, TT_OPT_PAGED_ADAMW_8BIT },
  { "meta-llama/Llama-3.2-3B-Instruct", "llama3_2/3B", 0x1f, TT_OPT_PAGED_ADAMW_8BIT },
  { "Qwen/Qwen3-0.6B", "qwen3/0.6B", TT_FULL_SD | TT_FULL | TT_LORA_SD | TT_LORA, TT_OPT_ADAMW_FUSED },
  { "Qwen/Qwen3-8B", "qwen3/8B", TT_FULL_SD | TT_FULL | TT_LORA_SD | TT_LORA, TT_OPT_PAGED_ADAMW },
};

static const TtModel *
torchtune_model (const char *repository)
{
  for (guint i = 0; i < G_N_ELEMENTS (torchtune_models); i++)
    if (g_strcmp0 (repository, torchtune_models[i].repository) == 0)
      return &torchtune_models[i];
  return NULL;
}

/* torch.optim and bitsandbytes optimizers as a recipe config names them; fused is kept only by
 * torch's AdamW, Adam and SGD */
static const char *
torchtune_optimizer (VcOptimizer optimizer,
                     gboolean   *takes_fused)
{
  *takes_fused = FALSE;
  switch (optimizer)
    {
    case VC_OPTIMIZER_ADAMW: *takes_fused = TRUE; return "torch.optim.AdamW";
    case VC_OPTIMIZER_ADAM: *takes_fused = TRUE; return "torch.optim.Adam";
    case VC_OPTIMIZER_SGD: *takes_fused = TRUE; return "torch.optim.SGD";
    case VC_OPTIMIZER_RMSPROP: return "torch.optim.RMSprop";
    case VC_OPTIMIZER_ADAMW_8BIT: return "bitsandbytes.optim.AdamW8bit";
    case VC_OPTIMIZER_PAGED_ADAMW_8BIT: return "bitsandbytes.optim.PagedAdamW8bit";
    case VC_OPTIMIZER_SGD_MOMENTUM:
    default:
      return NULL;
    }
}

/* What torchtune cannot be told, before the config is chosen */
static gboolean
check_torchtune (const Training *t,
                 GError        **error)
{
  const VcInputs *in = t->req->inputs;
  const VcLayout *l = &t->l;
  VcLoraTargets mlp = VC_LORA_TARGET_GATE | VC_LORA_TARGET_UP | VC_LORA_TARGET_DOWN;
  VcLoss loss = vc_trainer_loss (in);

  if (!need_checkpoint (t->req, VC_COMMAND_TORCHTUNE, error))
    return FALSE;
  if (in->training_precision == VC_TRAINING_PRECISION_FP16 || in->mixed_precision)
    return refuse (error, _("%s trains in bf16 or fp32 alone: fp16 and an fp32 master copy cannot be expressed"), "torchtune");
  if (in->training_precision == VC_TRAINING_PRECISION_FP32 && in->optimizer_precision == VC_STATE_PRECISION_BF16)
    return refuse (error, _("%s creates the optimizer state in the parameters’ fp32: bf16 state cannot be expressed"), "torchtune");
  if (in->finetune == VC_FINETUNE_QLORA_8BIT)
    return refuse (error, _("%s’s QLoRA quantizes to NF4 alone: an 8-bit base cannot be expressed"), "torchtune");
  if (in->finetune != VC_FINETUNE_FULL && (in->train_embeddings || ((in->lora_targets & mlp) != 0 && (in->lora_targets & mlp) != mlp)))
    return refuse (error, _("%s puts LoRA on the MLP’s three projections together or none, and never on the embedding"), "torchtune");
  if (in->finetune != VC_FINETUNE_FULL && in->optimizer_in_backward)
    return refuse (error, _("%s runs the optimizer step in the backward pass in its full fine-tuning recipes only"), "torchtune");
  if (!in->flash_attention)
    return refuse (error, _("%s’s attention is PyTorch’s SDPA: eager attention cannot be expressed"), "torchtune");
  if (loss == VC_LOSS_FUSED || loss == VC_LOSS_CCE)
    return refuse (error, _("%s has no %s loss: full or chunked"), "torchtune", vc_enum_nick (VC_TYPE_LOSS, loss));
  if (l->dp > 1 && l->sharding != VC_SHARDING_FSDP_FULL)
    return refuse (error, _("%s’s distributed recipes shard with FSDP2’s full sharding: %s cannot be expressed"), "torchtune",
                   vc_enum_nick (VC_TYPE_SHARDING, l->sharding));
  if (l->offload == VC_OFFLOAD_OPTIMIZER || (l->offload != VC_OFFLOAD_NONE && l->dp < 2))
    return refuse (error, _("FSDP offloads parameters, gradients and optimizer state together: offloading the optimizer alone cannot be expressed"));
  return TRUE;
}

static void
add_override (GPtrArray  *argv,
              const char *key,
              const char *value)
{
  g_ptr_array_add (argv, g_strdup_printf ("%s=%s", key, value));
}

static void
add_override_uint (GPtrArray  *argv,
                   const char *key,
                   guint       value)
{
  g_ptr_array_add (argv, g_strdup_printf ("%s=%u", key, value));
}

/* The LoRA overrides of torchtune's lora_* model builders */
static void
add_torchtune_lora (GPtrArray      *argv,
                    const VcInputs *in)
{
  static const char *names[] = { "q_proj", "k_proj", "v_proj", "output_proj" };
  g_autoptr(GString) attn = g_string_new ("[");

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (in->lora_targets & (1u << i))
      g_string_append_printf (attn, "%s%s", attn->len > 1 ? "," : "", names[i]);
  g_string_append_c (attn, ']');
  add_override_uint (argv, "model.lora_rank", in->lora_rank);
  add_override (argv, "model.lora_attn_modules", attn->str);
  add_override (argv, "model.apply_lora_to_mlp", (in->lora_targets & VC_LORA_TARGET_GATE) ? "True" : "False");
  add_override (argv, "model.apply_lora_to_output", "False");
}

/* torchtune's `tune run RECIPE --config CONFIG key=value…` (torchtune/_cli/run.py; overrides and
 * `~key` removals, torchtune/config/_utils.py _merge_yaml_and_cli_args), on the built-in
 * model's own recipe config */
static VcCommand *
build_torchtune (const VcCommandRequest *req,
                 GError                **error)
{
  const VcInputs *in = req->inputs;
  g_auto(Training) t = { 0 };
  GPtrArray *argv;
  gboolean full = in->finetune == VC_FINETUNE_FULL, distributed, fused_config, takes_fused;
  const char *kind, *recipe, *optim, *config_optim;
  g_autofree char *config = NULL;
  const TtModel *m;
  guint variant;

  if (!training_init (&t, VC_COMMAND_TORCHTUNE, req, NULL, error) || !check_torchtune (&t, error))
    return NULL;
  distributed = t.l.dp > 1;
  m = torchtune_model (req->model);
  if (full)
    variant = distributed ? TT_FULL : TT_FULL_SD, kind = distributed ? "full" : "full_single_device";
  else if (in->finetune == VC_FINETUNE_QLORA_4BIT)
    variant = distributed ? 0 : TT_QLORA_SD, kind = "qlora_single_device";
  else
    variant = distributed ? TT_LORA : TT_LORA_SD, kind = distributed ? "lora" : "lora_single_device";
  if (m == NULL)
    return refuse (error, _("torchtune has no recipe config for %s"), req->model), NULL;
  config = g_strdup_printf ("%s_%s", m->config, kind);
  if (variant == 0 || !(m->variants & variant))
    return refuse (error, _("torchtune has no %s recipe config%s"), config,
                   distributed && in->finetune == VC_FINETUNE_QLORA_4BIT ? _(" on several GPUs") : ""), NULL;
  recipe = full ? (distributed ? "full_finetune_distributed" : "full_finetune_single_device")
                : (distributed ? "lora_finetune_distributed" : "lora_finetune_single_device");
  if ((optim = torchtune_optimizer (in->optimizer, &takes_fused)) == NULL)
    return refuse (error, _("%s names torch.optim and bitsandbytes optimizers: sgd-momentum’s momentum is not an input"), "torchtune"), NULL;
  config_optim = variant == TT_FULL_SD && m->full_sd_optimizer == TT_OPT_PAGED_ADAMW_8BIT ? "bitsandbytes.optim.PagedAdamW8bit"
                 : variant == TT_FULL_SD && m->full_sd_optimizer == TT_OPT_PAGED_ADAMW ? "bitsandbytes.optim.PagedAdamW"
                 : "torch.optim.AdamW";
  fused_config = g_str_equal (config_optim, "torch.optim.AdamW");

  training_launch (&t, TRUE, PROCS_TUNE, "tune", "run", PROCESSES, recipe, "--config", config, NULL);
  argv = t.argv;
  add_override_uint (argv, "batch_size", in->batch);
  add_override_uint (argv, "gradient_accumulation_steps", t.l.grad_accum);
  add_override_uint (argv, "tokenizer.max_seq_len", in->seq);
  add_override (argv, "dtype", in->training_precision == VC_TRAINING_PRECISION_FP32 ? "fp32" : "bf16");
  add_override (argv, "enable_activation_checkpointing", in->checkpointing == VC_CHECKPOINTING_FULL ? "True" : "False");
  add_override (argv, "compile", in->compile ? "True" : "False");
  if (!g_str_equal (optim, config_optim))
    {
      add_override (argv, "optimizer", optim);
      if (fused_config && !takes_fused)
        add (argv, "~optimizer.fused");
    }
  /* the step the estimate counts (--optimizer-impl, or torchtune's fused): said where the
   * config's optimizer would step otherwise */
  if (takes_fused && (fused_config != (vc_trainer_optimizer_impl (in) == VC_OPTIMIZER_IMPL_FUSED)))
    add_override (argv, "optimizer.fused", fused_config ? "False" : "True");
  if (full)
    add_override (argv, "optimizer_in_bwd", in->optimizer_in_backward ? "True" : "False");
  /* the recipe configs' LinearCrossEntropyLoss is the chunked loss the estimate gives torchtune by
   * default (vc_trainer_loss), its loss left out of compile; a chunked loss chosen is
   * CEWithChunkedOutputLoss, compiled with the model */
  add_override (argv, "loss", in->loss == VC_LOSS_AUTO ? "torchtune.modules.loss.LinearCrossEntropyLoss"
                              : in->loss == VC_LOSS_CHUNKED ? "torchtune.modules.loss.CEWithChunkedOutputLoss"
                              : "torch.nn.CrossEntropyLoss");
  if (!full)
    add_torchtune_lora (argv, in);
  if (t.l.offload == VC_OFFLOAD_OPTIMIZER_PARAMS)
    add_override (argv, "fsdp_cpu_offload", "True");
  return training_command (&t);
}

/**
 * vc_command_build:
 *
 * The command of @engine for @request, or NULL with an error naming what the estimate assumes
 * and the engine cannot be told.
 */
VcCommand *
vc_command_build (VcCommandEngine         engine,
                  const VcCommandRequest *req,
                  GError                **error)
{
  g_return_val_if_fail (req != NULL && req->inputs != NULL, NULL);
  g_return_val_if_fail (engine < VC_N_COMMAND_ENGINES, NULL);

  if (!check_devices (req, error))
    return NULL;
  if (engine <= VC_COMMAND_ACCELERATE && req->inputs->mode != VC_MODE_INFERENCE)
    return refuse (error, _("%s serves a model: the estimate is of training (its commands are deepspeed, fsdp, axolotl, llamafactory, trl and torchtune)"),
                   engine_ids[engine]), NULL;
  if (!vc_layout_check (req->inputs, error))
    return NULL;
  switch (engine)
    {
    case VC_COMMAND_LLAMA_CPP: return build_llama_cpp (req, error);
    case VC_COMMAND_VLLM: return build_vllm (req, error);
    case VC_COMMAND_SGLANG: return build_sglang (req, error);
    case VC_COMMAND_OLLAMA: return build_ollama (req, error);
    case VC_COMMAND_ACCELERATE: return build_accelerate (req, error);
    case VC_COMMAND_DEEPSPEED: return build_deepspeed (req, error);
    case VC_COMMAND_FSDP: return build_fsdp (req, error);
    case VC_COMMAND_AXOLOTL: return build_axolotl (req, error);
    case VC_COMMAND_LLAMAFACTORY: return build_llamafactory (req, error);
    case VC_COMMAND_TRL: return build_trl (req, error);
    case VC_COMMAND_TORCHTUNE: return build_torchtune (req, error);
    default: g_assert_not_reached ();
    }
}
