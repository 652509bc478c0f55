/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vramcalc: the estimator on the command line, for scripts and tests.
 *
 * Options map onto the estimate model's properties; every value goes through the same range
 * checks as the window. GOptionContext reads the command line: the general options come from
 * the table below, the architecture group from the field table of vc-arch. Options are applied
 * in a fixed order whatever their place on the line (profile, preset or config, method, then
 * the rest in command-line order). Exit status: 0 on success, 2 on a bad option or file (with
 * a message on stderr naming it and what is accepted), 1 on any other failure.
 */
#define G_LOG_DOMAIN "vramcalc"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "vc-arch.h"
#include "vc-catalog.h"
#include "vc-csv.h"
#include "vc-enums.h"
#include "vc-estimate.h"
#include "vc-hf-config.h"
#include "vc-profile.h"
#include "vc-report.h"
#include "vc-units.h"

#define EXIT_USAGE 2

typedef enum
{
  OPT_PROPERTY,        /* --NAME VALUE sets property NAME */
  OPT_TRUE,            /* --NAME sets boolean property to TRUE */
  OPT_FALSE,           /* --no-NAME sets it to FALSE */
  OPT_PRESET,
  OPT_CONFIG,
  OPT_METHOD,
  OPT_FORMAT,
  OPT_PROFILE,
  OPT_SAVE_PROFILE,
  OPT_LIST_PRESETS,
  OPT_LIST_GPUS,
  OPT_EXPLAIN,
  OPT_HELP,
  OPT_VERSION,
  OPT_GPU,
} OptKind;

typedef struct
{
  const char *name;
  OptKind kind;
  const char *property;
  const char *arg;
  const char *help;
} Option;

