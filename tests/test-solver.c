/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The solver: for every preset and every catalog GPU, the value it finds fits and one more does
 * not (or the model's context, or the input's range, stops it); exact values worked out by hand
 * from the estimator's formulas; custom GPUs, MoE, MLA, sliding windows, nothing fitting, and
 * the smallest GPU count agreeing with the GPU table's. */
#include "config.h"

#include <math.h>

#include "vc-catalog.h"
#include "vc-estimate.h"
#include "vc-solver.h"
#include "vc-test-util.h"

static const VcSolveVariable all_variables[] = {
  VC_SOLVE_VARIABLE_SEQ, VC_SOLVE_VARIABLE_BATCH, VC_SOLVE_VARIABLE_CONCURRENCY,
};

/* A GPU of the catalog by its id */
static const VcGpu *
gpu_lookup (const char *id)
{
  guint n;
  const VcGpu *gpus = vc_gpus_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (gpus[i].id, id))
      return &gpus[i];
  g_assert_not_reached ();
}

static void
preset_inputs (const char *id,
               VcMode      mode,
               VcInputs   *in)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_estimate_set_preset (e, id, &error));
  g_assert_no_error (error);
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "mode", mode, NULL);
  *in = *vc_estimate_get_inputs (e);
}

/* What the issue asks of every answer. Returns the solution for further checks. */
static void
check_solution_memo (VcSolverMemo    *memo,
                     const VcInputs  *in,
                     VcSolveVariable  var,
                     double           capacity,
                     guint            count,
                     VcSolution      *sol)
{
  double bytes;

  /* with the estimates of the other solves and checks of `in` (test_memo_equals_plain()
   * compares the two ways), else each from scratch */
  if (memo != NULL)
    vc_solver_solve_memo (memo, NULL, in, var, capacity, count, sol);
  else
    vc_solver_solve (in, var, capacity, count, sol);
  g_assert_cmpuint (sol->gpu_count, ==, MAX (count, 1u));
  g_assert_cmpfloat (sol->capacity_bytes, ==, capacity);
  if (!sol->found)
    {
      g_assert_cmpuint (sol->value, ==, 0);
      g_assert_cmpint (sol->limit, ==, VC_SOLVE_LIMIT_MEMORY);
      g_assert_false (vc_solver_fits_at_memo (memo, NULL, in, var, 1, capacity, count, &bytes));
      g_assert_cmpfloat (sol->total_bytes, ==, bytes);
      return;
    }
  g_assert_cmpuint (sol->value, >=, 1);
  g_assert_true (vc_solver_fits_at_memo (memo, NULL, in, var, sol->value, capacity, count, &bytes));
  g_assert_cmpfloat (sol->total_bytes, ==, bytes);
  g_assert_cmpfloat (sol->total_bytes, <=, capacity);
  switch (sol->limit)
    {
    case VC_SOLVE_LIMIT_MEMORY:
      g_assert_cmpuint (sol->value, <, vc_solver_input_max (var));
      g_assert_false (vc_solver_fits_at_memo (memo, NULL, in, var, sol->value + 1, capacity, count, &bytes));
      break;
    case VC_SOLVE_LIMIT_MODEL_CONTEXT:
      g_assert_cmpint (var, ==, VC_SOLVE_VARIABLE_SEQ);
      g_assert_cmpuint (sol->value, ==, in->arch.max_context);
      break;
    case VC_SOLVE_LIMIT_NONE:
      g_assert_cmpuint (sol->value, ==, vc_solver_input_max (var));
      break;
    default:
      g_assert_not_reached ();
    }
  /* an exact search over at most 10^8 values stays small */
  g_assert_cmpuint (sol->n_evaluations, <=, 60);
}

static void
check_solution (const VcInputs  *in,
                VcSolveVariable  var,
                double           capacity,
                guint            count,
                VcSolution      *sol)
{
  check_solution_memo (NULL, in, var, capacity, count, sol);
}

