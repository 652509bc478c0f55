/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-batch-key.c: a value at a card's vLLM batch, the memos' key (vc-batch-key.h). */
#define G_LOG_DOMAIN "vc-batch-key"

#include "config.h"

#include "vc-batch-key.h"

VcBatchKey
vc_batch_key (const VcInputs *in,
              gint64          value)
{
  return (VcBatchKey) { value, in->max_num_batched_tokens, in->max_num_seqs, in->gpu_sm_count, in->vllm_card_cc };
}

guint
vc_batch_key_hash (gconstpointer p)
{
  const VcBatchKey *k = p;

  return g_int64_hash (&k->value) ^ (k->batch_tokens * 2654435761u) ^ (k->batch_seqs * 40503u) ^ (k->sm_count * 97u) ^ (k->card_cc * 7919u);
}

gboolean
vc_batch_key_equal (gconstpointer a,
                    gconstpointer b)
{
  const VcBatchKey *x = a, *y = b;

  return x->value == y->value && x->batch_tokens == y->batch_tokens && x->batch_seqs == y->batch_seqs &&
         x->sm_count == y->sm_count && x->card_cc == y->card_cc;
}

GHashTable *
vc_batch_key_table_new (GDestroyNotify value_free)
{
  return g_hash_table_new_full (vc_batch_key_hash, vc_batch_key_equal, g_free, value_free);
}

gpointer
vc_batch_key_dup (const VcBatchKey *key)
{
  return g_memdup2 (key, sizeof *key);
}