static const Option options[] = {
  { "mode", OPT_PROPERTY, "mode", "inference|training", N_("What to estimate (default: inference)") },
  { "method", OPT_METHOD, "method", "rule-of-thumb|architecture",
    N_("Default: architecture when the model has one (--preset or architecture options), else rule-of-thumb") },
  { "preset", OPT_PRESET, "preset", "ID", N_("A built-in model (see --list-presets); other options override it") },
  { "config", OPT_CONFIG, NULL, "FILE",
    N_("A model's Hugging Face config.json, or the folder holding it; other options override it") },
  { "model-type", OPT_PROPERTY, "model-type", "dense|moe", N_("Rule of thumb: dense or mixture of experts") },
  { "params", OPT_PROPERTY, "parameters", "N", N_("Total parameters: 7B, 124M, 1.5T, 7e9") },
  { "active-params", OPT_PROPERTY, "active-parameters", "N", N_("MoE: parameters activated per token") },
  { "precision", OPT_PROPERTY, "precision", "fp32|fp16|bf16|fp8|int8|int4",
    N_("Weights (inference) or parameters (training; fp32, fp16 or bf16)") },
  { "training-precision", OPT_PROPERTY, "training-precision", "fp32|fp16|bf16",
    N_("Parameters of a training run, whatever the mode estimated (default bf16)") },
  { "kv-precision", OPT_PROPERTY, "kv-precision", "fp32|fp16|bf16|fp8|int8|int4", N_("KV cache precision") },
  { "finetune", OPT_PROPERTY, "finetune", "full|lora|qlora-8bit|qlora-4bit", N_("Selected fine-tuning scenario") },
  { "optimizer", OPT_PROPERTY, "optimizer", "adamw|adam|sgd|sgd-momentum|rmsprop|adamw-8bit", N_("Optimizer") },
  { "optimizer-precision", OPT_PROPERTY, "optimizer-precision", "fp32|bf16",
    N_("Optimizer state precision: fp32 (default) or bf16 (pure-bf16 trainers such as torchtune, LitGPT)") },
  { "batch", OPT_PROPERTY, "batch", "N", N_("Batch size (default 1)") },
  { "seq", OPT_PROPERTY, "seq", "N", N_("Sequence length in tokens, input and output (default 2048)") },
  { "concurrency", OPT_PROPERTY, "concurrency", "N", N_("Inference: requests served at once (default 1)") },
  { "lora-rank", OPT_PROPERTY, "lora-rank", "R", N_("Architecture: LoRA rank (default 16)") },
  { "lora-percent", OPT_PROPERTY, "lora-percent", "P", N_("Rule of thumb: trainable share in percent (default 1)") },
  { "lora-targets", OPT_PROPERTY, "lora-targets", "LIST", N_("q,k,v,o,gate,up,down or all-linear (default)") },
  { "mixed-precision", OPT_TRUE, "mixed-precision", NULL, N_("Keep an fp32 master copy of trainable weights") },
  { "no-mixed-precision", OPT_FALSE, "mixed-precision", NULL, NULL },
  { "checkpointing", OPT_PROPERTY, "checkpointing", "none|sqrt|full", N_("Gradient checkpointing") },
  { "flash-attention", OPT_TRUE, "flash-attention", NULL, N_("Fused attention, no s × s scores (default)") },
  { "no-flash-attention", OPT_FALSE, "flash-attention", NULL, N_("Eager attention") },
  { "loss", OPT_PROPERTY, "loss", "full|chunked", N_("Training: cross-entropy on full logits or in chunks") },
  { "compile", OPT_TRUE, "compile", NULL, N_("Training compiled with torch.compile (fused operations keep fewer activations)") },
  { "no-compile", OPT_FALSE, "compile", NULL, NULL },
  { "train-embeddings", OPT_TRUE, "train-embeddings", NULL, N_("LoRA/QLoRA: the token embedding trains too") },
  { "no-train-embeddings", OPT_FALSE, "train-embeddings", NULL, NULL },
  { "overhead", OPT_PROPERTY, "overhead-gb", "GB", N_("Per-GPU overhead in GB (default 2 rule of thumb, 1 architecture)") },
  { "max-context", OPT_PROPERTY, "max-context", "N",
    N_("The model's maximum context in tokens (0: unknown); a longer --seq gets a warning") },
  { "unit", OPT_PROPERTY, "unit", "gb|gib", N_("Units of the table (default gb)") },
  { "format", OPT_FORMAT, NULL, "table|json|csv", N_("Output format (default table)") },
  { "profile", OPT_PROFILE, NULL, "FILE", N_("Start from a saved profile; other options override its values") },
  { "save-profile", OPT_SAVE_PROFILE, NULL, "FILE", N_("Save the resulting inputs as a profile") },
  { "explain", OPT_EXPLAIN, NULL, NULL, N_("Show each component's formula and values") },
  { "list-presets", OPT_LIST_PRESETS, NULL, NULL, N_("List the built-in models") },
  { "list-gpus", OPT_LIST_GPUS, NULL, NULL, N_("List the GPU catalog") },
  { "gpu", OPT_GPU, "custom-gpus", "NAME=SIZE", N_("Add a GPU of your own to the table; SIZE in GB or with GB, GiB or MiB (repeatable)") },
  { "version", OPT_VERSION, NULL, NULL, N_("Show the version") },
  { "help", OPT_HELP, NULL, NULL, N_("Show this help") },
};

typedef enum { FORMAT_TABLE, FORMAT_JSON, FORMAT_CSV } Format;

typedef enum
{
  ACTION_ESTIMATE,
  ACTION_LIST_PRESETS,
  ACTION_LIST_GPUS,
  ACTION_HELP,
  ACTION_VERSION,
} Action;

/* What the command line asks for, filled in by the option callbacks. */
typedef struct
{
  char **argv;                /* as given: tells --NAME=VALUE from --NAME VALUE */
  GPtrArray *settings;        /* pairs: property, value, in command-line order */
  GString *custom_gpus;
  char *preset;
  char *config_path;
  char *method;
  char *profile_path;
  char *save_path;
  Format format;
  Action action;
  int action_at;              /* its place in argv */
  gboolean explain;
  gboolean arch_given;
  GError *error;              /* the first option found wrong, */
  int error_at;               /* at this place in argv */
} Request;

