/* vramcalc: the estimator on the command line, for scripts and tests.
 *
 * Options map onto the estimate model's properties; every value goes through the same range
 * checks as the window. Exit status: 0 on success, 2 on a bad option or file (with a message
 * on stderr naming it and what is accepted), 1 on any other failure.
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
#include "vc-error.h"
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

typedef struct
{
  VcEstimate *estimate;
  GPtrArray *settings;        /* pairs: property, value, in command-line order */
  char *preset;
  char *method;
  Format format;
  gboolean explain;
  gboolean arch_given;
} Cli;

static void
print_help (void)
{
  guint n;
  const VcArchField *fields = vc_arch_fields (&n);

  g_print ("%s\n\n", _("Usage: vramcalc [OPTION…]"));
  g_print ("%s\n\n", _("Estimates the GPU memory an LLM needs for inference or fine-tuning, and which GPUs hold it."));
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      g_autofree char *left = NULL;

      if (options[i].help == NULL)
        continue;
      left = options[i].arg ? g_strdup_printf ("--%s %s", options[i].name, options[i].arg)
                            : g_strdup_printf ("--%s", options[i].name);
      /* a long option line gets its description on the next line, aligned with the others */
      if (strlen (left) > 44)
        g_print ("  %s\n  %-44s %s\n", left, "", _(options[i].help));
      else
        g_print ("  %-44s %s\n", left, _(options[i].help));
    }
  g_print ("\n%s\n", _("Architecture (override a preset, or describe a custom model):"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *left = fields[i].type == VC_ARCH_FIELD_BOOL
                              ? g_strdup_printf ("--%s, --no-%s", fields[i].name, fields[i].name)
                              : fields[i].type == VC_ARCH_FIELD_NORM
                              ? g_strdup_printf ("--%s rms|layer", fields[i].name)
                              : g_strdup_printf ("--%s N", fields[i].name);
      g_print ("  %-44s %s\n", left, _(fields[i].blurb));
    }
  g_print ("\n%s\n", _("Examples:"));
  g_print ("  vramcalc --params 7B\n");
  g_print ("  vramcalc --preset llama-3-8b --seq 8192 --concurrency 4 --format json\n");
  g_print ("  vramcalc --preset mistral-7b --mode training --finetune qlora-4bit --lora-rank 64\n");
  g_print ("  vramcalc --profile plan.json --seq 8192 --format csv\n");
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
      /* Translators: GPU id, GPU name, memory in GB, memory in MiB; keep the widths */
      g_print (_("%-18s %-20s %4.0f GB  %s\n"), g[i].id, g[i].name, g[i].memory_bytes / 1e9, mib);
    }
}

/* --active-params is never ignored: activated parameters other than the total describe a
 * mixture of experts, so the rule of thumb counts the model as one unless --model-type says
 * otherwise, which is refused; the architecture method counts them itself. */