static void
test_every_preset_every_gpu (void)
{
  guint n_presets, n_gpus, n_found = 0, n_none = 0, n_context = 0, n_memory = 0;
  const VcPreset *presets = vc_presets_get_all (&n_presets);
  const VcGpu *gpus = vc_gpus_get_all (&n_gpus);

  for (guint p = 0; p < n_presets; p++)
    /* every shape of model once (the smallest of each family and kind) */
    for (VcMode mode = VC_MODE_INFERENCE; vc_test_first_of_family (p) && mode <= VC_MODE_TRAINING; mode++)
      {
        g_autoptr(VcSolverMemo) memo = vc_solver_memo_new ();
        VcInputs in;

        preset_inputs (presets[p].id, mode, &in);
        for (guint g = 0; g < n_gpus; g++)
          for (guint v = 0; v < G_N_ELEMENTS (all_variables); v++)
            {
              VcSolution sol;

              if (!vc_solver_applies (mode, all_variables[v]) || !vc_test_sampled (g, p + mode))
                continue;
              check_solution_memo (memo, &in, all_variables[v], gpus[g].capacity_bytes, 1, &sol);
              n_found += sol.found;
              n_none += !sol.found;
              n_context += sol.found && sol.limit == VC_SOLVE_LIMIT_MODEL_CONTEXT;
              n_memory += sol.found && sol.limit == VC_SOLVE_LIMIT_MEMORY;
            }
      }
  /* every case is met somewhere in the catalog */
  g_test_message ("%u found (%u memory, %u model context), %u nothing fits", n_found, n_memory, n_context, n_none);
  g_assert_cmpuint (n_found, >, 0);
  g_assert_cmpuint (n_none, >, 0);
  g_assert_cmpuint (n_context, >, 0);
  g_assert_cmpuint (n_memory, >, 0);
}

/* Several GPUs: the count the GPU table shows holds the estimate, one fewer does not, and the
 * solver on that count finds at least the current value. */
static void
test_gpu_counts (void)
{
  guint n_presets, n_gpus;
  const VcPreset *presets = vc_presets_get_all (&n_presets);
  const VcGpu *gpus = vc_gpus_get_all (&n_gpus);

  for (guint p = 0; p < n_presets; p++)
    /* every shape of model once (the smallest of each family and kind) */
    for (VcMode mode = VC_MODE_INFERENCE; vc_test_first_of_family (p) && mode <= VC_MODE_TRAINING; mode++)
      {
        g_autoptr(VcEstimate) e = vc_estimate_new ();
        g_autoptr(VcSolverMemo) memo = vc_solver_memo_new ();
        VcInputs in;

        g_test_message ("%s, mode %d", presets[p].id, mode);
        g_assert_true (vc_estimate_set_preset (e, presets[p].id, NULL));
        g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "mode", mode, NULL);
        in = *vc_estimate_get_inputs (e);
        for (guint g = 0; g < n_gpus; g++)
          {
            const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, g);
            double cap = gpus[g].capacity_bytes;
            guint n;
            double bytes;

            if (!vc_test_sampled (g, p + mode))
              continue;
            n = vc_solver_min_gpus (&in, cap);

            /* the GPU table's count: its smallest valid layout holds it, on n and no fewer */
            g_assert_cmpfloat (n, ==, fit->count);
            if (n == 0)
              continue;
            g_assert_true (vc_solver_fits_at_memo (memo, NULL, &in, VC_SOLVE_VARIABLE_BATCH, in.batch, cap, n, &bytes));
            g_assert_cmpfloat (bytes, ==, fit->per_gpu_bytes);
            if (n > 1)
              g_assert_false (vc_solver_fits_at_memo (memo, NULL, &in, VC_SOLVE_VARIABLE_BATCH, in.batch, cap, n - 1, &bytes));
            for (guint v = 0; v < G_N_ELEMENTS (all_variables); v++)
              {
                VcSolution sol;

                if (!vc_solver_applies (mode, all_variables[v]))
                  continue;
                check_solution_memo (memo, &in, all_variables[v], cap, n, &sol);
                g_assert_true (sol.found);
                if (sol.limit != VC_SOLVE_LIMIT_MODEL_CONTEXT)
                  g_assert_cmpuint (sol.value, >=, vc_solver_get (&in, all_variables[v]));
                check_solution_memo (memo, &in, all_variables[v], cap, n + 3, &sol);
              }
          }
      }
}