static void
request_clear (Request *req)
{
  g_clear_pointer (&req->argv, g_strfreev);
  g_clear_pointer (&req->settings, g_ptr_array_unref);
  if (req->custom_gpus)
    g_string_free (g_steal_pointer (&req->custom_gpus), TRUE);
  g_clear_pointer (&req->preset, g_free);
  g_clear_pointer (&req->config_path, g_free);
  g_clear_pointer (&req->method, g_free);
  g_clear_pointer (&req->profile_path, g_free);
  g_clear_pointer (&req->save_path, g_free);
  g_clear_error (&req->error);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Request, request_clear)

/* Every error this program reports is a usage error, "--OPTION: what is wrong" */
static gboolean
option_error (GError    **error,
              const char *option,
              const char *message)
{
  if (option)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--%s: %s", option, message);
  else
    g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, message);
  return FALSE;
}

static int
usage_error (const char *option,
             const char *message)
{
  if (option)
    g_printerr ("vramcalc: --%s: %s\n", option, message);
  else
    g_printerr ("vramcalc: %s\n", message);
  return EXIT_USAGE;
}

static const Option *
find_option (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    if (g_str_equal (options[i].name, name))
      return &options[i];
  return NULL;
}

/* where an option stands in argv: the first --NAME=VALUE or --NAME VALUE (--NAME for a switch) */
static int
arg_position (Request    *req,
              const char *option_name,
              const char *value)
{
  g_autofree char *glued = value ? g_strconcat (option_name, "=", value, NULL) : NULL;

  for (int i = 1; req->argv[i] != NULL; i++)
    if (value == NULL ? g_str_equal (req->argv[i], option_name)
                      : (g_str_equal (req->argv[i], glued) ||
                         (g_str_equal (req->argv[i], option_name) && g_strcmp0 (req->argv[i + 1], value) == 0)))
      return i;
  return 0;
}

/* GOption skips unknown options and goes on: a wrong option is kept and reported once the
 * whole line is read, so that the error reported is the first one on the line. */
static void
keep_error (Request *req,
            int      position,
            GError  *error)
{
  if (req->error != NULL)
    {
      g_error_free (error);
      return;
    }
  req->error = error;
  req->error_at = position;
}

/* A switch is declared with an optional argument, so that a value glued to it with "=" reaches
 * us instead of being dropped. GOption also hands it the next argument when that one does not
 * start with "-": that one is a stray argument, kept as the error at its place, and the switch
 * works without it (*value becomes NULL). */
static gboolean
check_switch_value (Request     *req,
                    const char  *option_name,
                    const char **value,
                    gboolean     value_allowed,
                    GError     **error)
{
  g_autofree char *glued = NULL;

  if (*value == NULL)
    return TRUE;
  glued = g_strdup_printf ("%s=%s", option_name, *value);
  if (!g_strv_contains ((const char * const *) req->argv, glued))
    {
      g_autofree char *msg = g_strdup_printf (_("unexpected argument “%s”; options start with --, see vramcalc --help"), *value);
      GError *stray = NULL;

      option_error (&stray, NULL, msg);
      keep_error (req, arg_position (req, option_name, *value) + 1, stray);
      *value = NULL;
      return TRUE;
    }
  if (!value_allowed)
    return option_error (error, option_name + 2, _("this option takes no value"));
  return TRUE;
}

static void
add_setting (Request    *req,
             const char *property,
             const char *value)
{
  g_ptr_array_add (req->settings, g_strdup (property));
  g_ptr_array_add (req->settings, g_strdup (value));
}

/* The first of --list-presets, --list-gpus, --help and --version wins; what comes after it on
 * the line is not looked at. */
