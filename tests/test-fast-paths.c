/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The quick ways the reports and the layout searches take, checked equal to the plain ones
 * they stand for over many inputs:
 *   - vc_json_fix_numbers(), which copies a report's text in runs, against the character by
 *     character copy it replaced (kept here as the reference), on random JSON-like texts and
 *     real reports;
 *   - vc_estimator_inference_memory(), the KV cache, sequence state and activations that a
 *     layout's stages read, against every scenario of the full estimate, for every preset
 *     under each engine, KV precision, context, batch and concurrency;
 *   - vc_inventory_shard_bytes_experts(), a stage's weights and experts in one pass, against
 *     vc_inventory_shard_bytes() asked twice, for every preset's tensors on many shards;
 *   - vc_escape_controls(), which copies printable ASCII in runs, against the character by
 *     character escape it replaced, on random texts of controls, bytes that are not UTF-8 and
 *     characters of every width, and on real reports.
 */
#include "config.h"

#include <string.h>

#include "vc-catalog.h"
#include "vc-estimate.h"
#include "vc-inventory.h"
#include "vc-json-input.h"
#include "vc-report.h"
#include "vc-text.h"
#include "vc-test-util.h"

/* vc_json_fix_numbers() as it was, one character at a time */
static char *
reference_fix_numbers (const char *text)
{
  GString *out = g_string_sized_new (strlen (text));
  const char *p = text;

  while (*p)
    {
      if (*p == '"')
        {
          const char *start = p++;

          while (*p && *p != '"')
            p += (p[0] == '\\' && p[1]) ? 2 : 1;
          if (*p)
            p++;
          g_string_append_len (out, start, p - start);
          continue;
        }
      if (*p == '-' || g_ascii_isdigit (*p))
        {
          const char *start = p, *e = NULL, *point = NULL;

          while (*p == '-' || *p == '+' || *p == '.' || *p == 'e' || *p == 'E' || g_ascii_isdigit (*p))
            {
              if ((*p == 'e' || *p == 'E') && e == NULL)
                e = p;
              else if (*p == '.' && point == NULL)
                point = p;
              p++;
            }
          if (e != NULL && point != NULL && point > e && p - point == 2 && point[1] == '0')
            {
              g_string_append_len (out, start, e - start);
              g_string_append (out, ".0");
              g_string_append_len (out, e, point - e);
            }
          else
            g_string_append_len (out, start, p - start);
          continue;
        }
      g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

static void
check_fix_numbers (const char *text)
{
  g_autofree char *expected = reference_fix_numbers (text);
  g_autofree char *fixed = vc_json_fix_numbers (text);

  if (strcmp (fixed, expected) != 0)
    g_error ("vc_json_fix_numbers (\"%s\") = \"%s\", expected \"%s\"", text, fixed, expected);
}

static void
test_fix_numbers_random (void)
{
  /* the characters the function looks at, twice as likely as the rest, and pieces of the
   * numbers it rewrites */
  static const char alphabet[] = "\"\\-+.eE0123456789\"\\-+.eE0123456789 ,:[]{}aZ\n";
  static const char *const pieces[] = { "1e+20.0", "2e-08.0", "E5.0", ".0", ".00", "\\\"", "-", "e" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  guint changed = 0;

  for (guint i = 0; i < 200000; i++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      guint len = g_rand_int_range (rand, 0, 24);
      g_autofree char *fixed = NULL;

      for (guint k = 0; k < len; k++)
        if (g_rand_int_range (rand, 0, 3) == 0)
          g_string_append (text, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
        else
          g_string_append_c (text, alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]);
      check_fix_numbers (text->str);
      fixed = vc_json_fix_numbers (text->str);
      changed += strcmp (fixed, text->str) != 0;
    }
  /* the texts exercise the rewrite, not only the copy */
  g_assert_cmpuint (changed, >, 20000);

  check_fix_numbers ("");
  check_fix_numbers ("\"unterminated \\");
  check_fix_numbers ("[2e-08.0,1e+20.0,\"2e-08.0\",-3E5.0,1e5.00,1.5e3.0]");
  {
    g_autofree char *fixed = vc_json_fix_numbers ("[2e-08.0,\"2e-08.0\",1e+20.0,\"\\\"1e5.0\"]");

    g_assert_cmpstr (fixed, ==, "[2.0e-08,\"2e-08.0\",1.0e+20,\"\\\"1e5.0\"]");
  }
}

/* Whole reports: the GPU table's hundreds of kB, as the JSON report and a profile give them */
static void
test_fix_numbers_reports (void)
{
  static const char *const presets[] = { "llama-3.1-8b", "mixtral-8x7b", "deepseek-r1" };

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    for (VcMode mode = VC_MODE_INFERENCE; mode <= VC_MODE_TRAINING; mode++)
      {
        g_autoptr(VcEstimate) e = vc_estimate_new ();
        g_autofree char *json = NULL;
        g_autofree char *raw = NULL;

        g_assert_true (vc_estimate_set_preset (e, presets[i], NULL));
        g_object_set (e, "mode", mode, "overhead-gb", 2e-8, NULL);
        json = vc_report_json (e);
        g_assert_cmpuint (strlen (json), >, 10000);
        check_fix_numbers (json);
        /* json-glib's own form of the same numbers, before the fix */
        raw = g_strdup (json);
        for (char *p = strstr (raw, ".0e"); p != NULL; p = strstr (p + 1, ".0e"))
          {
            char *end = p + 3 + strspn (p + 3, "+-0123456789");

            memmove (p, p + 2, end - p - 2);
            memcpy (end - 2, ".0", 2);
          }
        check_fix_numbers (raw);
        {
          g_autofree char *fixed = vc_json_fix_numbers (raw);

          g_assert_cmpstr (fixed, ==, json);
        }
      }
}

/* vc_escape_controls() as it was, one character at a time */
static gboolean
reference_is_control (gunichar c)
{
  return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0);
}

static char *
reference_escape_controls (const char *text,
                           gboolean    keep_lines)
{
  GString *s = g_string_new (NULL);
  const char *p, *end = text + strlen (text);

  for (p = text; p < end;)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (s, "\\x%02X", (guchar) *p);
          p++;
          continue;
        }
      if (!reference_is_control (c) || (keep_lines && (c == '\n' || c == '\t')))
        g_string_append_len (s, p, g_utf8_next_char (p) - p);
      else if (c == '\r')
        g_string_append (s, "\\r");
      else if (c == '\n')
        g_string_append (s, "\\n");
      else if (c == '\t')
        g_string_append (s, "\\t");
      else if (c == 0x1b)
        g_string_append (s, "\\e");
      else if (c < 0x80)
        g_string_append_printf (s, "\\x%02X", c);
      else
        g_string_append_printf (s, "\\u%04X", c);
      p = g_utf8_next_char (p);
    }
  return g_string_free (s, FALSE);
}