/* Llama 3.1 8B in bf16 on one RTX 4090 (24,564 MiB = 25,757,220,864 bytes), b = C = 1:
 * weights 2 × 8,030,261,248 = 16,060,522,496; overhead 10^9; from s = 8,192 on the prefill
 * chunk is full: residual 2·8192·4096·2 = 134,217,728, MLP 8192·14336·3·2 = 704,643,072
 * (more than attention's 8192·10240·2), logits 128,256·6 = 769,536; KV cache 32 layers ×
 * 2 × 8 heads × 128 × 2 bytes = 131,072 bytes a token. Room for the cache: 7,857,068,032
 * bytes, 59,944.9 tokens: 59,944. */
static void
test_exact_seq (void)
{
  const VcGpu *gpu = gpu_lookup ("rtx-4090");
  VcInputs in;
  VcSolution sol;

  preset_inputs ("llama-3.1-8b", VC_MODE_INFERENCE, &in);
  g_assert_cmpuint (in.arch.max_context, ==, 131072);
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, gpu->capacity_bytes, 1, &sol);
  g_assert_true (sol.found);
  g_assert_cmpuint (sol.value, ==, 59944);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MEMORY);
  g_assert_cmpfloat (sol.total_bytes, ==, 16060522496.0 + 1e9 + 134217728 + 704643072 + 769536 + 59944.0 * 131072);
  g_assert_cmpfloat (sol.capacity_bytes, ==, 25757220864.0);
}

/* Same model on one H100 (81,559 MiB = 85,520,809,984 bytes) at s = 2,048: from C = 4 on the
 * chunk is full, so the estimate is 17,899,383,296 + C × (268,435,456 KV + 769,536 logits);
 * (85,520,809,984 − 17,899,383,296) / 269,204,992 = 251.19: 251 requests. */
static void
test_exact_concurrency (void)
{
  const VcGpu *gpu = gpu_lookup ("h100-80gb");
  VcInputs in;
  VcSolution sol;

  preset_inputs ("llama-3.1-8b", VC_MODE_INFERENCE, &in);
  check_solution (&in, VC_SOLVE_VARIABLE_CONCURRENCY, gpu->capacity_bytes, 1, &sol);
  g_assert_cmpfloat (sol.capacity_bytes, ==, 85520809984.0);
  g_assert_cmpuint (sol.value, ==, 251);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MEMORY);
  g_assert_cmpfloat (sol.total_bytes, ==, 17899383296.0 + 251.0 * 269204992);
  /* the longest sequence on the H100 reaches the model's 131,072 tokens */
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, gpu->capacity_bytes, 1, &sol);
  g_assert_cmpuint (sol.value, ==, 131072);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MODEL_CONTEXT);
}

