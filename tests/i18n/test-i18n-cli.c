/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vramcalc in French and in English: translated labels, the locale's decimal separator and size
 * units in the table, plural forms, messages on stderr, and JSON and CSV that stay the same
 * whatever the locale. The French cases skip when the fr_FR.UTF-8 locale is not installed
 * (build-aux/test generates it). VC_LOCALEDIR points vramcalc at the build tree's catalogs. */
#include "config.h"

#include <glib.h>
#include <json-glib/json-glib.h>
#include <locale.h>

#include "vc-test-util.h"

#define NBSP "\u00a0"

static gboolean
french_available (void)
{
  const char *old = setlocale (LC_ALL, NULL);
  g_autofree char *saved = g_strdup (old);
  gboolean ok = setlocale (LC_ALL, "fr_FR.UTF-8") != NULL;

  setlocale (LC_ALL, saved);
  return ok;
}

/* Runs vramcalc with the arguments after the locale, in that locale (LANGUAGE follows it). */
static void
run_vramcalc (VcTestRun  *r,
              const char *locale,
              ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  const char *localedir = g_getenv ("VC_LOCALEDIR");
  const char *env[] = {
    "LC_ALL", locale,
    "LANGUAGE", g_str_has_prefix (locale, "fr") ? "fr" : "",
    "VC_LOCALEDIR", localedir,
    NULL
  };
  const char *arg;
  va_list ap;

  g_assert_nonnull (localedir);
  va_start (ap, locale);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  *r = (VcTestRun) { 0 };
  r->status = vc_test_run_vramcalc ((const char * const *) args->pdata, env, &r->out, &r->err);
}

static gboolean
run_succeeded (VcTestRun *r)
{
  if (r->status != 0)
    g_test_message ("vramcalc exited with %d; stderr: %s", r->status, r->err);
  return r->status == 0;
}

#define SKIP_WITHOUT_FRENCH()                                          \
  G_STMT_START {                                                       \
    if (!french_available ())                                          \
      {                                                                \
        g_test_skip ("the fr_FR.UTF-8 locale is not installed");       \
        return;                                                        \
      }                                                                \
  } G_STMT_END

/* On a mismatch, the whole output as TAP comments, one line each, then the failed assertion. */
static void
show_output (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    g_test_message ("| %s", lines[i]);
}

#define assert_contains(haystack, needle)                                          \
  G_STMT_START {                                                                   \
    if (strstr ((haystack), (needle)) == NULL)                                     \
      show_output (haystack);                                                      \
    g_assert_nonnull (strstr ((haystack), (needle)));                              \
  } G_STMT_END

#define assert_lacks(haystack, needle)                                             \
  G_STMT_START {                                                                   \
    if (strstr ((haystack), (needle)) != NULL)                                     \
      show_output (haystack);                                                      \
    g_assert_null (strstr ((haystack), (needle)));                                 \
  } G_STMT_END

static void
test_table_french (void)
{
  g_auto(VcTestRun) r = { 0 };

  SKIP_WITHOUT_FRENCH ();
  run_vramcalc (&r, "fr_FR.UTF-8", "--params", "7B", NULL);
  g_assert_true (run_succeeded (&r));

  /* labels */
  assert_contains (r.out, "Modèle" NBSP ": personnalisé\n");
  assert_contains (r.out, "Méthode" NBSP ": selon le nombre de paramètres\n");
  assert_contains (r.out, "Scénario");
  assert_contains (r.out, "Mémoire GPU requise");
  assert_contains (r.out, "Répartition pour Inférence (16" NBSP "bits)" NBSP ":\n");
  assert_contains (r.out, "Poids ");
  assert_contains (r.out, "Cache KV ");
  assert_contains (r.out, "Surcoût ");
  assert_contains (r.out, "Inférence" NBSP ": longueur de séquence 2048, lot 1, concurrence 1\n");
  /* numbers: decimal comma, French units after a no-break space */
  assert_contains (r.out, "* Inférence (16" NBSP "bits)               18,8" NBSP "Go\n");
  assert_contains (r.out, "  Inférence (8" NBSP "bits)                11,8" NBSP "Go\n");
  assert_contains (r.out, "Paramètres" NBSP ": 7,00" NBSP "Md\n");
  assert_contains (r.out, "T4 (16,1" NBSP "Go utilisables)");
  assert_contains (r.out, "  Total             18,8" NBSP "Go\n");
  assert_contains (r.out, "74" NBSP "%");
  /* nothing left in English */
  assert_lacks (r.out, "18.8");
  assert_lacks (r.out, NBSP "GB");
  assert_lacks (r.out, "Inference");
  assert_lacks (r.out, "Weights");
  assert_lacks (r.out, "needs");
  assert_lacks (r.out, "fits on");
  g_assert_cmpstr (r.err, ==, "");
}

