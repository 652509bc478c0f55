/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Context parallelism (--cp), sequence packing (--packing), torchtitan's selective per-op
 * checkpointing and the longest sequence that trains, each against the term it changes, on
 * Llama 2 7B (the default architecture: h 4096, I 11008, 32 layers of 32 heads, vocabulary
 * 32000), full fine-tuning, b = 1, s = 8192, bf16. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "vc-error.h"
#include "vc-estimator.h"
#include "vc-layout.h"
#include "vc-solver.h"
#include "vc-training-rules.h"

#define T 8192.0
#define V 32000.0
#define P 6738415616.0

static void
inputs (VcInputs  *in,
        VcTrainer  trainer)
{
  vc_inputs_init_default (in);
  in->mode = VC_MODE_TRAINING;
  in->method = VC_METHOD_ARCHITECTURE;
  in->finetune = VC_FINETUNE_FULL;
  in->batch = 1;
  in->seq = 8192;
  in->trainer = trainer;
}

static const VcScenarioResult *
compute (const VcInputs *in,
         VcResult       *r)
{
  g_assert_true (vc_layout_check (in, NULL));
  vc_estimator_compute (in, r);
  return &r->scenarios[r->selected];
}

static void
assert_refused (const VcInputs *in,
                const char     *needle)
{
  GError *error = NULL;

  g_assert_false (vc_layout_check (in, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  if (strstr (error->message, needle) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, needle);
  g_clear_error (&error);
}

/* torchtitan's selective per-op checkpointing keeps, a token and a layer, the layer's input
 * (2h), q (2h), v (2h, 32 KV heads), the gate (2I), the down projection (2h), the attention's
 * output (2h) and its fp32 log-sum-exp (4 × 32): 5 × 8192 + 22,016 + 128 = 63,104 bytes, where
 * full checkpointing keeps the input alone, 8,192: 32 × 54,912 bytes a token more. */
static void
test_selective_term (void)
{
  VcInputs in;
  VcResult full, sel, none;
  double kept[16];

  inputs (&in, VC_TRAINER_TORCHTITAN);
  g_assert_cmpuint (vc_training_selective_tensors (&in, 4096, 4096, 4096, 11008, 2.0, kept), ==, 7);
  g_assert_cmpfloat (kept[0] + kept[1] + kept[2] + kept[3] + kept[4] + kept[5] + kept[6], ==, 63104.0);
  in.checkpointing = VC_CHECKPOINTING_FULL;
  compute (&in, &full);
  in.checkpointing = VC_CHECKPOINTING_SELECTIVE;
  compute (&in, &sel);
  in.checkpointing = VC_CHECKPOINTING_NONE;
  compute (&in, &none);
  g_assert_cmpfloat (sel.scenarios[sel.selected].forward_activations -
                     full.scenarios[full.selected].forward_activations, ==, 32.0 * 54912.0 * T);
  /* between the two, the one recomputed layer's transient the same */
  g_assert_cmpfloat (sel.scenarios[sel.selected].forward_activations, <,
                     none.scenarios[none.selected].forward_activations);
  g_assert_cmpfloat (sel.scenarios[sel.selected].backward_activations, ==,
                     full.scenarios[full.selected].backward_activations);
  /* without a gate the MLP's products are up and down: kept q, v and up */
  in.arch.gated_mlp = FALSE;
  g_assert_cmpuint (vc_training_selective_tensors (&in, 4096, 4096, 1024, 11008, 2.0, kept), ==, 6);
  g_assert_cmpfloat (kept[1], ==, 8192.0);
  g_assert_cmpfloat (kept[2], ==, 2048.0);
  g_assert_cmpfloat (kept[3], ==, 22016.0);
  /* the reserve replays it: never below the allocated total */
  in.arch.gated_mlp = TRUE;
  in.checkpointing = VC_CHECKPOINTING_SELECTIVE;
  vc_estimator_compute (&in, &sel);
  vc_estimator_add_reserve (&in, &sel);
  g_assert_cmpfloat (sel.scenarios[sel.selected].reserved, >=, sel.scenarios[sel.selected].total);
}

/* torchtitan's selective per layer, every N-th layer checkpointed: N = 1 is full
 * checkpointing, N beyond the 32 layers none; N = 2 keeps 16 layers whole (L1 bytes a token
 * each) and 16 inputs (8,192), with one layer recomputed: (none + full)/2 + L1/2, where
 * none - full = 31·L1 - 32 × 8192 a token. */
static void
test_selective_layers (void)
{
  VcInputs in;
  VcResult none, full, every;
  double f_none, f_full, l1;

  inputs (&in, VC_TRAINER_TORCHTITAN);
  compute (&in, &none);
  in.checkpointing = VC_CHECKPOINTING_FULL;
  compute (&in, &full);
  f_none = none.scenarios[none.selected].forward_activations;
  f_full = full.scenarios[full.selected].forward_activations;
  l1 = (f_none - f_full + 32.0 * 8192.0 * T) / 31.0;
  in.checkpointing = VC_CHECKPOINTING_SELECTIVE_LAYERS;
  in.checkpoint_every = 1;
  compute (&in, &every);
  g_assert_cmpfloat (every.scenarios[every.selected].forward_activations, ==, f_full);
  in.checkpoint_every = 64;
  compute (&in, &every);
  g_assert_cmpfloat (every.scenarios[every.selected].forward_activations, ==, f_none);
  in.checkpoint_every = 2;
  compute (&in, &every);
  g_assert_cmpfloat_with_epsilon (every.scenarios[every.selected].forward_activations,
                                  (f_none + f_full) / 2 + l1 / 2, 1.0);
  /* the layers counted from 1, as torchtitan's counter: with N = 3 layers 3, 6 … 30 */
  g_assert_cmpuint (vc_training_checkpointed_among (&in, 32), ==, 16);
  in.checkpoint_every = 3;
  g_assert_cmpuint (vc_training_checkpointed_among (&in, 32), ==, 10);
  g_assert_false (vc_training_layer_checkpointed (&in, 0));
  g_assert_false (vc_training_layer_checkpointed (&in, 1));
  g_assert_true (vc_training_layer_checkpointed (&in, 2));
  /* the reserve replays the same layers */
  vc_estimator_compute (&in, &every);
  vc_estimator_add_reserve (&in, &every);
  g_assert_cmpfloat (every.scenarios[every.selected].reserved, >=, every.scenarios[every.selected].total);
  /* LoRA too (whole layers checkpointed); refused for the trainers without it */
  in.finetune = VC_FINETUNE_LORA;
  g_assert_true (vc_layout_check (&in, NULL));
  in.trainer = VC_TRAINER_AXOLOTL;
  assert_refused (&in, "the axolotl trainer");
  in.trainer = VC_TRAINER_GENERIC;
  in.method = VC_METHOD_RULE_OF_THUMB;
  assert_refused (&in, "architecture method");
}

static void
test_selective_refusals (void)
{
  VcInputs in;

  inputs (&in, VC_TRAINER_HF);
  in.checkpointing = VC_CHECKPOINTING_SELECTIVE;
  assert_refused (&in, "the hf trainer");
  inputs (&in, VC_TRAINER_GENERIC);
  in.checkpointing = VC_CHECKPOINTING_SELECTIVE;
  g_assert_true (vc_layout_check (&in, NULL));
  in.finetune = VC_FINETUNE_LORA;
  assert_refused (&in, "full fine-tuning");
  in.finetune = VC_FINETUNE_FULL;
  in.method = VC_METHOD_RULE_OF_THUMB;
  assert_refused (&in, "architecture method");
  in.method = VC_METHOD_ARCHITECTURE;
  in.flash_attention = FALSE;
  assert_refused (&in, "flash");
  in.flash_attention = TRUE;
  in.arch.n_experts = 8;
  in.arch.experts_per_token = 2;
  assert_refused (&in, "experts");
}

/* Context parallelism 2: each GPU computes b·s/2 = 4096 tokens: the saved activations and the
 * logits (full loss: 14 bytes a value) halve exactly, since ring attention's buffers in one
 * layer (generic trainer: the model's 32 KV heads; 4096 tokens × (4 × 12,288 + 2 × 2 × 8192 +
 * 2 × 8192 × 2 + 2 × 12,288 + 16 × 4096) = 838,860,800 bytes) are below the logits at the start
 * of the backward pass; they join one layer's transient at its end. */
static void
test_cp_halves (void)
{
  VcInputs in;
  VcResult one, two, four;
  double ring = 4096.0 * (4.0 * 12288.0 + 2.0 * 2.0 * 8192.0 + 2.0 * 8192.0 * 2.0 + 2.0 * 12288.0 + 16.0 * 4096.0);

  inputs (&in, VC_TRAINER_GENERIC);
  compute (&in, &one);
  in.layout.cp = 2;
  g_assert_cmpuint (vc_training_cp (&in), ==, 2);
  g_assert_cmpfloat (vc_training_rank_tokens (&in), ==, 4096.0);
  compute (&in, &two);
  g_assert_cmpfloat (ring, ==, 838860800.0);
  g_assert_cmpfloat (vc_estimator_ring_bytes (&in), ==, ring);
  g_assert_cmpfloat (two.scenarios[two.selected].forward_activations, ==,
                     one.scenarios[one.selected].forward_activations / 2);
  g_assert_cmpfloat (two.scenarios[two.selected].backward_activations, ==,
                     one.scenarios[one.selected].backward_activations / 2 + ring);
  /* weights, gradients and optimizer state are not split by CP itself */
  g_assert_cmpfloat (two.scenarios[two.selected].bytes[VC_COMPONENT_WEIGHTS], ==,
                     one.scenarios[one.selected].bytes[VC_COMPONENT_WEIGHTS]);
  g_assert_cmpfloat (two.scenarios[two.selected].bytes[VC_COMPONENT_OPTIMIZER] -
                     two.scenarios[two.selected].step_temporary, ==, 8.0 * P);
  /* with half the activations the optimizer step is the peak: every fp32 gradient and the
   * foreach step's temporary, one fp32 state, 4 bytes a parameter, in the optimizer component */
  g_assert_cmpint (one.scenarios[one.selected].peak_phase, ==, VC_PHASE_FORWARD);
  g_assert_cmpint (two.scenarios[two.selected].peak_phase, ==, VC_PHASE_STEP);
  g_assert_cmpfloat (two.scenarios[two.selected].step_temporary, ==, 4.0 * P);
  g_assert_cmpfloat (two.scenarios[two.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==, 0);
  /* torchtitan repeats the KV heads to the query heads: the same on Llama 2 7B (32 and 32) */
  in.trainer = VC_TRAINER_TORCHTITAN;
  g_assert_cmpfloat (vc_estimator_ring_bytes (&in), ==, ring);
  /* with grouped-query attention (8 KV heads of 128) the generic trainer exchanges a quarter of
   * the keys and values, torchtitan all of them */
  in.arch.n_kv_heads = 8;
  in.trainer = VC_TRAINER_GENERIC;
  g_assert_cmpfloat (vc_estimator_ring_bytes (&in), ==,
                     4096.0 * (4.0 * 6144.0 + 2.0 * 2.0 * 2048.0 + 2.0 * 2048.0 * 2.0 + 2.0 * 6144.0 + 16.0 * 1024.0));
  in.arch.n_kv_heads = 32;
  /* CP 4: a quarter of the tokens again */
  in.layout.cp = 4;
  compute (&in, &four);
  g_assert_cmpfloat (four.scenarios[four.selected].forward_activations, ==,
                     one.scenarios[one.selected].forward_activations / 4);
  /* inference knows no CP */
  in.mode = VC_MODE_INFERENCE;
  g_assert_cmpuint (vc_training_cp (&in), ==, 1);
}

/* The layout: DP × CP GPUs; the data-parallel group shards over both (torchtitan's dp_shard_cp
 * mesh): FSDP over DP 2 × CP 2 keeps a quarter of the optimizer state, as DP 4 does. */
static void
test_cp_layout (void)
{
  VcInputs in;
  VcResult r;
  VcLayoutResult cp, dp;
  g_autofree char *how = NULL;

  inputs (&in, VC_TRAINER_TORCHTITAN);
  in.layout.sharding = VC_SHARDING_FSDP_FULL;
  in.layout.dp = 2;
  in.layout.cp = 2;
  compute (&in, &r);
  g_assert_true (vc_layout_compute (&in, &r, r.selected, &cp, NULL));
  g_assert_cmpuint (cp.n_gpus, ==, 4);
  g_assert_cmpuint (vc_layout_n_gpus (&in.layout), ==, 4);
  g_assert_false (vc_layout_is_default (&in.layout));
  how = vc_layout_describe (&in.layout, VC_MODE_TRAINING, VC_METHOD_ARCHITECTURE, FALSE);
  g_assert_cmpstr (how, ==, "FSDP FULL_SHARD · CP 2");
  g_assert_cmpfloat (cp.bytes[VC_COMPONENT_OPTIMIZER], ==, 8.0 * P / 4);
  g_assert_cmpfloat (cp.all_bytes[VC_COMPONENT_OPTIMIZER], ==, 8.0 * P);
  in.layout.dp = 4;
  in.layout.cp = 1;
  compute (&in, &r);
  g_assert_true (vc_layout_compute (&in, &r, r.selected, &dp, NULL));
  g_assert_cmpfloat (dp.bytes[VC_COMPONENT_OPTIMIZER], ==, cp.bytes[VC_COMPONENT_OPTIMIZER]);
  g_assert_cmpfloat (dp.bytes[VC_COMPONENT_WEIGHTS], ==, cp.bytes[VC_COMPONENT_WEIGHTS]);
  /* and holds less activation per GPU with CP */
  g_assert_cmpfloat (cp.bytes[VC_COMPONENT_ACTIVATIONS], <, dp.bytes[VC_COMPONENT_ACTIVATIONS]);
}

static void
test_cp_refusals (void)
{
  static const VcTrainer none[] = {
    VC_TRAINER_HF, VC_TRAINER_TRL, VC_TRAINER_AXOLOTL, VC_TRAINER_TORCHTUNE, VC_TRAINER_LLAMAFACTORY,
    VC_TRAINER_UNSLOTH,
  };
  static const char *names[] = { "hf", "trl", "axolotl", "torchtune", "llamafactory", "unsloth" };
  VcInputs in;

  for (guint i = 0; i < G_N_ELEMENTS (none); i++)
    {
      g_autofree char *needle = g_strdup_printf ("the %s trainer", names[i]);

      inputs (&in, none[i]);
      in.layout.cp = 2;
      assert_refused (&in, needle);
    }
  inputs (&in, VC_TRAINER_TORCHTITAN);
  in.layout.cp = 2;
  g_assert_true (vc_layout_check (&in, NULL));
  /* the sequence in 2 × CP chunks */
  in.seq = 8190;
  assert_refused (&in, "multiple of 2 × CP = 4");
  in.seq = 8192;
  in.layout.cp = 3;
  assert_refused (&in, "multiple of 2 × CP = 6");
  in.layout.cp = 2;
  in.method = VC_METHOD_RULE_OF_THUMB;
  assert_refused (&in, "architecture method");
  in.method = VC_METHOD_ARCHITECTURE;
  in.flash_attention = FALSE;
  assert_refused (&in, "flash");
  in.flash_attention = TRUE;
  in.arch.sliding_window = 4096;
  in.arch.sliding_window_layers = 16;
  assert_refused (&in, "sliding-window");
  in.arch.sliding_window = 0;
  in.arch.sliding_window_layers = 0;
  in.optimizer = VC_OPTIMIZER_PAGED_ADAMW_8BIT;
  assert_refused (&in, "--cp 1");
  in.optimizer = VC_OPTIMIZER_ADAMW;
  in.layout.dp = 1000;
  in.layout.cp = 1002;
  assert_refused (&in, "DP × CP is 1002000 GPUs");
  /* the property names CP a training input */
  g_assert_false (vc_layout_input_applies ("cp", VC_MODE_INFERENCE, NULL));
  g_assert_true (vc_layout_input_applies ("cp", VC_MODE_TRAINING, NULL));
}

/* torchtune's packed batch: int64 positions and document ids (16 bytes a token, 131,072), and
 * the flex-attention BlockMask of n = 8192 / 128 = 64 blocks a side: four b × n int32 counts
 * (1,024 bytes) and four b × n × n int32 indices (65,536): 197,632 bytes. torchtitan always
 * packs and the generic estimate counts full sequences: nothing changes. */
static void
test_packing (void)
{
  VcInputs in;
  VcResult plain, packed;

  inputs (&in, VC_TRAINER_TORCHTUNE);
  compute (&in, &plain);
  in.packing = TRUE;
  g_assert_cmpfloat (vc_training_packing_bytes (&in), ==, 197632.0);
  compute (&in, &packed);
  g_assert_cmpfloat (packed.scenarios[packed.selected].total - plain.scenarios[plain.selected].total, ==, 197632.0);
  /* b = 2, s = 1000: 8 blocks of 128 (the last partial) */
  in.batch = 2;
  in.seq = 1000;
  g_assert_cmpfloat (vc_training_packing_bytes (&in), ==, 2.0 * 1000 * 16 + 4.0 * 2 * 8 * 4 + 4.0 * 2 * 64 * 4);
  for (VcTrainer t = VC_TRAINER_GENERIC; t <= VC_TRAINER_TORCHTITAN; t += VC_TRAINER_TORCHTITAN - VC_TRAINER_GENERIC)
    {
      inputs (&in, t);
      compute (&in, &plain);
      in.packing = TRUE;
      g_assert_cmpfloat (vc_training_packing_bytes (&in), ==, 0);
      compute (&in, &packed);
      g_assert_cmpfloat (packed.scenarios[packed.selected].total, ==, plain.scenarios[plain.selected].total);
    }
  /* the trainers whose packed batches are not modelled are refused, by name */
  inputs (&in, VC_TRAINER_TRL);
  in.packing = TRUE;
  assert_refused (&in, "the trl trainer");
  inputs (&in, VC_TRAINER_TORCHTUNE);
  in.packing = TRUE;
  in.method = VC_METHOD_RULE_OF_THUMB;
  assert_refused (&in, "architecture method");
}

/* FSDP2's mixed precision (torchtitan): the fp32 sharded parameters are the master copy: a GPU
 * of 8 holds 4·P/8 of weights and no master beside them. */
static void
test_fsdp2_mixed_precision (void)
{
  VcInputs in;
  VcResult r;
  VcLayoutResult out;

  inputs (&in, VC_TRAINER_TORCHTITAN);
  in.mixed_precision = TRUE;
  in.layout.sharding = VC_SHARDING_FSDP_FULL;
  in.layout.dp = 8;
  compute (&in, &r);
  g_assert_true (vc_layout_compute (&in, &r, r.selected, &out, NULL));
  g_assert_cmpfloat (out.bytes[VC_COMPONENT_WEIGHTS], ==, 4.0 * P / 8);
  g_assert_cmpfloat (out.bytes[VC_COMPONENT_MASTER_WEIGHTS], ==, 0);
  /* the generic trainer's FSDP keeps its 16-bit shard and the fp32 master */
  in.trainer = VC_TRAINER_GENERIC;
  compute (&in, &r);
  g_assert_true (vc_layout_compute (&in, &r, r.selected, &out, NULL));
  g_assert_cmpfloat (out.bytes[VC_COMPONENT_WEIGHTS], ==, 2.0 * P / 8);
  g_assert_cmpfloat (out.bytes[VC_COMPONENT_MASTER_WEIGHTS], ==, 4.0 * P / 8);
}

/* torchtitan deletes the model's 16-bit logits before the backward pass: its full loss keeps 12
 * bytes a logit (fp32 log-softmax, its gradient and the input's) instead of 2 + 12, b·s·V·2 =
 * 524,288,000 bytes less; a chunked or compiled loss is as for any trainer. */
static void
test_titan_logits (void)
{
  VcInputs in;
  VcResult generic, titan;

  inputs (&in, VC_TRAINER_GENERIC);
  compute (&in, &generic);
  inputs (&in, VC_TRAINER_TORCHTITAN);
  g_assert_true (vc_trainer_frees_logits (&in));
  compute (&in, &titan);
  g_assert_cmpfloat (generic.scenarios[generic.selected].forward_activations -
                     titan.scenarios[titan.selected].forward_activations, ==, 2.0 * T * V);
  g_assert_cmpfloat (2.0 * T * V, ==, 524288000.0);
  in.loss = VC_LOSS_CHUNKED;
  g_assert_false (vc_trainer_frees_logits (&in));
  in.loss = VC_LOSS_FULL;
  in.trainer = VC_TRAINER_HF;
  g_assert_false (vc_trainer_frees_logits (&in));
}

/* The longest sequence that trains on a 141 GB card (an H200) follows the trainer's rules: it fits at the
 * answer and not one step further; CP 2 answers a multiple of 4, on two cards, longer than
 * CP 1; selective checkpointing lies between none and full; torchtune's default chunked loss
 * trains longer than the full logits. */
static guint
longest (const VcInputs *in,
         VcSolution     *sol)
{
  vc_solver_solve (in, VC_SOLVE_VARIABLE_SEQ, 141e9, 1, sol);
  g_assert_true (sol->found);
  g_assert_cmpint (sol->limit, ==, VC_SOLVE_LIMIT_MEMORY);
  return sol->value;
}

static void
test_longest_sequence (void)
{
  VcInputs in;
  VcSolution sol;
  double bytes;
  guint plain, cp2, none, sel, full, tune_full, tune_auto;

  inputs (&in, VC_TRAINER_TORCHTITAN);
  in.arch.max_context = 0;
  in.layout.sharding = VC_SHARDING_FSDP_FULL;
  in.checkpointing = VC_CHECKPOINTING_FULL;
  plain = longest (&in, &sol);
  in.layout.cp = 2;
  cp2 = longest (&in, &sol);
  g_assert_cmpuint (sol.gpu_count, ==, 2);
  g_assert_cmpuint (cp2 % 4, ==, 0);
  g_assert_cmpuint (cp2, >, plain);
  g_assert_true (vc_solver_fits_at (&in, VC_SOLVE_VARIABLE_SEQ, cp2, 141e9, 2, &bytes));
  g_assert_false (vc_solver_fits_at (&in, VC_SOLVE_VARIABLE_SEQ, cp2 + 4, 141e9, 2, &bytes));
  in.seq = cp2;
  g_assert_true (vc_layout_check (&in, NULL));

  inputs (&in, VC_TRAINER_TORCHTITAN);
  in.arch.max_context = 0;
  none = longest (&in, &sol);
  in.checkpointing = VC_CHECKPOINTING_SELECTIVE;
  sel = longest (&in, &sol);
  g_assert_true (vc_solver_fits_at (&in, VC_SOLVE_VARIABLE_SEQ, sel, 141e9, 1, &bytes));
  g_assert_false (vc_solver_fits_at (&in, VC_SOLVE_VARIABLE_SEQ, sel + 1, 141e9, 1, &bytes));
  in.checkpointing = VC_CHECKPOINTING_FULL;
  full = longest (&in, &sol);
  g_assert_cmpuint (none, <, sel);
  g_assert_cmpuint (sel, <, full);

  inputs (&in, VC_TRAINER_TORCHTUNE);
  in.arch.max_context = 0;
  in.checkpointing = VC_CHECKPOINTING_FULL;
  in.loss = VC_LOSS_FULL;
  tune_full = longest (&in, &sol);
  in.loss = VC_LOSS_AUTO;
  tune_auto = longest (&in, &sol);
  g_assert_cmpuint (tune_full, <, tune_auto);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/training-rules/selective-term", test_selective_term);
  g_test_add_func ("/training-rules/selective-refusals", test_selective_refusals);
  g_test_add_func ("/training-rules/selective-layers", test_selective_layers);
  g_test_add_func ("/training-rules/cp-halves", test_cp_halves);
  g_test_add_func ("/training-rules/cp-layout", test_cp_layout);
  g_test_add_func ("/training-rules/cp-refusals", test_cp_refusals);
  g_test_add_func ("/training-rules/packing", test_packing);
  g_test_add_func ("/training-rules/fsdp2-mixed-precision", test_fsdp2_mixed_precision);
  g_test_add_func ("/training-rules/titan-logits", test_titan_logits);
  g_test_add_func ("/training-rules/longest-sequence", test_longest_sequence);
  return g_test_run ();
}
