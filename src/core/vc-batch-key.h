/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-batch-key.h: a value at a card's vLLM batch, the key of the memos that keep estimates
 * across the cards of one search (vc-layout.c's layouts, vc-solver.c's solves). What an
 * estimate computes depends on the card only through vLLM's batch defaults
 * (vc_engine_on_card()): max_num_batched_tokens, max_num_seqs, the SM count and the compute
 * capability beside the value searched. */
#pragma once

#include <glib.h>

#include "vc-estimator.h"

G_BEGIN_DECLS

typedef struct
{
  gint64 value;                    /* what the memo's search varies: a layout's degrees, a solve's value */
  guint batch_tokens;              /* vLLM: max_num_batched_tokens and max_num_seqs of the card */
  guint batch_seqs;
  guint sm_count;                  /* vLLM: the card's SMs (its Triton sampler's buffer) */
  guint card_cc;                   /* vLLM: the card's compute capability (its FP8 experts' class) */
} VcBatchKey;

/* @value at the batch of @inputs, as vc_engine_on_card() made it explicit for the card */
VcBatchKey  vc_batch_key           (const VcInputs *inputs,
                                    gint64          value);
guint       vc_batch_key_hash      (gconstpointer   key);
gboolean    vc_batch_key_equal     (gconstpointer   a,
                                    gconstpointer   b);
/* A table of VcBatchKey (copied in with vc_batch_key_dup()) to values freed by @value_free */
GHashTable *vc_batch_key_table_new (GDestroyNotify  value_free);
gpointer    vc_batch_key_dup       (const VcBatchKey *key);

G_END_DECLS