static void
set_action (Request    *req,
            Action      action,
            const char *option_name)
{
  if (req->action != ACTION_ESTIMATE)
    return;
  req->action = action;
  req->action_at = arg_position (req, option_name, NULL);
}

static gboolean
set_format (Request     *req,
            const char  *value,
            GError     **error)
{
  if (g_str_equal (value, "table"))
    req->format = FORMAT_TABLE;
  else if (g_str_equal (value, "json"))
    req->format = FORMAT_JSON;
  else if (g_str_equal (value, "csv"))
    req->format = FORMAT_CSV;
  else
    {
      g_autofree char *msg = g_strdup_printf (_("“%s” is not a format; accepted: table, json, csv"), value);
      return option_error (error, "format", msg);
    }
  return TRUE;
}

/* the last one given wins, as it did for every option */
static void
replace_str (char       **str,
             const char  *value)
{
  g_free (*str);
  *str = g_strdup (value);
}

static gboolean
apply_option (Request     *req,
              const char  *option_name,
              const char  *value,
              GError     **error)
{
  const Option *opt = find_option (option_name + 2);

  g_assert (opt != NULL);
  if (opt->arg == NULL && !check_switch_value (req, option_name, &value, FALSE, error))
    return FALSE;

  switch (opt->kind)
    {
    case OPT_PROPERTY:
      add_setting (req, opt->property, value);
      break;
    case OPT_TRUE:
    case OPT_FALSE:
      add_setting (req, opt->property, opt->kind == OPT_TRUE ? "true" : "false");
      break;
    case OPT_PRESET:
      replace_str (&req->preset, value);
      break;
    case OPT_CONFIG:
      replace_str (&req->config_path, value);
      break;
    case OPT_METHOD:
      replace_str (&req->method, value);
      break;
    case OPT_FORMAT:
      return set_format (req, value, error);
    case OPT_PROFILE:
      replace_str (&req->profile_path, value);
      break;
    case OPT_SAVE_PROFILE:
      replace_str (&req->save_path, value);
      break;
    case OPT_GPU:
      if (strchr (value, ';'))
        return option_error (error, opt->name, _("one GPU per --gpu option; “;” is not allowed in its name"));
      g_string_append_printf (req->custom_gpus, "%s%s", req->custom_gpus->len ? ";" : "", value);
      break;
    case OPT_EXPLAIN:
      req->explain = TRUE;
      break;
    case OPT_LIST_PRESETS:
      set_action (req, ACTION_LIST_PRESETS, option_name);
      break;
    case OPT_LIST_GPUS:
      set_action (req, ACTION_LIST_GPUS, option_name);
      break;
    case OPT_HELP:
      set_action (req, ACTION_HELP, option_name);
      break;
    case OPT_VERSION:
      set_action (req, ACTION_VERSION, option_name);
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

/* --FIELD VALUE, --FIELD and --no-FIELD for a boolean field (--FIELD=true|false too) */
static gboolean
apply_arch_option (Request     *req,
                   const char  *option_name,
                   const char  *value,
                   GError     **error)
{
  const VcArchField *field = vc_arch_field_find (option_name + 2);
  gboolean negated = FALSE;

  if (field == NULL)
    {
      field = vc_arch_field_find (option_name + 5);
      negated = TRUE;
    }
  g_assert (field != NULL);
  if (field->type == VC_ARCH_FIELD_BOOL)
    {
      if (!check_switch_value (req, option_name, &value, !negated, error))
        return FALSE;
      value = negated ? "false" : (value ? value : "true");
    }
  req->arch_given = TRUE;
  add_setting (req, field->name, value);
  return TRUE;
}

static gboolean
on_option (const char  *option_name,
           const char  *value,
           gpointer     data,
           GError     **error)
{
  Request *req = data;
  GError *local_error = NULL;

  if (!apply_option (req, option_name, value, &local_error))
    keep_error (req, arg_position (req, option_name, value), local_error);
  return TRUE;
}

static gboolean
on_arch_option (const char  *option_name,
                const char  *value,
                gpointer     data,
                GError     **error)
{
  Request *req = data;
  GError *local_error = NULL;

  if (!apply_arch_option (req, option_name, value, &local_error))
    keep_error (req, arg_position (req, option_name, value), local_error);
  return TRUE;
}

static GOptionGroup *
general_group (Request *req)
{
  GOptionGroup *group = g_option_group_new ("general", _("Options:"), _("Options:"), req, NULL);
  g_autofree GOptionEntry *entries = g_new0 (GOptionEntry, G_N_ELEMENTS (options) + 1);

  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      GOptionEntry *e = &entries[i];

      e->long_name = options[i].name;
      /* FILENAME: values reach us as given, whatever the locale's charset */
      e->flags = G_OPTION_FLAG_FILENAME;
      if (options[i].arg == NULL)
        e->flags |= G_OPTION_FLAG_OPTIONAL_ARG;
      if (options[i].help == NULL)
        e->flags |= G_OPTION_FLAG_HIDDEN;
      e->arg = G_OPTION_ARG_CALLBACK;
      e->arg_data = (gpointer) on_option;
      e->description = options[i].help;
      e->arg_description = options[i].arg;
    }
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  return group;
}

/* the architecture group, built from vc-arch's field table */
static GOptionGroup *
arch_group (Request *req)
{
  guint n;
  const VcArchField *fields = vc_arch_fields (&n);
  GOptionGroup *group = g_option_group_new ("arch", _("Architecture (override a preset, or describe a custom model):"),
                                            _("Architecture (override a preset, or describe a custom model):"), req, NULL);
  g_autofree GOptionEntry *entries = g_new0 (GOptionEntry, 2 * n + 1);
  guint k = 0;

  for (guint i = 0; i < n; i++)
    {
      GOptionEntry *e = &entries[k++];

      e->long_name = fields[i].name;
      e->flags = G_OPTION_FLAG_FILENAME;
      e->arg = G_OPTION_ARG_CALLBACK;
      e->arg_data = (gpointer) on_arch_option;
      e->description = fields[i].blurb;
      e->arg_description = fields[i].type == VC_ARCH_FIELD_NORM ? "rms|layer" : "N";
      if (fields[i].type == VC_ARCH_FIELD_BOOL)
        {
          GOptionEntry *no = &entries[k++];
          g_autofree char *no_name = g_strconcat ("no-", fields[i].name, NULL);

          e->flags |= G_OPTION_FLAG_OPTIONAL_ARG;
          e->arg_description = NULL;
          *no = *e;
          no->long_name = g_intern_string (no_name);
          no->flags |= G_OPTION_FLAG_HIDDEN;
        }
    }
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  return group;
}

static void
list_presets (void)
{
  guint n;
  const VcPreset *p = vc_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *count = vc_format_count (p[i].published_parameters);
      g_print ("%-18s %-36s %s\n", p[i].id, p[i].name, count);
    }
}

