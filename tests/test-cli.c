/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vramcalc end to end: JSON output values, option parsing, and every rejection path
 * (exit status 2 and a message naming the option and what it accepts). */
#include "config.h"

#include <math.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "vc-catalog.h"
#include "vc-test-util.h"

static void
run_cli (VcTestRun  *r,
         const char *first,
         ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  r->status = vc_test_run_vramcalc ((const char * const *) args->pdata, NULL, &r->out, &r->err);
}

static JsonObject *
parse (JsonParser      *parser,
       const VcTestRun *r)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (r->status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r->out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static gint64
scenario_total (JsonObject *root,
                const char *id)
{
  JsonArray *a = json_object_get_array_member (root, "scenarios");

  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);
      if (g_str_equal (json_object_get_string_member (o, "id"), id))
        return json_object_get_int_member (o, "total_bytes");
    }
  g_assert_not_reached ();
}

static void
test_seed_json (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_autoptr(JsonParser) p = json_parser_new ();
  JsonObject *root;
  JsonArray *comps, *gpus;

  run_cli (&r, "--params", "7B", "--format", "json", NULL);
  root = parse (p, &r);
  g_assert_cmpstr (json_object_get_string_member (root, "method"), ==, "rule-of-thumb");
  g_assert_cmpstr (json_object_get_string_member (root, "mode"), ==, "inference");
  g_assert_cmpstr (json_object_get_string_member (root, "scenario"), ==, "inference-16bit");
  g_assert_cmpint (json_object_get_int_member (root, "parameters"), ==, 7000000000);
  g_assert_cmpint (json_object_get_int_member (root, "active_parameters"), ==, 7000000000);
  g_assert_true (json_object_get_null_member (root, "kv_bytes_per_token"));
  g_assert_cmpint (json_object_get_int_member (root, "total_bytes"), ==, 18800000000);
  g_assert_cmpint (scenario_total (root, "inference-8bit"), ==, 11800000000);
  g_assert_cmpint (scenario_total (root, "inference-4bit"), ==, 8300000000);
  comps = json_object_get_array_member (root, "components");
  g_assert_cmpuint (json_array_get_length (comps), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (comps, 1), "id"), ==, "kv_cache");
  gpus = json_object_get_array_member (root, "gpus");
  g_assert_cmpuint (json_array_get_length (gpus), >=, 17);
  for (guint i = 0; i < json_array_get_length (gpus); i++)
    {
      JsonObject *g = json_array_get_object_element (gpus, i);

      g_assert_true (json_object_has_member (g, "id"));
      g_assert_true (json_object_has_member (g, "name"));
      g_assert_cmpint (json_object_get_int_member (g, "memory_bytes"), >, 0);
      g_assert_true (json_object_has_member (g, "fits"));
      g_assert_cmpint (json_object_get_int_member (g, "count"), >=, 1);
    }
}

static void
test_seed_training_json (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_autoptr(JsonParser) p = json_parser_new ();
  JsonObject *root;

  run_cli (&r, "--mode", "training", "--params=7e9", "--finetune", "full", "--format=json", NULL);
  root = parse (p, &r);
  g_assert_cmpstr (json_object_get_string_member (root, "scenario"), ==, "full");
  g_assert_cmpint (json_object_get_int_member (root, "total_bytes"), ==, 87400000000);
  g_assert_cmpint (scenario_total (root, "lora"), ==, 18100000000);
  g_assert_cmpint (scenario_total (root, "qlora-8bit"), ==, 11100000000);
  g_assert_cmpint (scenario_total (root, "qlora-4bit"), ==, 7600000000);
}

/* a JSON components list's bytes for one id */
static gint64
component_bytes (JsonObject *o,
                 const char *id)
{
  JsonArray *comps = json_object_get_array_member (o, "components");

  for (guint i = 0; i < json_array_get_length (comps); i++)
    {
      JsonObject *c = json_array_get_object_element (comps, i);

      if (g_str_equal (json_object_get_string_member (c, "id"), id))
        return json_object_get_int_member (c, "bytes");
    }
  g_assert_not_reached ();
}

/* The optimizer step: Mistral 7B (7,241,732,096 parameters), full fine-tuning in pure bf16 with
 * bf16 AdamW state, b = 4, s = 4096, every layer checkpointed. The foreach step (TRL's default,
 * or chosen) holds weights 2 + gradients 2 + state 4 + its temporary 2 = 10 bytes a parameter,
 * 72,417,320,960, above the end of the backward pass; the fused step (Axolotl's default, or
 * chosen) leaves that end the peak, 61,224,288,256 (+ 1 GB of overhead each). */
static void
test_optimizer_step_json (void)
{
  static const struct { const char *trainer, *impl, *counted, *phase; gint64 total, optimizer; } cases[] = {
    { "trl", "auto", "foreach", "step", 72417320960 + 1000000000, 6 * 7241732096LL },
    { "trl", "fused", "fused", "backward", 62224288256, 4 * 7241732096LL },
    { "axolotl", "auto", "fused", "backward", 62224288256, 4 * 7241732096LL },
    { "axolotl", "foreach", "foreach", "step", 72417320960 + 1000000000, 6 * 7241732096LL },
    { "torchtitan", "auto", "fused", "backward", 62224288256, 4 * 7241732096LL },
    { "llamafactory", "auto", "foreach", "step", 72417320960 + 1000000000, 6 * 7241732096LL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) r = { 0 };
      g_autoptr(JsonParser) p = json_parser_new ();
      g_autofree char *trainer = g_strconcat ("--trainer=", cases[i].trainer, NULL);
      g_autofree char *impl = g_strconcat ("--optimizer-impl=", cases[i].impl, NULL);
      JsonObject *root;

      run_cli (&r, "--preset", "mistral-7b", "--mode", "training", "--finetune", "full", "--batch", "4",
               "--seq", "4096", "--checkpointing", "full", "--optimizer-precision", "bf16", trainer, impl,
               "--format=json", NULL);
      root = parse (p, &r);
      g_test_message ("%s %s", cases[i].trainer, cases[i].impl);
      g_assert_cmpstr (json_object_get_string_member (root, "optimizer_impl"), ==, cases[i].counted);
      g_assert_cmpstr (json_object_get_string_member (root, "peak_phase"), ==, cases[i].phase);
      g_assert_cmpint (json_object_get_int_member (root, "total_bytes"), ==, cases[i].total);
      g_assert_cmpint (component_bytes (root, "optimizer"), ==, cases[i].optimizer);
    }
}

/* Each rank steps its shard: ZeRO-1 over 2, b = 1, s = 512: bf16 weights and gradients whole
 * (2T each), half the state (2T) and half the temporary (T), with DeepSpeed's 1 GB bucket and
 * the overhead: 7 × 7,241,732,096 + 2 GB, at the step. Refused: a choice for bitsandbytes'
 * 8-bit optimizers, and RMSprop fused (torch.optim has none). */
static void
test_optimizer_step_layout (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_autoptr(JsonParser) p = json_parser_new ();
  JsonObject *gpu;

  run_cli (&r, "--preset", "mistral-7b", "--mode", "training", "--finetune", "full", "--batch", "1",
           "--seq", "512", "--checkpointing", "full", "--optimizer-precision", "bf16", "--trainer", "trl",
           "--dp", "2", "--zero", "1", "--format=json", NULL);
  gpu = json_object_get_object_member (parse (p, &r), "per_gpu");
  g_assert_cmpstr (json_object_get_string_member (gpu, "peak_phase"), ==, "step");
  g_assert_cmpint (component_bytes (gpu, "optimizer"), ==, 3 * 7241732096LL);
  g_assert_cmpint (component_bytes (gpu, "activations"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (gpu, "total_bytes"), ==, 7 * 7241732096LL + 2000000000);
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--preset", "mistral-7b", "--mode", "training", "--optimizer", "adamw-8bit",
           "--optimizer-impl", "foreach", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "bitsandbytes' 8-bit optimizers step in kernels of their own"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--preset", "mistral-7b", "--mode", "training", "--optimizer", "rmsprop",
           "--optimizer-impl", "fused", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "torch.optim.RMSprop has no fused step"));
  /* the trainers' commands run the step the estimate counts */
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--preset", "llama-3.1-8b", "--mode", "training", "--finetune", "lora", "--trainer", "torchtune",
           "--optimizer-impl", "foreach", "--print-command", "torchtune", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, " optimizer.fused=False "));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--preset", "llama-3.1-8b", "--mode", "training", "--finetune", "lora", "--trainer", "axolotl",
           "--print-command", "trl", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, " --optim adamw_torch_fused "));
}

/* the loss counted: the trainer's own unless --loss names one (Llama 3.2 3B, full fine-tuning,
 * b = 2, s = 4096, pure bf16: torchtune's chunked loss, 10·b·s·V bytes below the full logits) */
static void
test_trainer_loss_json (void)
{
  static const struct { const char *trainer, *loss, *counted; gint64 total; } cases[] = {
    { "torchtune", NULL, "chunked", 54767309312 },
    { "torchtune", "full", "full", 65274040832 },
    { "hf", NULL, "full", 65274040832 },
    /* torchtitan frees the 16-bit logits before the backward pass: 2·b·s·V bytes less */
    { "torchtitan", NULL, "full", 65274040832 - 2 * 8192 * G_GINT64_CONSTANT (128256) },
    { "unsloth", NULL, "full", 65274040832 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) r = { 0 };
      g_autoptr(JsonParser) p = json_parser_new ();
      g_autofree char *trainer = g_strconcat ("--trainer=", cases[i].trainer, NULL);
      g_autofree char *loss = g_strconcat ("--loss=", cases[i].loss ? cases[i].loss : "auto", NULL);
      JsonObject *root;

      run_cli (&r, "--preset", "llama-3.2-3b", "--mode", "training", "--finetune", "full", "--batch", "2",
               "--seq", "4096", "--optimizer-precision", "bf16", trainer, loss, "--format=json", NULL);
      root = parse (p, &r);
      g_assert_cmpstr (json_object_get_string_member (root, "loss"), ==, cases[i].counted);
      g_assert_cmpint (json_object_get_int_member (root, "total_bytes"), ==, cases[i].total);
    }
}

/* vLLM's MXFP4 experts (FORMULAS.md, "vLLM's MXFP4 experts"): a cache on the Marlin cards
 * (compute capability 8.x), none named on the others, from the window's same core */