/* vLLM's Mamba groups: the block line in French, and the reason where there is no figure */
static void
test_state_french (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_auto(VcTestRun) tp2 = { 0 };

  SKIP_WITHOUT_FRENCH ();
  run_vramcalc (&r, "fr_FR.UTF-8", "--preset", "granite-4.0-h-tiny", "--engine", "vllm", "--seq", "8192",
                "--kv-cache-memory", "20", "--fit-gpu", "h100-80gb", NULL);
  g_assert_true (run_succeeded (&r));
  assert_contains (r.out, " jetons, 203,4 requêtes de ");
  assert_contains (r.out, "  Bloc d’attention de 400 jetons, pour qu’une page (819" NBSP "ko) tienne l’état "
                          "d’une couche pour une requête\n");
  run_vramcalc (&tp2, "fr_FR.UTF-8", "--preset", "granite-4.0-h-tiny", "--engine", "vllm", "--tp", "2",
                "--precision", "fp8", "--fit-gpu", "h100-80gb", NULL);
  g_assert_true (run_succeeded (&tp2));
  assert_contains (tp2.out, "  Les groupes Mamba de vLLM sont suivis pour les versions 0.10 à 0.20");
  assert_contains (tp2.out, "(vLLM répète ce groupe sur chaque rang)");
  assert_lacks (tp2.out, "are followed");
}

static void
test_table_english (void)
{
  g_auto(VcTestRun) r = { 0 };

  /* C.UTF-8 ignores LANGUAGE: English whatever the translations installed */
  run_vramcalc (&r, "C.UTF-8", "--params", "7B", NULL);
  g_assert_true (run_succeeded (&r));
  assert_contains (r.out, "* Inference (16-bit)               18.8" NBSP "GB\n");
  assert_contains (r.out, "Parameters: 7.00B\n");
  assert_contains (r.out, "needs 2 GPUs · even split (10.4" NBSP "GB each)\n");
  assert_contains (r.out, "fits on 1\n");
  assert_lacks (r.out, "Go\n");
  assert_lacks (r.out, "18,8");
}

static void
test_binary_units_french (void)
{
  g_auto(VcTestRun) r = { 0 };

  SKIP_WITHOUT_FRENCH ();
  run_vramcalc (&r, "fr_FR.UTF-8", "--params", "7B", "--unit", "gib", NULL);
  g_assert_true (run_succeeded (&r));
  /* 18.8e9 bytes = 17.5 GiB */
  assert_contains (r.out, "* Inférence (16" NBSP "bits)              17,5" NBSP "Gio\n");
  assert_lacks (r.out, "GiB");
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);

  /* exaoctets and yobioctets: "137 Eo", "56,5 Yio" */
  run_vramcalc (&r, "fr_FR.UTF-8", "--batch", "1000000", "--seq", "100000000", NULL);
  g_assert_true (run_succeeded (&r));
  assert_contains (r.out, "  Total              137" NBSP "Eo\n");
  vc_test_run_clear (&r);
  memset (&r, 0, sizeof r);
  run_vramcalc (&r, "fr_FR.UTF-8", "--batch", "1000000", "--seq", "100000000", "--concurrency", "1000000",
                "--unit", "gib", NULL);
  g_assert_true (run_succeeded (&r));
  assert_contains (r.out, "  Total            56,5" NBSP "Yio\n");
}

