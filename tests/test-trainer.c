/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Trainer profiles (--trainer): each rule against the term it changes, on Llama 2 7B (the
 * default architecture: h 4096, I 11008, 32 layers, vocabulary 32000), full fine-tuning,
 * b = 1, s = 8192, bf16. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "vc-error.h"
#include "vc-estimator.h"
#include "vc-layout.h"

#define T 8192.0
#define V 32000.0

static void
inputs (VcInputs  *in,
        VcTrainer  trainer,
        gboolean   compile)
{
  vc_inputs_init_default (in);
  in->mode = VC_MODE_TRAINING;
  in->method = VC_METHOD_ARCHITECTURE;
  in->finetune = VC_FINETUNE_FULL;
  in->batch = 1;
  in->seq = 8192;
  in->compile = compile;
  in->trainer = trainer;
  /* these tests hold the start of the backward pass: a fused step keeps the foreach step's
   * temporary (8 GB in fp32 for 7B parameters, with the gradients above the activations) out */
  in->optimizer_impl = VC_OPTIMIZER_IMPL_FUSED;
}

static const VcScenarioResult *
compute (const VcInputs *in,
         VcResult       *r)
{
  vc_estimator_compute (in, r);
  g_assert_cmpint (r->scenarios[r->selected].peak_phase, ==, VC_PHASE_FORWARD);
  return &r->scenarios[r->selected];
}

/* Per-block compile (generic, torchtitan) fuses the norms and the MLP's activation of every
 * block, and leaves the loss alone: each layer keeps 2h less for each of its two norms and
 * 2I less for the activation, 4·4096 + 2·11008 = 38,400 bytes a token. */