static void
list_gpus (void)
{
  guint n;
  const VcGpu *g = vc_gpus_get_all (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *mib = g[i].memory_mib > 0 ? g_strdup_printf (_("%.0f MiB"), g[i].memory_mib) : g_strdup ("");
      g_autofree char *name = vc_localize_gpu_name (g[i].name);

      /* Translators: GPU id, GPU name, memory as sold in GiB, memory a program can use in MiB;
       * keep the widths */
      g_print (_("%-18s %-20s %4.0f GiB  %s\n"), g[i].id, name, g[i].memory_bytes / 1073741824.0, mib);
    }
}

static GOptionContext *
option_context_new (Request *req)
{
  GOptionContext *context = g_option_context_new (NULL);
  g_autoptr(GString) examples = g_string_new (_("Examples:"));

  g_string_append (examples,
                   "\n  vramcalc --params 7B"
                   "\n  vramcalc --preset llama-3-8b --seq 8192 --concurrency 4 --format json"
                   "\n  vramcalc --preset mistral-7b --mode training --finetune qlora-4bit --lora-rank 64"
                   "\n  vramcalc --profile plan.json --seq 8192 --format csv");
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, N_("Estimates the GPU memory an LLM needs for inference or fine-tuning, and which GPUs hold it."));
  g_option_context_set_description (context, examples->str);
  /* --help is ours, listed with the others and showing every group; -h is no option */
  g_option_context_set_help_enabled (context, FALSE);
  /* what is left is reported by parse_command_line, naming the first one */
  g_option_context_set_ignore_unknown_options (context, TRUE);
  g_option_context_add_group (context, general_group (req));
  g_option_context_add_group (context, arch_group (req));
  return context;
}