/* A GPU of the user's own, in MiB, and one too small for anything. */
static void
test_custom_gpus (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcInputs *in;
  guint n_catalog;
  VcSolution sol;

  vc_gpus_get_all (&n_catalog);
  g_assert_true (vc_estimate_set_preset (e, "llama-3.1-8b", NULL));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, NULL);
  g_assert_true (vc_estimate_set_custom_gpus (e, "Mine=24564MiB; Tiny=0.5GB", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (vc_estimate_get_n_gpus (e), ==, n_catalog + 2);
  in = vc_estimate_get_inputs (e);

  /* the same capacity as the RTX 4090: the same answer */
  check_solution (in, VC_SOLVE_VARIABLE_SEQ, vc_estimate_get_gpu (e, n_catalog)->capacity_bytes, 1, &sol);
  g_assert_cmpuint (sol.value, ==, 59944);

  check_solution (in, VC_SOLVE_VARIABLE_SEQ, vc_estimate_get_gpu (e, n_catalog + 1)->capacity_bytes, 1, &sol);
  g_assert_false (sol.found);
  g_assert_cmpuint (sol.value, ==, 0);
  g_assert_cmpuint (vc_solver_min_gpus (in, vc_estimate_get_gpu (e, n_catalog + 1)->capacity_bytes), ==, 0);
}

/* Mixtral 8x7B: all experts stored, two active a token. In 4 bits it fits one A100 80 GB;
 * the sliding window is off (32k window = context) so the cache grows to the model's 32,768. */
static void
test_moe (void)
{
  const VcGpu *gpu = gpu_lookup ("a100-80gb");
  VcInputs in;
  VcSolution sol;

  preset_inputs ("mixtral-8x7b", VC_MODE_INFERENCE, &in);
  g_assert_true (vc_arch_is_moe (&in.arch));
  in.precision = VC_PRECISION_INT4;
  for (guint v = 0; v < G_N_ELEMENTS (all_variables); v++)
    {
      check_solution (&in, all_variables[v], gpu->capacity_bytes, 1, &sol);
      g_assert_true (sol.found);
    }
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, gpu->capacity_bytes, 1, &sol);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MODEL_CONTEXT);
  g_assert_cmpuint (sol.value, ==, 32768);
  /* in bf16 (~93 GB of weights) nothing fits one card, and two do */
  in.precision = VC_PRECISION_BF16;
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, gpu->capacity_bytes, 1, &sol);
  g_assert_false (sol.found);
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, gpu->capacity_bytes, 2, &sol);
  g_assert_true (sol.found);
}

/* DeepSeek-R1 (MLA): the cache holds the 512 + 64 latent a layer, not the keys and values, so
 * on eight H200 in fp8 the 163,840-token context fits; the latent is not split per KV head. */
static void
test_mla (void)
{
  const VcGpu *gpu = gpu_lookup ("h200");
  VcInputs in;
  VcSolution sol;
  double kv_per_token;

  preset_inputs ("deepseek-r1", VC_MODE_INFERENCE, &in);
  g_assert_true (vc_arch_is_mla (&in.arch));
  g_assert_cmpuint (in.arch.max_context, ==, 163840);
  in.precision = VC_PRECISION_FP8;
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, gpu->capacity_bytes, 8, &sol);
  g_assert_true (sol.found);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MODEL_CONTEXT);
  /* 61 layers × 576 values × 2 bytes = 70,272 bytes a token; a GPU keeps the whole latent of
   * each of its layers (it has no heads for tensor parallelism to split), so one token more adds
   * 1,152 bytes per layer of the busiest GPU's pipeline stage */
  kv_per_token = 61.0 * 576 * 2;
  {
    double at, before;

    g_assert_true (vc_solver_fits_at (&in, VC_SOLVE_VARIABLE_SEQ, 163840, gpu->capacity_bytes, 8, &at));
    g_assert_true (vc_solver_fits_at (&in, VC_SOLVE_VARIABLE_SEQ, 163839, gpu->capacity_bytes, 8, &before));
    g_assert_cmpfloat (fmod (at - before, 576 * 2), ==, 0);
    g_assert_cmpfloat (at - before, >, 0);
    g_assert_cmpfloat (at - before, <=, kv_per_token);
  }
  check_solution (&in, VC_SOLVE_VARIABLE_CONCURRENCY, gpu->capacity_bytes, 8, &sol);
  g_assert_true (sol.found);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MEMORY);
  /* one H200 cannot hold 671B parameters even in 4 bits */
  in.precision = VC_PRECISION_INT4;
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, gpu->capacity_bytes, 1, &sol);
  g_assert_false (sol.found);
}

/* the whole estimate on one GPU at a sequence length */
static double
total_at (const VcInputs *in,
          guint           seq)
{
  double bytes[VC_N_COMPONENTS];

  return vc_solver_components_at (in, VC_SOLVE_VARIABLE_SEQ, seq, bytes);
}

/* Mistral 7B v0.1: every layer has a 4,096-token window, so past the window the cache stops
 * growing and past the 8,192-token prefill chunk the activations do too: the memory is flat
 * and only the model's context (or, unknown, the input's range) stops the sequence. */
