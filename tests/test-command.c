/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-command.c: the command that runs an estimate, engine by engine: the exact text for
 * plans of inference and training, the refusals naming what an engine cannot be told, every
 * flag against the allow-list taken from the engine's parser (tests/data/command-flags/), and
 * vramcalc's --print-command and JSON "command". */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "vc-command.h"
#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-test-util.h"

/* Every command a test built, for the allow-list test at the end */
static GPtrArray *built;

static VcEstimate *
estimate_new (const char *preset,
              const char *first_property,
              ...)
{
  VcEstimate *e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  va_list ap;

  if (preset != NULL)
    {
      vc_estimate_set_preset (e, preset, &error);
      g_assert_no_error (error);
      g_object_set (e, "method", VC_METHOD_ARCHITECTURE, NULL);
    }
  va_start (ap, first_property);
  g_object_set_valist (G_OBJECT (e), first_property, ap);
  va_end (ap);
  vc_estimate_flush (e);
  return e;
}

static VcCommand *
build (VcCommandEngine   engine,
       VcCommandRequest *req)
{
  g_autoptr(GError) error = NULL;
  VcCommand *c = vc_command_build (engine, req, &error);

  g_assert_no_error (error);
  g_assert_nonnull (c);
  g_ptr_array_add (built, c);
  return c;
}

static void
assert_refused (VcCommandEngine         engine,
                const VcCommandRequest *req,
                const char             *part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcCommand) c = vc_command_build (engine, req, &error);

  g_assert_null (c);
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  if (strstr (error->message, part) == NULL)
    g_error ("“%s” does not name “%s”", error->message, part);
}

static void
set_model (VcCommandRequest *req,
           const char       *spec)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_command_request_set_model (req, spec, &error));
  g_assert_no_error (error);
}

/* ---- llama.cpp ---- */

static void
test_llama_cpp_one_gpu (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-8b", "engine", VC_ENGINE_LLAMA_CPP, "precision", VC_PRECISION_Q4_K_M,
                                          "seq", 8192, "concurrency", 2, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;

  vc_command_request_from_estimate (&req, e);
  set_model (&req, "/models/Qwen3-8B-Q4_K_M.gguf");
  c = build (VC_COMMAND_LLAMA_CPP, &req);
  /* -c is every slot's context (seq × -np); the estimate's streams are one per sequence, the
   * parser's default a unified cache; flash attention's default is auto */
  g_assert_cmpstr (c->text, ==, "llama-server -m /models/Qwen3-8B-Q4_K_M.gguf -ngl all -c 16384 -np 2 "
                                "--no-kv-unified -fa on");
  g_assert_cmpstr (c->argv[0], ==, "llama-server");
  g_assert_cmpuint (g_strv_length (c->argv), ==, 12);
  g_assert_null (c->file_name);

  /* the engine's defaults set by hand are stated, a unified cache is its default */
  g_object_set (e, "kv-unified", TRUE, "flash-attention", FALSE, "cache-type-k", VC_CACHE_TYPE_Q8_0,
                "cache-type-v", VC_CACHE_TYPE_Q4_0, "n-ubatch", 256, "n-batch", 1024, "gpu-layers", 20, NULL);
  c = build (VC_COMMAND_LLAMA_CPP, &req);
  g_assert_cmpstr (c->text, ==, "llama-server -m /models/Qwen3-8B-Q4_K_M.gguf -ngl 20 -c 16384 -np 2 -fa off "
                                "-ctk q8_0 -ctv q4_0 -b 1024 -ub 256");
}

static void
test_llama_cpp_plan (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-30b-a3b", "engine", VC_ENGINE_LLAMA_CPP, "precision", VC_PRECISION_Q4_K_M,
                                          "seq", 4096, "kv-precision", VC_PRECISION_INT8, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;

  vc_command_request_from_estimate (&req, e);
  set_model (&req, "hf:unsloth/Qwen3-30B-A3B-GGUF:Qwen3-30B-A3B-Q4_K_M.gguf");
  /* a plan's hand-made values: three uneven cards, the first the main one, four layers' experts
   * in RAM */
  req.n_devices = 3;
  req.split[0] = 24;
  req.split[1] = 12;
  req.split[2] = 7.5;
  req.main_gpu = 0;
  req.n_cpu_moe = 4;
  c = build (VC_COMMAND_LLAMA_CPP, &req);
  g_assert_cmpstr (c->text, ==, "llama-server -hf unsloth/Qwen3-30B-A3B-GGUF -hff Qwen3-30B-A3B-Q4_K_M.gguf -ngl all "
                                "-ts 24,12,7.5 -mg 0 -c 4096 -np 1 -fa on -ctk q8_0 -ctv q8_0 --n-cpu-moe 4");

  /* row split; an equal split over the layout's PP GPUs when the plan gives none */
  req = (VcCommandRequest) { .inputs = req.inputs, .model_kind = req.model_kind, .model = req.model,
                             .model_file = req.model_file, .owned = { req.owned[0], req.owned[1] },
                             .main_gpu = -1, .row_split = TRUE };
  g_object_set (e, "pp", 2, NULL);
  c = build (VC_COMMAND_LLAMA_CPP, &req);
  g_assert_cmpstr (c->text, ==, "llama-server -hf unsloth/Qwen3-30B-A3B-GGUF -hff Qwen3-30B-A3B-Q4_K_M.gguf -ngl all "
                                "-sm row -ts 1,1 -c 4096 -np 1 -fa on -ctk q8_0 -ctv q8_0");

  /* the main GPU alone: no split given */
  req.row_split = FALSE;
  req.no_split = TRUE;
  req.main_gpu = 1;
  c = build (VC_COMMAND_LLAMA_CPP, &req);
  g_assert_cmpstr (c->text, ==, "llama-server -hf unsloth/Qwen3-30B-A3B-GGUF -hff Qwen3-30B-A3B-Q4_K_M.gguf -ngl all "
                                "-sm none -mg 1 -c 4096 -np 1 -fa on -ctk q8_0 -ctv q8_0");
  req.no_split = FALSE;
  req.main_gpu = -1;

  /* every expert in RAM on one GPU */
  g_object_set (e, "pp", 1, "experts-on-cpu", TRUE, NULL);
  req.row_split = FALSE;
  c = build (VC_COMMAND_LLAMA_CPP, &req);
  g_assert_cmpstr (c->text, ==, "llama-server -hf unsloth/Qwen3-30B-A3B-GGUF -hff Qwen3-30B-A3B-Q4_K_M.gguf -ngl all "
                                "-c 4096 -np 1 -fa on -ctk q8_0 -ctv q8_0 --cpu-moe");
}

static void
test_llama_cpp_refusals (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-8b", "engine", VC_ENGINE_LLAMA_CPP, "precision", VC_PRECISION_Q4_K_M, NULL);
  g_auto(VcCommandRequest) req = { 0 };

  vc_command_request_from_estimate (&req, e);
  /* the built-in model is a safetensors repository */
  assert_refused (VC_COMMAND_LLAMA_CPP, &req, "Qwen/Qwen3-8B is not one");
  set_model (&req, "/models/qwen3-8b.gguf");
  g_object_set (e, "dp", 2, NULL);
  assert_refused (VC_COMMAND_LLAMA_CPP, &req, "DP 2");
  g_object_set (e, "dp", 1, "kv-precision", VC_PRECISION_FP8, NULL);
  assert_refused (VC_COMMAND_LLAMA_CPP, &req, "no fp8 KV cache");
  g_object_set (e, "kv-precision", VC_PRECISION_BF16, "mode", VC_MODE_TRAINING, NULL);
  assert_refused (VC_COMMAND_LLAMA_CPP, &req, "the estimate is of training");
  g_object_set (e, "mode", VC_MODE_INFERENCE, NULL);
  req.n_devices = VC_COMMAND_MAX_DEVICES + 1;
  assert_refused (VC_COMMAND_LLAMA_CPP, &req, "at most 16 GPUs");
  req.n_devices = 0;
  req.split[1] = -1;
  assert_refused (VC_COMMAND_LLAMA_CPP, &req, "negative");
  req.split[1] = 0;

  /* no model named at all */
  {
    g_autoptr(VcEstimate) custom = estimate_new (NULL, "engine", VC_ENGINE_LLAMA_CPP, NULL);
    g_auto(VcCommandRequest) none = { 0 };

    vc_command_request_from_estimate (&none, custom);
    assert_refused (VC_COMMAND_LLAMA_CPP, &none, "needs the model by name");
    assert_refused (VC_COMMAND_VLLM, &none, "needs the model by name");
  }
}

