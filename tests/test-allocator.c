/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PyTorch's caching allocator (vc-allocator.c) against block roundings worked by hand from
 * c10/cuda/CUDACachingAllocator.cpp: round_size, get_allocation_size, should_split, best fit,
 * merging, and expandable segments' pages. And the training estimate's reserve around it. */
#include "config.h"

#include <glib.h>

#include "vc-allocator.h"
#include "vc-estimator.h"

#define MiB 1048576.0

static void
test_round_size (void)
{
  /* at least 512 bytes, in multiples of 512 */
  g_assert_cmpfloat (vc_allocator_round_size (0), ==, 512);
  g_assert_cmpfloat (vc_allocator_round_size (1), ==, 512);
  g_assert_cmpfloat (vc_allocator_round_size (512), ==, 512);
  g_assert_cmpfloat (vc_allocator_round_size (513), ==, 1024);
  g_assert_cmpfloat (vc_allocator_round_size (1000000), ==, 1000448);
  /* get_allocation_size: ≤ 1 MiB → 2 MiB; < 10 MiB → 20 MiB; else rounded up to 2 MiB */
  g_assert_cmpfloat (vc_allocator_segment_size (512), ==, 2 * MiB);
  g_assert_cmpfloat (vc_allocator_segment_size (MiB), ==, 2 * MiB);
  g_assert_cmpfloat (vc_allocator_segment_size (MiB + 512), ==, 20 * MiB);
  g_assert_cmpfloat (vc_allocator_segment_size (10 * MiB - 512), ==, 20 * MiB);
  g_assert_cmpfloat (vc_allocator_segment_size (10 * MiB), ==, 10 * MiB);
  g_assert_cmpfloat (vc_allocator_segment_size (10 * MiB + 512), ==, 12 * MiB);
  g_assert_cmpfloat (vc_allocator_segment_size (100e6), ==, 48 * 2 * MiB);
}

static void
test_small_pool (void)
{
  g_autoptr(VcAllocator) a = vc_allocator_new (FALSE);
  guint x, y;

  /* 1000 bytes → a 1024-byte block split off a fresh 2 MiB segment */
  x = vc_allocator_malloc (a, 1000);
  g_assert_cmpfloat (vc_allocator_allocated (a), ==, 1024);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 2 * MiB);
  /* the rest of the segment (2 MiB − 1024) holds a 1 MiB request */
  y = vc_allocator_malloc (a, MiB);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 2 * MiB);
  g_assert_cmpfloat (vc_allocator_allocated (a), ==, 1024 + MiB);
  /* what is left, 1 MiB − 1024, does not hold another 1 MiB: a second segment */
  vc_allocator_malloc (a, MiB);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 4 * MiB);
  g_assert_cmpuint (vc_allocator_n_segments (a), ==, 2);
  /* freed and merged, the first segment is one 2 MiB block again: two 1 MiB requests fit it,
   * no third segment */
  vc_allocator_release (a, x);
  vc_allocator_release (a, y);
  vc_allocator_malloc (a, MiB);
  vc_allocator_malloc (a, MiB);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 4 * MiB);
  g_assert_cmpfloat (vc_allocator_allocated (a), ==, 3 * MiB);
  /* 2 MiB − 4096 is a large request: a 20 MiB segment of the large pool */
  vc_allocator_malloc (a, 2 * MiB - 4096);
  g_assert_cmpfloat (vc_allocator_peak_reserved (a), ==, 24 * MiB);
}

static void
test_large_pool (void)
{
  g_autoptr(VcAllocator) a = vc_allocator_new (FALSE);
  guint x;

  /* 3 MiB: a 20 MiB segment, split (17 MiB remain, more than 1 MiB) */
  x = vc_allocator_malloc (a, 3 * MiB);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 20 * MiB);
  g_assert_cmpfloat (vc_allocator_allocated (a), ==, 3 * MiB);
  /* 16.5 MiB fits the 17 MiB remainder, which is not split (0.5 MiB left, not more than
   * 1 MiB): the block allocated is the whole 17 MiB */
  vc_allocator_malloc (a, 16.5 * MiB);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 20 * MiB);
  g_assert_cmpfloat (vc_allocator_allocated (a), ==, 20 * MiB);
  /* 25 MB: its own segment of 25,165,824 bytes (12 × 2 MiB) */
  vc_allocator_malloc (a, 25e6);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 20 * MiB + 24 * MiB);
  /* the freed 3 MiB block holds a 2 MiB request, split is refused (1 MiB left is not more
   * than 1 MiB): no new segment */
  vc_allocator_release (a, x);
  vc_allocator_malloc (a, 2 * MiB);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 44 * MiB);
  g_assert_cmpfloat (vc_allocator_allocated (a), ==, 20 * MiB + 24 * MiB);
  /* a 30 MiB request fits no cached block: a segment of 30 MiB */
  vc_allocator_malloc (a, 30 * MiB);
  g_assert_cmpfloat (vc_allocator_peak_reserved (a), ==, 74 * MiB);
}