/* GOption's own error is a missing value: the option is the last argument */
static char *
missing_value_message (Request *req)
{
  guint argc = g_strv_length (req->argv);
  const char *last = argc > 1 ? req->argv[argc - 1] : "";
  const Option *opt = g_str_has_prefix (last, "--") ? find_option (last + 2) : NULL;
  g_autofree char *msg = NULL;

  if (opt == NULL && (!g_str_has_prefix (last, "--") || vc_arch_field_find (last + 2) == NULL))
    return NULL;
  msg = g_strdup_printf (_("a value is required (%s)"), opt ? opt->arg : "N");
  return g_strdup_printf ("%s: %s", last, msg);
}

static gboolean
takes_value (const char *arg)
{
  const Option *opt;
  const VcArchField *field;

  if (!g_str_has_prefix (arg, "--") || strchr (arg, '=') != NULL)
    return FALSE;
  opt = find_option (arg + 2);
  field = vc_arch_field_find (arg + 2);
  return (opt && opt->arg) || (field && field->type != VC_ARCH_FIELD_BOOL);
}

/* The place in argv of the first argument GOption left, in the order given: an unknown option
 * or a stray argument. A "--" is no option of ours either, but GOption takes it as the end of
 * the options and drops it (unless it is an option's value). 0 when none is left. */
static int
first_unparsed (char **given,
                int    argc,
                char **argv)
{
  for (int i = 1; given[i] != NULL; i++)
    {
      for (int k = 1; k < argc; k++)
        if (argv[k] == given[i])
          return i;
      if (g_str_equal (given[i], "--") && !takes_value (given[i - 1]))
        return i;
    }
  return 0;
}

static void
set_unparsed_error (GError     **error,
                    const char  *arg)
{
  g_autofree char *msg = NULL;

  if (g_str_has_prefix (arg, "--"))
    {
      g_autofree char *name = g_strndup (arg + 2, strcspn (arg + 2, "="));
      msg = g_strdup_printf (_("unknown option --%s; see vramcalc --help"), name);
    }
  else
    msg = g_strdup_printf (_("unexpected argument “%s”; options start with --, see vramcalc --help"), arg);
  option_error (error, NULL, msg);
}

/* Fills req from the command line; FALSE with a message naming the option when it is wrong */
static gboolean
parse_command_line (GOptionContext  *context,
                    Request         *req,
                    int              argc,
                    char           **argv,
                    GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char **given = g_memdup2 (argv, (argc + 1) * sizeof (char *));
  int unparsed;

  g_strfreev (req->argv);
  req->argv = g_strdupv (argv);
  if (!g_option_context_parse (context, &argc, &argv, &local_error))
    {
      g_autofree char *missing = NULL;

      if (g_error_matches (local_error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE)
          && (missing = missing_value_message (req)) != NULL)
        {
          /* an error before the last argument comes first: read the line without it */
          given[argc - 1] = NULL;
          if (!parse_command_line (context, req, argc - 1, given, error))
            return FALSE;
          if (req->action != ACTION_ESTIMATE)
            return TRUE;
          return option_error (error, NULL, missing);
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  unparsed = first_unparsed (given, argc, argv);
  if (req->action != ACTION_ESTIMATE &&
      (unparsed == 0 || req->action_at < unparsed) &&
      (req->error == NULL || req->action_at < req->error_at))
    {
      g_clear_error (&req->error);
      return TRUE;
    }
  if (unparsed > 0 && (req->error == NULL || unparsed < req->error_at))
    {
      set_unparsed_error (error, given[unparsed]);
      return FALSE;
    }
  if (req->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&req->error));
      return FALSE;
    }
  return TRUE;
}