/* ---- vLLM and SGLang ---- */

static void
test_vllm (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-8b", "engine", VC_ENGINE_VLLM, "tp", 2, "seq", 32768,
                                          "memory-fraction", 0.85, "max-num-seqs", 64,
                                          "kv-precision", VC_PRECISION_FP8, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;

  vc_command_request_from_estimate (&req, e);
  c = build (VC_COMMAND_VLLM, &req);
  /* bf16 weights of a checkpoint not read: vLLM's "auto" dtype, left out */
  g_assert_cmpstr (c->text, ==, "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len 32768 "
                                "--gpu-memory-utilization 0.85 --max-num-seqs 64 --kv-cache-dtype fp8");
  /* NCCL alone: vLLM's own flag */
  g_object_set (e, "disable-custom-all-reduce", TRUE, NULL);
  c = build (VC_COMMAND_VLLM, &req);
  g_assert_cmpstr (c->text, ==, "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len 32768 "
                                "--gpu-memory-utilization 0.85 --max-num-seqs 64 --disable-custom-all-reduce "
                                "--kv-cache-dtype fp8");
  g_object_set (e, "disable-custom-all-reduce", FALSE, NULL);
  /* no CUDA graphs, as --engine-version 0.21 needs: vLLM's own flag */
  g_object_set (e, "enforce-eager", TRUE, "engine-version", VC_VLLM_VERSION_0_21, NULL);
  c = build (VC_COMMAND_VLLM, &req);
  g_assert_cmpstr (c->text, ==, "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len 32768 "
                                "--gpu-memory-utilization 0.85 --max-num-seqs 64 --enforce-eager "
                                "--kv-cache-dtype fp8");
  g_object_set (e, "enforce-eager", FALSE, "engine-version", VC_VLLM_VERSION_0_11, NULL);

  g_object_set (e, "tp", 1, "pp", 2, "dp", 2, "precision", VC_PRECISION_FP8, "kv-precision", VC_PRECISION_BF16,
                "max-num-seqs", 0, "max-num-batched-tokens", 4096, "kv-cache-memory", 12.5, "block-size", 32,
                "memory-fraction", 0.9, NULL);
  c = build (VC_COMMAND_VLLM, &req);
  g_assert_cmpstr (c->text, ==, "vllm serve Qwen/Qwen3-8B --pipeline-parallel-size 2 --data-parallel-size 2 "
                                "--max-model-len 32768 --gpu-memory-utilization 0.9 --max-num-batched-tokens 4096 "
                                "--kv-cache-memory-bytes 12500000000 --block-size 32 --quantization fp8");

  g_object_set (e, "pp", 1, "dp", 1, "precision", VC_PRECISION_FP16, "kv-precision", VC_PRECISION_FP16,
                "max-num-batched-tokens", 0, "kv-cache-memory", 0.0, "block-size", 16, NULL);
  /* a config.json read stands for its folder */
  set_model (&req, "/srv/models/Qwen3-8B/config.json");
  c = build (VC_COMMAND_VLLM, &req);
  g_assert_cmpstr (c->text, ==, "vllm serve /srv/models/Qwen3-8B --max-model-len 32768 --gpu-memory-utilization 0.9 "
                                "--dtype float16");

  /* a 16-bit cache beside 16-bit weights is the model's dtype, of the same bytes */
  g_object_set (e, "kv-precision", VC_PRECISION_BF16, NULL);
  c = build (VC_COMMAND_VLLM, &req);
  g_assert_cmpstr (c->text, ==, "vllm serve /srv/models/Qwen3-8B --max-model-len 32768 --gpu-memory-utilization 0.9 "
                                "--dtype float16");
  g_object_set (e, "kv-precision", VC_PRECISION_FP32, NULL);
  assert_refused (VC_COMMAND_VLLM, &req, "a KV cache in fp32 cannot be expressed");

  g_object_set (e, "precision", VC_PRECISION_NF4, "kv-precision", VC_PRECISION_BF16, NULL);
  c = build (VC_COMMAND_VLLM, &req);
  g_assert_cmpstr (c->text, ==, "vllm serve /srv/models/Qwen3-8B --max-model-len 32768 --gpu-memory-utilization 0.9 "
                                "--quantization bitsandbytes");
}

static void
test_vllm_expert_parallel (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-30b-a3b", "engine", VC_ENGINE_VLLM, "tp", 2, "dp", 2, "ep", 4, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;

  vc_command_request_from_estimate (&req, e);
  c = build (VC_COMMAND_VLLM, &req);
  g_assert_cmpstr (c->text, ==, "vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 2 --data-parallel-size 2 "
                                "--enable-expert-parallel --max-model-len 2048 --gpu-memory-utilization 0.9");
  c = build (VC_COMMAND_SGLANG, &req);
  g_assert_cmpstr (c->text, ==, "python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dp-size 2 "
                                "--ep-size 4 --context-length 2048");
  /* vLLM's EP is TP × DP, never fewer */
  g_object_set (e, "ep", 2, NULL);
  assert_refused (VC_COMMAND_VLLM, &req, "EP 2 cannot be expressed");
}

static void
test_vllm_refusals (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-8b", "engine", VC_ENGINE_VLLM, NULL);
  g_auto(VcCommandRequest) req = { 0 };

  vc_command_request_from_estimate (&req, e);
  g_object_set (e, "kv-precision", VC_PRECISION_INT8, NULL);
  assert_refused (VC_COMMAND_VLLM, &req, "a KV cache in int8 cannot be expressed");
  assert_refused (VC_COMMAND_SGLANG, &req, "a KV cache in int8 cannot be expressed");
  g_object_set (e, "kv-precision", VC_PRECISION_BF16, "precision", VC_PRECISION_AWQ_INT4, NULL);
  assert_refused (VC_COMMAND_VLLM, &req, "awq-int4 only from a checkpoint already in it");
  g_object_set (e, "precision", VC_PRECISION_BF16, "gpu-layers", 10, NULL);
  assert_refused (VC_COMMAND_VLLM, &req, "layers or experts in system RAM");
  g_object_set (e, "gpu-layers", 0, NULL);
  req.split[0] = 2;
  req.split[1] = 1;
  assert_refused (VC_COMMAND_SGLANG, &req, "a per-GPU split");
  req.split[0] = req.split[1] = 0;
  req.n_devices = 3;
  assert_refused (VC_COMMAND_VLLM, &req, "not 3");
  req.n_devices = 0;
  set_model (&req, "/models/qwen3-8b-q4_k_m.gguf");
  assert_refused (VC_COMMAND_VLLM, &req, "not /models/qwen3-8b-q4_k_m.gguf");
  set_model (&req, "ollama:qwen3:8b");
  assert_refused (VC_COMMAND_SGLANG, &req, "not qwen3:8b");
}

