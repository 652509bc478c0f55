/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The general options of vramcalc that set an input have one text, the property's blurb: the
 * table holds none of its own, the help is the blurb, and --help and the completions print it,
 * so that the option, the property and the window's tooltip cannot drift apart. */
#include "config.h"

#include <string.h>

#include "vc-cli-options.h"
#include "vc-estimate.h"
#include "vc-profile.h"
#include "vc-test-util.h"

static GParamSpec *
input_property (const char *name)
{
  g_autoptr(GTypeClass) estimate = g_type_class_ref (VC_TYPE_ESTIMATE);
  g_autoptr(GTypeClass) profile = g_type_class_ref (VC_TYPE_PROFILE);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_CLASS (estimate), name);

  return pspec != NULL ? pspec : g_object_class_find_property (G_OBJECT_CLASS (profile), name);
}

static void
test_help_is_blurb (void)
{
  guint n_inputs = 0;

  for (guint i = 0; i < vc_cli_n_options; i++)
    {
      const VcCliOption *o = &vc_cli_options[i];
      GParamSpec *pspec;

      if (o->kind != OPT_PROPERTY)
        continue;
      pspec = input_property (o->property);
      g_test_message ("--%s: property %s", o->name, o->property);
      g_assert_nonnull (pspec);
      g_assert_true (pspec->flags & G_PARAM_WRITABLE);
      g_assert_null (o->help);
      g_assert_nonnull (o->arg);
      g_assert_cmpstr (vc_cli_option_help (o), ==, g_param_spec_get_blurb (pspec));
      g_assert_cmpuint (strlen (vc_cli_option_help (o)), >, 10);
      n_inputs++;
    }
  /* mode to chart-gpus, as the table has them, but --engine-version (test_engine_version()) */
  g_assert_cmpuint (n_inputs, ==, 57);
}

/* --engine-version sets vLLM's release, or SGLang's source with --engine sglang: a behaviour of
 * its own, so a help of its own naming each engine's values, which --help prints */
static void
test_engine_version (void)
{
  const char *args[] = { "--help", NULL };
  g_auto(VcTestRun) help = { 0 };
  g_autofree char *line = NULL;
  const VcCliOption *o = NULL;

  for (guint i = 0; i < vc_cli_n_options; i++)
    if (g_str_equal (vc_cli_options[i].name, "engine-version"))
      o = &vc_cli_options[i];
  g_assert_nonnull (o);
  g_assert_cmpint (o->kind, ==, OPT_ENGINE_VERSION);
  g_assert_cmpstr (o->property, ==, "engine-version");
  g_assert_cmpstr (o->arg, ==, "0.10|0.11|0.14|0.17|0.21|001ccef|003fca8");
  g_assert_cmpstr (vc_cli_option_help (o), ==, o->help);
  g_assert_nonnull (strstr (o->help, "vLLM: 0.11 (default"));
  g_assert_nonnull (strstr (o->help, "SGLang (--engine sglang, the same as --sglang-version): 001ccef (default) or 003fca8"));
  help.status = vc_test_run_vramcalc (args, NULL, &help.out, &help.err);
  g_assert_cmpint (help.status, ==, 0);
  line = g_strdup_printf ("  --engine-version=%s ", o->arg);
  g_assert_nonnull (strstr (help.out, line));
  g_assert_nonnull (strstr (help.out, o->help));
}

/* an alias (--parallel) sets the input of another option under its engine's name */
static void
test_aliases (void)
{
  guint n_aliases = 0;

  for (guint i = 0; i < vc_cli_n_options; i++)
    {
      const VcCliOption *o = &vc_cli_options[i];
      gboolean found = FALSE;

      if (o->kind != OPT_PROPERTY_ALIAS)
        continue;
      g_assert_nonnull (o->help);
      g_assert_cmpstr (vc_cli_option_help (o), ==, o->help);
      for (guint k = 0; k < vc_cli_n_options; k++)
        found |= vc_cli_options[k].kind == OPT_PROPERTY && g_str_equal (vc_cli_options[k].property, o->property);
      g_assert_true (found);
      g_assert_true (vc_cli_option_alias_of (o->property) == o);
      n_aliases++;
    }
  g_assert_cmpuint (n_aliases, ==, 1);
  g_assert_null (vc_cli_option_alias_of ("seq"));
}