/* French plurals: "2 GPU" (invariable), English "2 GPUs". */
static void
test_plural_french (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_auto(VcTestRun) en = { 0 };

  SKIP_WITHOUT_FRENCH ();
  run_vramcalc (&r, "fr_FR.UTF-8", "--params", "70B", NULL);
  g_assert_true (run_succeeded (&r));
  assert_contains (r.out, "RTX 4060 Ti 16" NBSP "Go (17,2" NBSP "Go utilisables)");
  assert_contains (r.out, "tient sur 1\n");
  assert_lacks (r.out, "GPUs");
  {
    g_auto(GStrv) lines = g_strsplit (r.out, "\n", -1);
    guint several = 0;

    for (guint i = 0; lines[i]; i++)
      {
        const char *p = strstr (lines[i], "nécessite ");
        guint64 n;
        char *end;

        if (p == NULL)
          continue;
        n = g_ascii_strtoull (p + strlen ("nécessite "), &end, 10);
        g_assert_cmpuint (n, >=, 2);
        g_assert_true (g_str_has_prefix (end, " GPU · "));
        g_assert_true (g_str_has_suffix (end, NBSP "Go chacun)"));
        several++;
      }
    g_assert_cmpuint (several, >, 0);
  }

  run_vramcalc (&en, "C.UTF-8", "--params", "70B", NULL);
  g_assert_true (run_succeeded (&en));
  g_assert_true (g_regex_match_simple ("needs [2-9][0-9]* GPUs · even split \\([0-9.]+" NBSP "GB each\\)\n", en.out, 0, 0));
}

static void
test_json_locale_independent (void)
{
  g_auto(VcTestRun) fr = { 0 };
  g_auto(VcTestRun) c = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;

  SKIP_WITHOUT_FRENCH ();
  run_vramcalc (&fr, "fr_FR.UTF-8", "--params", "7B", "--format", "json", NULL);
  run_vramcalc (&c, "C.UTF-8", "--params", "7B", "--format", "json", NULL);
  g_assert_true (run_succeeded (&fr));
  g_assert_true (run_succeeded (&c));
  /* byte for byte the same document in both locales */
  g_assert_cmpstr (fr.out, ==, c.out);
  g_assert_true (json_parser_load_from_data (parser, fr.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "total_bytes"), ==, 18800000000);
  g_assert_cmpint (json_object_get_int_member (root, "parameters"), ==, 7000000000);
  assert_contains (fr.out, "\"total_bytes\" : 18800000000");
  g_assert_false (g_regex_match_simple ("[0-9],[0-9]", fr.out, 0, 0));
}

static void
test_csv_locale_independent (void)
{
  g_auto(VcTestRun) fr = { 0 };
  g_auto(VcTestRun) c = { 0 };

  SKIP_WITHOUT_FRENCH ();
  run_vramcalc (&fr, "fr_FR.UTF-8", "--params", "7B", "--format", "csv", NULL);
  run_vramcalc (&c, "C.UTF-8", "--params", "7B", "--format", "csv", NULL);
  g_assert_true (run_succeeded (&fr));
  g_assert_true (run_succeeded (&c));
  /* names follow the language; ids, byte counts and decimal points do not */
  assert_contains (fr.out, "result,inference-16bit,weights,Poids,14000000000,14.000,GB\r\n");
  assert_contains (c.out, "result,inference-16bit,weights,Weights,14000000000,14.000,GB\r\n");
  assert_contains (fr.out, "result,inference-16bit,total,Inférence (16" NBSP "bits),18800000000,18.800,GB\r\n");
  assert_contains (fr.out, "Scénario");
  /* the same number of fields on every line in both languages */
  {
    g_auto(GStrv) fl = g_strsplit (fr.out, "\r\n", -1);
    g_auto(GStrv) cl = g_strsplit (c.out, "\r\n", -1);

    g_assert_cmpuint (g_strv_length (fl), ==, g_strv_length (cl));
    for (guint i = 0; fl[i]; i++)
      {
        /* a line with commas only between fields: compare the numeric columns */
        g_auto(GStrv) ff = g_strsplit (fl[i], ",", -1);
        g_auto(GStrv) cf = g_strsplit (cl[i], ",", -1);

        /* the header is translated; lines with a quoted comma split differently */
        if (i == 0 || g_strv_length (ff) != 7)
          continue;
        g_assert_cmpuint (g_strv_length (cf), ==, 7);
        g_assert_cmpstr (ff[0], ==, cf[0]);
        g_assert_cmpstr (ff[2], ==, cf[2]);
        g_assert_cmpstr (ff[4], ==, cf[4]);
        g_assert_cmpstr (ff[5], ==, cf[5]);
      }
  }
}

