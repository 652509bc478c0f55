/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The process-wide memos (the allocator's replays, the weights' bytes, llama.cpp's graphs) from
 * several threads at once: every estimate must equal the one computed afresh, memos emptied,
 * whatever another thread remembers, replaces or forgets meanwhile; and the key of the layout
 * and solver memos (vc-batch-key.h). */
#include "config.h"

#include "vc-batch-key.h"
#include "vc-catalog.h"
#include "vc-engine.h"
#include "vc-estimator.h"
#include "vc-test-util.h"

#define N_THREADS 4
#define N_ROUNDS 20
/* the memos emptied after every this many tasks */
#define FORGET_EVERY 8

typedef struct
{
  VcInputs in;
  VcResult expected;
} Case;

static Case *cases;
static guint n_cases;
static gint mismatches;
static gint forgets;

/* Every figure of the results, each scenario's fields one by one (a struct's padding is not
 * part of it). */
static gboolean
same_result (const VcResult *a,
             const VcResult *b)
{
  if (a->n_scenarios != b->n_scenarios || a->selected != b->selected || a->parameters != b->parameters ||
      a->active_parameters != b->active_parameters || a->kv_bytes_per_token != b->kv_bytes_per_token ||
      a->overhead_bytes != b->overhead_bytes)
    return FALSE;
  for (guint i = 0; i < a->n_scenarios; i++)
    {
      const VcScenarioResult *x = &a->scenarios[i], *y = &b->scenarios[i];

      for (guint c = 0; c < VC_N_COMPONENTS; c++)
        if (x->bytes[c] != y->bytes[c])
          return FALSE;
      if (x->id != y->id || x->total != y->total || x->reserved != y->reserved || x->peak_phase != y->peak_phase ||
          x->trainable_parameters != y->trainable_parameters || x->weight_bits != y->weight_bits ||
          x->forward_activations != y->forward_activations || x->backward_activations != y->backward_activations ||
          x->gradient_bytes != y->gradient_bytes || x->step_temporary != y->step_temporary ||
          x->paged_optimizer != y->paged_optimizer)
        return FALSE;
    }
  return TRUE;
}

static void
estimate (const VcInputs *in,
          VcResult       *res)
{
  vc_estimator_compute (in, res);
  vc_estimator_add_reserve (in, res);
}

static void
add_case (const char *preset,
          ...)
{
  g_autoptr(VcEstimate) e = NULL;
  va_list args;
  const char *name;
  Case *c;

  e = vc_test_estimate_new (preset, NULL);
  va_start (args, preset);
  while ((name = va_arg (args, const char *)) != NULL)
    {
      g_autoptr(GError) error = NULL;
      const char *value = va_arg (args, const char *);

      if (!vc_estimate_set_from_string (e, name, value, &error))
        g_error ("%s=%s: %s", name, value, error->message);
    }
  va_end (args);
  cases = g_renew (Case, cases, n_cases + 1);
  c = &cases[n_cases++];
  c->in = *vc_estimate_get_inputs (e);
  g_assert_null (c->in.source_inventory);
  /* afresh: nothing remembered */
  vc_estimator_forget_memos ();
  estimate (&c->in, &c->expected);
}

/* A task: a case's estimate, compared with the fresh one; or, for the index n_cases, the memos
 * emptied while the other threads read them */
static void
run_task (gpointer data,
          gpointer user_data)
{
  guint i = GPOINTER_TO_UINT (data) - 1;
  VcResult res;

  if (i == n_cases)
    {
      vc_estimator_forget_memos ();
      g_atomic_int_inc (&forgets);
      return;
    }
  estimate (&cases[i].in, &res);
  if (!same_result (&res, &cases[i].expected))
    {
      g_test_message ("case %u: %.17g instead of %.17g reserved", i,
                      res.scenarios[res.selected].reserved, cases[i].expected.scenarios[cases[i].expected.selected].reserved);
      g_atomic_int_inc (&mismatches);
    }
}

static void
build_cases (void)
{
  static const char *const finetunes[] = { "full", "lora", "qlora-4bit" };
  static const char *const seqs[] = { "512", "1024" };
  static const char *const precisions[] = { "fp16", "int8", "int4", "q4_k_m", "q8_0" };

  /* training, architecture method: the allocator's replays */
  for (guint f = 0; f < G_N_ELEMENTS (finetunes); f++)
    for (guint s = 0; s < G_N_ELEMENTS (seqs); s++)
      {
        add_case ("llama-3.2-1b", "mode", "training", "finetune", finetunes[f], "seq", seqs[s], NULL);
        add_case ("qwen3-0.6b", "mode", "training", "finetune", finetunes[f], "seq", seqs[s], "batch", "2", NULL);
      }
  /* inference: the weights' bytes of each precision, and llama.cpp's graphs */
  for (guint p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      add_case ("llama-3.1-8b", "precision", precisions[p], NULL);
      add_case ("mixtral-8x7b", "precision", precisions[p], "seq", "4096", NULL);
      add_case ("llama-3.2-1b", "engine", "llama.cpp", "precision", precisions[p], "seq", "8192", NULL);
      add_case ("gemma-2-2b", "engine", "llama.cpp", "precision", precisions[p], "concurrency", "4", NULL);
    }
}

/* Each round pushes every case in an order of its own, the memos emptied along the way,
 * so that threads meet on the same keys: two replays of one key published one after the
 * other, a lookup beside a table emptied */
static void
test_memos_threads (void)
{
  g_autoptr(GError) error = NULL;
  GThreadPool *pool;
  GRand *rand = g_rand_new_with_seed (27);

  build_cases ();
  g_assert_cmpuint (n_cases, >=, 30);
  /* the training cases replay the allocator: their reserve is above their total */
  g_assert_cmpfloat (cases[0].expected.scenarios[cases[0].expected.selected].reserved, >,
                     cases[0].expected.scenarios[cases[0].expected.selected].total);

  pool = g_thread_pool_new (run_task, NULL, N_THREADS, TRUE, &error);
  g_assert_no_error (error);
  for (guint round = 0; round < N_ROUNDS; round++)
    {
      guint *order = g_new (guint, n_cases);

      for (guint i = 0; i < n_cases; i++)
        order[i] = i;
      for (guint i = n_cases - 1; i > 0; i--)
        {
          guint j = g_rand_int_range (rand, 0, i + 1), t = order[i];

          order[i] = order[j];
          order[j] = t;
        }
      for (guint i = 0; i < n_cases; i++)
        {
          /* each case twice in a row: two threads on one key */
          g_thread_pool_push (pool, GUINT_TO_POINTER (order[i] + 1), NULL);
          g_thread_pool_push (pool, GUINT_TO_POINTER (order[i] + 1), NULL);
          if (i % FORGET_EVERY == FORGET_EVERY - 1)
            g_thread_pool_push (pool, GUINT_TO_POINTER (n_cases + 1), NULL);
        }
      g_free (order);
    }
  g_thread_pool_free (pool, FALSE, TRUE);
  g_rand_free (rand);
  g_assert_cmpint (forgets, ==, N_ROUNDS * (n_cases / FORGET_EVERY));
  g_assert_cmpint (mismatches, ==, 0);
  g_free (cases);
}

/* The key of the layout and solver memos: a value at a card's vLLM batch. Two keys are one
 * exactly when the value and both batch figures are; vLLM's batch of an H100 and of an A100
 * differ (vc_engine_vllm_batch()), so one value is two entries there, and one under SGLang,
 * which has no such batch. */
static void
test_batch_key (void)
{
  g_autoptr(GHashTable) table = vc_batch_key_table_new (g_free);
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "engine", "vllm", NULL);
  VcInputs in = *vc_estimate_get_inputs (e), h100, a100;
  VcBatchKey k = vc_batch_key (&in, 42), same = k, other;

  g_assert_true (vc_batch_key_equal (&k, &same));
  g_assert_cmpuint (vc_batch_key_hash (&k), ==, vc_batch_key_hash (&same));
  other = k, other.value = 43;
  g_assert_false (vc_batch_key_equal (&k, &other));
  other = k, other.batch_tokens++;
  g_assert_false (vc_batch_key_equal (&k, &other));
  other = k, other.batch_seqs++;
  g_assert_false (vc_batch_key_equal (&k, &other));
  other = k, other.value += (gint64) 1 << 40;
  g_assert_false (vc_batch_key_equal (&k, &other));

  vc_engine_on_card (&in, vc_gpus_lookup ("h100-80gb"), &h100);
  vc_engine_on_card (&in, vc_gpus_lookup ("a100-80gb"), &a100);
  k = vc_batch_key (&h100, 7);
  g_assert_cmpuint (k.batch_tokens, ==, 8192);
  g_assert_cmpuint (k.batch_seqs, ==, 1024);
  g_hash_table_insert (table, vc_batch_key_dup (&k), g_strdup ("h100"));
  k = vc_batch_key (&a100, 7);
  g_assert_cmpuint (k.batch_tokens, ==, 2048);
  g_assert_null (g_hash_table_lookup (table, &k));
  g_hash_table_insert (table, vc_batch_key_dup (&k), g_strdup ("a100"));
  k = vc_batch_key (&h100, 7);
  g_assert_cmpstr (g_hash_table_lookup (table, &k), ==, "h100");
  g_assert_cmpuint (g_hash_table_size (table), ==, 2);

  in.engine = VC_ENGINE_SGLANG;
  vc_engine_on_card (&in, vc_gpus_lookup ("h100-80gb"), &h100);
  vc_engine_on_card (&in, vc_gpus_lookup ("a100-80gb"), &a100);
  k = vc_batch_key (&h100, 7);
  other = vc_batch_key (&a100, 7);
  g_assert_true (vc_batch_key_equal (&k, &other));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memos/threads", test_memos_threads);
  g_test_add_func ("/memos/batch-key", test_batch_key);
  return g_test_run ();
}