static void
test_vllm_mxfp4_json (void)
{
  static const struct { const char *gpu; gboolean known; const char *cc; const char *why; } cards[] = {
    { "a100-80gb", TRUE, "8.0", NULL }, { "l40s", TRUE, "8.9", NULL }, { "h100-80gb", FALSE, "9.0", "mxfp4-backend" },
    { "b200", FALSE, "10.0", "mxfp4-backend" }, { "v100-32gb", FALSE, "7.0", "mxfp4-capability" },
    { "mi300x", FALSE, NULL, "mxfp4-backend" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cards); i++)
    {
      g_auto(VcTestRun) r = { 0 };
      g_autoptr(JsonParser) p = json_parser_new ();
      JsonObject *root, *engine;
      JsonArray *gpus;
      gboolean seen = FALSE, refused;

      run_cli (&r, "--preset", "mixtral-8x7b", "--precision", "mxfp4", "--engine", "vllm", "--fit-gpu", cards[i].gpu,
               "--format", "json", NULL);
      root = parse (p, &r);
      engine = json_object_get_object_member (root, "engine");
      g_assert_cmpint (JSON_NODE_HOLDS_NULL (json_object_get_member (engine, "kv_capacity_tokens")), ==, !cards[i].known);
      if (cards[i].known)
        g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (engine, "no_figure")));
      else
        g_assert_cmpstr (json_object_get_string_member (engine, "no_figure"), ==, cards[i].why);
      gpus = json_object_get_array_member (root, "gpus");
      for (guint j = 0; j < json_array_get_length (gpus); j++)
        {
          JsonObject *g = json_array_get_object_element (gpus, j);

          if (!g_str_equal (json_object_get_string_member (g, "id"), cards[i].gpu))
            continue;
          seen = TRUE;
          g_assert_cmpint (JSON_NODE_HOLDS_NULL (json_object_get_member (g, "kv_capacity_tokens")), ==, !cards[i].known);
          g_assert_cmpstr (json_object_get_string_member_with_default (g, "compute_capability", NULL), ==,
                           cards[i].cc);
          /* the count keeps the experts as stored where there is no figure for the backend; on
           * a card vLLM refuses there is no count at all, and nothing fits */
          refused = g_strcmp0 (cards[i].why, "mxfp4-capability") == 0;
          g_assert_cmpint (json_object_get_boolean_member (g, "experts_as_stored"), ==, !cards[i].known && !refused);
          g_assert_cmpstr (json_object_get_string_member_with_default (g, "refused", NULL), ==,
                           refused ? "mxfp4-capability" : NULL);
          g_assert_cmpint (json_object_get_boolean_member (g, "fits"), ==, !refused);
          g_assert_cmpint (JSON_NODE_HOLDS_NULL (json_object_get_member (g, "count")), ==, refused);
          g_assert_cmpint (JSON_NODE_HOLDS_NULL (json_object_get_member (g, "max_seq")), ==, refused);
          g_assert_cmpint (JSON_NODE_HOLDS_NULL (json_object_get_member (g, "max_concurrency")), ==, refused);
        }
      /* every other card says it too */
      for (guint j = 0; j < json_array_get_length (gpus); j++)
        {
          JsonObject *g = json_array_get_object_element (gpus, j);

          g_assert_true (json_object_has_member (g, "experts_as_stored"));
          g_assert_true (json_object_has_member (g, "refused"));
        }
      g_assert_true (seen);
    }

  /* a set of cards with a V100 in it: vLLM refuses MXFP4 there, and the plan says that, not
   * that the backend is unknown; on an A100 pair the plan has its figure (vLLM's sliding-window
   * groups at TP 2) */
  {
    static const struct { const char *gpus; const char *why; gboolean fits; } sets[] = {
      { "v100-32gb:2", "mxfp4-capability", FALSE }, { "v100-32gb,a100-80gb", "mxfp4-capability", FALSE },
      { "h100-80gb,a100-80gb", "mxfp4-backend", TRUE }, { "a100-80gb:2", NULL, TRUE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
      {
        g_auto(VcTestRun) r = { 0 };
        g_autoptr(JsonParser) p = json_parser_new ();
        JsonObject *plan;

        run_cli (&r, "--preset", "gpt-oss-20b", "--method", "architecture", "--precision", "mxfp4", "--engine", "vllm",
                 "--gpus", sets[i].gpus, "--solve", "concurrency", "--format", "json", NULL);
        plan = json_object_get_object_member (parse (p, &r), "plan");
        /* and the solver on the set finds no value where vLLM does not start */
        g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (plan, "solve"), "value") > 0, ==,
                         sets[i].fits);
        g_assert_cmpstr (json_object_get_string_member_with_default (plan, "no_figure", NULL), ==, sets[i].why);
        g_assert_cmpint (JSON_NODE_HOLDS_NULL (json_object_get_member (plan, "kv_capacity_tokens")), ==,
                         sets[i].why != NULL);
        /* every rank loads the model: a set holding a card vLLM refuses does not fit, whatever
         * the memory (two V100 32 GB would hold gpt-oss-20b's 13 GB) */
        g_assert_cmpint (json_object_get_boolean_member (plan, "fits"), ==, sets[i].fits);
      }
  }
}

/* The row of card @id in a report's "gpus" */
static JsonObject *
gpu_row (JsonObject *root,
         const char *id)
{
  JsonArray *gpus = json_object_get_array_member (root, "gpus");

  for (guint j = 0; j < json_array_get_length (gpus); j++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (gpus, j), "id"), id))
      return json_array_get_object_element (gpus, j);
  g_assert_not_reached ();
}

/* --mxfp4-backend marlin (vLLM's VLLM_MXFP4_USE_MARLIN=1): an H100 pads gpt-oss's experts as an
 * A100 does, so its row has a count with the padding and a cache; auto keeps the refusal naming
 * the backend; another engine, or a model without MXFP4 experts, is refused */
static void
test_vllm_mxfp4_marlin_json (void)
{
  static const struct
  {
    const char *preset;
    const char *backend;
    gint64 padding;                   /* -1: null */
    gint64 count;
    gint64 per_gpu;
    gint64 tokens;                    /* -1: null */
  } cases[] = {
    { "gpt-oss-20b", "auto", -1, 1, 23010671232, -1 },
    { "gpt-oss-20b", "marlin", 917962752, 1, 23928633984, 1095184 },
    /* one H100 holds the stored experts with the request, not Marlin's 5,507,776,512 bytes
     * more: two at TP 2, each as on an A100 (FORMULAS.md); every row holds the 32 MiB fp32 RoPE
     * table */
    { "gpt-oss-120b", "auto", -1, 1, 74600456832, -1 },
    { "gpt-oss-120b", "marlin", 5507776512, 2, 46049399424, 858800 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) r = { 0 };
      g_autoptr(JsonParser) p = json_parser_new ();
      JsonObject *root, *engine, *row;

      run_cli (&r, "--preset", cases[i].preset, "--method", "architecture", "--precision", "mxfp4", "--engine", "vllm",
               "--seq", "8192", "--fit-gpu", "h100-80gb", "--mxfp4-backend", cases[i].backend, "--format", "json", NULL);
      g_assert_cmpint (r.status, ==, 0);
      root = parse (p, &r);
      engine = json_object_get_object_member (root, "engine");
      g_assert_cmpstr (json_object_get_string_member (engine, "mxfp4_backend"), ==, cases[i].backend);
      if (cases[i].padding < 0)
        {
          g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (engine, "mxfp4_padding_bytes")));
          g_assert_cmpstr (json_object_get_string_member (engine, "no_figure"), ==, "mxfp4-backend");
        }
      else
        g_assert_cmpint (json_object_get_int_member (engine, "mxfp4_padding_bytes"), ==, cases[i].padding);
      row = gpu_row (root, "h100-80gb");
      g_assert_cmpint (json_object_get_int_member (row, "count"), ==, cases[i].count);
      g_assert_cmpint (json_object_get_int_member (row, "per_gpu_bytes"), ==, cases[i].per_gpu);
      g_assert_cmpint (json_object_get_boolean_member (row, "experts_as_stored"), ==, cases[i].padding < 0);
      if (cases[i].tokens < 0)
        g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (row, "kv_capacity_tokens")));
      else
        g_assert_cmpint (json_object_get_int_member (row, "kv_capacity_tokens"), ==, cases[i].tokens);
    }

  /* the command vLLM runs it with: the variable before vllm serve */
  {
    g_auto(VcTestRun) r = { 0 };
    g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", "gpt-oss-20b", NULL);

    run_cli (&r, "--config", config, "--engine", "vllm", "--mxfp4-backend", "marlin", "--print-command=vllm", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_str_has_prefix (r.out, "VLLM_MXFP4_USE_MARLIN=1 vllm serve "));
  }
  /* refused, never ignored */
  {
    static const struct { const char *engine; const char *precision; const char *value; const char *message; } bad[] = {
      { "sglang", "mxfp4", "marlin", "vramcalc: the MXFP4 backend marlin is vLLM’s (VLLM_MXFP4_USE_MARLIN=1); the engine is "
                                     "sglang: give the engine vllm, or the MXFP4 backend auto\n" },
      { "sglang", "mxfp4", "auto", "vramcalc: --mxfp4-backend: this option is vLLM's; the engine is sglang (give --engine vllm)\n" },
      { "vllm", "bf16", "marlin", "vramcalc: the MXFP4 backend marlin applies to routed experts stored in MXFP4 (the "
                                  "architecture method at precision mxfp4, as gpt-oss); here the architecture method is "
                                  "at precision bf16: give the MXFP4 backend auto\n" },
      { "vllm", "mxfp4", "cutlass", "vramcalc: --mxfp4-backend: “cutlass” is not valid for mxfp4-backend; accepted: auto, "
                                    "marlin, triton\n" },
      { "vllm", "bf16", "triton", "vramcalc: the MXFP4 backend triton is vLLM’s, for routed experts stored in MXFP4 (the "
                                  "architecture method at precision mxfp4 under the engine vllm, as gpt-oss); give the "
                                  "MXFP4 backend auto\n" },
      { "sglang", "mxfp4", "triton", "vramcalc: the MXFP4 backend triton is vLLM’s, for routed experts stored in MXFP4 (the "
                                     "architecture method at precision mxfp4 under the engine vllm, as gpt-oss); give the "
                                     "MXFP4 backend auto\n" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_auto(VcTestRun) r = { 0 };

        run_cli (&r, "--preset", "gpt-oss-20b", "--method", "architecture", "--engine", bad[i].engine, "--precision",
                 bad[i].precision, "--mxfp4-backend", bad[i].value, NULL);
        g_assert_cmpint (r.status, ==, 2);
        g_assert_cmpstr (r.err, ==, bad[i].message);
      }
  }
}

/* --vllm-sampler flashinfer (VLLM_USE_FLASHINFER_SAMPLER=1): the profile run's sampler holds 14
 * bytes a logit rather than the sort's 38 (FORMULAS.md, "the profile run's sampler"). Mistral
 * Small 3.1's shapes at vLLM's H100 defaults (8,192 tokens, 1,024 requests, 131,072 logits):
 * the sampler with the forward's hidden states (8,192 × 5,120 × 2 bytes), and the 133 MiB
 * outside PyTorch; the sort's is the same with 38 bytes a logit. Both keep the two images'
 * embeddings of the multimodal profile run beside them (0.11: each copied into the 8,192 rows of
 * the encoder budget, beside the 3,025 it returned and the pixels), above the Pixtral tower's
 * pass. */