static void
test_help_french (void)
{
  g_auto(VcTestRun) r = { 0 };

  SKIP_WITHOUT_FRENCH ();
  run_vramcalc (&r, "fr_FR.UTF-8", "--help", NULL);
  g_assert_true (run_succeeded (&r));
  assert_contains (r.out, "Options" NBSP ":\n");
  /* option names and ids stay as they are */
  assert_contains (r.out, "--batch=N");
  assert_contains (r.out, "Taille de lot (par défaut 1)");
  assert_contains (r.out, "--kv-precision=fp32|fp16|bf16|fp8|int8|int4");
  assert_contains (r.out, "--precision=FORMAT");
  assert_contains (r.out, "en inférence aussi fp8, int8, int4, les recettes GGUF de llama.cpp (q8_0");
  assert_contains (r.out, "--checkpointing=none|sqrt|full");
  /* an input's help is its property's description, which the window's tooltip shows too */
  assert_contains (r.out, "Aucun, tous les √L segments, à chaque couche, ou les sélectifs de torchtitan");
  /* the architecture fields' descriptions come from the core */
  assert_contains (r.out, "Architecture (remplace un modèle prédéfini, ou décrit un modèle personnalisé)" NBSP ":\n");
  assert_contains (r.out, "Nombre de couches du transformeur (L)");
  assert_contains (r.out, "Exemples" NBSP ":");
}

static void
test_errors_french (void)
{
  g_auto(VcTestRun) r = { 0 };
  g_auto(VcTestRun) bad_count = { 0 };

  SKIP_WITHOUT_FRENCH ();
  run_vramcalc (&r, "fr_FR.UTF-8", "--bogus", NULL);
  g_assert_false (run_succeeded (&r));
  g_assert_cmpint (r.status, ==, 2);
  assert_contains (r.err, "option inconnue --bogus" NBSP "; voir vramcalc --help");

  run_vramcalc (&bad_count, "fr_FR.UTF-8", "--heads", "8", "--kv-heads", "3", NULL);
  g_assert_false (run_succeeded (&bad_count));
  assert_contains (bad_count.err, "heads (8) doit être un multiple de kv-heads (3)");
}

/* A count is shown as "46,7B" in French and must read back the same way; in C, ',' stays an
 * error with a message saying what is accepted. */
static void
test_decimal_comma_input (void)
{
  g_auto(VcTestRun) fr = { 0 };
  g_auto(VcTestRun) c = { 0 };

  SKIP_WITHOUT_FRENCH ();
  run_vramcalc (&fr, "fr_FR.UTF-8", "--params", "46,7B", "--format", "json", NULL);
  g_assert_true (run_succeeded (&fr));
  assert_contains (fr.out, "\"parameters\" : 46700000000,");

  run_vramcalc (&c, "C.UTF-8", "--params", "46,7B", NULL);
  g_assert_false (run_succeeded (&c));
  assert_contains (c.err, "“46,7B” is not valid for parameters");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/i18n/cli/table-french", test_table_french);
  g_test_add_func ("/i18n/cli/state-french", test_state_french);
  g_test_add_func ("/i18n/cli/table-english", test_table_english);
  g_test_add_func ("/i18n/cli/binary-units-french", test_binary_units_french);
  g_test_add_func ("/i18n/cli/plural-french", test_plural_french);
  g_test_add_func ("/i18n/cli/json-locale-independent", test_json_locale_independent);
  g_test_add_func ("/i18n/cli/csv-locale-independent", test_csv_locale_independent);
  g_test_add_func ("/i18n/cli/help-french", test_help_french);
  g_test_add_func ("/i18n/cli/errors-french", test_errors_french);
  g_test_add_func ("/i18n/cli/decimal-comma-input", test_decimal_comma_input);
  return g_test_run ();
}