static void
test_sliding_window (void)
{
  const VcGpu *gpu = gpu_lookup ("rtx-4090");
  VcInputs in;
  VcSolution sol;

  preset_inputs ("mistral-7b", VC_MODE_INFERENCE, &in);
  g_assert_cmpuint (in.arch.sliding_window, ==, 4096);
  g_assert_cmpuint (in.arch.sliding_window_layers, ==, in.arch.n_layers);
  g_assert_cmpfloat (total_at (&in, 8192), ==, total_at (&in, 10000000));
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, gpu->capacity_bytes, 1, &sol);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MODEL_CONTEXT);
  g_assert_cmpuint (sol.value, ==, 32768);

  in.arch.max_context = 0;
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, gpu->capacity_bytes, 1, &sol);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_NONE);
  g_assert_cmpuint (sol.value, ==, vc_solver_input_max (VC_SOLVE_VARIABLE_SEQ));

  /* concurrency still multiplies the windowed cache: memory stops it */
  check_solution (&in, VC_SOLVE_VARIABLE_CONCURRENCY, gpu->capacity_bytes, 1, &sol);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MEMORY);

  /* Gemma 2: only half the layers have a window, so the cache keeps growing */
  preset_inputs ("gemma-2-9b", VC_MODE_INFERENCE, &in);
  g_assert_cmpuint (in.arch.sliding_window_layers, <, in.arch.n_layers);
  g_assert_cmpfloat (total_at (&in, 20000), <, total_at (&in, 20001));
}

/* Nothing fits: Llama 3.1 405B on one RTX 4090, in any mode and for any variable; the count of
 * RTX 4090 that holds it is the GPU table's. */
static void
test_nothing_fits (void)
{
  const VcGpu *gpu = gpu_lookup ("rtx-4090");

  for (VcMode mode = VC_MODE_INFERENCE; mode <= VC_MODE_TRAINING; mode++)
    {
      VcInputs in;

      preset_inputs ("llama-3.1-405b", mode, &in);
      for (guint v = 0; v < G_N_ELEMENTS (all_variables); v++)
        {
          VcSolution sol;

          if (!vc_solver_applies (mode, all_variables[v]))
            continue;
          check_solution (&in, all_variables[v], gpu->capacity_bytes, 1, &sol);
          g_assert_false (sol.found);
          g_assert_cmpuint (sol.n_evaluations, ==, 1);
        }
      if (mode == VC_MODE_INFERENCE)
        g_assert_cmpuint (vc_solver_min_gpus (&in, gpu->capacity_bytes), >, 1);
      else
        /* ZeRO-3 shards the weights and state, not the 183 GB of activations one 2,048-token
         * sequence saves without checkpointing: no count of RTX 4090 holds it, 385 B200 do (the
         * allocator's cache of all 126 layers replayed; 364 while it was extrapolated from 16
         * and 32 layers) */
        {
          g_assert_cmpuint (vc_solver_min_gpus (&in, gpu->capacity_bytes), ==, 0);
          g_assert_cmpuint (vc_solver_min_gpus (&in, gpu_lookup ("b200")->capacity_bytes), ==, 385);
        }
    }
}

/* Training: the largest micro-batch of a LoRA fine-tune of Llama 3 8B on an A100 80 GB, and a
 * rule-of-thumb estimate, which knows no model context whatever the architecture says. */
static void
test_training_and_rule_of_thumb (void)
{
  const VcGpu *gpu = gpu_lookup ("a100-80gb");
  VcInputs in;
  VcSolution sol;

  preset_inputs ("llama-3-8b", VC_MODE_TRAINING, &in);
  check_solution (&in, VC_SOLVE_VARIABLE_BATCH, gpu->capacity_bytes, 1, &sol);
  g_assert_true (sol.found);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MEMORY);
  g_assert_cmpuint (sol.value, >, 1);
  g_assert_false (vc_solver_applies (VC_MODE_TRAINING, VC_SOLVE_VARIABLE_CONCURRENCY));

  /* rule of thumb, 7B (seed 000): 14 GB of weights, 2 GB overhead, and 1.4 GB of activations
   * and 1.4 GB of KV cache per 2,048 tokens: 16e9 + 2 × 7e9 · 2 · s / 20,480 ≤ 24e9 gives
   * s ≤ 5,851.4: 5,851, the architecture's 4,096 notwithstanding */
  vc_inputs_init_default (&in);
  in.arch.max_context = 4096;
  check_solution (&in, VC_SOLVE_VARIABLE_SEQ, 24e9, 1, &sol);
  g_assert_cmpuint (sol.value, ==, 5851);
  g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_MEMORY);
}