static gboolean
apply_active_parameters (VcEstimate  *estimate,
                         GPtrArray   *settings,
                         GError     **error)
{
  gboolean active_given = FALSE, type_given = FALSE;
  VcMethod method;
  VcModelType type;
  double total, active;

  for (guint k = 0; k < settings->len; k += 2)
    {
      active_given |= g_str_equal (settings->pdata[k], "active-parameters");
      type_given |= g_str_equal (settings->pdata[k], "model-type");
    }
  if (!active_given)
    return TRUE;
  g_object_get (estimate, "method", &method, "model-type", &type,
                "parameters", &total, "active-parameters", &active, NULL);
  if (method == VC_METHOD_ARCHITECTURE)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("the architecture gives the activated parameters itself; --active-params is for "
                     "the rule of thumb (add --method rule-of-thumb)"));
      return FALSE;
    }
  if (type == VC_MODEL_TYPE_MOE || active == total)
    return TRUE;
  if (type_given)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("activated parameters other than the total describe a mixture of experts; "
                     "use --model-type moe, not dense"));
      return FALSE;
    }
  g_object_set (estimate, "model-type", VC_MODEL_TYPE_MOE, NULL);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VcEstimate) estimate = NULL;
  g_autoptr(GPtrArray) settings = g_ptr_array_new ();
  g_autoptr(GString) custom_gpus = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const char *preset = NULL, *method = NULL;
  const char *config_path = NULL;
  Format format = FORMAT_TABLE;
  const char *profile_path = NULL, *save_path = NULL;
  g_autoptr(VcProfile) profile = NULL;
  gboolean explain = FALSE, arch_given = FALSE;

  setlocale (LC_ALL, "");
  /* VC_LOCALEDIR: translations from another folder, such as the build tree's po/ */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("VC_LOCALEDIR") ? g_getenv ("VC_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      g_autofree char *name = NULL;
      const char *value = NULL;
      const Option *opt = NULL;
      const VcArchField *field = NULL;
      gboolean negated = FALSE;
      const char *eq;

      if (!g_str_has_prefix (arg, "--"))
        {
          g_autofree char *msg = g_strdup_printf (_("unexpected argument “%s”; options start with --, see vramcalc --help"), arg);
          return usage_error (NULL, msg);
        }
      eq = strchr (arg, '=');
      name = eq ? g_strndup (arg + 2, eq - arg - 2) : g_strdup (arg + 2);
      if (eq)
        value = eq + 1;

      for (guint k = 0; k < G_N_ELEMENTS (options); k++)
        if (g_str_equal (options[k].name, name))
          opt = &options[k];
      if (opt == NULL)
        {
          field = vc_arch_field_find (name);
          if (field == NULL && g_str_has_prefix (name, "no-"))
            {
              field = vc_arch_field_find (name + 3);
              negated = field != NULL && field->type == VC_ARCH_FIELD_BOOL;
              if (!negated)
                field = NULL;
            }
          if (field == NULL)
            {
              g_autofree char *msg = g_strdup_printf (_("unknown option --%s; see vramcalc --help"), name);
              return usage_error (NULL, msg);
            }
        }

      if ((opt && (opt->arg != NULL)) || (field && field->type != VC_ARCH_FIELD_BOOL))
        {
          if (value == NULL)
            {
              if (i + 1 >= argc)
                {
                  g_autofree char *msg = g_strdup_printf (_("a value is required (%s)"),
                                                          opt ? opt->arg : "N");
                  return usage_error (name, msg);
                }
              value = argv[++i];
            }
        }
      else if (value != NULL && !(field && field->type == VC_ARCH_FIELD_BOOL && !negated))
        return usage_error (name, _("this option takes no value"));

      if (field)
        {
          arch_given = TRUE;
          g_ptr_array_add (settings, (gpointer) field->name);
          g_ptr_array_add (settings, (gpointer) (field->type == VC_ARCH_FIELD_BOOL
                                                 ? (negated ? "false" : (value ? value : "true"))
                                                 : value));
          continue;
        }

      switch (opt->kind)
        {
        case OPT_PROPERTY:
          g_ptr_array_add (settings, (gpointer) opt->property);
          g_ptr_array_add (settings, (gpointer) value);
          break;
        case OPT_TRUE:
        case OPT_FALSE:
          g_ptr_array_add (settings, (gpointer) opt->property);
          g_ptr_array_add (settings, opt->kind == OPT_TRUE ? "true" : "false");
          break;
        case OPT_PRESET:
          preset = value;
          break;
        case OPT_CONFIG:
          config_path = value;
          break;
        case OPT_METHOD:
          method = value;
          break;
        case OPT_FORMAT:
          if (g_str_equal (value, "table"))
            format = FORMAT_TABLE;
          else if (g_str_equal (value, "json"))
            format = FORMAT_JSON;
          else if (g_str_equal (value, "csv"))
            format = FORMAT_CSV;
          else
            {
              g_autofree char *msg = g_strdup_printf (_("“%s” is not a format; accepted: table, json, csv"), value);
              return usage_error (name, msg);
            }
          break;
        case OPT_PROFILE:
          profile_path = value;
          break;
        case OPT_SAVE_PROFILE:
          save_path = value;
          break;
        case OPT_GPU:
          if (strchr (value, ';'))
            return usage_error (name, _("one GPU per --gpu option; “;” is not allowed in its name"));
          g_string_append_printf (custom_gpus, "%s%s", custom_gpus->len ? ";" : "", value);
          break;
        case OPT_EXPLAIN:
          explain = TRUE;
          break;
        case OPT_LIST_PRESETS:
          list_presets ();
          return 0;
        case OPT_LIST_GPUS:
          list_gpus ();
          return 0;
        case OPT_HELP:
          print_help ();
          return 0;
        case OPT_VERSION:
          g_print ("vramcalc %s\n", PACKAGE_VERSION);
          return 0;
        default:
          g_assert_not_reached ();
        }
    }

  estimate = vc_estimate_new ();
  profile = vc_profile_new (estimate);
  /* the profile first: every option overrides it, whatever the order */
  if (profile_path)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (profile_path);

      if (!vc_profile_load (profile, file, NULL, &error))
        {
          g_autofree char *msg = g_strdup_printf ("%s: %s", profile_path, error->message);
          return usage_error ("profile", msg);
        }
    }
  if (custom_gpus->len > 0)
    {
      g_ptr_array_add (settings, (gpointer) "custom-gpus");
      g_ptr_array_add (settings, custom_gpus->str);
    }

  /* the preset first, so that every other option overrides it whatever the order */
  if (preset && !vc_estimate_set_preset (estimate, preset, &error))
    return usage_error ("preset", error->message);
  /* a config.json is applied like a preset: every other option overrides it */
  if (config_path)
    {
      g_autoptr(VcHfConfig) config = NULL;

      if (preset)
        return usage_error ("config", _("--config and --preset both name the model; give one of them"));
      config = vc_hf_config_new_for_path (config_path, &error);
      if (config == NULL)
        return usage_error ("config", error->message);
      vc_hf_config_apply (config, estimate);
      if (vc_hf_config_get_warning (config))
        g_printerr ("vramcalc: %s\n", vc_hf_config_get_warning (config));
    }
  /* a profile keeps its own method unless --method is given */
  if (!method && !profile_path)
    method = (preset || config_path || arch_given) ? "architecture" : "rule-of-thumb";
  if (method && !vc_estimate_set_from_string (estimate, "method", method, &error))
    return usage_error ("method", error->message);

  for (guint k = 0; k < settings->len; k += 2)
    {
      const char *property = settings->pdata[k];
      const char *value = settings->pdata[k + 1];

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

  if (!apply_active_parameters (estimate, settings, &error))
    return usage_error ("active-params", error->message);
  if (!vc_estimate_check (estimate, &error))
    return usage_error (NULL, error->message);

  if (save_path)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (save_path);

      if (!vc_profile_save (profile, file, NULL, &error))
        {
          g_autofree char *msg = g_strdup_printf ("%s: %s", save_path, error->message);
          return usage_error ("save-profile", msg);
        }
    }

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

      /* as is: UTF-8 whatever the terminal's charset (g_print would turn "é" into "?") */
      fputs (json, stdout);
      fputc ('\n', stdout);
    }
  else
    {
      g_autofree char *table = vc_report_table (estimate, explain);
      g_print ("%s", table);
    }
  return 0;
}