/* The profile, the preset or config, the method, then every other option in command-line
 * order: each one overrides what comes before it, whatever its place on the line. */
static int
apply_request (Request    *req,
               VcEstimate *estimate,
               VcProfile  *profile)
{
  g_autoptr(GError) error = NULL;
  const char *method = req->method;
  const char *precision = NULL;

  if (req->profile_path)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (req->profile_path);

      if (!vc_profile_load (profile, file, NULL, &error))
        {
          g_autofree char *msg = g_strdup_printf ("%s: %s", req->profile_path, error->message);
          return usage_error ("profile", msg);
        }
    }
  if (req->custom_gpus->len > 0)
    add_setting (req, "custom-gpus", req->custom_gpus->str);

  if (req->preset && !vc_estimate_set_preset (estimate, req->preset, &error))
    return usage_error ("preset", error->message);
  /* a config.json is applied like a preset: every other option overrides it */
  if (req->config_path)
    {
      g_autoptr(VcHfConfig) config = NULL;

      if (req->preset)
        return usage_error ("config", _("--config and --preset both name the model; give one of them"));
      config = vc_hf_config_new_for_path (req->config_path, &error);
      if (config == NULL)
        return usage_error ("config", error->message);
      vc_hf_config_apply (config, estimate);
      if (vc_hf_config_get_warning (config))
        g_printerr ("vramcalc: %s\n", vc_hf_config_get_warning (config));
    }
  /* a profile keeps its own method unless --method is given */
  if (!method && !req->profile_path)
    method = (req->preset || req->config_path || req->arch_given) ? "architecture" : "rule-of-thumb";
  if (method && !vc_estimate_set_from_string (estimate, "method", method, &error))
    return usage_error ("method", error->message);

  for (guint k = 0; k < req->settings->len; k += 2)
    {
      const char *property = req->settings->pdata[k];
      const char *value = req->settings->pdata[k + 1];

      /* --precision is the precision of the mode estimated, known once every option is read */
      if (g_str_equal (property, "precision"))
        {
          precision = value;
          continue;
        }
      if (!vc_estimate_set_from_string (estimate, property, value, &error))
        {
          const char *option = property;

          for (guint o = 0; o < G_N_ELEMENTS (options); o++)
            if (g_strcmp0 (options[o].property, property) == 0)
              {
                option = options[o].name;
                break;
              }
          return usage_error (option, error->message);
        }
    }
  /* an option of the other mode is kept (in a saved profile) but not used: say so */
  {
    static const char *const training_only[] = {
      "finetune", "optimizer", "optimizer-precision", "lora-rank", "lora-percent", "lora-targets",
      "mixed-precision", "checkpointing", "loss", "compile", "train-embeddings", "training-precision", NULL,
    };
    static const char *const inference_only[] = { "concurrency", "kv-precision", NULL };
    gboolean training = vc_estimate_get_inputs (estimate)->mode == VC_MODE_TRAINING;

    for (guint k = 0; k < req->settings->len; k += 2)
      {
        const char *property = req->settings->pdata[k];
        gboolean other = training ? g_strv_contains (inference_only, property)
                                  : g_strv_contains (training_only, property);

        for (guint o = 0; other && o < G_N_ELEMENTS (options); o++)
          if (g_strcmp0 (options[o].property, property) == 0 && options[o].kind != OPT_FALSE)
            {
              if (training)
                g_printerr (_("vramcalc: note: --%s applies to inference; the training estimate does not use it\n"),
                            options[o].name);
              else
                g_printerr (_("vramcalc: note: --%s applies to training; the inference estimate does not use it\n"),
                            options[o].name);
              break;
            }
      }
  }

  if (precision != NULL)
    {
      if (vc_estimate_get_inputs (estimate)->mode != VC_MODE_TRAINING)
        {
          if (!vc_estimate_set_from_string (estimate, "precision", precision, &error))
            return usage_error ("precision", error->message);
        }
      else if (!vc_estimate_set_from_string (estimate, "training-precision", precision, &error))
        {
          g_autoptr(VcEstimate) scratch = vc_estimate_new ();

          g_clear_error (&error);
          /* a precision, but not one a training run keeps its parameters in */
          if (vc_estimate_set_from_string (scratch, "precision", precision, NULL))
            return usage_error ("precision",
                                _("in training the parameter precision is fp32, fp16 or bf16; "
                                  "the QLoRA scenarios quantize the base model to 8 or 4 bits themselves"));
          vc_estimate_set_from_string (scratch, "precision", precision, &error);
          return usage_error ("precision", error->message);
        }
    }
  return 0;
}