static void
assert_solutions_equal (const VcSolution *a,
                        const VcSolution *b)
{
  g_assert_cmpint (a->variable, ==, b->variable);
  g_assert_cmpint (a->found, ==, b->found);
  g_assert_cmpuint (a->value, ==, b->value);
  g_assert_cmpint (a->limit, ==, b->limit);
  g_assert_cmpuint (a->gpu_count, ==, b->gpu_count);
  g_assert_cmpfloat (a->capacity_bytes, ==, b->capacity_bytes);
  g_assert_cmpfloat (a->total_bytes, ==, b->total_bytes);
  g_assert_cmpfloat (a->usable_bytes, ==, b->usable_bytes);
  /* the same search: the same probes, some of them remembered */
  g_assert_cmpuint (a->n_evaluations, ==, b->n_evaluations);
}

/* The GPU table's solves share their estimates (vc_solver_solve_memo()): whatever the order of
 * the cards, counts and variables, each answer is the plain solve's, field by field, over
 * engines, layouts, training setups, dense, MoE and MLA models, cards from the smallest to the
 * largest and counts of 1, 2 and 4. */
static void
test_memo_equals_plain (void)
{
  static const char *const cases[][9] = {
    { "llama-3.1-8b", "mode", "inference", NULL },
    { "llama-3.1-70b", "mode", "inference", "engine", "vllm", NULL },
    { "mixtral-8x7b", "mode", "inference", "engine", "sglang", NULL },
    { "deepseek-v2-lite", "mode", "inference", "engine", "llama.cpp", NULL },
    { "gemma-2-9b", "mode", "inference", "tp", "2", NULL },
    { "llama-3.1-8b", "mode", "training", NULL },
    { "qwen3-30b-a3b", "mode", "training", "finetune", "lora", NULL },
    { "llama-3.1-8b", "mode", "training", "sharding", "zero-3", "grad-accum", "2", NULL },
  };
  static const guint counts[] = { 1, 2, 4 };
  guint n_gpus, n_compared = 0;
  const VcGpu *gpus = vc_gpus_get_all (&n_gpus);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(VcEstimate) e = vc_estimate_new ();
      g_autoptr(VcSolverMemo) forward = vc_solver_memo_new ();
      g_autoptr(VcSolverMemo) backward = vc_solver_memo_new ();
      g_autoptr(GError) error = NULL;
      const VcInputs *in;

      g_assert_true (vc_estimate_set_preset (e, cases[c][0], &error));
      g_assert_true (vc_estimate_set_from_string (e, "method", "architecture", &error));
      for (guint i = 1; cases[c][i] != NULL; i += 2)
        {
          g_assert_true (vc_estimate_set_from_string (e, cases[c][i], cases[c][i + 1], &error));
          g_assert_no_error (error);
        }
      in = vc_estimate_get_inputs (e);
      g_test_message ("%s, %s %s", cases[c][0], cases[c][1], cases[c][2]);
      /* seven cards across the catalog, in both orders, each memo shared by all of them */
      for (guint pass = 0; pass < 2; pass++)
        for (guint k = 0; k < 7; k++)
          {
            guint g = (pass == 0 ? k : 6 - k) * (n_gpus - 1) / 6;

            for (guint n = 0; n < G_N_ELEMENTS (counts); n++)
              for (guint v = 0; v < G_N_ELEMENTS (all_variables); v++)
                {
                  VcSolution plain, memo;

                  if (!vc_solver_applies (in->mode, all_variables[v]))
                    continue;
                  vc_solver_solve (in, all_variables[v], gpus[g].capacity_bytes, counts[n], &plain);
                  vc_solver_solve_memo (pass == 0 ? forward : backward, NULL, in, all_variables[v],
                                        gpus[g].capacity_bytes, counts[n], &memo);
                  assert_solutions_equal (&memo, &plain);
                  /* again, every estimate from the memo */
                  vc_solver_solve_memo (pass == 0 ? forward : backward, NULL, in, all_variables[v],
                                        gpus[g].capacity_bytes, counts[n], &memo);
                  assert_solutions_equal (&memo, &plain);
                  for (guint d = 0; d < (plain.found && plain.limit == VC_SOLVE_LIMIT_MEMORY ? 2u : 1u); d++)
                    {
                      double b_plain, b_memo;
                      guint at = MAX (1u, plain.value + d);

                      g_assert_cmpint (vc_solver_fits_at (in, all_variables[v], at, gpus[g].capacity_bytes, counts[n], &b_plain),
                                       ==,
                                       vc_solver_fits_at_memo (pass == 0 ? forward : backward, NULL, in, all_variables[v], at,
                                                               gpus[g].capacity_bytes, counts[n], &b_memo));
                      g_assert_cmpfloat (b_memo, ==, b_plain);
                    }
                  n_compared++;
                }
          }
    }
  g_assert_cmpuint (n_compared, ==, 2 * 7 * 3 * (5 * 3 + 3 * 2));
}