/* --parallel with --concurrency: the same number in either spelling is taken, two numbers are
 * refused naming both, rather than the later one winning */
static void
test_alias_conflict (void)
{
  const char *agree[] = { "--preset", "llama-3.1-8b", "--engine", "llama.cpp", "--parallel", "4",
                          "--concurrency", "04", "--format", "json", NULL };
  const char *differ[] = { "--preset", "llama-3.1-8b", "--engine", "llama.cpp", "--concurrency", "3",
                           "--parallel", "4", NULL };
  const char *later[] = { "--preset", "llama-3.1-8b", "--engine", "llama.cpp", "--concurrency", "3",
                          "--parallel", "4", "--parallel", "3", "--format", "json", NULL };
  g_auto(VcTestRun) a = { 0 };
  g_auto(VcTestRun) d = { 0 };
  g_auto(VcTestRun) l = { 0 };

  a.status = vc_test_run_vramcalc (agree, NULL, &a.out, &a.err);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_nonnull (strstr (a.out, "\"n_seq_max\" : 4"));
  d.status = vc_test_run_vramcalc (differ, NULL, &d.out, &d.err);
  g_assert_cmpint (d.status, ==, 2);
  g_assert_cmpstr (d.out, ==, "");
  g_assert_cmpstr (d.err, ==, "vramcalc: --parallel: is the same setting as --concurrency, and the two disagree "
                              "(4 and 3); accepted: one of them, or both the same\n");
  /* the last --parallel is the one compared */
  l.status = vc_test_run_vramcalc (later, NULL, &l.out, &l.err);
  g_assert_cmpint (l.status, ==, 0);
  g_assert_nonnull (strstr (l.out, "\"n_seq_max\" : 3"));
}

/* the line of --help and of the fish completion for the option name */
static const char *
find_line (char       **lines,
           const char  *prefix)
{
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return lines[i];
  return NULL;
}

static void
test_printed (void)
{
  const char *help_args[] = { "--help", NULL };
  const char *fish_args[] = { "--generate", "fish", NULL };
  g_auto(VcTestRun) help = { 0 };
  g_auto(VcTestRun) fish = { 0 };
  g_auto(GStrv) help_lines = NULL;
  g_auto(GStrv) fish_lines = NULL;

  help.status = vc_test_run_vramcalc (help_args, NULL, &help.out, &help.err);
  fish.status = vc_test_run_vramcalc (fish_args, NULL, &fish.out, &fish.err);
  g_assert_cmpint (help.status, ==, 0);
  g_assert_cmpint (fish.status, ==, 0);
  help_lines = g_strsplit (help.out, "\n", -1);
  fish_lines = g_strsplit (fish.out, "\n", -1);
  for (guint i = 0; i < vc_cli_n_options; i++)
    {
      const VcCliOption *o = &vc_cli_options[i];
      g_autofree char *help_prefix = NULL;
      g_autofree char *fish_prefix = NULL;
      g_autofree char *fish_help = NULL;
      g_autoptr(GString) quoted = NULL;
      const char *line;

      if (o->kind != OPT_PROPERTY)
        continue;
      g_test_message ("--%s", o->name);
      help_prefix = g_strdup_printf ("  --%s=%s ", o->name, o->arg);
      line = find_line (help_lines, help_prefix);
      g_assert_nonnull (line);
      g_assert_true (g_str_has_suffix (line, vc_cli_option_help (o)));
      quoted = g_string_new (vc_cli_option_help (o));
      g_string_replace (quoted, "'", "\\'", 0);
      fish_prefix = g_strdup_printf ("complete -c vramcalc -l %s ", o->name);
      fish_help = g_strdup_printf ("-d '%s'", quoted->str);
      line = find_line (fish_lines, fish_prefix);
      g_assert_nonnull (line);
      g_assert_true (g_str_has_suffix (line, fish_help));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-options/help-is-blurb", test_help_is_blurb);
  g_test_add_func ("/cli-options/aliases", test_aliases);
  g_test_add_func ("/cli-options/alias-conflict", test_alias_conflict);
  g_test_add_func ("/cli-options/engine-version", test_engine_version);
  g_test_add_func ("/cli-options/printed", test_printed);
  return g_test_run ();
}