static void
test_expandable (void)
{
  g_autoptr(VcAllocator) a = vc_allocator_new (TRUE);
  guint x;

  /* the large pool's segment grows by 20 MiB pages: 25 MB → 2 pages */
  x = vc_allocator_malloc (a, 25e6);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 40 * MiB);
  g_assert_cmpuint (vc_allocator_n_segments (a), ==, 1);
  /* the free tail (40 MiB − 25,000,192) plus one more page holds 20 MiB */
  vc_allocator_malloc (a, 20 * MiB);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 60 * MiB);
  g_assert_cmpuint (vc_allocator_n_segments (a), ==, 1);
  /* freed, the 25,000,448-byte block takes a 24 MB request (24,000,000: a whole number of
   * 512-byte blocks) and is split, 1,000,448 bytes remaining (expandable: split from 512) */
  vc_allocator_release (a, x);
  vc_allocator_malloc (a, 24e6);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 60 * MiB);
  g_assert_cmpfloat (vc_allocator_allocated (a), ==, 24000000 + 20 * MiB);
  /* the small pool grows by 2 MiB pages */
  vc_allocator_malloc (a, 4096);
  g_assert_cmpfloat (vc_allocator_reserved (a), ==, 62 * MiB);
}

/* The training estimate: the reserve never falls below the allocated total, only training
 * with the architecture has one, and expandable segments cache less */
static void
test_training_reserve (void)
{
  VcInputs in;
  VcResult plain, expandable;
  const VcScenarioResult *p, *x;

  vc_inputs_init_default (&in);
  in.mode = VC_MODE_TRAINING;
  in.method = VC_METHOD_ARCHITECTURE;
  in.finetune = VC_FINETUNE_FULL;
  in.batch = 2;
  in.seq = 4096;
  vc_estimator_compute (&in, &plain);
  g_assert_cmpfloat (plain.scenarios[plain.selected].reserved, ==, plain.scenarios[plain.selected].total);
  vc_estimator_add_reserve (&in, &plain);
  in.expandable_segments = TRUE;
  vc_estimator_compute (&in, &expandable);
  vc_estimator_add_reserve (&in, &expandable);
  p = &plain.scenarios[plain.selected];
  x = &expandable.scenarios[expandable.selected];
  g_assert_cmpfloat (p->total, ==, x->total);
  g_assert_cmpfloat (p->reserved, >, p->total);
  g_assert_cmpfloat (x->reserved, >=, x->total);
  g_assert_cmpfloat (x->reserved, <, p->reserved);
  g_assert_true (vc_estimator_models_reserve (&in));

  in.mode = VC_MODE_INFERENCE;
  g_assert_false (vc_estimator_models_reserve (&in));
  vc_estimator_compute (&in, &plain);
  vc_estimator_add_reserve (&in, &plain);
  g_assert_cmpfloat (plain.scenarios[plain.selected].reserved, ==, plain.scenarios[plain.selected].total);
  in.mode = VC_MODE_TRAINING;
  in.method = VC_METHOD_RULE_OF_THUMB;
  g_assert_false (vc_estimator_models_reserve (&in));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/allocator/round-size", test_round_size);
  g_test_add_func ("/allocator/small-pool", test_small_pool);
  g_test_add_func ("/allocator/large-pool", test_large_pool);
  g_test_add_func ("/allocator/expandable-segments", test_expandable);
  g_test_add_func ("/allocator/training-reserve", test_training_reserve);
  return g_test_run ();
}