/* The presets whose config.json is not in tests/hf-config/models (test-hf-config checks those
 * against import): the published max_position_embeddings (n_positions for StarCoder), rope
 * scaling applied as vLLM does. */
static void
test_preset_contexts (void)
{
  static const struct { const char *id; guint context; } cases[] = {
    /* meta-llama/Llama-3.2-1B and -3B config.json: 131072, rope_type llama3 (factor 32 over
     * 8192, written scaled) */
    { "llama-3.2-1b", 131072 },
    { "llama-3.2-3b", 131072 },
    /* meta-llama/Llama-2-{7b,13b,70b}-hf config.json: 4096 */
    { "llama-2-7b", 4096 },
    { "llama-2-13b", 4096 },
    { "llama-2-70b", 4096 },
    /* mistralai/Mistral-7B-Instruct-v0.2 config.json: 32768 (Mistral: "32k context window") */
    { "mistral-7b-v0.2", 32768 },
    /* meta-llama/Meta-Llama-3-{8B,70B} config.json: 8192 */
    { "llama-3-8b", 8192 },
    { "llama-3-70b", 8192 },
    /* meta-llama/Llama-3.1-{70B,405B} config.json: 131072, rope_type llama3 */
    { "llama-3.1-70b", 131072 },
    { "llama-3.1-405b", 131072 },
    /* bigcode/starcoder config.json: n_positions 8192 (model card: "a context window of 8192
     * tokens") */
    { "starcoder-15b", 8192 },
    /* 01-ai/Yi-34B config.json: 4096 (the 200K model is another checkpoint) */
    { "yi-34b", 4096 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      VcInputs in;

      preset_inputs (cases[i].id, VC_MODE_INFERENCE, &in);
      g_assert_cmpuint (in.arch.max_context, ==, cases[i].context);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/solver/preset-contexts", test_preset_contexts);
  g_test_add_func ("/solver/every-preset-every-gpu", test_every_preset_every_gpu);
  g_test_add_func ("/solver/gpu-counts", test_gpu_counts);
  g_test_add_func ("/solver/exact-seq", test_exact_seq);
  g_test_add_func ("/solver/exact-concurrency", test_exact_concurrency);
  g_test_add_func ("/solver/custom-gpus", test_custom_gpus);
  g_test_add_func ("/solver/moe", test_moe);
  g_test_add_func ("/solver/mla", test_mla);
  g_test_add_func ("/solver/sliding-window", test_sliding_window);
  g_test_add_func ("/solver/nothing-fits", test_nothing_fits);
  g_test_add_func ("/solver/training-and-rule-of-thumb", test_training_and_rule_of_thumb);
  g_test_add_func ("/solver/memo-equals-plain", test_memo_equals_plain);

  return g_test_run ();
}