static void
test_sglang (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-32b", "engine", VC_ENGINE_SGLANG, "tp", 4, "seq", 65536,
                                          "mem-fraction-static", 0.8, "page-size", 16,
                                          "kv-precision", VC_PRECISION_FP8, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;

  vc_command_request_from_estimate (&req, e);
  c = build (VC_COMMAND_SGLANG, &req);
  g_assert_cmpstr (c->text, ==, "python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp-size 4 "
                                "--context-length 65536 --mem-fraction-static 0.8 --page-size 16 "
                                "--kv-cache-dtype fp8_e4m3");
  g_object_set (e, "disable-custom-all-reduce", TRUE, NULL);
  c = build (VC_COMMAND_SGLANG, &req);
  g_assert_cmpstr (c->text, ==, "python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp-size 4 "
                                "--context-length 65536 --mem-fraction-static 0.8 --page-size 16 "
                                "--disable-custom-all-reduce --kv-cache-dtype fp8_e4m3");
  g_object_set (e, "disable-custom-all-reduce", FALSE, NULL);
  g_object_set (e, "tp", 2, "pp", 2, "mem-fraction-static", 0.0, "page-size", 1, "kv-precision", VC_PRECISION_FP32,
                "precision", VC_PRECISION_FP32, NULL);
  c = build (VC_COMMAND_SGLANG, &req);
  g_assert_cmpstr (c->text, ==, "python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp-size 2 --pp-size 2 "
                                "--context-length 65536 --dtype float32");
}

/* ---- Ollama ---- */

static void
test_ollama (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-8b", "engine", VC_ENGINE_OLLAMA, "precision", VC_PRECISION_Q4_K_M,
                                          "seq", 8192, "concurrency", 4, "cache-type-k", VC_CACHE_TYPE_Q8_0,
                                          "cache-type-v", VC_CACHE_TYPE_Q8_0, "n-ubatch", 512, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;

  vc_command_request_from_estimate (&req, e);
  set_model (&req, "ollama:qwen3:8b");
  c = build (VC_COMMAND_OLLAMA, &req);
  /* num_gpu: Qwen3 8B's 36 layers and the output layer */
  g_assert_cmpstr (c->file_name, ==, "Modelfile");
  g_assert_cmpstr (c->file_text, ==, "# ollama serve runs with OLLAMA_NUM_PARALLEL=4 OLLAMA_KV_CACHE_TYPE=q8_0\n"
                                     "FROM qwen3:8b\n"
                                     "PARAMETER num_ctx 8192\n"
                                     "PARAMETER num_gpu 37\n"
                                     "PARAMETER num_batch 512\n");
  g_assert_cmpstr (c->text, ==, "cat > Modelfile <<'EOF'\n"
                                "# ollama serve runs with OLLAMA_NUM_PARALLEL=4 OLLAMA_KV_CACHE_TYPE=q8_0\n"
                                "FROM qwen3:8b\n"
                                "PARAMETER num_ctx 8192\n"
                                "PARAMETER num_gpu 37\n"
                                "PARAMETER num_batch 512\n"
                                "EOF\n"
                                "ollama create qwen3-8b -f Modelfile\n");
  /* a type Ollama would read as f16, and two types, cannot be written (vc_engine_ollama_kv_type()) */
  g_object_set (e, "cache-type-k", VC_CACHE_TYPE_Q4_1, "cache-type-v", VC_CACHE_TYPE_Q4_1, NULL);
  assert_refused (VC_COMMAND_OLLAMA, &req, "Ollama takes one KV cache type, f16, q8_0 or q4_0");
  g_object_set (e, "cache-type-k", VC_CACHE_TYPE_Q8_0, "cache-type-v", VC_CACHE_TYPE_F16, NULL);
  assert_refused (VC_COMMAND_OLLAMA, &req, "for keys and values alike");

  g_object_set (e, "concurrency", 1, "cache-type-k", VC_CACHE_TYPE_AUTO, "cache-type-v", VC_CACHE_TYPE_AUTO,
                "kv-precision", VC_PRECISION_FP16, "n-ubatch", 0, "gpu-layers", 30, "flash-attention", FALSE, NULL);
  set_model (&req, "./Qwen3-8B-Q4_K_M.gguf");
  req.main_gpu = 1;
  c = build (VC_COMMAND_OLLAMA, &req);
  g_assert_cmpstr (c->file_text, ==, "# ollama serve runs with OLLAMA_FLASH_ATTENTION=0\n"
                                     "FROM ./Qwen3-8B-Q4_K_M.gguf\n"
                                     "PARAMETER num_ctx 8192\n"
                                     "PARAMETER num_gpu 30\n"
                                     "PARAMETER main_gpu 1\n");
  g_assert_cmpstr (c->argv[2], ==, "qwen3-8b-q4_k_m");

  g_object_set (e, "cache-type-k", VC_CACHE_TYPE_Q8_0, NULL);
  assert_refused (VC_COMMAND_OLLAMA, &req, "one KV cache type");
  g_object_set (e, "cache-type-k", VC_CACHE_TYPE_AUTO, "gpu-layers", 0, "pp", 2, NULL);
  assert_refused (VC_COMMAND_OLLAMA, &req, "places a model’s layers across GPUs itself");
  g_object_set (e, "pp", 1, NULL);
  set_model (&req, "hf:Qwen/Qwen3-8B");
  assert_refused (VC_COMMAND_OLLAMA, &req, "Qwen/Qwen3-8B is neither");
}

/* ---- Accelerate ---- */

static void
test_accelerate (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-0.6b", "engine", VC_ENGINE_TRANSFORMERS, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;

  /* a plan's hand-made map: a 24 GB and a 12 GB card and 64 GiB of RAM */
  vc_command_request_from_estimate (&req, e);
  req.n_devices = 2;
  req.max_memory_bytes[0] = 22.0 * 1024 * 1024 * 1024;
  req.max_memory_bytes[1] = 10.5 * 1024 * 1024 * 1024;
  req.cpu_memory_bytes = 64.0 * 1024 * 1024 * 1024;
  c = build (VC_COMMAND_ACCELERATE, &req);
  g_assert_cmpstr (c->text, ==, "import torch\n"
                                "from transformers import AutoModelForCausalLM\n"
                                "\n"
                                "model = AutoModelForCausalLM.from_pretrained(\n"
                                "    \"Qwen/Qwen3-0.6B\",\n"
                                "    device_map=\"auto\",\n"
                                "    max_memory={0: \"22528MiB\", 1: \"10752MiB\", \"cpu\": \"65536MiB\"},\n"
                                "    torch_dtype=torch.bfloat16,\n"
                                ")\n");
  g_assert_cmpstr (c->argv[0], ==, "python3");
  g_assert_cmpstr (c->argv[1], ==, "-c");
  g_assert_cmpstr (c->argv[2], ==, c->text);

  /* without a plan: the estimate's need on each GPU, rounded up to the MiB */
  vc_command_request_from_estimate (&req, e);
  req.per_gpu_bytes = 3.0 * 1024 * 1024 * 1024 + 1;
  g_object_set (e, "precision", VC_PRECISION_INT8, "pp", 2, NULL);
  c = build (VC_COMMAND_ACCELERATE, &req);
  g_assert_cmpstr (c->text, ==, "import torch\n"
                                "from transformers import AutoModelForCausalLM, BitsAndBytesConfig\n"
                                "\n"
                                "model = AutoModelForCausalLM.from_pretrained(\n"
                                "    \"Qwen/Qwen3-0.6B\",\n"
                                "    device_map=\"auto\",\n"
                                "    max_memory={0: \"3073MiB\", 1: \"3073MiB\"},\n"
                                "    quantization_config=BitsAndBytesConfig(load_in_8bit=True),\n"
                                ")\n");
  g_object_set (e, "pp", 1, "dp", 2, NULL);
  assert_refused (VC_COMMAND_ACCELERATE, &req, "DP 2 cannot be expressed");
  g_object_set (e, "dp", 1, NULL);
  req.per_gpu_bytes = 0;
  assert_refused (VC_COMMAND_ACCELERATE, &req, "each GPU’s memory");
}