static void
print_estimate (VcEstimate *estimate,
                Format      format,
                gboolean    explain)
{
  if (format == FORMAT_CSV)
    {
      gsize length;
      g_autofree char *csv = vc_csv_export (estimate, &length);

      /* as is: CRLF and UTF-8 whatever the terminal's charset */
      fwrite (csv, 1, length, stdout);
    }
  else if (format == FORMAT_JSON)
    {
      g_autofree char *json = vc_report_json (estimate);
      g_print ("%s\n", json);
    }
  else
    {
      g_autofree char *table = vc_report_table (estimate, explain);
      g_print ("%s", table);
    }
}

static int
run_estimate (Request *req)
{
  g_autoptr(VcEstimate) estimate = vc_estimate_new ();
  g_autoptr(VcProfile) profile = vc_profile_new (estimate);
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = apply_request (req, estimate, profile)) != 0)
    return status;
  if (!vc_estimate_check (estimate, &error))
    return usage_error (NULL, error->message);

  if (req->save_path)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (req->save_path);

      if (!vc_profile_save (profile, file, NULL, &error))
        {
          g_autofree char *msg = g_strdup_printf ("%s: %s", req->save_path, error->message);
          return usage_error ("save-profile", msg);
        }
    }
  print_estimate (estimate, req->format, req->explain);
  {
    g_autofree char *warning = vc_estimate_dup_context_warning (estimate);

    if (warning != NULL)
      g_printerr (_("vramcalc: warning: %s\n"), warning);
  }
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  g_auto(Request) req = { 0 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;

  setlocale (LC_ALL, "");
  /* VC_LOCALEDIR: translations from another folder, such as the build tree's po/ */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("VC_LOCALEDIR") ? g_getenv ("VC_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  req.settings = g_ptr_array_new_with_free_func (g_free);
  req.custom_gpus = g_string_new (NULL);
  context = option_context_new (&req);
  if (!parse_command_line (context, &req, argc, argv, &error))
    {
      g_printerr ("vramcalc: %s\n", error->message);
      return EXIT_USAGE;
    }

  switch (req.action)
    {
    case ACTION_LIST_PRESETS:
      list_presets ();
      return 0;
    case ACTION_LIST_GPUS:
      list_gpus ();
      return 0;
    case ACTION_HELP:
      {
        g_autofree char *help = g_option_context_get_help (context, FALSE, NULL);
        g_print ("%s", help);
      }
      return 0;
    case ACTION_VERSION:
      g_print ("vramcalc %s\n", PACKAGE_VERSION);
      return 0;
    case ACTION_ESTIMATE:
    default:
      return run_estimate (&req);
    }
}