static void
test_per_block_compile (void)
{
  VcInputs in;
  VcResult plain, compiled, titan;

  inputs (&in, VC_TRAINER_GENERIC, FALSE);
  compute (&in, &plain);
  inputs (&in, VC_TRAINER_GENERIC, TRUE);
  compute (&in, &compiled);
  inputs (&in, VC_TRAINER_TORCHTITAN, TRUE);
  compute (&in, &titan);
  g_assert_cmpfloat (plain.scenarios[plain.selected].bytes[VC_COMPONENT_ACTIVATIONS] -
                     compiled.scenarios[compiled.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     38400.0 * 32 * T);
  /* torchtitan's loss the same but for the 16-bit logits, freed before the backward pass: 12
   * bytes a logit instead of 14 (/training-rules/titan-logits) */
  g_assert_cmpfloat (compiled.scenarios[compiled.selected].total - titan.scenarios[titan.selected].total, ==,
                     2.0 * T * V);
  g_assert_false (vc_trainer_compiles_loss (&in));
}

/* The loss compiled too (the Hugging Face Trainer family compiles the whole model, whose
 * forward computes the loss; torchtune compiles its loss on its own): the logits keep 8 bytes a
 * value (fp32 logits and gradient) instead of 2 + 12, 6·b·s·V bytes less. */
static void
test_compiled_loss (void)
{
  static const VcTrainer whole[] = {
    VC_TRAINER_HF, VC_TRAINER_TRL, VC_TRAINER_AXOLOTL, VC_TRAINER_LLAMAFACTORY, VC_TRAINER_TORCHTUNE,
  };
  VcInputs in;
  VcResult generic, r;
  double act;

  inputs (&in, VC_TRAINER_GENERIC, TRUE);
  compute (&in, &generic);
  act = generic.scenarios[generic.selected].bytes[VC_COMPONENT_ACTIVATIONS];
  for (guint i = 0; i < G_N_ELEMENTS (whole); i++)
    {
      inputs (&in, whole[i], TRUE);
      in.loss = VC_LOSS_FULL;   /* torchtune's own default is chunked: /trainer/default-loss */
      g_assert_true (vc_trainer_compiles_loss (&in));
      compute (&in, &r);
      g_assert_cmpfloat (act - r.scenarios[r.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==, 6.0 * T * V);
      /* without --compile nothing is compiled, whatever the trainer */
      inputs (&in, whole[i], FALSE);
      g_assert_false (vc_trainer_compiles_loss (&in));
    }
}

/* torchtune's pure bf16: AdamW's two states in bf16, 4 bytes a parameter instead of 8; with
 * mixed precision (fp32 parameters) the state stays fp32. */
static void
test_torchtune_bf16_state (void)
{
  VcInputs in;
  VcResult generic, tune, mixed;
  double opt;

  inputs (&in, VC_TRAINER_GENERIC, FALSE);
  compute (&in, &generic);
  inputs (&in, VC_TRAINER_TORCHTUNE, FALSE);
  in.loss = VC_LOSS_FULL;
  compute (&in, &tune);
  opt = generic.scenarios[generic.selected].bytes[VC_COMPONENT_OPTIMIZER];
  g_assert_cmpfloat (opt, ==, 8.0 * generic.parameters);
  g_assert_cmpfloat (tune.scenarios[tune.selected].bytes[VC_COMPONENT_OPTIMIZER], ==, opt / 2);
  g_assert_cmpfloat (generic.scenarios[generic.selected].total - tune.scenarios[tune.selected].total, ==,
                     4.0 * generic.parameters);
  in.mixed_precision = TRUE;
  g_assert_false (vc_trainer_bf16_state (&in));
  vc_estimator_compute (&in, &mixed);
  g_assert_cmpfloat (mixed.scenarios[mixed.selected].bytes[VC_COMPONENT_OPTIMIZER], ==, opt);
}

/* Unsloth's offloaded checkpointing: with --checkpointing full the saved layer inputs (2h bytes
 * a token in each of the 32 layers) go to system RAM but the one recomputed: 31·2·4096 bytes a
 * token less on the GPU. Without checkpointing nothing is offloaded. */
static void
test_unsloth_offloaded_checkpoints (void)
{
  VcInputs in;
  VcResult generic, unsloth;

  inputs (&in, VC_TRAINER_GENERIC, FALSE);
  in.finetune = VC_FINETUNE_LORA;
  in.checkpointing = VC_CHECKPOINTING_FULL;
  compute (&in, &generic);
  in.trainer = VC_TRAINER_UNSLOTH;
  g_assert_true (vc_trainer_offloads_checkpoints (&in));
  compute (&in, &unsloth);
  g_assert_cmpfloat (generic.scenarios[generic.selected].bytes[VC_COMPONENT_ACTIVATIONS] -
                     unsloth.scenarios[unsloth.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     31.0 * 2 * 4096 * T);
  in.checkpointing = VC_CHECKPOINTING_NONE;
  g_assert_false (vc_trainer_offloads_checkpoints (&in));
}

/* Liger's fused linear cross-entropy: chunks of next_power_of_2(⌈8192 / ⌈32000/4096⌉⌉) = 1024
 * tokens of bf16 logits (65,536,000 bytes), grad_input 8192 × 4096 × 2 (67,108,864), the fp32
 * loss_1d (32,768) and the head's grad_weight 32000 × 4096 × 2 (262,144,000): 394,821,632
 * bytes instead of the full loss's 8192 × 32000 × 14 = 3,670,016,000. Cut cross-entropy keeps
 * one fp32 log-sum-exp a token: 32,768 bytes. */
static void
test_fused_losses (void)
{
  VcInputs in;
  VcResult full, fused, cce;
  double act;

  g_assert_cmpfloat (vc_estimator_fused_loss_chunk (8192, 32000, 4096), ==, 1024);
  g_assert_cmpfloat (vc_estimator_fused_loss_chunk (100, 152064, 896), ==, 1);
  g_assert_cmpfloat (vc_estimator_fused_loss_chunk (512, 2048, 4096), ==, 512);
  inputs (&in, VC_TRAINER_GENERIC, FALSE);
  compute (&in, &full);
  act = full.scenarios[full.selected].bytes[VC_COMPONENT_ACTIVATIONS];
  in.loss = VC_LOSS_FUSED;
  compute (&in, &fused);
  g_assert_cmpfloat (act - fused.scenarios[fused.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     3670016000.0 - 394821632.0);
  /* compiled or not: Liger's kernels are its own */
  in.compile = TRUE;
  in.trainer = VC_TRAINER_HF;
  {
    VcResult compiled, plain_compiled;

    compute (&in, &compiled);
    in.loss = VC_LOSS_FULL;
    compute (&in, &plain_compiled);
    g_assert_cmpfloat (plain_compiled.scenarios[plain_compiled.selected].bytes[VC_COMPONENT_ACTIVATIONS] -
                       compiled.scenarios[compiled.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==,
                       8.0 * T * V - 394821632.0);
  }
  inputs (&in, VC_TRAINER_GENERIC, FALSE);
  in.loss = VC_LOSS_CCE;
  compute (&in, &cce);
  g_assert_cmpfloat (act - cce.scenarios[cce.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     3670016000.0 - 32768.0);
  /* LoRA: the head is frozen, no grad_weight */
  inputs (&in, VC_TRAINER_GENERIC, FALSE);
  in.finetune = VC_FINETUNE_LORA;
  compute (&in, &full);
  in.loss = VC_LOSS_FUSED;
  compute (&in, &fused);
  g_assert_cmpfloat (full.scenarios[full.selected].bytes[VC_COMPONENT_ACTIVATIONS] -
                     fused.scenarios[fused.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     3670016000.0 - 132677632.0);
}

/* The loss each trainer runs when --loss is left at auto: torchtune's recipe configs chunk it
 * (4 bytes a logit instead of 2 + 12: 10 × 8192 × 32000 = 2,621,440,000 bytes less). Its
 * LinearCrossEntropyLoss does not compile: with --compile it keeps its 4 bytes, against the
 * full loss's compiled 8 and the compiled CEWithChunkedOutputLoss's 2 (--loss chunked). Every
 * other trainer takes the full logits, as --loss full does. A loss given by name is kept. */
static void
test_default_loss (void)
{
  static const VcTrainer full[] = {
    VC_TRAINER_GENERIC, VC_TRAINER_HF, VC_TRAINER_TRL, VC_TRAINER_AXOLOTL,
    VC_TRAINER_LLAMAFACTORY, VC_TRAINER_TORCHTITAN, VC_TRAINER_UNSLOTH,
  };
  VcInputs in;
  VcResult named, chosen;

  for (guint compile = 0; compile < 2; compile++)
    {
      inputs (&in, VC_TRAINER_TORCHTUNE, compile);
      g_assert_cmpint (in.loss, ==, VC_LOSS_AUTO);
      g_assert_cmpint (vc_trainer_loss (&in), ==, VC_LOSS_CHUNKED);
      compute (&in, &chosen);
      in.loss = VC_LOSS_FULL;
      g_assert_cmpint (vc_trainer_loss (&in), ==, VC_LOSS_FULL);
      compute (&in, &named);
      g_assert_cmpfloat (named.scenarios[named.selected].bytes[VC_COMPONENT_ACTIVATIONS] -
                         chosen.scenarios[chosen.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==,
                         (compile ? 4.0 : 10.0) * T * V);
      g_assert_cmpfloat (named.scenarios[named.selected].total - chosen.scenarios[chosen.selected].total, ==,
                         (compile ? 4.0 : 10.0) * T * V);
      in.loss = VC_LOSS_CHUNKED;
      compute (&in, &named);
      g_assert_cmpfloat (chosen.scenarios[chosen.selected].total - named.scenarios[named.selected].total, ==,
                         (compile ? 2.0 : 0.0) * T * V);
    }
  for (guint i = 0; i < G_N_ELEMENTS (full); i++)
    {
      inputs (&in, full[i], FALSE);
      g_assert_cmpint (vc_trainer_loss (&in), ==, VC_LOSS_FULL);
      compute (&in, &chosen);
      in.loss = VC_LOSS_FULL;
      compute (&in, &named);
      g_assert_cmpfloat (named.scenarios[named.selected].total, ==, chosen.scenarios[chosen.selected].total);
      in.loss = VC_LOSS_CCE;
      g_assert_cmpint (vc_trainer_loss (&in), ==, VC_LOSS_CCE);
    }
}

/* torchtune's optimizer_in_bwd: each parameter's hook steps it and frees its gradient, so one
 * gradient is alive at a time, the largest: the embedding, 32000 × 4096 × 2 = 262,144,000
 * bytes, instead of every gradient (6,738,415,616 × 2). At s = 256 the peak, at the end of
 * the backward pass with every gradient, moves to its start. */
static void
test_optimizer_in_backward (void)
{
  VcInputs in;
  VcResult all, one;
  GError *error = NULL;

  inputs (&in, VC_TRAINER_TORCHTUNE, FALSE);
  in.seq = 256;
  vc_estimator_compute (&in, &all);
  g_assert_cmpint (all.scenarios[all.selected].peak_phase, ==, VC_PHASE_BACKWARD);
  g_assert_cmpfloat (all.scenarios[all.selected].bytes[VC_COMPONENT_GRADIENTS], ==, 2.0 * 6738415616.0);
  in.optimizer_in_backward = TRUE;
  vc_estimator_compute (&in, &one);
  g_assert_cmpfloat (one.scenarios[one.selected].gradient_bytes, ==, 262144000.0);
  /* the end of the backward pass no longer sets the peak: the gradient is not yet allocated at
   * the start of it */
  g_assert_cmpint (one.scenarios[one.selected].peak_phase, ==, VC_PHASE_FORWARD);
  g_assert_cmpfloat (one.scenarios[one.selected].bytes[VC_COMPONENT_GRADIENTS], ==, 0);
  g_assert_cmpfloat (one.scenarios[one.selected].forward_activations, ==, all.scenarios[all.selected].forward_activations);
  g_assert_cmpfloat (all.scenarios[all.selected].total - one.scenarios[one.selected].total, ==,
                     2.0 * 6738415616.0 + all.scenarios[all.selected].bytes[VC_COMPONENT_ACTIVATIONS] -
                     one.scenarios[one.selected].forward_activations);
  g_assert_cmpfloat (one.scenarios[one.selected].bytes[VC_COMPONENT_OPTIMIZER], ==,
                     all.scenarios[all.selected].bytes[VC_COMPONENT_OPTIMIZER]);
  /* the reserve replays it too, and caches no more than with every gradient held */
  vc_estimator_add_reserve (&in, &one);
  g_assert_cmpfloat (one.scenarios[one.selected].reserved, >=, one.scenarios[one.selected].total);
  /* refused where it cannot run or is not modelled */
  g_assert_true (vc_layout_check (&in, NULL));
  in.layout.grad_accum = 4;
  g_assert_false (vc_layout_check (&in, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  g_assert_nonnull (strstr (error->message, "--grad-accum 1"));
  g_clear_error (&error);
  in.layout.grad_accum = 1;
  in.layout.dp = 2;
  g_assert_false (vc_layout_check (&in, &error));
  g_assert_nonnull (strstr (error->message, "--dp 1"));
  g_clear_error (&error);
  in.layout.dp = 1;
  in.method = VC_METHOD_RULE_OF_THUMB;
  g_assert_false (vc_layout_check (&in, &error));
  g_assert_nonnull (strstr (error->message, "architecture"));
  g_clear_error (&error);
}

/* bitsandbytes' PagedAdamW8bit on Llama 2 7B, full fine-tuning: every linear tensor, the
 * embedding and the head (6,738,149,376 elements) have their two uint8 states paged,
 * 13,476,298,752 bytes outside the total; the allocator holds their fp32 absmax, 8 bytes per 256
 * (210,567,168), and the 65 norms of 4,096 elements, 8-bit too: 2 × 4096 + 8 × 16 = 8,320 bytes
 * each (540,800). */
static void
test_paged_optimizer (void)
{
  VcInputs in;
  VcResult r;
  GError *error = NULL;

  inputs (&in, VC_TRAINER_GENERIC, FALSE);
  in.optimizer = VC_OPTIMIZER_PAGED_ADAMW_8BIT;
  /* bitsandbytes steps in its own kernels: no torch.optim step to choose */
  in.optimizer_impl = VC_OPTIMIZER_IMPL_AUTO;
  compute (&in, &r);
  g_assert_cmpfloat (r.scenarios[r.selected].paged_optimizer, ==, 13476298752.0);
  g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_OPTIMIZER], ==, 210567168.0 + 540800.0);
  /* LoRA rank 16 on every linear: the A matrices (16 × 4096 = 65,536 elements, and 16 × 11008 =
   * 176,128 for down) and B (4096 × 16; 11008 × 16 for gate and up): those under 100,000
   * elements stay in the allocator with 8-bit state and absmax */
  in.finetune = VC_FINETUNE_LORA;
  compute (&in, &r);
  /* per layer: 4 attention A + 4 attention B + gate A + up A + down B = 11 tensors of 65,536
   * (2 × 65536 + 8 × 256 = 133,120 bytes each); gate B, up B, down A: 3 of 176,128 (paged
   * 352,256, absmax 8 × 688 = 5,504) */
  g_assert_cmpfloat (r.scenarios[r.selected].paged_optimizer, ==, 32.0 * 3 * 352256);
  g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_OPTIMIZER], ==, 32.0 * (11 * 133120 + 3 * 5504));
  in.layout.dp = 2;
  in.layout.sharding = VC_SHARDING_FSDP_FULL;
  g_assert_false (vc_layout_check (&in, &error));
  g_assert_nonnull (strstr (error->message, "--dp 1"));
  g_clear_error (&error);
}

/* bitsandbytes' input gradient through a frozen 8- or 4-bit linear goes through a 16-bit copy
 * of its weight: the largest, the MLP's 4096 × 11008 × 2 = 90,177,536 bytes, joins the backward
 * pass's transient (LoRA on every linear keeps the same activations otherwise). */
static void
test_dequantized_weight (void)
{
  VcInputs in;
  VcResult r;
  const VcScenarioResult *lora, *q8, *q4;

  inputs (&in, VC_TRAINER_GENERIC, FALSE);
  in.finetune = VC_FINETUNE_LORA;
  vc_estimator_compute (&in, &r);
  lora = &r.scenarios[1];
  q8 = &r.scenarios[2];
  q4 = &r.scenarios[3];
  g_assert_cmpint (lora->id, ==, VC_SCENARIO_LORA);
  g_assert_cmpint (q4->id, ==, VC_SCENARIO_QLORA_4BIT);
  g_assert_cmpfloat (q8->backward_activations - lora->backward_activations, ==, 90177536.0);
  g_assert_cmpfloat (q4->backward_activations - lora->backward_activations, ==, 90177536.0);
  g_assert_cmpfloat (q4->forward_activations, ==, lora->forward_activations);
}

/* FSDP2 as torchtitan and torchtune run it, Llama 2 7B, full fine-tuning on 8 GPUs: one block
 * holds 202,383,360 parameters (404,766,720 bytes in bf16). FSDP1 (generic) gathers one block
 * and its gradient: 809,533,440 bytes. FSDP2 keeps two blocks unsharded (the next prefetched),
 * the block's unsharded gradient and its reduce-scatter input in the reduce dtype: fp32 in
 * torchtitan (2 × 404,766,720 + 404,766,720 + 4 × 202,383,360 = 2,023,833,600), bf16 in
 * torchtune (1,619,066,880). */
static void
test_fsdp2_buffers (void)
{
  static const struct { VcTrainer trainer; double buffers; } rows[] = {
    { VC_TRAINER_GENERIC, 809533440.0 },
    { VC_TRAINER_HF, 809533440.0 },
    { VC_TRAINER_TORCHTITAN, 2023833600.0 },
    { VC_TRAINER_TORCHTUNE, 1619066880.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      VcInputs in;
      VcResult r;
      VcLayoutResult out;
      GError *error = NULL;

      inputs (&in, rows[i].trainer, FALSE);
      in.layout.dp = 8;
      in.layout.sharding = VC_SHARDING_FSDP_FULL;
      vc_estimator_compute (&in, &r);
      g_assert_true (vc_layout_compute (&in, &r, r.selected, &out, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (out.buffers, ==, rows[i].buffers);
    }
}

/* The seed's rule-of-thumb table is the generic trainer's: 87.4 GB for 7B full fine-tuning. */
static void
test_rule_of_thumb_unchanged (void)
{
  VcInputs in;
  VcResult r;

  vc_inputs_init_default (&in);
  in.mode = VC_MODE_TRAINING;
  in.finetune = VC_FINETUNE_FULL;
  vc_estimator_compute (&in, &r);
  g_assert_cmpfloat (r.scenarios[r.selected].total, ==, 87.4e9);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trainer/per-block-compile", test_per_block_compile);
  g_test_add_func ("/trainer/compiled-loss", test_compiled_loss);
  g_test_add_func ("/trainer/torchtune-bf16-state", test_torchtune_bf16_state);
  g_test_add_func ("/trainer/unsloth-offloaded-checkpoints", test_unsloth_offloaded_checkpoints);
  g_test_add_func ("/trainer/rule-of-thumb-unchanged", test_rule_of_thumb_unchanged);
  g_test_add_func ("/trainer/fused-losses", test_fused_losses);
  g_test_add_func ("/trainer/default-loss", test_default_loss);
  g_test_add_func ("/trainer/optimizer-in-backward", test_optimizer_in_backward);
  g_test_add_func ("/trainer/paged-optimizer", test_paged_optimizer);
  g_test_add_func ("/trainer/dequantized-weight", test_dequantized_weight);
  g_test_add_func ("/trainer/fsdp2-buffers", test_fsdp2_buffers);
  return g_test_run ();
}