static void
check_escape (const char *text)
{
  for (int keep = FALSE; keep <= TRUE; keep++)
    {
      g_autofree char *expected = reference_escape_controls (text, keep);
      g_autofree char *escaped = vc_escape_controls (text, keep);

      if (strcmp (escaped, expected) != 0)
        g_error ("vc_escape_controls (\"%s\", %d) = \"%s\", expected \"%s\"", text, keep, escaped, expected);
    }
}

static void
test_escape_random (void)
{
  /* controls, DEL, C1 controls, characters of two, three and four bytes, bytes that are not
   * UTF-8 (a lone continuation byte, a cut sequence, 0xFF), beside printable ASCII */
  static const char *const pieces[] = {
    "\n", "\t", "\r", "\x1b", "\x01", "\x1f", "\x7f", " ", "~", "a", "Z0", "\\",
    "\xc2\x85", "\xc2\x9f", "\xc2\xa0", "\xc3\xa9", "\xe2\x80\xa8", "\xf0\x9f\x98\x80",
    "\x80", "\xc3", "\xe2\x80", "\xff", "\xed\xa0\x80",
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (31);
  guint changed = 0;

  for (guint i = 0; i < 100000; i++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      guint len = g_rand_int_range (rand, 0, 16);
      g_autofree char *escaped = NULL;

      for (guint k = 0; k < len; k++)
        g_string_append (text, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
      check_escape (text->str);
      escaped = vc_escape_controls (text->str, TRUE);
      changed += strcmp (escaped, text->str) != 0;
    }
  /* the texts exercise the escapes, not only the copy */
  g_assert_cmpuint (changed, >, 50000);
  check_escape ("");
  {
    g_autofree char *escaped = vc_escape_controls ("a\tb\nc\x1b[2J\xc2\x85\xff", TRUE);

    g_assert_cmpstr (escaped, ==, "a\tb\nc\\e[2J\\u0085\\xFF");
  }
}

/* Whole reports as the command line prints them */
static void
test_escape_reports (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autofree char *table = NULL;
  g_autofree char *json = NULL;

  g_assert_true (vc_estimate_set_preset (e, "llama-3.1-8b", NULL));
  table = vc_report_table (e, TRUE, VC_UNIT_GB);
  json = vc_report_json (e);
  g_assert_cmpuint (strlen (table), >, 2000);
  check_escape (table);
  check_escape (json);
}

static void
check_memory (const VcInputs *in,
              guint          *n_checked)
{
  VcResult r;
  double kv, state, activations;

  vc_estimator_compute (in, &r);
  vc_estimator_inference_memory (in, &kv, &state, &activations);
  for (guint s = 0; s < r.n_scenarios; s++)
    {
      const VcScenarioResult *sc = &r.scenarios[s];

      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_KV_CACHE], ==, kv);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_SEQUENCE_STATE], ==, state);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_ACTIVATIONS], ==, activations);
      (*n_checked)++;
    }
}

