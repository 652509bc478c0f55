/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU catalog (data/gpus.json): every card has its memory bandwidth and dense bf16 and fp8
 * rates, each with a source, and the cards people own and rent are there. */
#include "config.h"

#include <math.h>

#include "vc-catalog.h"

static const char *required_gpus[] = {
  "rtx-3060-12gb", "rtx-4060-8gb", "rtx-4070-12gb", "rtx-4080-16gb", "rtx-4090", "rtx-5070-ti",
  "rtx-5080", "rtx-5090", "a40", "h100-pcie", "h100-nvl",
  "h100-80gb", "h20", "gb200", "mi250x", "mi300x", "mi325x", "mi355x", "rx-7900-xtx",
  "apple-m3-max-128gb", "apple-m2-ultra-192gb", "gaudi-3", "arc-a770-16gb", "arc-b580-12gb",
};

static gboolean
is_source (const char *s)
{
  /* a page, a repository file or a document named with what was read there */
  return s != NULL && strlen (s) >= 20 &&
         (strstr (s, "http") != NULL || strstr (s, ".md") != NULL || strstr (s, "datasheet") != NULL);
}

static void
test_every_figure_sourced (void)
{
  guint n;
  const VcGpu *g = vc_gpus_get_all (&n);

  g_assert_cmpuint (n, >=, 30);
  for (guint i = 0; i < n; i++)
    {
      g_test_message ("%s", g[i].id);
      g_assert_cmpstr (g[i].vendor, !=, "");
      g_assert_true (isfinite (g[i].bandwidth_bytes_per_s));
      g_assert_cmpfloat (g[i].bandwidth_bytes_per_s, >=, 100e9);
      g_assert_cmpfloat (g[i].bandwidth_bytes_per_s, <=, 20e12);
      g_assert_cmpfloat (g[i].bf16_flops, >=, 10e12);
      g_assert_cmpfloat (g[i].bf16_flops, <=, 5000e12);
      /* FP8 is either absent or faster than 16-bit, never slower */
      g_assert_true (g[i].fp8_flops == 0 || g[i].fp8_flops >= g[i].bf16_flops);
      g_assert_true (is_source (g[i].bandwidth_source));
      g_assert_true (is_source (g[i].bf16_source));
      g_assert_true (is_source (g[i].fp8_source));
      g_assert_cmpfloat (g[i].capacity_bytes, >, 0);
      g_assert_cmpfloat (g[i].capacity_bytes, <=, g[i].memory_bytes * 1.1);
    }
}

static void
test_required_cards (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (required_gpus); i++)
    {
      g_test_message ("%s", required_gpus[i]);
      g_assert_nonnull (vc_gpus_lookup (required_gpus[i]));
    }
}

/* figures read from the sources named in data/gpus.json */
static void
test_values (void)
{
  const VcGpu *h100 = vc_gpus_lookup ("h100-80gb");
  const VcGpu *mi300x = vc_gpus_lookup ("mi300x");
  const VcGpu *a100 = vc_gpus_lookup ("a100-80gb");
  const VcGpu *r4090 = vc_gpus_lookup ("rtx-4090");

  g_assert_cmpfloat (h100->bandwidth_bytes_per_s, ==, 3350e9);
  g_assert_cmpfloat (h100->bf16_flops, ==, 989e12);
  g_assert_cmpfloat (h100->fp8_flops, ==, 1979e12);
  g_assert_cmpfloat (mi300x->bandwidth_bytes_per_s, ==, 5300e9);
  g_assert_cmpfloat (mi300x->fp8_flops, ==, 2610e12);
  g_assert_cmpfloat (a100->fp8_flops, ==, 0);
  g_assert_cmpfloat (fabs (r4090->bf16_flops - 165.15e12), <, 1e9);
  g_assert_cmpstr (h100->vendor, ==, "NVIDIA");
  g_assert_cmpstr (vc_gpus_lookup ("gaudi-3")->vendor, ==, "Intel");
}

/* RTX 5070 Ti: NVIDIA's 1,406 sparse FP4 TOPS / 2 (dense) / 2 (FP8) / 2 (FP32 accumulation)
 * = 175.75, / 2 again for 16-bit = 87.875, rounded to 0.1 in data/gpus.json; 16 GB, 896 GB/s.
 * H100 NVL: NVIDIA's 1,671 and 3,341 sparse TFLOPS halved; 94 GB, 3.9 TB/s.
 * Arc B580: Intel's 233 INT8 TOPS halved for XMX's 16-bit rate; no FP8; 12 GB, 456 GB/s. */
static void
test_added_cards (void)
{
  const VcGpu *r5070ti = vc_gpus_lookup ("rtx-5070-ti");
  const VcGpu *nvl = vc_gpus_lookup ("h100-nvl");
  const VcGpu *b580 = vc_gpus_lookup ("arc-b580-12gb");

  g_assert_cmpfloat (r5070ti->memory_bytes, ==, 16.0 * 1073741824);  /* sold in GiB */
  g_assert_cmpfloat (r5070ti->bandwidth_bytes_per_s, ==, 896e9);
  g_assert_cmpfloat (fabs (r5070ti->bf16_flops - 87.9e12), <, 1e9);
  g_assert_cmpfloat (fabs (r5070ti->fp8_flops - 175.8e12), <, 1e9);
  g_assert_cmpstr (r5070ti->vendor, ==, "NVIDIA");

  g_assert_cmpfloat (nvl->memory_bytes, ==, 94.0 * 1073741824);
  g_assert_cmpfloat (nvl->bandwidth_bytes_per_s, ==, 3900e9);
  g_assert_cmpfloat (fabs (nvl->bf16_flops - 835.5e12), <, 1e9);
  g_assert_cmpfloat (fabs (nvl->fp8_flops - 1670.5e12), <, 1e9);

  g_assert_cmpfloat (b580->memory_bytes, ==, 12.0 * 1073741824);
  g_assert_cmpfloat (b580->bandwidth_bytes_per_s, ==, 456e9);
  g_assert_cmpfloat (fabs (b580->bf16_flops - 116.5e12), <, 1e9);
  g_assert_cmpfloat (b580->fp8_flops, ==, 0);
  g_assert_cmpstr (b580->vendor, ==, "Intel");
}

/* unified memory: fits are checked against the share a GPU program may use, not the total */
static void
test_unified_memory (void)
{
  const VcGpu *m2 = vc_gpus_lookup ("apple-m2-ultra-192gb");
  const VcGpu *h100 = vc_gpus_lookup ("h100-80gb");

  g_assert_true (m2->unified_memory);
  g_assert_cmpfloat (m2->gpu_share, ==, 0.75);
  /* 192 GiB × 0.75 */
  g_assert_cmpfloat (m2->capacity_bytes, ==, 144.0 * 1073741824);
  g_assert_false (h100->unified_memory);
  g_assert_cmpfloat (h100->capacity_bytes, ==, 81559 * 1048576.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/catalog/every-figure-sourced", test_every_figure_sourced);
  g_test_add_func ("/catalog/required-cards", test_required_cards);
  g_test_add_func ("/catalog/values", test_values);
  g_test_add_func ("/catalog/added-cards", test_added_cards);
  g_test_add_func ("/catalog/unified-memory", test_unified_memory);
  return g_test_run ();
}