/* ---- training ---- */

static void
test_deepspeed (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-8b", "mode", VC_MODE_TRAINING, "finetune", VC_FINETUNE_FULL,
                                          "dp", 8, "sharding", VC_SHARDING_ZERO_2, "offload", VC_OFFLOAD_OPTIMIZER,
                                          "batch", 4, "grad-accum", 8, "training-precision", VC_TRAINING_PRECISION_FP16,
                                          NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;
  VcCommandEngine engine;

  vc_command_request_from_estimate (&req, e);
  g_assert_true (vc_command_estimate_engine (req.inputs, &engine));
  g_assert_cmpint (engine, ==, VC_COMMAND_DEEPSPEED);
  c = build (VC_COMMAND_DEEPSPEED, &req);
  g_assert_cmpstr (c->file_name, ==, "ds_config.json");
  g_assert_cmpstr (c->file_text, ==, "{\n"
                                     "  \"train_micro_batch_size_per_gpu\": 4,\n"
                                     "  \"gradient_accumulation_steps\": 8,\n"
                                     "  \"fp16\": { \"enabled\": true },\n"
                                     "  \"zero_optimization\": {\n"
                                     "    \"stage\": 2,\n"
                                     "    \"offload_optimizer\": { \"device\": \"cpu\" }\n"
                                     "  }\n"
                                     "}\n");
  {
    g_autofree char *line = g_strjoinv (" ", c->argv);

    g_assert_cmpstr (line, ==, "torchrun --nproc_per_node=8 train.py --deepspeed ds_config.json "
                               "--per_device_train_batch_size 4 --gradient_accumulation_steps 8 --fp16");
  }
  /* the file parses as JSON */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;

    g_assert_true (json_parser_load_from_data (parser, c->file_text, -1, &error));
    g_assert_no_error (error);
  }

  g_object_set (e, "sharding", VC_SHARDING_ZERO_3, "offload", VC_OFFLOAD_OPTIMIZER_PARAMS, "batch", 1, "grad-accum", 1,
                "training-precision", VC_TRAINING_PRECISION_BF16, "checkpointing", VC_CHECKPOINTING_FULL, "dp", 4, NULL);
  c = build (VC_COMMAND_DEEPSPEED, &req);
  g_assert_cmpstr (c->text, ==, "cat > ds_config.json <<'EOF'\n"
                                "{\n"
                                "  \"train_micro_batch_size_per_gpu\": 1,\n"
                                "  \"gradient_accumulation_steps\": 1,\n"
                                "  \"bf16\": { \"enabled\": true },\n"
                                "  \"zero_optimization\": {\n"
                                "    \"stage\": 3,\n"
                                "    \"offload_optimizer\": { \"device\": \"cpu\" },\n"
                                "    \"offload_param\": { \"device\": \"cpu\" }\n"
                                "  }\n"
                                "}\n"
                                "EOF\n"
                                "torchrun --nproc_per_node=4 train.py --deepspeed ds_config.json "
                                "--per_device_train_batch_size 1 --gradient_accumulation_steps 1 --bf16 "
                                "--gradient_checkpointing\n");

  g_object_set (e, "checkpointing", VC_CHECKPOINTING_SQRT, NULL);
  assert_refused (VC_COMMAND_DEEPSPEED, &req, "√L segments cannot be expressed");
  g_object_set (e, "checkpointing", VC_CHECKPOINTING_SELECTIVE_LAYERS, NULL);
  assert_refused (VC_COMMAND_DEEPSPEED, &req, "or every N-th layer) cannot be expressed");
  g_object_set (e, "checkpointing", VC_CHECKPOINTING_NONE, "cp", 2, NULL);
  assert_refused (VC_COMMAND_DEEPSPEED, &req, "CP 2 cannot be expressed");
  g_object_set (e, "cp", 1, NULL);
  g_object_set (e, "checkpointing", VC_CHECKPOINTING_NONE, "dp", 16, "offload", VC_OFFLOAD_NONE, NULL);
  assert_refused (VC_COMMAND_DEEPSPEED, &req, "DP 16 is more than the 8 GPUs of a node");
  g_object_set (e, "dp", 8, "sharding", VC_SHARDING_FSDP_FULL, NULL);
  assert_refused (VC_COMMAND_DEEPSPEED, &req, "its command is fsdp");
  assert_refused (VC_COMMAND_VLLM, &req, "the estimate is of training");
  g_object_set (e, "mode", VC_MODE_INFERENCE, NULL);
  assert_refused (VC_COMMAND_DEEPSPEED, &req, "the estimate is of inference");
}

static void
test_fsdp (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-8b", "mode", VC_MODE_TRAINING, "finetune", VC_FINETUNE_LORA,
                                          "dp", 8, "sharding", VC_SHARDING_FSDP_HYBRID,
                                          "offload", VC_OFFLOAD_OPTIMIZER_PARAMS, "batch", 2, "grad-accum", 16, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;
  VcCommandEngine engine;

  vc_command_request_from_estimate (&req, e);
  g_assert_true (vc_command_estimate_engine (req.inputs, &engine));
  g_assert_cmpint (engine, ==, VC_COMMAND_FSDP);
  c = build (VC_COMMAND_FSDP, &req);
  g_assert_cmpstr (c->text, ==, "cat > fsdp_config.yaml <<'EOF'\n"
                                "compute_environment: LOCAL_MACHINE\n"
                                "distributed_type: FSDP\n"
                                "fsdp_config:\n"
                                "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n"
                                "  fsdp_offload_params: true\n"
                                "  fsdp_sharding_strategy: HYBRID_SHARD\n"
                                "mixed_precision: bf16\n"
                                "num_machines: 1\n"
                                "num_processes: 8\n"
                                "EOF\n"
                                "accelerate launch --config_file fsdp_config.yaml train.py "
                                "--per_device_train_batch_size 2 --gradient_accumulation_steps 16 --bf16\n");

  g_object_set (e, "sharding", VC_SHARDING_FSDP_GRAD_OP, "offload", VC_OFFLOAD_NONE, "dp", 2,
                "training-precision", VC_TRAINING_PRECISION_FP32, NULL);
  c = build (VC_COMMAND_FSDP, &req);
  g_assert_cmpstr (c->file_text, ==, "compute_environment: LOCAL_MACHINE\n"
                                     "distributed_type: FSDP\n"
                                     "fsdp_config:\n"
                                     "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n"
                                     "  fsdp_offload_params: false\n"
                                     "  fsdp_sharding_strategy: SHARD_GRAD_OP\n"
                                     "mixed_precision: 'no'\n"
                                     "num_machines: 1\n"
                                     "num_processes: 2\n");

  g_object_set (e, "sharding", VC_SHARDING_FSDP_FULL, "offload", VC_OFFLOAD_OPTIMIZER, NULL);
  assert_refused (VC_COMMAND_FSDP, &req, "offloading the optimizer alone");
  g_object_set (e, "sharding", VC_SHARDING_ZERO_1, NULL);
  assert_refused (VC_COMMAND_FSDP, &req, "its command is deepspeed");
  /* plain data parallelism has no framework's command of its own */
  g_object_set (e, "sharding", VC_SHARDING_NONE, "offload", VC_OFFLOAD_NONE, NULL);
  g_assert_false (vc_command_estimate_engine (req.inputs, &engine));
}