static void
test_inference_memory (void)
{
  static const char *const engines[] = { "generic", "vllm", "sglang", "llama.cpp", "transformers", "ollama" };
  static const char *const kv[] = { "fp16", "fp8", "q8_0" };
  static const guint seqs[] = { 1, 4096, 131072 };
  guint n_presets, n_checked = 0, n_inputs = 0;
  const VcPreset *presets = vc_presets_get_all (&n_presets);

  for (guint p = 0; p < n_presets; p++)
    for (guint g = 0; g < G_N_ELEMENTS (engines); g++)
      for (guint k = 0; k < G_N_ELEMENTS (kv); k++)
        {
          g_autoptr(VcEstimate) e = vc_estimate_new ();

          g_assert_true (vc_estimate_set_preset (e, presets[p].id, NULL));
          g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "mode", VC_MODE_INFERENCE, NULL);
          if (!vc_estimate_set_from_string (e, "engine", engines[g], NULL) ||
              !vc_estimate_set_from_string (e, "kv-precision", kv[k], NULL))
            continue;
          for (guint s = 0; s < G_N_ELEMENTS (seqs); s++)
            {
              VcInputs in = *vc_estimate_get_inputs (e);

              in.seq = seqs[s];
              in.batch = 1 + s;
              in.concurrency = 1 + 7 * s;
              check_memory (&in, &n_checked);
              n_inputs++;
            }
        }
  g_test_message ("%u inputs, %u scenarios", n_inputs, n_checked);
  g_assert_cmpuint (n_inputs, >, 1000);
}

static void
test_shard_experts (void)
{
  static const guint tps[] = { 1, 2, 8 };
  static const guint eps[] = { 1, 4 };
  const guint32 all = (1u << VC_N_TENSOR_ROLES) - 1;
  const guint32 roles[] = {
    0, all & ~(VC_TENSOR_ROLE_BIT (VC_TENSOR_EMBEDDING) | VC_TENSOR_ROLE_BIT (VC_TENSOR_POSITIONS)),
    VC_TENSOR_ROLE_BIT (VC_TENSOR_EXPERTS), VC_TENSOR_ROLE_BIT (VC_TENSOR_HEAD),
  };
  guint n_presets, n_checked = 0, n_experts = 0;
  const VcPreset *presets = vc_presets_get_all (&n_presets);

  for (guint p = 0; p < n_presets; p++)
    {
      g_autoptr(VcEstimate) e = vc_estimate_new ();
      g_autoptr(VcInventory) inv = NULL;
      const VcInputs *in;
      guint L;

      g_assert_true (vc_estimate_set_preset (e, presets[p].id, NULL));
      g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "mode", VC_MODE_INFERENCE, NULL);
      in = vc_estimate_get_inputs (e);
      inv = vc_estimator_inventory (in, VC_SCENARIO_INFERENCE_16BIT);
      L = in->arch.n_layers;
      for (guint t = 0; t < G_N_ELEMENTS (tps); t++)
        for (guint x = 0; x < G_N_ELEMENTS (eps); x++)
          for (guint r = 0; r < G_N_ELEMENTS (roles); r++)
            for (guint flags = 0; flags < 8; flags++)
              for (guint first = 0; first <= L; first += MAX (1u, L / 3))
                for (guint n = 0; first + n <= L + 1; n += MAX (1u, L / 4))
                  {
                    VcShard shard = { tps[t], eps[x], first, n, flags & 1, (flags >> 1) & 1, (flags >> 2) & 1,
                                      roles[r] };
                    VcShard only = shard;
                    double experts, bytes = vc_inventory_shard_bytes_experts (inv, &shard, &experts);

                    only.roles = VC_TENSOR_ROLE_BIT (VC_TENSOR_EXPERTS);
                    g_assert_cmpfloat (bytes, ==, vc_inventory_shard_bytes (inv, &shard));
                    g_assert_cmpfloat (experts, ==, vc_inventory_shard_bytes (inv, &only));
                    n_checked++;
                    n_experts += experts > 0;
                  }
    }
  g_test_message ("%u shards, %u with experts", n_checked, n_experts);
  g_assert_cmpuint (n_experts, >, 1000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fast-paths/fix-numbers/random", test_fix_numbers_random);
  g_test_add_func ("/fast-paths/fix-numbers/reports", test_fix_numbers_reports);
  g_test_add_func ("/fast-paths/inference-memory", test_inference_memory);
  g_test_add_func ("/fast-paths/shard-experts", test_shard_experts);
  g_test_add_func ("/fast-paths/escape/random", test_escape_random);
  g_test_add_func ("/fast-paths/escape/reports", test_escape_reports);
  return g_test_run ();
}
