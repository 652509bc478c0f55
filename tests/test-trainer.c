/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Trainer profiles (--trainer): each rule against the term it changes, on Llama 2 7B (the
 * default architecture: h 4096, I 11008, 32 layers, vocabulary 32000), full fine-tuning,
 * b = 1, s = 8192, bf16. */
#include "config.h"

#include <glib.h>

#include "vc-estimator.h"

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
  g_assert_cmpfloat (titan.scenarios[titan.selected].total, ==, compiled.scenarios[compiled.selected].total);
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
  return g_test_run ();
}