static void
test_vllm_sampler_json (void)
{
  static const struct { const char *sampler; double per_logit; } cases[] = {
    { "sort", 38 }, { "flashinfer", 14 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) r = { 0 };
      g_autoptr(JsonParser) p = json_parser_new ();
      JsonObject *root, *engine;

      run_cli (&r, "--preset", "mistral-small-3.1-24b-instruct", "--engine", "vllm", "--seq", "16000", "--block-size",
               "128", "--gpu-memory-utilization", "0.95", "--vllm-sampler", cases[i].sampler, "--fit-gpu", "h100-80gb",
               "--format", "json", NULL);
      root = parse (p, &r);
      engine = json_object_get_object_member (root, "engine");
      g_assert_cmpstr (json_object_get_string_member (engine, "vllm_sampler"), ==, cases[i].sampler);
      g_assert_cmpint (component_bytes (root, "activations"), ==,
                       (gint64) (1024.0 * 131072 * cases[i].per_logit + 8192.0 * 5120 * 2 + 133.0 * 1048576
                                 + 2 * 3 * 1540 * 1540 * 2.0 + 2 * (3025 + 8192) * 5120 * 2.0));
    }
  /* other engines have none */
  {
    g_auto(VcTestRun) r = { 0 };
    g_autoptr(JsonParser) p = json_parser_new ();
    JsonObject *root;

    run_cli (&r, "--preset", "llama-3.1-8b-instruct", "--engine", "sglang", "--fit-gpu", "h100-80gb", "--format", "json",
             NULL);
    root = parse (p, &r);
    g_assert_true (json_object_get_null_member (json_object_get_object_member (root, "engine"), "vllm_sampler"));
  }
  /* the command vLLM runs it with: the variable before vllm serve */
  {
    g_auto(VcTestRun) r = { 0 };

    run_cli (&r, "--preset", "llama-3.1-8b-instruct", "--engine", "vllm", "--vllm-sampler", "flashinfer",
             "--print-command=vllm", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_str_has_prefix (r.out, "VLLM_USE_FLASHINFER_SAMPLER=1 vllm serve "));
  }
  /* refused, never ignored */
  {
    static const struct { const char *engine; const char *value; const char *message; } bad[] = {
      { "sglang", "flashinfer", "vramcalc: the sampler flashinfer is vLLM’s (VLLM_USE_FLASHINFER_SAMPLER=1); the engine is "
                                "sglang: give the engine vllm, or the vLLM sampler sort\n" },
      { "llama.cpp", "sort", "vramcalc: --vllm-sampler: this option is vLLM's; the engine is llama.cpp (give --engine vllm)\n" },
      { "vllm", "triton", "vramcalc: --vllm-sampler: “triton” is not valid for vllm-sampler; accepted: sort, flashinfer\n" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_auto(VcTestRun) r = { 0 };

        run_cli (&r, "--preset", "llama-3.1-8b-instruct", "--engine", bad[i].engine, "--vllm-sampler", bad[i].value, NULL);
        g_assert_cmpint (r.status, ==, 2);
        g_assert_cmpstr (r.err, ==, bad[i].message);
      }
  }
}

/* --mxfp4-backend triton: Triton's kernels on compute capability 9.x (FORMULAS.md, "vLLM's MXFP4
 * experts"). gpt-oss-20b (24 layers of 32 experts, I = H = 2,880): an expert at TP 1 keeps its
 * packed weights and scales (13,219,200 bytes), its biases in fp32 (34,560) and its scales
 * swizzled, rows rounded up to 256 (5,888 × 90 + 3,072 × 90 = 806,400), 823,680 bytes more than
 * stored; at TP 2 the rank's 1,440 rounds up to 1,472: 7,197,568 bytes an expert against
 * 6,618,240 stored. An A100 takes Marlin (its padding of vllm-mxfp4-marlin-json); a B200 is
 * not followed. */
static void
test_vllm_mxfp4_triton_json (void)
{
  static const struct { const char *gpu; const char *tp; gint64 padding; const char *no_figure; } cases[] = {
    { "h100-80gb", "1", 768LL * 823680, NULL },
    { "h100-80gb", "2", 768LL * (7197568 - 6618240), NULL },
    { "h200", "1", 768LL * 823680, NULL },
    { "a100-80gb", "1", 917962752LL, NULL },
    { "b200", "1", -1, "mxfp4-backend" },
  };
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", "gpt-oss-20b", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) r = { 0 };
      g_autoptr(JsonParser) p = json_parser_new ();
      JsonObject *root, *engine;

      run_cli (&r, "--config", config, "--engine", "vllm", "--tp", cases[i].tp, "--seq", "8192", "--fit-gpu",
               cases[i].gpu, "--mxfp4-backend", "triton", "--format", "json", NULL);
      root = parse (p, &r);
      engine = json_object_get_object_member (root, "engine");
      g_assert_cmpstr (json_object_get_string_member (engine, "mxfp4_backend"), ==, "triton");
      if (cases[i].no_figure != NULL)
        {
          g_assert_cmpstr (json_object_get_string_member (engine, "no_figure"), ==, cases[i].no_figure);
          g_assert_true (json_object_get_null_member (engine, "mxfp4_padding_bytes"));
        }
      else
        g_assert_cmpint (json_object_get_int_member (engine, "mxfp4_padding_bytes"), ==, cases[i].padding);
    }
}

/* engine.mxfp4_padding_bytes with PP > 1: the busiest GPU's stage's share, each of
 * gpt-oss-20b's 24 MoE layers padded alike by Marlin on the A100 (917,962,752 B at PP 1, as in
 * vllm-mxfp4-auto-json): 12 layers a stage at PP 2, 8 at PP 3 */
static void
test_vllm_mxfp4_stages_json (void)
{
  static const struct { const char *pp; gint64 padding; } cases[] = {
    { "1", 917962752LL }, { "2", 917962752LL / 2 }, { "3", 917962752LL / 3 },
  };
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", "gpt-oss-20b", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) r = { 0 };
      g_autoptr(JsonParser) p = json_parser_new ();
      JsonObject *engine;

      run_cli (&r, "--config", config, "--engine", "vllm", "--engine-version", "0.17", "--pp", cases[i].pp, "--seq",
               "8192", "--fit-gpu", "a100-80gb", "--format", "json", NULL);
      engine = json_object_get_object_member (parse (p, &r), "engine");
      g_assert_cmpint (json_object_get_int_member (engine, "mxfp4_padding_bytes"), ==, cases[i].padding);
    }
}

/* --mxfp4-backend auto (the default): vLLM's own choice, Triton's kernels on compute capability
 * 9.x from release 0.14, whose wheels carry triton_kernels (pull request #28788), so the same
 * padding and cache as --mxfp4-backend triton there; before 0.14 the package was the machine's,
 * not known; Marlin on 8.x at every release; 10.x, expert parallelism and a card of unknown
 * capability (the H20) not followed. gpt-oss-20b as in vllm-mxfp4-triton-json. */
static void
test_vllm_mxfp4_auto_json (void)
{
  static const struct { const char *version; const char *gpu; const char *tp; const char *ep; gint64 padding; const char *no_figure; } cases[] = {
    { "0.14", "h100-80gb", "1", "1", 768LL * 823680, NULL },
    { "0.17", "h200", "2", "1", 768LL * (7197568 - 6618240), NULL },
    { "0.17", "h100-pcie", "1", "1", 768LL * 823680, NULL },
    { "0.21", "h100-80gb", "1", "1", 768LL * 823680, NULL },
    { "0.17", "a100-80gb", "1", "1", 917962752LL, NULL },
    { "0.11", "a100-80gb", "1", "1", 917962752LL, NULL },
    { "0.11", "h100-80gb", "1", "1", -1, "mxfp4-backend" },
    { "0.10", "h100-80gb", "1", "1", -1, "mxfp4-backend" },
    { "0.17", "b200", "1", "1", -1, "mxfp4-backend" },
    { "0.17", "h20", "1", "1", -1, "mxfp4-backend" },
    { "0.17", "h100-80gb", "2", "2", -1, "mxfp4-backend" },
  };
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", "gpt-oss-20b", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) r = { 0 };
      g_auto(VcTestRun) t = { 0 };
      g_autoptr(JsonParser) p = json_parser_new ();
      g_autoptr(JsonParser) q = json_parser_new ();
      JsonObject *engine, *triton;

      run_cli (&r, "--config", config, "--engine", "vllm", "--engine-version", cases[i].version, "--enforce-eager",
               "--tp", cases[i].tp, "--ep", cases[i].ep, "--seq", "8192", "--fit-gpu", cases[i].gpu, "--format", "json",
               NULL);
      engine = json_object_get_object_member (parse (p, &r), "engine");
      g_assert_cmpstr (json_object_get_string_member (engine, "mxfp4_backend"), ==, "auto");
      if (cases[i].no_figure != NULL)
        {
          g_assert_cmpstr (json_object_get_string_member (engine, "no_figure"), ==, cases[i].no_figure);
          g_assert_true (json_object_get_null_member (engine, "mxfp4_padding_bytes"));
          g_assert_true (json_object_get_null_member (engine, "available_kv_bytes"));
          continue;
        }
      g_assert_cmpint (json_object_get_int_member (engine, "mxfp4_padding_bytes"), ==, cases[i].padding);
      g_assert_cmpfloat (json_object_get_double_member (engine, "available_kv_bytes"), >, 0);
      if (cases[i].gpu[0] == 'a')
        continue;
      /* the same figures as the backend named */
      run_cli (&t, "--config", config, "--engine", "vllm", "--engine-version", cases[i].version, "--enforce-eager",
               "--tp", cases[i].tp, "--ep", cases[i].ep, "--seq", "8192", "--fit-gpu", cases[i].gpu, "--mxfp4-backend",
               "triton", "--format", "json", NULL);
      triton = json_object_get_object_member (parse (q, &t), "engine");
      g_assert_cmpfloat (json_object_get_double_member (engine, "available_kv_bytes"), ==,
                         json_object_get_double_member (triton, "available_kv_bytes"));
      g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==,
                       json_object_get_int_member (triton, "kv_capacity_tokens"));
    }
}

static void
test_preset_json (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_autoptr(JsonParser) p = json_parser_new ();
  JsonObject *root;

  /* the preset applies first, whatever the order: --layers overrides it */
  run_cli (&r, "--layers", "16", "--preset", "llama-3-8b", "--format", "json", NULL);
  root = parse (p, &r);
  g_assert_cmpstr (json_object_get_string_member (root, "method"), ==, "architecture");
  g_assert_cmpint (json_object_get_int_member (root, "kv_bytes_per_token"), ==, 65536);
  g_clear_object (&p);
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  p = json_parser_new ();
  run_cli (&r, "--preset", "llama-3-8b", "--format", "json", NULL);
  root = parse (p, &r);
  g_assert_cmpint (json_object_get_int_member (root, "parameters"), ==, 8030261248);
  g_assert_cmpint (json_object_get_int_member (root, "kv_bytes_per_token"), ==, 131072);
  g_clear_object (&p);
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  /* MoE by the rule of thumb: activations on activated parameters */
  p = json_parser_new ();
  run_cli (&r, "--preset", "deepseek-r1", "--method", "rule-of-thumb", "--format", "json", NULL);
  root = parse (p, &r);
  g_assert_cmpint (json_object_get_int_member (root, "active_parameters"), ==, 37000000000);
  g_assert_cmpint (json_object_get_int_member (root, "total_bytes"), ==,
                   671026419200LL * 2 + 7400000000LL * 2 + 2000000000LL);
}