/* ---- trainers' own configs ---- */

static void
test_axolotl (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("llama-3.1-8b", "mode", VC_MODE_TRAINING, "finetune", VC_FINETUNE_QLORA_8BIT,
                                          "lora-rank", 32, "lora-targets", VC_LORA_TARGET_Q | VC_LORA_TARGET_V,
                                          "batch", 2, "seq", 4096, "grad-accum", 4,
                                          "checkpointing", VC_CHECKPOINTING_FULL, "trainer", VC_TRAINER_AXOLOTL,
                                          "loss", VC_LOSS_CCE, "expandable-segments", TRUE, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;
  VcCommandEngine engine;

  vc_command_request_from_estimate (&req, e);
  g_assert_true (vc_command_estimate_engine (req.inputs, &engine));
  g_assert_cmpint (engine, ==, VC_COMMAND_AXOLOTL);
  c = build (VC_COMMAND_AXOLOTL, &req);
  g_assert_cmpstr (c->text, ==, "cat > config.yml <<'EOF'\n"
                                "base_model: meta-llama/Llama-3.1-8B\n"
                                "adapter: lora\n"
                                "load_in_8bit: true\n"
                                "lora_r: 32\n"
                                "lora_target_modules: [q_proj, v_proj]\n"
                                "sequence_len: 4096\n"
                                "micro_batch_size: 2\n"
                                "gradient_accumulation_steps: 4\n"
                                /* Axolotl's own default, the fused step the estimate counts */
                                "optimizer: adamw_torch_fused\n"
                                "bf16: true\n"
                                "gradient_checkpointing: true\n"
                                "attn_implementation: sdpa\n"
                                "plugins:\n"
                                "  - axolotl.integrations.cut_cross_entropy.CutCrossEntropyPlugin\n"
                                "cut_cross_entropy: true\n"
                                "# datasets: yours\n"
                                "EOF\n"
                                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True axolotl train config.yml\n");

  /* full fine-tuning in pure bf16 on 4 GPUs with ZeRO-3, the Liger loss, all linear layers */
  g_object_set (e, "finetune", VC_FINETUNE_FULL, "optimizer-precision", VC_STATE_PRECISION_BF16,
                "dp", 4, "sharding", VC_SHARDING_ZERO_3, "grad-accum", 1, "loss", VC_LOSS_FUSED,
                "expandable-segments", FALSE, "checkpointing", VC_CHECKPOINTING_NONE, "compile", TRUE,
                "optimizer", VC_OPTIMIZER_ADAMW_8BIT, NULL);
  c = build (VC_COMMAND_AXOLOTL, &req);
  g_assert_cmpstr (c->file_text, ==, "base_model: meta-llama/Llama-3.1-8B\n"
                                     "sequence_len: 4096\n"
                                     "micro_batch_size: 2\n"
                                     "gradient_accumulation_steps: 1\n"
                                     "optimizer: adamw_bnb_8bit\n"
                                     "bf16: true\n"
                                     "gradient_checkpointing: false\n"
                                     "attn_implementation: sdpa\n"
                                     "torch_compile: true\n"
                                     "plugins:\n"
                                     "  - axolotl.integrations.liger.LigerPlugin\n"
                                     "liger_fused_linear_cross_entropy: true\n"
                                     "deepspeed: deepspeed_configs/zero3.json\n"
                                     "# datasets: yours\n");
  g_assert_cmpstr (c->text + strlen (c->text) - strlen ("axolotl train config.yml -- --num_processes 4\n"), ==,
                   "axolotl train config.yml -- --num_processes 4\n");

  g_object_set (e, "optimizer-precision", VC_STATE_PRECISION_FP32, NULL);
  assert_refused (VC_COMMAND_AXOLOTL, &req, "fp32 state beside 16-bit parameters");
  g_object_set (e, "optimizer-precision", VC_STATE_PRECISION_BF16, "sharding", VC_SHARDING_ZERO_2, NULL);
  assert_refused (VC_COMMAND_AXOLOTL, &req, "no DeepSpeed config for ZeRO-2 with offload none");
  g_object_set (e, "sharding", VC_SHARDING_FSDP_FULL, NULL);
  assert_refused (VC_COMMAND_AXOLOTL, &req, "fsdp command");
  g_object_set (e, "sharding", VC_SHARDING_NONE, "dp", 1, "optimizer", VC_OPTIMIZER_ADAM, NULL);
  assert_refused (VC_COMMAND_AXOLOTL, &req, "have no adam:");
  g_object_set (e, "optimizer", VC_OPTIMIZER_ADAMW, "optimizer-in-backward", TRUE, NULL);
  assert_refused (VC_COMMAND_AXOLOTL, &req, "optimizer_in_bwd");
  g_object_set (e, "optimizer-in-backward", FALSE, "checkpointing", VC_CHECKPOINTING_SQRT, NULL);
  assert_refused (VC_COMMAND_AXOLOTL, &req, "√L segments");
  g_object_set (e, "mode", VC_MODE_INFERENCE, NULL);
  assert_refused (VC_COMMAND_AXOLOTL, &req, "the estimate is of inference");
}

static void
test_llamafactory (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("qwen3-8b", "mode", VC_MODE_TRAINING, "finetune", VC_FINETUNE_QLORA_4BIT,
                                          "lora-rank", 8, "batch", 1, "seq", 2048, "grad-accum", 8,
                                          "checkpointing", VC_CHECKPOINTING_FULL, "trainer", VC_TRAINER_LLAMAFACTORY,
                                          "train-embeddings", TRUE, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;
  VcCommandEngine engine;

  vc_command_request_from_estimate (&req, e);
  g_assert_true (vc_command_estimate_engine (req.inputs, &engine));
  g_assert_cmpint (engine, ==, VC_COMMAND_LLAMAFACTORY);
  c = build (VC_COMMAND_LLAMAFACTORY, &req);
  g_assert_cmpstr (c->text, ==, "cat > train.yaml <<'EOF'\n"
                                "model_name_or_path: Qwen/Qwen3-8B\n"
                                "stage: sft\n"
                                "do_train: true\n"
                                "finetuning_type: lora\n"
                                "lora_rank: 8\n"
                                "lora_target: all\n"
                                "additional_target: embed_tokens\n"
                                "quantization_bit: 4\n"
                                "cutoff_len: 2048\n"
                                "per_device_train_batch_size: 1\n"
                                "gradient_accumulation_steps: 8\n"
                                "optim: adamw_torch\n"
                                "bf16: true\n"
                                "# dataset, template: yours\n"
                                "EOF\n"
                                "llamafactory-cli train train.yaml\n");

  /* full fine-tuning: pure bf16, 8 GPUs with ZeRO-3 and both offloads, eager attention */
  g_object_set (e, "finetune", VC_FINETUNE_FULL, "optimizer-precision", VC_STATE_PRECISION_BF16,
                "train-embeddings", FALSE, "dp", 8, "sharding", VC_SHARDING_ZERO_3,
                "offload", VC_OFFLOAD_OPTIMIZER_PARAMS, "grad-accum", 2, "checkpointing", VC_CHECKPOINTING_NONE,
                "flash-attention", FALSE, NULL);
  c = build (VC_COMMAND_LLAMAFACTORY, &req);
  g_assert_cmpstr (c->text, ==, "cat > train.yaml <<'EOF'\n"
                                "model_name_or_path: Qwen/Qwen3-8B\n"
                                "stage: sft\n"
                                "do_train: true\n"
                                "finetuning_type: full\n"
                                "cutoff_len: 2048\n"
                                "per_device_train_batch_size: 1\n"
                                "gradient_accumulation_steps: 2\n"
                                "optim: adamw_torch\n"
                                "bf16: true\n"
                                "pure_bf16: true\n"
                                "disable_gradient_checkpointing: true\n"
                                "flash_attn: disabled\n"
                                "deepspeed: examples/deepspeed/ds_z3_offload_config.json\n"
                                "# dataset, template: yours\n"
                                "EOF\n"
                                "FORCE_TORCHRUN=1 NPROC_PER_NODE=8 llamafactory-cli train train.yaml\n");

  /* with an fp32 copy, the parameters LLaMA-Factory casts to fp32 */
  g_object_set (e, "mixed-precision", TRUE, "optimizer-precision", VC_STATE_PRECISION_FP32,
                "sharding", VC_SHARDING_ZERO_2, "offload", VC_OFFLOAD_OPTIMIZER, "flash-attention", TRUE, NULL);
  c = build (VC_COMMAND_LLAMAFACTORY, &req);
  g_assert_nonnull (strstr (c->file_text, "bf16: true\ndisable_gradient_checkpointing: true\n"
                                          "deepspeed: examples/deepspeed/ds_z2_offload_config.json\n"));

  g_object_set (e, "loss", VC_LOSS_CHUNKED, NULL);
  assert_refused (VC_COMMAND_LLAMAFACTORY, &req, "no chunked loss");
  g_object_set (e, "loss", VC_LOSS_AUTO, "sharding", VC_SHARDING_ZERO_3, "offload", VC_OFFLOAD_OPTIMIZER, NULL);
  assert_refused (VC_COMMAND_LLAMAFACTORY, &req, "ZeRO-3 with offload optimizer");
  g_object_set (e, "offload", VC_OFFLOAD_NONE, "optimizer", VC_OPTIMIZER_SGD_MOMENTUM, NULL);
  assert_refused (VC_COMMAND_LLAMAFACTORY, &req, "have no sgd-momentum:");
}

static void
test_trl (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("llama-3.1-8b", "mode", VC_MODE_TRAINING, "finetune", VC_FINETUNE_LORA,
                                          "lora-rank", 16, "lora-targets", VC_LORA_TARGET_Q | VC_LORA_TARGET_K |
                                          VC_LORA_TARGET_V | VC_LORA_TARGET_O,
                                          "batch", 4, "seq", 1024, "trainer", VC_TRAINER_TRL,
                                          "loss", VC_LOSS_CHUNKED, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;
  VcCommandEngine engine;

  vc_command_request_from_estimate (&req, e);
  g_assert_true (vc_command_estimate_engine (req.inputs, &engine));
  g_assert_cmpint (engine, ==, VC_COMMAND_TRL);
  c = build (VC_COMMAND_TRL, &req);
  g_assert_cmpstr (c->text, ==, "trl sft --model_name_or_path meta-llama/Llama-3.1-8B --dataset_name DATASET "
                                "--dtype bfloat16 --use_peft --lora_r 16 --lora_target_modules q_proj k_proj v_proj o_proj "
                                "--max_length 1024 --per_device_train_batch_size 4 --gradient_accumulation_steps 1 "
                                "--optim adamw_torch --bf16 true --gradient_checkpointing false "
                                "--attn_implementation sdpa --loss_type chunked_nll");

  /* full fine-tuning with an fp32 copy on 8 GPUs under FSDP, checkpointed */
  g_object_set (e, "finetune", VC_FINETUNE_FULL, "mixed-precision", TRUE, "dp", 8, "sharding", VC_SHARDING_FSDP_FULL,
                "checkpointing", VC_CHECKPOINTING_FULL, "loss", VC_LOSS_AUTO, "optimizer", VC_OPTIMIZER_ADAMW_8BIT, NULL);
  c = build (VC_COMMAND_TRL, &req);
  g_assert_cmpstr (c->text, ==, "trl sft --accelerate_config fsdp2 --num_processes 8 --model_name_or_path meta-llama/Llama-3.1-8B "
                                "--dataset_name DATASET --dtype float32 --max_length 1024 --per_device_train_batch_size 4 "
                                "--gradient_accumulation_steps 1 --optim adamw_bnb_8bit --bf16 true --gradient_checkpointing true "
                                "--attn_implementation sdpa --loss_type nll");

  g_object_set (e, "offload", VC_OFFLOAD_OPTIMIZER_PARAMS, NULL);
  assert_refused (VC_COMMAND_TRL, &req, "offload optimizer+params cannot be expressed");
  g_object_set (e, "offload", VC_OFFLOAD_NONE, "sharding", VC_SHARDING_FSDP_HYBRID, NULL);
  assert_refused (VC_COMMAND_TRL, &req, "hybrid cannot be expressed");
  g_object_set (e, "sharding", VC_SHARDING_NONE, "dp", 1, "loss", VC_LOSS_CCE, NULL);
  assert_refused (VC_COMMAND_TRL, &req, "no cce loss");
  g_object_set (e, "loss", VC_LOSS_AUTO, "finetune", VC_FINETUNE_LORA, NULL);
  assert_refused (VC_COMMAND_TRL, &req, "mixed precision cannot be expressed");
  /* the trainer's own config is the Command area's first choice; torchtitan has none here */
  g_object_set (e, "trainer", VC_TRAINER_TORCHTITAN, NULL);
  g_assert_false (vc_command_estimate_engine (req.inputs, &engine));
}

static void
test_torchtune (void)
{
  g_autoptr(VcEstimate) e = estimate_new ("llama-3.1-8b", "mode", VC_MODE_TRAINING, "finetune", VC_FINETUNE_LORA,
                                          "lora-rank", 8, "lora-targets", VC_LORA_TARGET_Q | VC_LORA_TARGET_V |
                                          VC_LORA_TARGET_O | VC_LORA_TARGET_GATE | VC_LORA_TARGET_UP |
                                          VC_LORA_TARGET_DOWN,
                                          "batch", 2, "seq", 2048, "checkpointing", VC_CHECKPOINTING_FULL,
                                          "compile", TRUE, "trainer", VC_TRAINER_TORCHTUNE, NULL);
  g_auto(VcCommandRequest) req = { 0 };
  VcCommand *c;
  VcCommandEngine engine;

  vc_command_request_from_estimate (&req, e);
  g_assert_true (vc_command_estimate_engine (req.inputs, &engine));
  g_assert_cmpint (engine, ==, VC_COMMAND_TORCHTUNE);
  c = build (VC_COMMAND_TORCHTUNE, &req);
  g_assert_cmpstr (c->text, ==, "tune run lora_finetune_single_device --config llama3_1/8B_lora_single_device batch_size=2 "
                                "gradient_accumulation_steps=1 tokenizer.max_seq_len=2048 dtype=bf16 "
                                "enable_activation_checkpointing=True compile=True "
                                "loss=torchtune.modules.loss.LinearCrossEntropyLoss model.lora_rank=8 "
                                "'model.lora_attn_modules=[q_proj,v_proj,output_proj]' model.apply_lora_to_mlp=True "
                                "model.apply_lora_to_output=False");

  /* full fine-tuning on the config's own paged 8-bit AdamW with the step in the backward pass */
  g_object_set (e, "finetune", VC_FINETUNE_FULL, "optimizer", VC_OPTIMIZER_PAGED_ADAMW_8BIT,
                "optimizer-in-backward", TRUE, "loss", VC_LOSS_CHUNKED, NULL);
  c = build (VC_COMMAND_TORCHTUNE, &req);
  g_assert_cmpstr (c->text, ==, "tune run full_finetune_single_device --config llama3_1/8B_full_single_device batch_size=2 "
                                "gradient_accumulation_steps=1 tokenizer.max_seq_len=2048 dtype=bf16 "
                                "enable_activation_checkpointing=True compile=True optimizer_in_bwd=True "
                                "loss=torchtune.modules.loss.CEWithChunkedOutputLoss");

  /* 8 GPUs under FSDP with CPU offload, bitsandbytes' AdamW8bit in place of the config's fused AdamW */
  g_object_set (e, "optimizer-in-backward", FALSE, "optimizer", VC_OPTIMIZER_ADAMW_8BIT, "dp", 8,
                "sharding", VC_SHARDING_FSDP_FULL, "offload", VC_OFFLOAD_OPTIMIZER_PARAMS, "loss", VC_LOSS_FULL,
                "checkpointing", VC_CHECKPOINTING_NONE, "compile", FALSE, "expandable-segments", TRUE, NULL);
  c = build (VC_COMMAND_TORCHTUNE, &req);
  g_assert_cmpstr (c->text, ==, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True tune run --nproc_per_node 8 "
                                "full_finetune_distributed --config llama3_1/8B_full batch_size=2 "
                                "gradient_accumulation_steps=1 tokenizer.max_seq_len=2048 dtype=bf16 "
                                "enable_activation_checkpointing=False compile=False "
                                "optimizer=bitsandbytes.optim.AdamW8bit '~optimizer.fused' optimizer_in_bwd=False "
                                "loss=torch.nn.CrossEntropyLoss fsdp_cpu_offload=True");

  g_object_set (e, "sharding", VC_SHARDING_ZERO_3, "offload", VC_OFFLOAD_NONE, NULL);
  assert_refused (VC_COMMAND_TORCHTUNE, &req, "FSDP2’s full sharding: zero-3 cannot be expressed");
  g_object_set (e, "sharding", VC_SHARDING_NONE, "dp", 1, "finetune", VC_FINETUNE_QLORA_8BIT, NULL);
  assert_refused (VC_COMMAND_TORCHTUNE, &req, "an 8-bit base");
  g_object_set (e, "finetune", VC_FINETUNE_LORA, "lora-targets", VC_LORA_TARGET_Q | VC_LORA_TARGET_GATE, NULL);
  assert_refused (VC_COMMAND_TORCHTUNE, &req, "three projections together");
  g_object_set (e, "lora-targets", VC_LORA_TARGET_Q, "training-precision", VC_TRAINING_PRECISION_FP16, NULL);
  assert_refused (VC_COMMAND_TORCHTUNE, &req, "fp16");
  g_object_set (e, "training-precision", VC_TRAINING_PRECISION_BF16, "loss", VC_LOSS_FUSED, NULL);
  assert_refused (VC_COMMAND_TORCHTUNE, &req, "no fused loss");
  g_object_set (e, "loss", VC_LOSS_AUTO, "finetune", VC_FINETUNE_QLORA_4BIT, "dp", 2, "sharding", VC_SHARDING_FSDP_FULL,
                NULL);
  assert_refused (VC_COMMAND_TORCHTUNE, &req, "no llama3_1/8B_qlora_single_device recipe config on several GPUs");
  g_object_set (e, "dp", 1, "sharding", VC_SHARDING_NONE, NULL);
  set_model (&req, "hf:Qwen/Qwen3-14B");
  assert_refused (VC_COMMAND_TORCHTUNE, &req, "no recipe config for Qwen/Qwen3-14B");
}

/* ---- engines and flags ---- */

static void
test_engine_ids (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *list = vc_command_engine_list ();
  VcCommandEngine engine;

  g_assert_cmpstr (list, ==, "llama.cpp, vllm, sglang, ollama, accelerate, deepspeed, fsdp, axolotl, llamafactory, trl, torchtune");
  for (guint i = 0; i < VC_N_COMMAND_ENGINES; i++)
    {
      g_assert_true (vc_command_engine_from_id (vc_command_engine_id (i), &engine, NULL));
      g_assert_cmpint (engine, ==, i);
      g_assert_nonnull (vc_command_engine_source (i));
    }
  g_assert_false (vc_command_engine_from_id ("tensorrt-llm", &engine, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_UNKNOWN_ID);
  g_assert_nonnull (strstr (error->message, "accepted: llama.cpp, vllm, sglang"));
}

static GHashTable *
read_allow_list (VcCommandEngine engine)
{
  g_autofree char *name = g_strdup_printf ("%s.txt", vc_command_engine_id (engine));
  g_autofree char *path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "data", "command-flags", name, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean cited = FALSE;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (lines[i][0] == '#')
      cited |= strstr (lines[i], ".py") || strstr (lines[i], ".cpp") || strstr (lines[i], ".go") ||
                strstr (lines[i], ".md");
    else if (lines[i][0] != '\0')
      g_hash_table_add (set, g_strdup (lines[i]));
  /* the header names where the flags were read */
  g_assert_true (cited);
  return set;
}

/* The flag-like words of a command: argv's options, and the keys of the file or code it writes */
static void
collect_words (const VcCommand *c,
               GPtrArray       *words)
{
  /* per engine: the JSON's keys, the YAML's, the Modelfile's instructions and parameters and
   * the server's settings, the Python keywords */
  static const char *patterns[VC_N_COMMAND_ENGINES][3] = {
    [VC_COMMAND_DEEPSPEED] = { "\"([a-z_0-9]+)\":" },
    [VC_COMMAND_FSDP] = { "^ *([a-z_]+):" },
    [VC_COMMAND_OLLAMA] = { "^(FROM|PARAMETER) ", "^PARAMETER ([a-z_]+)", "(OLLAMA_[A-Z_]+)=" },
    [VC_COMMAND_ACCELERATE] = { "([a-z_0-9]+)=" },
    [VC_COMMAND_VLLM] = { "^(VLLM_[A-Z_]+)=" },
    [VC_COMMAND_AXOLOTL] = { "^ *([a-z_0-9]+):" },
    [VC_COMMAND_LLAMAFACTORY] = { "^ *([a-z_0-9]+):" },
  };
  const char *text = c->engine == VC_COMMAND_ACCELERATE || c->engine == VC_COMMAND_VLLM ? c->text : c->file_text;

  /* python's own -m before SGLang's module */
  for (guint i = c->engine == VC_COMMAND_SGLANG ? 3 : 0; c->argv[i]; i++)
    if (c->argv[i][0] == '-' && c->engine != VC_COMMAND_ACCELERATE && !g_str_equal (c->argv[i], "--"))
      g_ptr_array_add (words, g_strndup (c->argv[i], strcspn (c->argv[i], "=")));
    else if (c->engine >= VC_COMMAND_AXOLOTL && g_ascii_isupper (c->argv[i][0]) && strchr (c->argv[i], '='))
      /* the trainers' environment before the launcher */
      g_ptr_array_add (words, g_strndup (c->argv[i], strcspn (c->argv[i], "=")));
    else if (c->engine == VC_COMMAND_TORCHTUNE && (strchr (c->argv[i], '=') || c->argv[i][0] == '~'))
      /* torchtune's config overrides and removals */
      g_ptr_array_add (words, g_strndup (c->argv[i], strcspn (c->argv[i], "=")));
  if (c->engine == VC_COMMAND_OLLAMA)
    g_ptr_array_add (words, g_strdup (c->argv[1]));
  if (text == NULL)
    return;
  for (guint p = 0; p < 3 && patterns[c->engine][p]; p++)
    {
      g_autoptr(GRegex) re = g_regex_new (patterns[c->engine][p], G_REGEX_MULTILINE, 0, NULL);
      g_autoptr(GMatchInfo) m = NULL;

      for (g_regex_match (re, text, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
        for (int g = 1; g < g_match_info_get_match_count (m); g++)
          {
            g_autofree char *w = g_match_info_fetch (m, g);

            if (*w)
              g_ptr_array_add (words, g_steal_pointer (&w));
          }
    }
}

static void
test_allow_lists (void)
{
  guint checked = 0;

  /* every flag the code can emit is in the engine's parser */
  for (guint e = 0; e < VC_N_COMMAND_ENGINES; e++)
    {
      g_autoptr(GHashTable) allowed = read_allow_list (e);
      const char * const *flags = vc_command_flags (e);

      for (guint i = 0; flags[i]; i++)
        if (!g_hash_table_contains (allowed, flags[i]))
          g_error ("%s: %s is not in its allow-list", vc_command_engine_id (e), flags[i]);
    }
  /* and every flag of every command built above is one the code declares */
  for (guint i = 0; i < built->len; i++)
    {
      const VcCommand *c = built->pdata[i];
      g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
      const char * const *flags = vc_command_flags (c->engine);

      collect_words (c, words);
      for (guint w = 0; w < words->len; w++, checked++)
        if (!g_strv_contains (flags, words->pdata[w]))
          g_error ("%s: %s emitted, not declared (in %s)", vc_command_engine_id (c->engine),
                   (char *) words->pdata[w], c->text);
    }
  /* each engine's commands were held against it */
  g_assert_cmpuint (checked, >, 100);
}

/* ---- the command line ---- */

static void
test_cli_print_command (void)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *fixtures = vc_test_make_model_fixtures ();
  g_autofree char *gguf = g_build_filename (fixtures, "gguf", "tiny-llama-Q4_K_M.gguf", NULL);
  g_autofree char *expected = NULL;
  int status;

  {
    const char *args[] = { "--preset", "qwen3-8b", "--tp", "2", "--seq", "16384", "--print-command", "vllm", NULL };

    status = vc_test_run_vramcalc (args, NULL, &out, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpstr (out, ==, "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len 16384 "
                              "--gpu-memory-utilization 0.9\n");
    g_assert_cmpstr (err, ==, "");
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *args[] = { "--model", gguf, "--engine", "llama.cpp", "--seq", "4096", "--print-command=llama.cpp", NULL };

    status = vc_test_run_vramcalc (args, NULL, &out, &err);
    g_assert_cmpint (status, ==, 0);
    expected = g_strdup_printf ("llama-server -m %s -ngl all -c 4096 -np 1 -fa on\n", gguf);
    g_assert_cmpstr (out, ==, expected);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *args[] = { "--preset", "qwen3-8b", "--print-command", "tgi", NULL };

    status = vc_test_run_vramcalc (args, NULL, &out, &err);
    g_assert_cmpint (status, ==, 2);
    g_assert_cmpstr (out, ==, "");
    g_assert_nonnull (strstr (err, "--print-command"));
    g_assert_nonnull (strstr (err, "accepted: llama.cpp, vllm, sglang, ollama, accelerate, deepspeed, fsdp, axolotl, llamafactory, trl, torchtune"));
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *args[] = { "--preset", "qwen3-8b", "--gpu-layers", "10", "--print-command", "sglang", NULL };

    status = vc_test_run_vramcalc (args, NULL, &out, &err);
    g_assert_cmpint (status, ==, 2);
    g_assert_cmpstr (out, ==, "");
    g_assert_cmpstr (err, ==, "vramcalc: --print-command: sglang keeps every layer on the GPUs: layers or experts "
                              "in system RAM cannot be expressed\n");
  }
  vc_test_remove_tree (fixtures);
}

static JsonObject *
run_json (JsonParser         *parser,
          const char * const *args)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_json (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *command;
  JsonArray *argv;

  {
    const char *args[] = { "--preset", "qwen3-8b", "--engine", "sglang", "--format", "json", NULL };

    root = run_json (parser, args);
    command = json_object_get_object_member (root, "command");
    g_assert_nonnull (command);
    g_assert_cmpstr (json_object_get_string_member (command, "engine"), ==, "sglang");
    argv = json_object_get_array_member (command, "argv");
    g_assert_cmpuint (json_array_get_length (argv), ==, 7);
    g_assert_cmpstr (json_array_get_string_element (argv, 4), ==, "Qwen/Qwen3-8B");
    g_assert_cmpstr (json_object_get_string_member (command, "text"), ==,
                     "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 2048");
    g_assert_true (json_object_get_null_member (command, "file_name"));
    g_assert_false (json_object_has_member (command, "error"));
  }
  {
    const char *args[] = { "--preset", "qwen3-8b", "--mode", "training", "--zero", "3", "--dp", "2", "--format", "json", NULL };

    root = run_json (parser, args);
    command = json_object_get_object_member (root, "command");
    g_assert_cmpstr (json_object_get_string_member (command, "engine"), ==, "deepspeed");
    g_assert_cmpstr (json_object_get_string_member (command, "file_name"), ==, "ds_config.json");
    g_assert_nonnull (strstr (json_object_get_string_member (command, "file_text"), "\"stage\": 3"));
  }
  {
    /* the estimate's engine cannot be told what it assumes: the refusal in place of argv */
    const char *args[] = { "--preset", "qwen3-8b", "--engine", "llama.cpp", "--format", "json", NULL };

    root = run_json (parser, args);
    command = json_object_get_object_member (root, "command");
    g_assert_cmpstr (json_object_get_string_member (command, "engine"), ==, "llama.cpp");
    g_assert_false (json_object_has_member (command, "argv"));
    g_assert_nonnull (strstr (json_object_get_string_member (command, "error"), "loads a GGUF file"));
  }
  {
    /* no engine: no command */
    const char *args[] = { "--preset", "qwen3-8b", "--format", "json", NULL };

    root = run_json (parser, args);
    g_assert_false (json_object_has_member (root, "command"));
  }
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  built = g_ptr_array_new_with_free_func ((GDestroyNotify) vc_command_free);
  g_test_add_func ("/command/llama-cpp/one-gpu", test_llama_cpp_one_gpu);
  g_test_add_func ("/command/llama-cpp/plan", test_llama_cpp_plan);
  g_test_add_func ("/command/llama-cpp/refusals", test_llama_cpp_refusals);
  g_test_add_func ("/command/vllm", test_vllm);
  g_test_add_func ("/command/vllm/expert-parallel", test_vllm_expert_parallel);
  g_test_add_func ("/command/vllm/refusals", test_vllm_refusals);
  g_test_add_func ("/command/sglang", test_sglang);
  g_test_add_func ("/command/ollama", test_ollama);
  g_test_add_func ("/command/accelerate", test_accelerate);
  g_test_add_func ("/command/deepspeed", test_deepspeed);
  g_test_add_func ("/command/fsdp", test_fsdp);
  g_test_add_func ("/command/axolotl", test_axolotl);
  g_test_add_func ("/command/llamafactory", test_llamafactory);
  g_test_add_func ("/command/trl", test_trl);
  g_test_add_func ("/command/torchtune", test_torchtune);
  g_test_add_func ("/command/engine-ids", test_engine_ids);
  /* after every test that builds commands */
  g_test_add_func ("/command/allow-lists", test_allow_lists);
  g_test_add_func ("/command/cli/print-command", test_cli_print_command);
  g_test_add_func ("/command/cli/json", test_json);
  status = g_test_run ();
  g_ptr_array_unref (built);
  return status;
}