static void
test_table_and_lists (void)
{
  g_auto(VcTestRun) r = { 0 };

  /* GLib puts a no-break space between a size and its unit */
  run_cli (&r, "--params", "7B", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "18.8\u00a0GB"));
  g_assert_nonnull (strstr (r.out, "Inference (4-bit)"));
  g_assert_nonnull (strstr (r.out, "each keeps its own"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  run_cli (&r, "--params", "7B", "--unit", "gib", NULL);
  g_assert_nonnull (strstr (r.out, "17.5\u00a0GiB"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  run_cli (&r, "--list-presets", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "llama-3.1-405b"));
  g_assert_nonnull (strstr (r.out, "deepseek-r1"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  /* the catalog's search: id, name, parameters, activated, context, release date */
  run_cli (&r, "--list-presets", "--search", "gpt-oss", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "gpt-oss-20b                    gpt-oss 20B                            20.91B    4.19B   131072 2025-08\n"
                   "gpt-oss-120b                   gpt-oss 120B                          116.83B    5.71B   131072 2025-08\n");
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--search", "llama 405b", "--list-presets", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "llama-3.1-405b "));
  g_assert_cmpstr (strchr (r.out, '\n'), ==, "\n");
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--list-presets", "--search", "no such model", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "no built-in model matches “no such model”"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  /* --search lists; alone it would be ignored, so it is refused */
  run_cli (&r, "--preset", "qwen3-32b", "--search", "x", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--search: it goes with --list-presets"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  /* --preset takes every id of the catalog */
  run_cli (&r, "--preset", "smollm3-3b", "--format", "json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"parameters\" : 3075098624,"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  run_cli (&r, "--list-gpus", NULL);
  g_assert_nonnull (strstr (r.out, "23028 MiB"));
  g_assert_nonnull (strstr (r.out, "143771 MiB"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  run_cli (&r, "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--lora-targets"));
}

static void
test_rejections (void)
{
  static const struct { const char *args[7]; const char *expect; } bad[] = {
    { { "--batch", "0" }, "--batch: 0 is out of range for batch; accepted: a whole number from 1 to" },
    { { "--seq", "lots" }, "--seq:" },
    { { "--params", "seven" }, "--params:" },
    { { "--precision", "fp7" }, "accepted: fp32, fp16, bf16, fp8, int8, int4" },
    { { "--mode", "serve" }, "accepted: inference, training" },
    { { "--method", "guess" }, "accepted: rule-of-thumb, architecture" },
    { { "--finetune", "dora" }, "accepted: full, lora, qlora-8bit, qlora-4bit" },
    { { "--optimizer", "lion" }, "--optimizer:" },
    { { "--checkpointing", "some" }, "accepted: none, sqrt, full" },
    { { "--loss", "chunky" }, "accepted: full, chunked, fused, cce" },
    { { "--mode", "training", "--optimizer-in-backward", "--grad-accum", "2" },
      "frees each gradient at once: it cannot accumulate gradients; accepted: --grad-accum 1" },
    { { "--mode", "training", "--optimizer", "paged-adamw-8bit" }, "paged optimizers need the architecture method" },
    { { "--preset", "llama-2-7b", "--mode", "training", "--optimizer-in-backward", "--dp=2" },
      "modelled on one GPU: set --dp 1" },
    { { "--preset=llama-2-7b", "--mode=training", "--cp=2", "--trainer=hf" },
      "context parallelism (CP 2) follows torchtitan" },
    { { "--preset=llama-2-7b", "--mode=training", "--cp=2", "--seq=1001" }, "multiple of 2 × CP = 4" },
    { { "--mode", "inference", "--cp", "2" }, "applies to training only" },
    /* 0, which stands for the default in a profile, typed as the engine's own value */
    { { "--engine", "llama.cpp", "--n-ubatch", "0" },
      "--n-ubatch: llama.cpp reads -ub 0 as the logical batch (-b), which is not followed here" },
    { { "--engine", "vllm", "--max-num-seqs", "0" },
      "--max-num-seqs: the engine itself does not read 0 as its default; accepted: a value above 0, or the option "
      "left out for the default" },
    { { "--engine", "sglang", "--mem-fraction", "0.0" }, "--mem-fraction: the engine itself does not read 0" },
    { { "--engine", "vllm", "--max-num-batched-tokens=256", "--max-num-seqs=512" },
      "vLLM refuses max_num_batched_tokens (256) below max_num_seqs (512)" },
    { { "--engine", "vllm", "--max-num-seqs=9000" },
      "vLLM’s default max_num_batched_tokens (8192 at most) would be below max_num_seqs (9000), which vLLM refuses" },
    /* a KV cache vLLM and SGLang do not have */
    { { "--preset", "llama-3.2-1b", "--engine", "vllm", "--kv-precision", "int8" },
      "vLLM’s KV cache is followed here in 16 bits, in fp8, or in fp32 beside fp32 weights; a KV cache in int8 is "
      "not sized for it" },
    { { "--preset", "llama-3.2-1b", "--engine", "sglang", "--kv-precision", "int4" }, "SGLang’s KV cache is followed here" },
    /* Ollama's one cache type, f16, q8_0 or q4_0 (llama.cpp itself takes both) */
    { { "--preset", "llama-3.2-1b", "--engine", "ollama", "--cache-type-k", "q8_0" },
      "Ollama takes one KV cache type for keys and values alike (OLLAMA_KV_CACHE_TYPE), f16, q8_0 or q4_0, and reads "
      "any other as f16; here keys q8_0 and values f16" },
    { { "--preset", "llama-3.2-1b", "--engine", "ollama", "--kv-precision", "fp32" }, "here keys f32 and values f32" },
    /* llama.cpp's offload under vLLM or SGLang, which keep every layer on the GPU */
    { { "--preset", "qwen3-30b-a3b", "--engine", "vllm", "--gpu-layers", "10" },
      "--gpu-layers and --experts-on-cpu are llama.cpp’s offload; vLLM keeps every layer and its cache on the GPU" },
    { { "--preset", "qwen3-30b-a3b", "--engine", "sglang", "--experts-on-cpu" }, "SGLang keeps every layer" },
    /* two options for the sharding: refused, whichever comes first */
    { { "--mode", "training", "--zero", "3", "--fsdp", "grad-op" },
      "--fsdp: --zero sets the sharding too: DeepSpeed’s ZeRO or PyTorch’s FSDP, not both; accepted: one of them" },
    { { "--mode", "training", "--fsdp", "full", "--zero", "0" }, "--zero: --fsdp sets the sharding too" },
    { { "--preset=llama-2-7b", "--mode=training", "--packing", "--trainer=trl" }, "the trl trainer" },
    { { "--preset=llama-2-7b", "--mode=training", "--checkpointing=selective", "--finetune=lora" },
      "modelled for full fine-tuning" },
    { { "--lora-targets", "q,w" }, "all-linear" },
    { { "--preset", "gpt-5" }, "unknown preset" },
    { { "--format", "xml" }, "accepted: table, json" },
    { { "--unit", "tb" }, "accepted: gb, gib" },
    { { "--overhead", "-3" }, "--overhead:" },
    { { "--frobnicate" }, "unknown option --frobnicate" },
    { { "--batch" }, "--batch: a value is required" },
    { { "stray" }, "unexpected argument" },
    { { "--mixed-precision=yes" }, "takes no value" },
    { { "--mode", "training", "--precision", "int4" }, "parameter precision is fp32, fp16 or bf16" },
    { { "--method", "architecture", "--kv-heads", "5" }, "multiple of kv-heads" },
    { { "--model-type", "moe", "--params", "7B", "--active-params", "8B" }, "cannot exceed" },
    /* what GOption would take otherwise: "--" ends nothing, a switch gets no stray value */
    { { "--" }, "unknown option --;" },
    { { "--explain", "stray" }, "unexpected argument “stray”" },
    { { "--tied-embeddings", "false" }, "unexpected argument “false”" },
    { { "--no-tied-embeddings=false" }, "--no-tied-embeddings: this option takes no value" },
    /* the first wrong argument on the line is the one reported */
    { { "--frobnicate", "--format", "xml" }, "unknown option --frobnicate" },
    { { "--format", "xml", "--frobnicate" }, "--format:" },
    { { "stray", "--batch" }, "unexpected argument “stray”" },
    /* llama.cpp's options, refused with another engine or outside their range */
    { { "--n-ubatch", "256" }, "this option is llama.cpp's; the engine is generic" },
    { { "--engine", "vllm", "--cache-type-k", "q8_0" }, "this option is llama.cpp's; the engine is vllm" },
    { { "--engine", "llama.cpp", "--cache-type-v", "q3_k" }, "accepted: auto, f32, f16, bf16, q8_0" },
    { { "--engine", "ollama", "--n-batch", "-1" }, "--n-batch:" },
    { { "--engine", "llama.cpp", "--no-flash-attention", "--cache-type-v", "q8_0" },
      "llama.cpp refuses a quantized V cache without flash attention" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_auto(VcTestRun) r = { 0 };

      run_cli (&r, bad[i].args[0], bad[i].args[1], bad[i].args[2], bad[i].args[3],
               bad[i].args[4], bad[i].args[5], NULL);
      g_test_message ("%s → %s", bad[i].args[0], r.err);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_cmpstr (r.out, ==, "");
      g_assert_true (g_str_has_prefix (r.err, "vramcalc: "));
      g_assert_nonnull (strstr (r.err, bad[i].expect));
    }
}

static void
test_custom_gpus (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_autoptr(JsonParser) p = json_parser_new ();
  JsonObject *root, *last;
  JsonArray *gpus;

  /* 18.8 GB: a 48 GB card holds it; a 12 GiB one needs (18.8 - 2) / (12.88 - 2) → 2 */
  run_cli (&r, "--params", "7B", "--gpu", "RTX 6000 Ada=48", "--gpu", "Mine=12GiB", "--format", "json", NULL);
  root = parse (p, &r);
  gpus = json_object_get_array_member (root, "gpus");
  last = json_array_get_object_element (gpus, json_array_get_length (gpus) - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "name"), ==, "Mine");
  g_assert_cmpint (json_object_get_int_member (last, "memory_bytes"), ==, 12884901888);
  g_assert_false (json_object_get_boolean_member (last, "fits"));
  g_assert_cmpint (json_object_get_int_member (last, "count"), ==, 2);
  last = json_array_get_object_element (gpus, json_array_get_length (gpus) - 2);
  g_assert_cmpstr (json_object_get_string_member (last, "name"), ==, "RTX 6000 Ada");
  g_assert_true (json_object_get_boolean_member (last, "fits"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  run_cli (&r, "--gpu", "nameless", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--gpu: "));
  g_assert_nonnull (strstr (r.err, "NAME=SIZE"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  run_cli (&r, "--gpu", "Tiny=0.01", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "between 0.1 GB and 100000 GB"));
}

static void
test_extremes (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_autoptr(JsonParser) p = json_parser_new ();
  JsonObject *root;

  run_cli (&r, "--params", "100T", "--seq", "10000000", "--concurrency", "1000", "--format", "json", NULL);
  root = parse (p, &r);
  g_assert_cmpfloat (json_object_get_double_member (root, "total_bytes"), >, 0);
  /* finite, non-negative numbers only (beyond 2^63 bytes they are written in exponent form) */
  g_assert_null (strstr (r.out, ": nan"));
  g_assert_null (strstr (r.out, ": inf"));
  g_assert_null (strstr (r.out, ": -"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  /* batch 10⁶ × 10⁸ tokens: 136,718,750,018,… bytes, in exabytes rather than "136719 PB" */
  run_cli (&r, "--batch", "1000000", "--seq", "100000000", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "KV cache          68.4\u00a0EB   50 %"));
  g_assert_nonnull (strstr (r.out, "Total              137\u00a0EB"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  /* and a million such requests: 68.4 yottabytes (59.3 EiB × 10⁶ in binary units) */
  run_cli (&r, "--batch", "1000000", "--seq", "100000000", "--concurrency", "1000000", "--unit", "gib", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Total            56.5\u00a0YiB"));
  g_assert_null (strstr (r.out, "× 10"));
}

/* each GPU of the JSON gives its bandwidth and speed; null for a card typed in, whose figures
 * are unknown (FORMULAS.md, "Speed") */
static JsonObject *
gpu_member (JsonObject *root,
            const char *id)
{
  JsonArray *gpus = json_object_get_array_member (root, "gpus");

  for (guint i = 0; i < json_array_get_length (gpus); i++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (gpus, i), "id"), id))
      return json_array_get_object_element (gpus, i);
  g_assert_not_reached ();
}

/* the speed fields of the JSON: decode and prefill on a catalog card, null on one's own card,
 * a training step's time */
static void
check_speed_json (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_autoptr(JsonParser) p = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  JsonObject *root, *h100, *mine;

  run_cli (&r, "--params", "7B", "--gpu", "Mine=24GB", "--format", "json", NULL);
  root = parse (p, &r);
  h100 = gpu_member (root, "h100-80gb");
  g_assert_cmpint (json_object_get_int_member (h100, "bandwidth_bytes_per_s"), ==, 3350000000000);
  /* 14 GB of weights and half of the 1.4 GB cache at 0.530 of 3,350 GB/s; 0.178 of 989 TFLOPS */
  g_assert_cmpfloat (fabs (json_object_get_double_member (h100, "decode_tokens_per_s") - 3350e9 * 0.530 / 14.7e9), <, 1e-6);
  g_assert_cmpfloat (fabs (json_object_get_double_member (h100, "prefill_tokens_per_s") - 989e12 * 0.178 / 14e9), <, 1e-6);
  g_assert_false (json_object_has_member (h100, "step_seconds"));
  mine = gpu_member (root, "custom-1");
  g_assert_true (json_object_get_null_member (mine, "bandwidth_bytes_per_s"));
  g_assert_true (json_object_get_null_member (mine, "decode_tokens_per_s"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  run_cli (&r, "--params", "7B", "--mode", "training", "--mfu", "0.5", "--format", "json", NULL);
  root = parse (p2, &r);
  h100 = gpu_member (root, "h100-80gb");
  /* LoRA: 4 × 7e9 × 2048 FLOPs at half of 989 TFLOPS */
  g_assert_cmpfloat (fabs (json_object_get_double_member (h100, "step_seconds") - 4 * 7e9 * 2048 / (989e12 * 0.5)), <, 1e-12);
  g_assert_true (json_object_has_member (h100, "train_tokens_per_s"));
  g_assert_false (json_object_has_member (h100, "decode_tokens_per_s"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
}

static void
check_kv_capacity_json (void)
{
  g_auto(VcTestRun) r = { 0 };
  JsonObject *h100;

  /* vLLM's KV-cache capacity in tokens and its concurrency at --seq; null for the generic
   * engine, which sizes no cache */
  {
    g_autoptr(JsonParser) p3 = json_parser_new ();
    g_autoptr(JsonParser) p4 = json_parser_new ();

    run_cli (&r, "--preset", "llama-3-8b", "--engine", "vllm", "--seq", "8192", "--format", "json", NULL);
    h100 = gpu_member (parse (p3, &r), "h100-80gb");
    g_assert_cmpint (json_object_get_int_member (h100, "kv_capacity_tokens") % 16, ==, 0);
    /* max_concurrency is the solver's answer over the whole estimate, whose activation peak
     * also holds the last position's logits of every request: at most one request below the
     * requests of 8192 tokens the engine's cache holds */
    {
      gint64 by_cache = json_object_get_int_member (h100, "kv_capacity_tokens") / 8192;
      gint64 solved = json_object_get_int_member (h100, "max_concurrency");

      g_assert_cmpint (solved, <=, by_cache);
      g_assert_cmpint (solved, >=, by_cache - 1);
    }
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--format", "json", NULL);
    h100 = gpu_member (parse (p4, &r), "h100-80gb");
    g_assert_true (json_object_get_null_member (h100, "kv_capacity_tokens"));
  }
  /* --kv-cache-memory: 20 GB per GPU in blocks of 16 × 131,072 bytes, end to end */
  {
    g_autoptr(JsonParser) p5 = json_parser_new ();

    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--engine", "vllm", "--kv-cache-memory", "20", "--format", "json", NULL);
    h100 = gpu_member (parse (p5, &r), "h100-80gb");
    g_assert_cmpint (json_object_get_int_member (h100, "kv_capacity_tokens"), ==, 9536 * 16);
  }
}

/* --disable-custom-all-reduce: what the engine object says */
static void
check_custom_all_reduce_json (void)
{
  g_auto(VcTestRun) r = { 0 };

  /* --disable-custom-all-reduce: vLLM's and SGLang's; SGLang at TP 4 loses the custom
   * all-reduce's 24 MiB a GPU (25,169,280 bytes) × 0.85 from its pool, 653 tokens of 32,768
   * bytes a GPU; the JSON engine object names the option and the buffers */
  {
    g_autoptr(JsonParser) pa = json_parser_new ();
    g_autoptr(JsonParser) pb = json_parser_new ();
    g_autoptr(JsonParser) pc = json_parser_new ();
    JsonObject *engine;

    run_cli (&r, "--preset", "llama-3-8b", "--engine", "llama.cpp", "--disable-custom-all-reduce", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--disable-custom-all-reduce"));
    g_assert_nonnull (strstr (r.err, "--engine vllm or sglang"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--engine", "sglang", "--tp", "4", "--mem-fraction", "0.85",
             "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    engine = json_object_get_object_member (parse (pa, &r), "engine");
    g_assert_false (json_object_get_boolean_member (engine, "disable_custom_all_reduce"));
    g_assert_cmpint (json_object_get_int_member (engine, "custom_all_reduce_bytes"), ==, 25169280);
    g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 2057226);
    /* NCCL's buffers: not counted, at most 5 communicators × 1,920 MiB (FORMULAS.md) */
    {
      JsonObject *uncounted = json_object_get_object_member (engine, "uncounted");

      g_assert_cmpstr (json_object_get_string_member (uncounted, "part"), ==, "nccl-buffers");
      g_assert_cmpint (json_object_get_int_member (uncounted, "bytes_bound"), ==, 5 * 1920 * 1048576LL);
      g_assert_cmpstr (json_object_get_string_member (uncounted, "reason"), ==, "topology-search");
    }
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--engine", "sglang", "--tp", "4", "--mem-fraction", "0.85",
             "--disable-custom-all-reduce", "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    engine = json_object_get_object_member (parse (pb, &r), "engine");
    g_assert_true (json_object_get_boolean_member (engine, "disable_custom_all_reduce"));
    g_assert_cmpint (json_object_get_int_member (engine, "custom_all_reduce_bytes"), ==, 0);
    g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 2057226 + 653);
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--engine", "transformers", "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    engine = json_object_get_object_member (parse (pc, &r), "engine");
    g_assert_true (json_object_get_null_member (engine, "disable_custom_all_reduce"));
    g_assert_true (json_object_get_null_member (engine, "custom_all_reduce_bytes"));
    g_assert_true (json_object_get_null_member (engine, "uncounted"));
  }
  /* the text report says it under the engine's line */
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--preset", "llama-3-8b", "--engine", "vllm", "--tp", "4", "--fit-gpu", "h100-80gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\n  NCCL’s buffers are not counted: up to 10.6\u00a0GiB less for the KV cache on "
                                   "each GPU (NCCL’s channel count follows its topology search on the machine)\n"));
}

/* Quantized MoE experts: the workspace vLLM's kernel keeps is not counted, and the engine and
 * plan objects give its bound (vc_estimator_vllm_moe_workspace_bound_bytes): Qwen3-30B-A3B at
 * --precision fp8, 81,792 rows of 2,048 twice at an H100's 8,192 tokens, 32,640 rows at an
 * L40S's 2,048; nothing for 16-bit experts (counted), with --kv-cache-memory or on an A100
 * from 0.14 (Marlin's experts, counted);
 * the text says it under the engine's line and the plan's */
static void
test_vllm_moe_uncounted_json (void)
{
  static const struct { const char *version; const char *precision; const char *gpu; const char *more; gint64 bound; } cases[] = {
    { "0.14", "fp8", "h100-80gb", NULL, 2LL * 81792 * 2048 * 2 },
    { "0.17", "fp8", "h100-80gb", NULL, 2LL * 81792 * 2048 * 2 },
    { "0.17", "gptq-int4", "h100-80gb", NULL, 2LL * 81792 * 2048 * 2 },
    { "0.17", "fp8", "l40s", NULL, 2LL * 32640 * 2048 * 2 },
    { "0.11", "fp8", "h100-80gb", NULL, 2LL * 81792 * 2048 * 2 },
    { "0.17", "bf16", "h100-80gb", NULL, 0 },
    { "0.17", "fp8", "h100-80gb", "--kv-cache-memory=20", 0 },
    /* an A100 (8.0): Marlin's experts, counted */
    { "0.14", "fp8", "a100-80gb", NULL, 0 },
    { "0.11", "fp8", "a100-80gb", NULL, 2LL * 32640 * 2048 * 2 },
  };
  gint64 a100_kv[2] = { 0, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) r = { 0 };
      g_autoptr(JsonParser) p = json_parser_new ();
      g_autofree char *fit = g_strdup_printf ("--fit-gpu=%s", cases[i].gpu);
      JsonObject *engine;

      run_cli (&r, "--preset", "qwen3-30b-a3b", "--precision", cases[i].precision, "--engine", "vllm",
               "--engine-version", cases[i].version, "--seq", "8192", fit, "--format", "json",
               cases[i].more, NULL);
      g_assert_cmpint (r.status, ==, 0);
      engine = json_object_get_object_member (parse (p, &r), "engine");
      if (cases[i].bound == 0)
        g_assert_true (json_object_get_null_member (engine, "uncounted_moe_workspace"));
      else
        {
          JsonObject *u = json_object_get_object_member (engine, "uncounted_moe_workspace");

          g_assert_cmpstr (json_object_get_string_member (u, "part"), ==, "moe-workspace");
          g_assert_cmpint (json_object_get_int_member (u, "bytes_bound"), ==, cases[i].bound);
          g_assert_cmpstr (json_object_get_string_member (u, "reason"), ==, "experts-kernel");
        }
      if (g_str_equal (cases[i].gpu, "a100-80gb"))
        a100_kv[g_str_equal (cases[i].version, "0.14")] = json_object_get_int_member (engine, "available_kv_bytes");
    }
  /* the A100's cache at 0.14 is 0.11's less MarlinExperts' workspace at its 2,048 tokens (the
   * sampler's part the larger at both) */
  g_assert_cmpint (a100_kv[0] - a100_kv[1], ==, 2LL * 2048 * 8 * 2048 * 2);
  /* the plan's, at vLLM's largest default batch */
  {
    g_auto(VcTestRun) r = { 0 };
    g_autoptr(JsonParser) p = json_parser_new ();
    JsonObject *plan;

    run_cli (&r, "--preset", "qwen3-30b-a3b", "--precision", "fp8", "--engine", "vllm", "--engine-version", "0.17",
             "--seq", "8192", "--gpus", "h100-80gb:2", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    plan = json_object_get_object_member (parse (p, &r), "plan");
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (plan, "uncounted_moe_workspace"),
                                                 "bytes_bound"), ==, 2LL * 81792 * 2048 * 2);
  }
  /* the text */
  {
    g_auto(VcTestRun) r = { 0 };

    run_cli (&r, "--preset", "qwen3-30b-a3b", "--precision", "fp8", "--engine", "vllm", "--engine-version", "0.17",
             "--seq", "8192", "--fit-gpu", "h100-80gb", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "\n  The quantized MoE experts’ workspace vLLM keeps is not counted: up to "
                                     "639.0\u00a0MiB less for the KV cache on each GPU (vLLM picks their kernel, "
                                     "DeepGEMM, FlashInfer, Triton, CUTLASS or Marlin, by the kernels installed and "
                                     "the card)\n"));
  }
}

/* --engine-version, --enforce-eager and a vision encoder: what the engine object says */
static void
check_engine_version_json (void)
{
  g_auto(VcTestRun) r = { 0 };

  /* --engine-version and --enforce-eager: vLLM's alone; 0.21 sized with eager mode only, 0.10
   * with one GPU a model only; the JSON engine object names both */
  {
    g_autoptr(JsonParser) p6 = json_parser_new ();
    g_autoptr(JsonParser) p6b = json_parser_new ();
    g_autoptr(JsonParser) p7 = json_parser_new ();
    JsonObject *engine;

    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--engine", "sglang", "--enforce-eager", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--enforce-eager"));
    g_assert_nonnull (strstr (r.err, "--engine vllm"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--engine", "vllm", "--engine-version", "0.10", "--tp", "2", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "TP × PP = 2"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--engine", "vllm", "--engine-version", "0.21", "--enforce-eager",
             "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    engine = json_object_get_object_member (parse (p6, &r), "engine");
    g_assert_cmpstr (json_object_get_string_member (engine, "version"), ==, "0.21");
    g_assert_true (json_object_get_boolean_member (engine, "enforce_eager"));
    g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 421856);
    /* 0.21's figure keeps the sort, which bounds the Triton path and its buffer */
    g_assert_true (json_object_get_null_member (engine, "vllm_triton_buffer"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    /* 0.17 (0.17.0 to 0.19): no sort in the sampler, 14 bytes a logit where 0.11 has 38 */
    run_cli (&r, "--preset", "llama-3-8b", "--engine", "vllm", "--engine-version", "0.17",
             "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    engine = json_object_get_object_member (parse (p6b, &r), "engine");
    g_assert_cmpstr (json_object_get_string_member (engine, "version"), ==, "0.17");
    g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 445392);
    /* with the Triton sampler's buffer on the H100's 132 SMs: 132 x 128,256 x 4 B */
    {
      JsonObject *buffer = json_object_get_object_member (engine, "vllm_triton_buffer");

      g_assert_cmpint (json_object_get_int_member (buffer, "sm_count"), ==, 132);
      g_assert_cmpint (json_object_get_int_member (buffer, "rows"), ==, 132);
      g_assert_cmpint (json_object_get_int_member (buffer, "bytes"), ==, 132 * 128256 * 4);
      g_assert_cmpint (json_object_get_int_member (buffer, "bytes_bound"), ==, 1024 * 128256 * 4);
      g_assert_cmpint (json_object_get_int_member (engine, "profile_bytes"), ==,
                       1024 * 128256 * 14 + 8192 * 4096 * 2 + 133 * 1048576 + 132 * 128256 * 4);
    }
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--engine", "sglang", "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    engine = json_object_get_object_member (parse (p7, &r), "engine");
    g_assert_cmpstr (json_object_get_string_member (engine, "version"), ==, "001ccef");
    g_assert_true (json_object_get_null_member (engine, "enforce_eager"));
    g_assert_true (json_object_get_null_member (engine, "no_figure"));
  }
  /* a vision encoder counted: no figure, and the part of the model named, unless vLLM is given
   * its cache (20 GB: 152,576 tokens of 131,072 bytes in blocks of 16) */
  {
    g_autoptr(JsonParser) p8 = json_parser_new ();
    g_autoptr(JsonParser) p9 = json_parser_new ();
    JsonObject *engine;

    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--encoder-params", "400M", "--engine", "vllm", "--fit-gpu", "h100-80gb",
             "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    engine = json_object_get_object_member (parse (p8, &r), "engine");
    g_assert_true (json_object_get_null_member (engine, "kv_capacity_tokens"));
    g_assert_cmpstr (json_object_get_string_member (engine, "no_figure"), ==, "encoder");
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--encoder-params", "400M", "--engine", "vllm", "--kv-cache-memory", "20",
             "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    engine = json_object_get_object_member (parse (p9, &r), "engine");
    g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 152576);
    g_assert_true (json_object_get_null_member (engine, "no_figure"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--encoder-params", "400M", "--engine", "sglang", "--fit-gpu", "h100-80gb",
             NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "no KV-cache figure for this model here\n  SGLang lowers its default "
                                     "--mem-fraction-static for a vision model"));
  }
}

/* Mistral 3 on an H100 (vc-engine-mm.c): its images follow from config.json, and its Pixtral
 * tower's pass is followed, the dense mask of 24,200² bf16 values where the release ships no
 * xformers (0.11 counted as 0.13); with release 0.21 the report says why not, not that
 * preprocessor_config.json is missing */
static void
check_vllm_vision_pixtral (void)
{
  g_auto(VcTestRun) r = { 0 };

  run_cli (&r, "--preset", "mistral-small-3.1-24b-instruct", "--engine", "vllm", "--seq", "8192", "--fit-gpu",
           "h100-80gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "vLLM’s profile run passes 2 images through the vision encoder (2.04"));
  g_assert_nonnull (strstr (r.out, "The Pixtral tower’s attention holds a dense mask over the batch’s 24200 "
                                   "patches (1.17"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--preset", "mistral-small-3.1-24b-instruct", "--engine", "vllm", "--seq", "8192", "--fit-gpu",
           "h100-80gb", "--engine-version", "0.10", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "vLLM’s profile run passes 2 images through the vision encoder (871"));
  g_assert_null (strstr (r.out, "dense mask"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--preset", "mistral-small-3.1-24b-instruct", "--engine", "vllm", "--seq", "8192", "--fit-gpu",
           "h100-80gb", "--engine-version", "0.21", "--enforce-eager", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Mistral 3’s images are known from its config.json"));
  g_assert_nonnull (strstr (r.out, "release 0.21 and later profile the encoder in ways not read"));
  g_assert_null (strstr (r.out, "preprocessor_config.json, not read"));
  g_assert_null (strstr (r.out, "vLLM’s profile run passes 2 images"));
}

/* vLLM's multimodal profile run for Gemma 3 27B on an H100 (vc-engine-mm.c): the table's line
 * and the JSON's figures, --limit-mm-per-prompt */
/* Llama 4 under vLLM: its tiles from its preprocessor_config.json, the tower's pass followed for
 * releases 0.10 to 0.20 (vc-engine-mm.c) */
static void
check_vllm_vision_llama4 (void)
{
  g_auto(VcTestRun) r = { 0 };

  /* Llama 4 from the catalog: config.json alone, so its tiles come from a file not read */
  run_cli (&r, "--preset", "llama-4-scout-17b-16e", "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h100-80gb",
           "--tp", "4", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "preprocessor_config.json, not read"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  {
    /* its folder with the processor's settings beside config.json: the images are known */
    g_autofree char *dir = vc_test_make_tmpdir ("llama4-cli");
    g_autofree char *src = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                             "Llama-4-Scout-17B-16E-Instruct", "config.json", NULL);
    g_autofree char *dst = g_build_filename (dir, "config.json", NULL);
    g_autofree char *pre = g_build_filename (dir, "preprocessor_config.json", NULL);
    g_autofree char *text = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_true (g_file_get_contents (src, &text, NULL, &error));
    g_assert_true (g_file_set_contents (dst, text, -1, &error));
    g_assert_true (g_file_set_contents (pre, "{\"max_patches\": 16}", -1, &error));
    run_cli (&r, "--config", dir, "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h100-80gb", "--tp", "4", NULL);
    g_assert_cmpint (r.status, ==, 0);
    /* release 0.11 at TP 4: 3 images, each copied to the budget's rows
     * (test-engine-state, /engine-state/vllm-mm-llama4-later) */
    g_assert_nonnull (strstr (r.out, "vLLM’s profile run passes 3 images through the vision encoder (573\u00a0MB at its "
                                     "peak) and keeps their embeddings through the text pass: 361\u00a0MB at an encoder "
                                     "budget of 8192 tokens"));
    g_assert_null (strstr (r.out, "Llama 4’s images are known from its preprocessor_config.json"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    /* 0.17 at TP 8: each image's own rows */
    run_cli (&r, "--config", dir, "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h100-80gb", "--tp", "8",
             "--engine-version", "0.17", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "vLLM’s profile run passes 3 images through the vision encoder (511\u00a0MB at its "
                                     "peak) and keeps their embeddings through the text pass: 110\u00a0MB, each image’s "
                                     "own rows"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    /* --mm-encoder-tp-mode data: refused, saying why */
    run_cli (&r, "--config", dir, "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h100-80gb", "--tp", "4",
             "--engine-version", "0.17", "--mm-encoder-tp-mode", "data", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "Llama 4’s images are known from its preprocessor_config.json"));
    g_assert_nonnull (strstr (r.out, "--mm-encoder-tp-mode data pads the tiles to a multiple of TP"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    /* release 0.10 on one H200 (fp8): its tower's pass followed, 3 images of 17 tiles
     * (test-engine-state, /engine-state/vllm-mm-llama4-pass) */
    run_cli (&r, "--config", dir, "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h200", "--precision", "fp8",
             "--engine-version", "0.10", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "\"encoder_pass_bytes\" : 1360409088"));
    g_assert_nonnull (strstr (r.out, "\"images\" : 3"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--config", dir, "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h200", "--precision", "fp8",
             "--engine-version", "0.10", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "vLLM’s profile run passes 3 images through the vision encoder (1.36\u00a0GB at its "
                                     "peak)"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    g_assert_true (g_file_set_contents (pre, "{\"max_patches\": \"many\"}", -1, &error));
    run_cli (&r, "--config", dir, "--engine", "vllm", NULL);
    g_assert_cmpint (r.status, !=, 0);
    g_assert_nonnull (strstr (r.err, "preprocessor_config.json: \"max_patches\" must be a whole number"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    vc_test_remove_tree (dir);
  }
}

static void
check_vllm_vision (void)
{
  g_auto(VcTestRun) r = { 0 };

  {
    /* vLLM's multimodal profile run for Gemma 3 27B on an H100 (vc-engine-mm.c): the table's
     * line and the JSON's figures; none once --kv-cache-memory gives the cache */
    g_autoptr(JsonParser) p12 = json_parser_new ();
    JsonObject *engine, *mm;

    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "gemma-3-27b-it", "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h100-80gb", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "  vLLM’s profile run passes 31 images through the vision encoder (3.21\u00a0GB at its "
                                     "peak) and keeps their embeddings through the text pass: 2.97\u00a0GB at an encoder "
                                     "budget of 8"));
    g_assert_nonnull (strstr (r.out, "tokens as 0.10 and 0.11.x keep them, counted here; 321\u00a0MB from 0.12 on"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "gemma-3-27b-it", "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h100-80gb",
             "--format", "json", NULL);
    engine = json_object_get_object_member (parse (p12, &r), "engine");
    mm = json_object_get_object_member (engine, "vllm_mm_profile");
    g_assert_cmpint (json_object_get_int_member (mm, "images"), ==, 31);
    g_assert_cmpint (json_object_get_int_member (mm, "encoder_budget_tokens"), ==, 8192);
    g_assert_cmpint (json_object_get_int_member (mm, "encoder_pass_bytes"), ==, 3213000704);
    g_assert_cmpint (json_object_get_int_member (mm, "embeddings_bytes"), ==, 2965143552);
    g_assert_cmpint (json_object_get_int_member (mm, "later_embeddings_bytes"), ==, 321312768);
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "gemma-3-27b-it", "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h100-80gb",
             "--kv-cache-memory", "20", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_null (strstr (r.out, "images through the vision encoder"));
    /* --limit-mm-per-prompt: 4 requests of 2 images profile 8; vLLM's own, refused elsewhere */
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "gemma-3-27b-it", "--engine", "vllm", "--seq", "8192", "--fit-gpu", "h100-80gb",
             "--max-num-seqs", "4", "--limit-mm-per-prompt", "2", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "vLLM’s profile run passes 8 images through the vision encoder"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "gemma-3-27b-it", "--engine", "vllm", "--limit-mm-per-prompt", "2",
             "--print-command", "vllm", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "--limit-mm-per-prompt '{\"image\": 2}'"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "gemma-3-27b-it", "--limit-mm-per-prompt", "2", NULL);
    g_assert_cmpint (r.status, !=, 0);
    g_assert_nonnull (strstr (r.err, "--limit-mm-per-prompt: this option is vLLM's"));
  }
}

/* SGLang's fraction for a vision model: Gemma 3 served without images at the text model's, a
 * hand-set encoder of a model served with images lowered (FORMULAS.md, "Multimodal models") */
static void
check_sglang_vision_json (void)
{
  g_auto(VcTestRun) r = { 0 };

  /* Gemma 3 under SGLang: served without images by default, its fraction the text model's
   * (0.835 on an H100), its tower among the weights; with the encoder's layers and width of a
   * model SGLang serves with images, its default is lowered by adjust_mem_fraction_for_vlm:
   * 0.835 × 0.909736328125 for 27 layers of 1,152 (FORMULAS.md, "Multimodal models") */
  {
    g_autoptr(JsonParser) p10 = json_parser_new ();
    g_autoptr(JsonParser) p11 = json_parser_new ();
    JsonObject *engine;

    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "gemma-3-4b-it", "--engine", "sglang", "--fit-gpu", "h100-80gb", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "tokens at once\n  SGLang serves this model without images unless "
                                     "--enable-multimodal is given"));
    g_assert_null (strstr (r.out, "lowered for a vision model"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "gemma-3-4b-it", "--engine", "sglang", "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    engine = json_object_get_object_member (parse (p10, &r), "engine");
    g_assert_true (json_object_get_null_member (engine, "no_figure"));
    g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), >, 0);
    g_assert_cmpfloat (json_object_get_double_member (engine, "mem_fraction_static"), ==, 0.835);
    g_assert_true (json_object_get_null_member (engine, "vlm_fraction_factor"));

    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--encoder-params", "400M", "--encoder-layers", "27", "--encoder-width", "1152",
             "--engine", "sglang", "--fit-gpu", "h100-80gb", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "tokens at once\n  SGLang’s default --mem-fraction-static lowered for a vision "
                                     "model: 0.835 × 0.9097 = 0.7596 (an encoder of 27 layers of 1"));
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--encoder-params", "400M", "--encoder-layers", "27", "--encoder-width", "1152",
             "--engine", "sglang", "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    engine = json_object_get_object_member (parse (p11, &r), "engine");
    g_assert_true (json_object_get_null_member (engine, "no_figure"));
    g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 358512);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (engine, "mem_fraction_static"),
                                    0.759629833984375, 1e-12);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (engine, "vlm_fraction_factor"),
                                    0.909736328125, 1e-12);
    /* a fraction given is not lowered */
    vc_test_run_clear (&r);
    memset (&r, 0, sizeof r);
    run_cli (&r, "--preset", "llama-3-8b", "--encoder-params", "400M", "--encoder-layers", "27", "--encoder-width", "1152",
             "--engine", "sglang", "--mem-fraction", "0.8", "--fit-gpu", "h100-80gb", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_null (strstr (r.out, "lowered for a vision model"));
  }
}

static void
test_speed_fields (void)
{
  g_auto(VcTestRun) r = { 0 };

  check_speed_json ();
  /* each engine's own name for the memory fraction, refused with another engine */
  run_cli (&r, "--params", "7B", "--mem-fraction", "0.8", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--engine sglang"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--params", "7B", "--engine", "sglang", "--gpu-memory-utilization", "0.8", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--engine vllm"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--params", "7B", "--engine", "tensorrt", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "llama.cpp"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--params", "7B", "--mode", "training", "--mfu", "1.5", NULL);
  g_assert_cmpint (r.status, ==, 2);
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  /* options that would change nothing are refused, not ignored */
  run_cli (&r, "--params", "7B", "--mfu", "0.5", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--mode training"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--params", "7B", "--block-size", "32", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--engine vllm"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_cli (&r, "--params", "7B", "--mode", "training", "--engine", "vllm", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "inference"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  /* vLLM's and SGLang's own options: refused with another engine, and outside their range */
  {
    static const char *const refused[][4] = {
      { "--max-num-seqs", "64", "generic", "--engine vllm" },
      { "--max-num-batched-tokens", "4096", "sglang", "--engine vllm" },
      { "--kv-cache-memory", "20", "llama.cpp", "--engine vllm" },
      { "--block-size", "32", "sglang", "--engine vllm" },
      { "--page-size", "16", "vllm", "--engine sglang" },
      { "--mem-fraction", "0.8", "vllm", "--engine sglang" },
      { "--max-num-seqs", "70000", "vllm", "from 0 to 65536" },
      { "--max-num-batched-tokens", "2000000", "vllm", "from 0 to 1048576" },
      { "--kv-cache-memory", "-1", "vllm", "from 0 to 1e+06" },
      { "--page-size", "0", "sglang", "from 1 to 1024" },
      { "--mem-fraction", "1.5", "sglang", "from 0 to 1" },
      { "--engine-version", "0.11", "sglang", "--engine vllm" },
      { "--engine-version", "0.12", "vllm", "0.21" },
      { "--engine-version", "0.21", "vllm", "--enforce-eager" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
      {
        run_cli (&r, "--preset", "llama-3-8b", "--engine", refused[i][2], refused[i][0], refused[i][1], NULL);
        g_assert_cmpint (r.status, ==, 2);
        g_assert_nonnull (strstr (r.err, refused[i][0]));
        g_assert_nonnull (strstr (r.err, refused[i][3]));
        vc_test_run_clear (&r);
        memset (&r, 0, sizeof r);
      }
  }

  check_kv_capacity_json ();
  check_engine_version_json ();
  check_sglang_vision_json ();
  check_vllm_vision ();
  check_vllm_vision_pixtral ();
  check_vllm_vision_llama4 ();
  check_custom_all_reduce_json ();
}

/* --this-computer adds what it reads, or says why nothing was read; never a made-up card */
static void
test_this_computer (void)
{
  g_auto(VcTestRun) r = { 0 };

  run_cli (&r, "--params", "7B", "--this-computer", "--format", "json", NULL);
  if (r.status == 0)
    {
      g_autoptr(JsonParser) p = json_parser_new ();
      JsonArray *gpus = json_object_get_array_member (parse (p, &r), "gpus");
      guint n;

      vc_gpus_get_all (&n);
      g_assert_cmpuint (json_array_get_length (gpus), >, n);
    }
  else
    {
      g_assert_cmpint (r.status, ==, 1);
      g_assert_true (strstr (r.err, "no GPU found") != NULL || strstr (r.err, "Flatpak") != NULL);
    }
}

/* Past the model's maximum context (Llama 3 8B: 8,192 tokens, from its config.json) the
 * estimate is printed with a warning; within it, nothing is said. */
static void
test_context_warning (void)
{
  g_auto(VcTestRun) over = { 0 };
  g_auto(VcTestRun) within = { 0 };
  g_auto(VcTestRun) training = { 0 };

  run_cli (&over, "--preset", "llama-3-8b", "--seq", "131072", NULL);
  g_assert_cmpint (over.status, ==, 0);
  g_assert_nonnull (strstr (over.err, "warning: 131072 tokens per sequence is beyond this model's maximum context of 8192 tokens"));
  run_cli (&within, "--preset", "llama-3-8b", "--seq", "8192", NULL);
  g_assert_cmpint (within.status, ==, 0);
  g_assert_cmpstr (within.err, ==, "");
  run_cli (&training, "--preset", "llama-3.1-8b", "--mode", "training", "--seq", "100000000", NULL);
  g_assert_nonnull (strstr (training.err, "maximum context of 131072 tokens"));
  g_assert_null (strstr (over.err, "refuses"));
  /* under vLLM and SGLang: what each engine does with such a length */
  {
    g_auto(VcTestRun) vllm = { 0 };
    g_auto(VcTestRun) sglang = { 0 };

    run_cli (&vllm, "--preset", "llama-3-8b", "--seq", "131072", "--engine", "vllm", NULL);
    g_assert_nonnull (strstr (vllm.err, "whatever memory they take. vLLM refuses a --max-model-len above the length "
                                        "it derives from the model’s config unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 "
                                        "is set.\n"));
    run_cli (&sglang, "--preset", "llama-3-8b", "--seq", "131072", "--engine", "sglang", NULL);
    g_assert_nonnull (strstr (sglang.err, "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 is set.\n"));
  }
}

/* An option the other inputs leave without effect says so, and changes nothing: the attention
 * kernel under vLLM, --checkpoint-every without selective-layers, --optimizer-precision for SGD and the
 * 8-bit optimizers, --optimizer-impl for SGD; where they act, no note */
static void
test_unused_training_options (void)
{
  static const struct { const char *args[4]; const char *note; } cases[] = {
    { { "--checkpointing", "full", "--checkpoint-every", "3" },
      "vramcalc: note: --checkpoint-every applies to --checkpointing selective-layers; the estimate does not use it\n" },
    { { "--optimizer", "sgd", "--optimizer-precision", "bf16" },
      "vramcalc: note: --optimizer-precision sets the precision of 32- or 16-bit optimizer state; sgd keeps no "
      "state, and the estimate does not use it\n" },
    { { "--optimizer", "paged-adamw-8bit", "--optimizer-precision", "bf16" }, "paged-adamw-8bit keeps 8-bit state" },
    { { "--optimizer", "sgd-momentum", "--optimizer-impl", "foreach" },
      "vramcalc: note: --optimizer-impl changes nothing for SGD, whose in-place step keeps no temporary either way" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) with = { 0 };
      g_auto(VcTestRun) without = { 0 };

      run_cli (&with, "--preset", "llama-3.2-1b", "--mode", "training", "--finetune", "full", cases[i].args[0],
               cases[i].args[1], cases[i].args[2], cases[i].args[3], "--format", "json", NULL);
      run_cli (&without, "--preset", "llama-3.2-1b", "--mode", "training", "--finetune", "full", cases[i].args[0],
               cases[i].args[1], "--format", "json", NULL);
      g_assert_cmpint (with.status, ==, 0);
      g_assert_nonnull (strstr (with.err, cases[i].note));
      g_assert_cmpstr (with.out, ==, without.out);
    }
  {
    g_auto(VcTestRun) counted = { 0 };
    g_auto(VcTestRun) plain = { 0 };

    /* the figures of the estimate by parameter count, beside an architecture */
    run_cli (&counted, "--preset", "llama-3.2-1b", "--mode", "training", "--finetune", "lora", "--params", "7B",
             "--lora-percent", "2", "--format", "json", NULL);
    run_cli (&plain, "--preset", "llama-3.2-1b", "--mode", "training", "--finetune", "lora", "--format", "json", NULL);
    g_assert_cmpint (counted.status, ==, 0);
    g_assert_nonnull (strstr (counted.err, "vramcalc: note: --params applies to the estimate by parameter count; the "
                                           "architecture method counts the model's own parameters"));
    g_assert_nonnull (strstr (counted.err, "vramcalc: note: --lora-percent applies to the estimate by parameter "
                                           "count; the architecture method counts the adapters"));
    /* Llama 3.2 1B's own 1,235,814,400 and its rank-16 adapters, 11,272,192, either way */
    g_assert_nonnull (strstr (counted.out, "\"parameters\" : 1235814400,"));
    g_assert_nonnull (strstr (counted.out, "\"trainable_parameters\" : 11272192,"));
    g_assert_nonnull (strstr (plain.out, "\"trainable_parameters\" : 11272192,"));
  }
  {
    g_auto(VcTestRun) eager = { 0 };
    g_auto(VcTestRun) flash = { 0 };

    run_cli (&eager, "--preset", "llama-3.2-1b", "--engine", "vllm", "--fit-gpu", "h100-80gb", "--no-flash-attention",
             "--format", "json", NULL);
    run_cli (&flash, "--preset", "llama-3.2-1b", "--engine", "vllm", "--fit-gpu", "h100-80gb", "--format", "json", NULL);
    g_assert_cmpint (eager.status, ==, 0);
    g_assert_nonnull (strstr (eager.err, "vramcalc: note: --flash-attention and --no-flash-attention: vLLM picks its "
                                         "attention backend itself"));
    g_assert_cmpstr (eager.out, ==, flash.out);
  }
  {
    g_auto(VcTestRun) images = { 0 };

    /* an image limit for a text model */
    run_cli (&images, "--preset", "llama-3.2-1b", "--engine", "vllm", "--limit-mm-per-prompt", "2", NULL);
    g_assert_cmpint (images.status, ==, 0);
    g_assert_nonnull (strstr (images.err, "vramcalc: note: --limit-mm-per-prompt caps the images of a model with a "
                                          "vision encoder; this one has none"));
  }
  {
    g_auto(VcTestRun) used = { 0 };

    run_cli (&used, "--preset", "llama-3.2-1b", "--mode", "training", "--checkpointing", "selective-layers",
             "--checkpoint-every", "3", "--optimizer", "sgd-momentum", "--optimizer-precision", "bf16", NULL);
    g_assert_cmpint (used.status, ==, 0);
    g_assert_cmpstr (used.err, ==, "");
  }
}

/* An option of the other mode changes nothing and says so: gradient checkpointing leaves the
 * seed's 7B inference at 18.8 GB (the seed's table). */
static void
test_other_mode_option (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_auto(VcTestRun) t = { 0 };

  run_cli (&r, "--params", "7B", "--checkpointing", "full", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "18.8\u00a0GB\n"));
  g_assert_nonnull (strstr (r.err, "--checkpointing applies to training; the inference estimate does not use it"));
  run_cli (&t, "--params", "7B", "--mode", "training", "--concurrency", "4", NULL);
  g_assert_cmpint (t.status, ==, 0);
  g_assert_nonnull (strstr (t.err, "--concurrency applies to inference"));
}

/* An option of the architecture method given with the estimate by parameter count changes
 * nothing and says so: the seed's 7B full fine-tuning stays 87.4 GB (the seed's table), with
 * an architecture field or a loss; the method taken from an architecture field says nothing */
static void
test_other_method_option (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_auto(VcTestRun) t = { 0 };
  g_auto(VcTestRun) a = { 0 };

  run_cli (&r, "--params", "7B", "--mode", "training", "--method", "rule-of-thumb", "--loss", "full", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "87.4\u00a0GB\n"));
  g_assert_nonnull (strstr (r.err, "--loss applies to the architecture method; the estimate by parameter count does not use it"));
  run_cli (&t, "--params", "7B", "--method", "rule-of-thumb", "--layers", "80", NULL);
  g_assert_cmpint (t.status, ==, 0);
  g_assert_nonnull (strstr (t.out, "18.8\u00a0GB\n"));
  g_assert_nonnull (strstr (t.err, "--layers applies to the architecture method"));
  run_cli (&a, "--layers", "80", NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_null (strstr (a.err, "applies to the architecture method"));
  /* LoRA's rank and targets and the attention kernel: the training share of the weights uses
   * none of them (the seed's LoRA 7B unchanged) */
  {
    g_auto(VcTestRun) lora = { 0 };

    run_cli (&lora, "--params", "7B", "--mode", "training", "--finetune", "lora", "--lora-rank", "64",
             "--lora-targets", "q,v", "--no-flash-attention", NULL);
    g_assert_cmpint (lora.status, ==, 0);
    g_assert_nonnull (strstr (lora.err, "--lora-rank applies to the architecture method"));
    g_assert_nonnull (strstr (lora.err, "--lora-targets applies to the architecture method"));
    g_assert_nonnull (strstr (lora.err, "--flash-attention applies to the architecture method"));
  }
}

/* In inference the rule of thumb's KV cache is a share of the 16-bit weights: the KV
 * precision, flash attention and llama.cpp's cache types change nothing (the seed's 7B stays
 * 18.8 GB) and each gets the note; the architecture method uses them and says nothing */
static void
test_other_method_inference_option (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_auto(VcTestRun) a = { 0 };

  run_cli (&r, "--params", "7B", "--method", "rule-of-thumb", "--kv-precision", "fp8", "--no-flash-attention",
           "--engine", "llama.cpp", "--cache-type-v", "f32", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "18.8\u00a0GB\n"));
  g_assert_cmpstr (r.err, ==,
                   "vramcalc: note: --kv-precision applies to the architecture method; the estimate by parameter "
                   "count does not use it (add --method architecture)\n"
                   "vramcalc: note: --flash-attention applies to the architecture method; the estimate by parameter "
                   "count does not use it (add --method architecture)\n"
                   "vramcalc: note: --cache-type-v applies to the architecture method; the estimate by parameter "
                   "count does not use it (add --method architecture)\n");
  run_cli (&a, "--preset", "llama-3-8b", "--kv-precision", "fp8", "--no-flash-attention", NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_null (strstr (a.err, "applies to the architecture method"));
}

/* Checkpointing is the rule of thumb's too: its activations (7e9 × 2 × 2048 / 20480 = 1.4 GB
 * with none) keep 2/L of a 32-layer default with full checkpointing, 2/80 with --layers 80:
 * neither option gets the note */
static void
test_method_option_used (void)
{
  g_auto(VcTestRun) c = { 0 };
  g_auto(VcTestRun) l = { 0 };

  run_cli (&c, "--params", "7B", "--mode", "training", "--method", "rule-of-thumb", "--checkpointing", "full", NULL);
  g_assert_cmpint (c.status, ==, 0);
  g_assert_nonnull (strstr (c.out, "86.1\u00a0GB\n"));
  g_assert_null (strstr (c.err, "applies to the architecture method"));
  run_cli (&l, "--params", "7B", "--mode", "training", "--method", "rule-of-thumb", "--checkpointing", "full",
           "--layers", "80", NULL);
  g_assert_cmpint (l.status, ==, 0);
  g_assert_nonnull (strstr (l.out, "86.0\u00a0GB\n"));
  g_assert_null (strstr (l.err, "applies to the architecture method"));
}

/* The catalog's file @name of Qwen3-VL-8B-Instruct (data/models), copied into @dir */
static void
copy_qwen3_vl_file (const char *dir,
                    const char *name)
{
  g_autofree char *src = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "..", "data", "models",
                                           "qwen3-vl-8b-instruct", name, NULL);
  g_autofree char *dest = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;
  gsize length;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (src, &text, &length, &error));
  g_assert_true (g_file_set_contents (dest, text, (gssize) length, &error));
}

/* The engine object of vramcalc's JSON for Qwen3-VL-8B under vLLM on an H100 at --seq 32768, the
 * model given by @how (--preset or --config) and @model, into @parser */
static JsonObject *
qwen3_vl_engine (JsonParser *parser,
                 const char *how,
                 const char *model)
{
  g_auto(VcTestRun) r = { 0 };

  run_cli (&r, how, model, "--engine", "vllm", "--seq", "32768", "--fit-gpu", "h100-80gb", "--format", "json", NULL);
  return json_object_get_object_member (parse (parser, &r), "engine");
}

/* Qwen3-VL from a folder with Qwen's files (the catalog's copies: config.json with rope_scaling's
 * mrope_section, preprocessor_config.json, video_preprocessor_config.json; FORMULAS.md,
 * "Multimodal models"): vLLM's profile of one 4,096² image end to end, in JSON and in the text
 * report, the no-figure text without the files, and the catalog's preset, which carries the same
 * files, giving the same engine object to the token */
static void
test_qwen3_vl_folder (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("qwen3-vl-folder");
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonNode) folder_node = NULL;
  g_autoptr(JsonNode) preset_node = NULL;
  g_auto(VcTestRun) r = { 0 };
  JsonObject *engine, *mm;

  copy_qwen3_vl_file (dir, "config.json");
  copy_qwen3_vl_file (dir, "preprocessor_config.json");
  /* without the video processor's file: no figure, the files named */
  run_cli (&r, "--config", dir, "--engine", "vllm", "--seq", "32768", "--fit-gpu", "h100-80gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "followed for Qwen3-VL from release 0.11 to 0.20"));
  g_assert_nonnull (strstr (r.out, "video_preprocessor_config.json"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  copy_qwen3_vl_file (dir, "video_preprocessor_config.json");
  engine = qwen3_vl_engine (p1, "--config", dir);
  g_assert_true (json_object_get_null_member (engine, "no_figure"));
  g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 350560);
  mm = json_object_get_object_member (engine, "vllm_mm_profile");
  g_assert_cmpint (json_object_get_int_member (mm, "images"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (mm, "encoder_budget_tokens"), ==, 16384);
  g_assert_cmpint (json_object_get_int_member (mm, "encoder_pass_bytes"), ==, 2425356288);
  g_assert_cmpint (json_object_get_int_member (mm, "embeddings_bytes"), ==, 738197504);
  g_assert_cmpint (json_object_get_int_member (mm, "deepstack_buffer_bytes"), ==, 201326592);
  /* the preset: the same files, the same engine object */
  folder_node = json_node_init_object (json_node_alloc (), engine);
  preset_node = json_node_init_object (json_node_alloc (), qwen3_vl_engine (p2, "--preset", "qwen3-vl-8b-instruct"));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (preset_node), "kv_capacity_tokens"), ==, 350560);
  g_assert_true (json_node_equal (folder_node, preset_node));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json_parser_get_root (p1)), "rope_table_bytes"), ==,
                   268435456);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json_parser_get_root (p2)), "rope_table_bytes"), ==,
                   268435456);
  run_cli (&r, "--config", dir, "--engine", "vllm", "--seq", "32768", "--fit-gpu", "h100-80gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "  vLLM’s profile run passes 1 image through the vision encoder (2.43\u00a0GB at its "
                                   "peak)"));
  g_assert_nonnull (strstr (r.out, "made with the model: 201\u00a0MB"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  /* --explain names the buffers beside the encoder's pass */
  run_cli (&r, "--config", dir, "--engine", "vllm", "--seq", "32768", "--fit-gpu", "h100-80gb", "--explain", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "the text pass adds to, with Qwen3-VL’s deepstack buffers (201\u00a0MB) held "
                                   "throughout"));
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  /* release 0.10 is not followed */
  run_cli (&r, "--config", dir, "--engine", "vllm", "--engine-version", "0.10", "--seq", "32768", "--fit-gpu",
           "h100-80gb", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "or release 0.10 or 0.21 and later, not read"));
  vc_test_remove_tree (dir);
}

/* --mm-encoder-tp-mode: vLLM's, in its JSON engine object and its command line; refused with
 * another engine rather than ignored */
static void
test_mm_encoder_tp_mode (void)
{
  g_autoptr(JsonParser) p = json_parser_new ();
  JsonObject *root, *engine;

  {
    g_auto(VcTestRun) r = { 0 };

    run_cli (&r, "--preset", "llama-4-scout-17b-16e", "--engine", "vllm", "--tp", "2", "--mm-encoder-tp-mode", "data",
             "--fit-gpu", "h200", "--format", "json", NULL);
    root = parse (p, &r);
    engine = json_object_get_object_member (root, "engine");
    g_assert_cmpstr (json_object_get_string_member (engine, "mm_encoder_tp_mode"), ==, "data");
  }
  {
    g_auto(VcTestRun) r = { 0 };

    run_cli (&r, "--preset", "llama-4-scout-17b-16e", "--engine", "vllm", "--tp", "2", "--mm-encoder-tp-mode", "data",
             "--print-command", "vllm", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, " --tensor-parallel-size 2 ") );
    g_assert_nonnull (strstr (r.out, " --mm-encoder-tp-mode data"));
  }
  {
    g_auto(VcTestRun) r = { 0 };

    run_cli (&r, "--preset", "llama-4-scout-17b-16e", "--engine", "sglang", "--mm-encoder-tp-mode", "data", NULL);
    g_assert_cmpint (r.status, !=, 0);
    g_assert_nonnull (strstr (r.err, "the encoder TP mode data is vLLM’s (--mm-encoder-tp-mode data)"));
  }
  {
    g_auto(VcTestRun) r = { 0 };

    run_cli (&r, "--preset", "llama-4-scout-17b-16e", "--engine", "vllm", "--mm-encoder-tp-mode", "tensor", NULL);
    g_assert_cmpint (r.status, !=, 0);
    g_assert_nonnull (strstr (r.err, "weights"));
  }
  {
    g_auto(VcTestRun) r = { 0 };

    /* Qwen3-VL's class replicates its whole tower, the mergers included */
    run_cli (&r, "--preset", "qwen3-vl-8b-instruct", "--engine", "vllm", "--tp", "2", "--mm-encoder-tp-mode", "data",
             "--explain", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "; of the vision encoder’s 576.4M parameters, with vLLM’s --mm-encoder-tp-mode "
                                     "data all whole on each of the 2 tensor-parallel ranks"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/seed-json", test_seed_json);
  g_test_add_func ("/cli/other-method-inference-option", test_other_method_inference_option);
  g_test_add_func ("/cli/context-warning", test_context_warning);
  g_test_add_func ("/cli/mm-encoder-tp-mode", test_mm_encoder_tp_mode);
  g_test_add_func ("/cli/qwen3-vl-folder", test_qwen3_vl_folder);
  g_test_add_func ("/cli/other-mode-option", test_other_mode_option);
  g_test_add_func ("/cli/other-method-option", test_other_method_option);
  g_test_add_func ("/cli/method-option-used", test_method_option_used);
  g_test_add_func ("/cli/seed-training-json", test_seed_training_json);
  g_test_add_func ("/cli/preset-json", test_preset_json);
  g_test_add_func ("/cli/vllm-mxfp4-json", test_vllm_mxfp4_json);
  g_test_add_func ("/cli/vllm-mxfp4-marlin-json", test_vllm_mxfp4_marlin_json);
  g_test_add_func ("/cli/vllm-sampler-json", test_vllm_sampler_json);
  g_test_add_func ("/cli/vllm-mxfp4-triton-json", test_vllm_mxfp4_triton_json);
  g_test_add_func ("/cli/vllm-mxfp4-auto-json", test_vllm_mxfp4_auto_json);
  g_test_add_func ("/cli/vllm-mxfp4-stages-json", test_vllm_mxfp4_stages_json);
  g_test_add_func ("/cli/vllm-moe-uncounted-json", test_vllm_moe_uncounted_json);
  g_test_add_func ("/cli/trainer-loss-json", test_trainer_loss_json);
  g_test_add_func ("/cli/optimizer-step-json", test_optimizer_step_json);
  g_test_add_func ("/cli/optimizer-step-layout", test_optimizer_step_layout);
  g_test_add_func ("/cli/table-and-lists", test_table_and_lists);
  g_test_add_func ("/cli/rejections", test_rejections);
  g_test_add_func ("/cli/unused-training-options", test_unused_training_options);
  g_test_add_func ("/cli/custom-gpus", test_custom_gpus);
  g_test_add_func ("/cli/speed-fields", test_speed_fields);
  g_test_add_func ("/cli/this-computer", test_this_computer);
  g_test_add_func ("/cli/extremes", test_extremes);
  return g_test_run ();
}
