/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vramcalc: the estimator on the command line, for scripts and tests.
 *
 * Options map onto the estimate model's properties; every value goes through the same range
 * checks as the window. GOptionContext reads the command line: the general options come from
 * the table of vc-cli-options (an input's help being its property's blurb), the architecture
 * group from the field table of vc-arch. Options are applied
 * in a fixed order whatever their place on the line (profile, preset or config, method, then
 * the rest in command-line order). Exit status: 0 on success, 2 on a bad option or file (with
 * a message on stderr naming it and what is accepted), 1 on any other failure, a failed write
 * to standard output included. "-" as the file of --config or --profile is standard input.
 */
#define G_LOG_DOMAIN "vramcalc"

#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "vc-arch.h"
#include "vc-catalog.h"
#include "vc-cli-doc.h"
#include "vc-cli-options.h"
#include "vc-command.h"
#include "vc-csv.h"
#include "vc-engine.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-engine.h"
#include "vc-estimate.h"
#include "vc-hf-config.h"
#include "vc-json-input.h"
#include "vc-hub.h"
#include "vc-local-gpus.h"
#include "vc-local-model.h"
#include "vc-model-file.h"
#include "vc-profile.h"
#include "vc-report.h"
#include "vc-text.h"
#include "vc-units.h"

#define EXIT_USAGE 2

typedef enum { FORMAT_TABLE, FORMAT_JSON, FORMAT_CSV } Format;

typedef enum
{
  ACTION_ESTIMATE,
  ACTION_LIST_PRESETS,
  ACTION_LIST_GPUS,
  ACTION_LIST_LOCAL_GPUS,
  ACTION_LIST_LOCAL_MODELS,
  ACTION_HELP,
  ACTION_VERSION,
  ACTION_GENERATE,
} Action;

/* What the command line asks for, filled in by the option callbacks. */
typedef struct
{
  char **argv;                /* as given: tells --NAME=VALUE from --NAME VALUE */
  GPtrArray *settings;        /* pairs: property, value, in command-line order */
  GString *custom_gpus;
  char *preset;
  char *config_path;
  char *model_path;
  char *mmproj_path;
  char *method;
  char *profile_path;
  char *save_path;
  Format format;
  Action action;
  int action_at;              /* its place in argv */
  gboolean explain;
  gboolean approximate;
  gboolean this_computer;
  gboolean arch_given;
  char *solve;                /* --solve, checked: a nick of VcSolveVariable */
  char *fit_gpu;
  char *search;               /* --search: what --list-presets lists */
  char *print_command;        /* --print-command: an engine of vc_command_engine_id() */
  guint gpu_count;            /* 0: not given */
  const char *sharding_from;  /* the option that set the sharding: zero or fsdp */
  const VcCliOption *alias;   /* an option that stands for another (--parallel), if given, */
  char *alias_value;          /* its last value, */
  char *aliased_value;        /* and of the option it stands for (--concurrency) */
  VcCliDocFormat generate;    /* --generate */
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
  g_clear_pointer (&req->alias_value, g_free);
  g_clear_pointer (&req->aliased_value, g_free);
  g_clear_pointer (&req->config_path, g_free);
  g_clear_pointer (&req->model_path, g_free);
  g_clear_pointer (&req->mmproj_path, g_free);
  g_clear_pointer (&req->method, g_free);
  g_clear_pointer (&req->profile_path, g_free);
  g_clear_pointer (&req->save_path, g_free);
  g_clear_pointer (&req->solve, g_free);
  g_clear_pointer (&req->fit_gpu, g_free);
  g_clear_pointer (&req->search, g_free);
  g_clear_pointer (&req->print_command, g_free);
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

/* option_error() with a message to format: "“VALUE” is not …; accepted: …" */
G_GNUC_PRINTF (3, 4)
static gboolean
option_errorf (GError    **error,
               const char *option,
               const char *format,
               ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  return option_error (error, option, message);
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

static const VcCliOption *
find_option (const char *name)
{
  for (guint i = 0; i < vc_cli_n_options; i++)
    if (g_str_equal (vc_cli_options[i].name, name))
      return &vc_cli_options[i];
  return NULL;
}

/* the option GOption names "--NAME" or "-X" */
static const VcCliOption *
find_option_flag (const char *flag)
{
  if (flag[0] == '-' && flag[1] != '-')
    {
      for (guint i = 0; i < vc_cli_n_options; i++)
        if (vc_cli_options[i].short_name != 0 && vc_cli_options[i].short_name == flag[1])
          return &vc_cli_options[i];
      return NULL;
    }
  return find_option (flag + 2);
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
    return option_errorf (error, "format", _("“%s” is not a format; accepted: table, json, csv"), value);
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

/* The Request member an option naming a file, a model or a GPU fills in; NULL for others. */
static char **
string_option_slot (Request *req,
                    VcCliOptKind  kind)
{
  switch (kind)
    {
    case OPT_PRESET: return &req->preset;
    case OPT_CONFIG: return &req->config_path;
    case OPT_MODEL: return &req->model_path;
    case OPT_MMPROJ: return &req->mmproj_path;
    case OPT_METHOD: return &req->method;
    case OPT_PROFILE: return &req->profile_path;
    case OPT_SAVE_PROFILE: return &req->save_path;
    case OPT_FIT_GPU: return &req->fit_gpu;
    case OPT_SEARCH: return &req->search;
    default: return NULL;
    }
}

/* The action an option asks for instead of an estimate; FALSE for an option that is not one. */
static gboolean
option_action (VcCliOptKind  kind,
               Action  *action)
{
  switch (kind)
    {
    case OPT_LIST_PRESETS: *action = ACTION_LIST_PRESETS; return TRUE;
    case OPT_LIST_GPUS: *action = ACTION_LIST_GPUS; return TRUE;
    case OPT_LIST_LOCAL_GPUS: *action = ACTION_LIST_LOCAL_GPUS; return TRUE;
    case OPT_LIST_LOCAL_MODELS: *action = ACTION_LIST_LOCAL_MODELS; return TRUE;
    case OPT_HELP: *action = ACTION_HELP; return TRUE;
    case OPT_VERSION: *action = ACTION_VERSION; return TRUE;
    default: return FALSE;
    }
}

/* --zero and --fsdp both set the sharding, with DeepSpeed's or PyTorch's: one of them only,
 * rather than the later one silently winning */
static gboolean
check_one_sharding (Request            *req,
                    const VcCliOption  *opt,
                    GError            **error)
{
  if (req->sharding_from != NULL && !g_str_equal (req->sharding_from, opt->name))
    return option_errorf (error, opt->name, _("--%s sets the sharding too: DeepSpeed’s ZeRO or PyTorch’s FSDP, not both; "
                                              "accepted: one of them"),
                          req->sharding_from);
  req->sharding_from = opt->name;
  return TRUE;
}

static gboolean
apply_zero (Request       *req,
            const VcCliOption  *opt,
            const char    *value,
            GError       **error)
{
  static const char *stages[] = { "none", "zero-1", "zero-2", "zero-3" };

  if (strlen (value) != 1 || value[0] < '0' || value[0] > '3')
    return option_errorf (error, opt->name, _("“%s” is not a ZeRO stage; accepted: 0, 1, 2, 3"), value);
  if (!check_one_sharding (req, opt, error))
    return FALSE;
  add_setting (req, opt->property, stages[value[0] - '0']);
  return TRUE;
}

static gboolean
apply_fsdp (Request       *req,
            const VcCliOption  *opt,
            const char    *value,
            GError       **error)
{
  g_autofree char *nick = NULL;

  if (!g_str_equal (value, "full") && !g_str_equal (value, "grad-op") && !g_str_equal (value, "hybrid"))
    return option_errorf (error, opt->name, _("“%s” is not an FSDP sharding strategy; accepted: full, grad-op, hybrid"), value);
  if (!check_one_sharding (req, opt, error))
    return FALSE;
  nick = g_strconcat ("fsdp-", value, NULL);
  add_setting (req, opt->property, nick);
  return TRUE;
}

static gboolean
apply_solve (Request       *req,
             const VcCliOption  *opt,
             const char    *value,
             GError       **error)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (VC_TYPE_SOLVE_VARIABLE);

  if (g_enum_get_value_by_nick (klass, value) == NULL)
    return option_errorf (error, opt->name, _("“%s” is not something to solve for; accepted: seq, batch, concurrency"), value);
  replace_str (&req->solve, value);
  return TRUE;
}

static gboolean
apply_gpu_count (Request       *req,
                 const VcCliOption  *opt,
                 const char    *value,
                 GError       **error)
{
  double n;

  /* counts as other counts are written: "1k" is 1000 */
  if (!vc_parse_count (value, &n, NULL) || n != floor (n) || n < 1 || n > 100000)
    return option_errorf (error, opt->name, _("“%s” is not a GPU count; accepted: a whole number from 1 to 100000"), value);
  req->gpu_count = (guint) n;
  return TRUE;
}

/* The options whose value is checked here, before any estimate */
static gboolean
apply_checked_option (Request       *req,
                      const VcCliOption  *opt,
                      const char    *value,
                      GError       **error)
{
  switch (opt->kind)
    {
    case OPT_GPU:
      if (strchr (value, ';'))
        return option_error (error, opt->name, _("one GPU per --gpu option; “;” is not allowed in its name"));
      g_string_append_printf (req->custom_gpus, "%s%s", req->custom_gpus->len ? ";" : "", value);
      return TRUE;
    case OPT_ZERO:
      return apply_zero (req, opt, value, error);
    case OPT_FSDP:
      return apply_fsdp (req, opt, value, error);
    case OPT_GPU_LAYERS:
      if (g_str_equal (value, "0"))
        return option_error (error, opt->name, _("0 keeps every layer in system RAM, with nothing to estimate on the GPU; "
                                                  "accepted: 1 or more layers (more than the model has puts it all on the GPU)"));
      add_setting (req, opt->property, value);
      return TRUE;
    case OPT_SOLVE:
      return apply_solve (req, opt, value, error);
    case OPT_PRINT_COMMAND:
      {
        VcCommandEngine engine;
        g_autoptr(GError) local = NULL;

        if (!vc_command_engine_from_id (value, &engine, &local))
          return option_error (error, opt->name, local->message);
        replace_str (&req->print_command, value);
        return TRUE;
      }
    case OPT_GPU_COUNT:
      return apply_gpu_count (req, opt, value, error);
    default:
      g_assert_not_reached ();
    }
}

/* Properties whose 0 stands for the engine's default (a profile or the window leaves them at
 * 0): typed on the command line, 0 is the engine's own value, which it refuses or reads
 * otherwise (llama.cpp's -ub 0 is the logical batch), so it is refused here by name */
static gboolean
check_not_default_zero (const VcCliOption  *opt,
                        const char         *value,
                        GError            **error)
{
  static const char *const zero_is_default[] = { "n-batch", "max-num-batched-tokens", "max-num-seqs",
                                                 "mem-fraction-static", NULL };
  char *end = NULL;
  double parsed = g_ascii_strtod (value, &end);

  if (end == value || *end != '\0' || parsed != 0)
    return TRUE;
  if (g_str_equal (opt->property, "n-ubatch"))
    return option_error (error, opt->name, _("llama.cpp reads -ub 0 as the logical batch (-b), which is not followed "
                                             "here; accepted: the micro-batch itself, 1 or more (the logical batch’s "
                                             "value for the same effect), or no --n-ubatch for the default"));
  if (g_strv_contains (zero_is_default, opt->property))
    return option_error (error, opt->name, _("the engine itself does not read 0 as its default; accepted: a value above 0, "
                                             "or the option left out for the default"));
  return TRUE;
}

static gboolean
apply_option (Request     *req,
              const char  *option_name,
              const char  *value,
              GError     **error)
{
  const VcCliOption *opt = find_option_flag (option_name);
  char **slot;
  Action action;

  g_assert (opt != NULL);
  if (opt->arg == NULL && !check_switch_value (req, option_name, &value, FALSE, error))
    return FALSE;

  switch (opt->kind)
    {
    case OPT_PROPERTY_ALIAS:
      req->alias = opt;
      replace_str (&req->alias_value, value);
      add_setting (req, opt->property, value);
      return TRUE;
    case OPT_PROPERTY:
      if (!check_not_default_zero (opt, value, error))
        return FALSE;
      if (vc_cli_option_alias_of (opt->property) != NULL)
        replace_str (&req->aliased_value, value);
      add_setting (req, opt->property, value);
      return TRUE;
    case OPT_ENGINE_VERSION:
      add_setting (req, opt->property, value);
      return TRUE;
    case OPT_TRUE:
    case OPT_FALSE:
      add_setting (req, opt->property, opt->kind == OPT_TRUE ? "true" : "false");
      return TRUE;
    case OPT_APPROXIMATE:
      req->approximate = TRUE;
      return TRUE;
    case OPT_EXPLAIN:
      req->explain = TRUE;
      return TRUE;
    case OPT_THIS_COMPUTER:
      req->this_computer = TRUE;
      return TRUE;
    case OPT_FORMAT:
      return set_format (req, value, error);
    case OPT_GENERATE:
      if (!vc_cli_doc_format_from_string (value, &req->generate))
        return option_errorf (error, opt->name, _("“%s” is not a format; accepted: man, bash, zsh, fish"), value);
      set_action (req, ACTION_GENERATE, option_name);
      return TRUE;
    default:
      break;
    }
  if ((slot = string_option_slot (req, opt->kind)) != NULL)
    replace_str (slot, value);
  else if (option_action (opt->kind, &action))
    set_action (req, action, option_name);
  else
    return apply_checked_option (req, opt, value, error);
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
  g_autofree GOptionEntry *entries = g_new0 (GOptionEntry, vc_cli_n_options + 1);

  for (guint i = 0; i < vc_cli_n_options; i++)
    {
      GOptionEntry *e = &entries[i];

      e->long_name = vc_cli_options[i].name;
      e->short_name = vc_cli_options[i].short_name;
      /* FILENAME: values reach us as given, whatever the locale's charset */
      e->flags = G_OPTION_FLAG_FILENAME;
      if (vc_cli_options[i].arg == NULL)
        e->flags |= G_OPTION_FLAG_OPTIONAL_ARG;
      if (vc_cli_option_help (&vc_cli_options[i]) == NULL)
        e->flags |= G_OPTION_FLAG_HIDDEN;
      e->arg = G_OPTION_ARG_CALLBACK;
      e->arg_data = (gpointer) on_option;
      e->description = vc_cli_option_help (&vc_cli_options[i]);
      e->arg_description = vc_cli_options[i].arg;
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

/* id, name, parameters, activated parameters (MoE), longest context, release date: the whole
 * catalog, or the models whose text matches every word of `search`, as the window's search */
static int
list_presets (const char *search)
{
  guint n, n_found;
  const VcPreset *p = vc_presets_get_all (&n);
  g_autofree guint *found = g_new (guint, MAX (n, 1));

  if (search != NULL)
    n_found = vc_presets_search (search, found, n);
  else
    for (n_found = 0; n_found < n; n_found++)
      found[n_found] = n_found;
  if (search != NULL && n_found == 0)
    {
      g_printerr (_("vramcalc: no built-in model matches “%s”\n"), search);
      return 1;
    }
  for (guint k = 0; k < n_found; k++)
    {
      const VcPreset *m = &p[found[k]];
      g_autofree char *count = vc_format_count (m->published_parameters);
      g_autofree char *active = m->published_active_parameters > 0 ? vc_format_count (m->published_active_parameters) : g_strdup ("-");
      g_autofree char *context = m->max_context > 0 ? g_strdup_printf ("%u", m->max_context) : g_strdup ("-");

      g_print ("%-30s %-36s %8s %8s %8s %s\n", m->id, m->name, count, active, context, m->released);
    }
  return 0;
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

/* One line a model: where it comes from, its name, format, size and file; what was found but
 * cannot be read on standard error. */
static int
list_local_models (void)
{
  g_autoptr(GPtrArray) skipped = NULL;
  g_autoptr(GPtrArray) models = vc_local_models_list (&skipped, NULL);

  for (guint i = 0; i < models->len; i++)
    {
      VcLocalModel *m = models->pdata[i];
      g_autofree char *size = g_format_size (vc_local_model_get_bytes (m));

      g_print ("%-9s %-40s %-12s %10s  %s\n", vc_local_model_get_source (m), vc_local_model_get_name (m),
               vc_local_model_get_format (m), size, g_file_peek_path (vc_local_model_get_file (m)));
    }
  for (guint i = 0; i < skipped->len; i++)
    g_printerr (_("vramcalc: left out: %s\n"), (char *) skipped->pdata[i]);
  if (models->len == 0)
    g_printerr (_("vramcalc: no model found in Ollama's, LM Studio's or the Hugging Face cache's folders\n"));
  return 0;
}

/* vLLM's options (--gpu-memory-utilization, --block-size, the profile run's batch,
 * --kv-cache-memory, --mxfp4-backend, --vllm-sampler, --mm-encoder-tp-mode) and SGLang's (--mem-fraction, --page-size, --sglang-version) are refused with another engine
 * rather than ignored or misread, --engine-version (either's release) with neither, and --mfu
 * means something to training only. */
static const struct
{
  const char *name;
  const char *engine;
} engine_options[] = {
  { "gpu-memory-utilization", "vllm" },
  { "block-size", "vllm" },
  { "max-num-batched-tokens", "vllm" },
  { "max-num-seqs", "vllm" },
  { "limit-mm-per-prompt", "vllm" },
  { "kv-cache-memory", "vllm" },
  { "enforce-eager", "vllm" },
  { "no-enforce-eager", "vllm" },
  { "mxfp4-backend", "vllm" },
  { "vllm-sampler", "vllm" },
  { "mm-encoder-tp-mode", "vllm" },
  { "mem-fraction", "sglang" },
  { "page-size", "sglang" },
  { "sglang-version", "sglang" },
};

static gboolean
check_engine_options (int          argc,
                      char        *argv[],
                      VcEstimate  *estimate,
                      const char **bad_option,
                      char       **message)
{
  g_autofree char *engine = vc_estimate_dup_input_string (estimate, "engine");
  const VcInputs *in = vc_estimate_get_inputs (estimate);

  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      const char *wanted = NULL;

      static const char *serving[] = { "engine", "gpu-memory-utilization", "mem-fraction" };

      for (guint k = 0; k < G_N_ELEMENTS (serving); k++)
        if (g_str_has_prefix (a, "--") && g_str_has_prefix (a + 2, serving[k]) &&
            (a[2 + strlen (serving[k])] == '\0' || a[2 + strlen (serving[k])] == '=') &&
            in->mode != VC_MODE_INFERENCE && in->engine != VC_ENGINE_GENERIC)
          {
            *bad_option = serving[k];
            *message = g_strdup (_("serving engines apply to inference (give --mode inference, or leave the engine generic)"));
            return FALSE;
          }
      static const char *llama[] = { "parallel", "n-ubatch", "n-batch", "kv-unified", "no-kv-unified",
                                     "mmproj", "mmproj-offload", "no-mmproj-offload",
                                     "cache-type-k", "cache-type-v", "tensor-split", "main-gpu", "split-mode",
                                     "n-cpu-moe" };
      static const char *planned[] = { "tensor-split", "main-gpu", "split-mode", "n-cpu-moe", "ram", "pp-partition" };

      /* the plan's options act on My GPUs alone */
      for (guint k = 0; k < G_N_ELEMENTS (planned); k++)
        if (g_str_has_prefix (a, "--") && g_str_has_prefix (a + 2, planned[k]) &&
            (a[2 + strlen (planned[k])] == '\0' || a[2 + strlen (planned[k])] == '=') &&
            vc_gpu_set_get_n (vc_estimate_get_gpu_set (estimate)) == 0)
          {
            *bad_option = planned[k];
            *message = g_strdup (_("this option shapes the plan on My GPUs: give the cards with --gpus LIST or --this-computer"));
            return FALSE;
          }

      for (guint k = 0; k < G_N_ELEMENTS (llama); k++)
        if (g_str_has_prefix (a, "--") && g_str_has_prefix (a + 2, llama[k]) &&
            (a[2 + strlen (llama[k])] == '\0' || a[2 + strlen (llama[k])] == '=') &&
            !vc_engine_is_llama_cpp (in))
          {
            *bad_option = llama[k];
            *message = g_strdup_printf (_("this option is llama.cpp's; the engine is %s (give --engine llama.cpp or ollama, "
                                          "with --mode inference)"), engine);
            return FALSE;
          }
      if ((g_str_equal (a, "--mfu") || g_str_has_prefix (a, "--mfu=")) && in->mode != VC_MODE_TRAINING)
        {
          *bad_option = "mfu";
          *message = g_strdup (_("the model FLOPs utilization sets a training step's time (give --mode training)"));
          return FALSE;
        }

      /* an option vLLM and SGLang both have */
      static const char *tp_serving[] = { "disable-custom-all-reduce", "no-disable-custom-all-reduce", "engine-version" };

      for (guint k = 0; k < G_N_ELEMENTS (tp_serving); k++)
        if (g_str_has_prefix (a, "--") && g_str_has_prefix (a + 2, tp_serving[k]) &&
            (a[2 + strlen (tp_serving[k])] == '\0' || a[2 + strlen (tp_serving[k])] == '=') &&
            in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG)
          {
            *bad_option = tp_serving[k];
            *message = g_strdup_printf (_("this option is vLLM's and SGLang's; the engine is %s (give --engine vllm or sglang)"),
                                        engine);
            return FALSE;
          }
      for (guint k = 0; k < G_N_ELEMENTS (engine_options); k++)
        if (g_str_has_prefix (a, "--") && g_str_has_prefix (a + 2, engine_options[k].name) &&
            (a[2 + strlen (engine_options[k].name)] == '\0' || a[2 + strlen (engine_options[k].name)] == '='))
          wanted = engine_options[k].engine, *bad_option = engine_options[k].name;
      if (wanted && !g_str_equal (engine, wanted))
        {
          *message = g_strdup_printf (_("this option is %s's; the engine is %s (give --engine %s)"),
                                      g_str_equal (wanted, "vllm") ? "vLLM" : "SGLang", engine, wanted);
          return FALSE;
        }
    }
  return TRUE;
}

/* This computer's cards, read only on request (--this-computer, --list-local-gpus); NULL with
 * @error when they may not be read or none is found. */
static GPtrArray *
local_gpus (GError **error)
{
  g_autoptr(GPtrArray) gpus = NULL;

  if (!vc_local_gpus_allowed ("/.flatpak-info", error))
    return NULL;
  gpus = vc_local_gpus_detect_default ();
  if (gpus->len == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("no GPU found on this computer: NVIDIA cards are read through their driver's "
                             "libnvidia-ml, AMD cards through the amdgpu driver"));
      return NULL;
    }
  return g_steal_pointer (&gpus);
}

static int
list_local_gpus (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) gpus = local_gpus (&error);
  double ram = vc_local_system_memory ("/proc");

  if (ram > 0)
    g_print (_("System memory: %.1f GB\n"), ram / 1e9);
  if (gpus == NULL)
    {
      g_printerr ("vramcalc: %s\n", error->message);
      return 1;
    }
  for (guint i = 0; i < gpus->len; i++)
    {
      const VcLocalGpu *g = gpus->pdata[i];
      /* Translators: vendor, GPU name, memory in MiB */
      g_print (_("%-8s %-40s %.0f MiB\n"), g->vendor, g->name, g->memory_bytes / 1048576.0);
    }
  return 0;
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

/* shared by --help and the man page */
static const char summary[] = N_("Estimates the GPU memory an LLM needs for inference or fine-tuning, and which GPUs hold it.");
static const char *const examples[] = {
  "vramcalc --params 7B",
  "vramcalc --preset llama-3-8b --seq 8192 --concurrency 4 --format json",
  "vramcalc --preset mistral-7b --mode training --finetune qlora-4bit --lora-rank 64",
  "vramcalc --profile plan.json --seq 8192 --format csv",
  "vramcalc --preset llama-3.1-8b --solve seq --fit-gpu rtx-4090",
  "vramcalc --preset llama-3-70b --tp 4 --pp 2 --concurrency 32",
  "vramcalc --preset llama-3-8b --mode training --finetune full --dp 8 --zero 3 --offload optimizer",
  NULL,
};

static GOptionContext *
option_context_new (Request *req)
{
  GOptionContext *context = g_option_context_new (NULL);
  g_autoptr(GString) text = g_string_new (_("Examples:"));

  for (guint i = 0; examples[i] != NULL; i++)
    g_string_append_printf (text, "\n  %s", examples[i]);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, summary);
  g_option_context_set_description (context, text->str);
  /* --help and -h are ours, listed with the others and showing every group */
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
  const VcCliOption *opt = g_str_has_prefix (last, "--") ? find_option (last + 2) : NULL;
  g_autofree char *msg = NULL;

  if (opt == NULL && (!g_str_has_prefix (last, "--") || vc_arch_field_find (last + 2) == NULL))
    return NULL;
  msg = g_strdup_printf (_("a value is required (%s)"), opt ? opt->arg : "N");
  return g_strdup_printf ("%s: %s", last, msg);
}

static gboolean
takes_value (const char *arg)
{
  const VcCliOption *opt;
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

/* The option that sets @property, for messages; with @skip_negated, never a --no-NAME. */
static const char *
option_for_property (const char *property,
                     gboolean    skip_negated)
{
  for (guint o = 0; o < vc_cli_n_options; o++)
    if (g_strcmp0 (vc_cli_options[o].property, property) == 0 && !(skip_negated && vc_cli_options[o].kind == OPT_FALSE))
      return vc_cli_options[o].name;
  return NULL;
}

/* "-" as a file: standard input, read to its end, or refused once past the size a JSON input
 * may have */
static GBytes *
read_stdin (GError **error)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  guint8 buffer[65536];
  size_t got;

  while (data->len <= VC_JSON_INPUT_MAX_SIZE &&
         (got = fread (buffer, 1, MIN (sizeof buffer, VC_JSON_INPUT_MAX_SIZE + 1 - data->len), stdin)) > 0)
    g_byte_array_append (data, buffer, got);
  if (ferror (stdin))
    {
      int saved = errno;

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved), g_strerror (saved));
      return NULL;
    }
  if (data->len > VC_JSON_INPUT_MAX_SIZE)
    {
      g_autofree char *limit = g_format_size (VC_JSON_INPUT_MAX_SIZE);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, _("more than %s, the most a profile or a config.json may have"),
                   limit);
      return NULL;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&data));
}

/* --profile -: the profile read from standard input; it has no file */
static gboolean
load_profile_stdin (VcProfile  *profile,
                    GError    **error)
{
  g_autoptr(GBytes) bytes = read_stdin (error);
  g_autofree char *name = NULL, *notes = NULL;
  VcUnit unit = VC_UNIT_GB;
  const char *data;
  gsize length;

  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &length);
  if (!vc_profile_parse (data ? data : "", length, vc_profile_get_estimate (profile), &name, &notes, &unit, error))
    return FALSE;
  vc_profile_set_name (profile, name);
  vc_profile_set_notes (profile, notes);
  vc_profile_set_unit (profile, unit);
  return TRUE;
}

static int
load_request_profile (Request   *req,
                      VcProfile *profile)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (req->profile_path);
  gboolean from_stdin = g_str_equal (req->profile_path, "-");

  if (from_stdin && req->config_path && g_str_equal (req->config_path, "-"))
    return usage_error ("profile", _("standard input is read once: give “-” to --profile or to --config, not both"));
  if (from_stdin ? !load_profile_stdin (profile, &error) : !vc_profile_load (profile, file, NULL, &error))
    {
      g_autofree char *msg = g_strdup_printf ("%s: %s", from_stdin ? _("standard input") : req->profile_path,
                                              error->message);
      return usage_error ("profile", msg);
    }
  return 0;
}

/* --this-computer: this computer's GPUs join the --gpu cards */
static int
add_this_computer (Request *req)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) gpus = local_gpus (&error);
  g_autofree char *text = NULL;
  g_auto(GStrv) notes = NULL;

  if (gpus == NULL)
    {
      g_printerr ("vramcalc: --this-computer: %s\n", error->message);
      return 1;
    }
  /* a card the estimate cannot take is left out, and said; the others are kept */
  text = vc_local_gpus_to_custom_full (gpus, &notes);
  for (guint i = 0; notes[i] != NULL; i++)
    g_printerr ("vramcalc: --this-computer: %s\n", notes[i]);
  if (*text == '\0')
    return 1;
  g_string_append_printf (req->custom_gpus, "%s%s", req->custom_gpus->len ? ";" : "", text);
  /* My GPUs: the cards with what each has free, and the computer's memory; --gpus and --ram
   * given as well come later and win */
  {
    g_autofree char *set = vc_local_gpus_to_set (gpus);
    double ram = vc_local_system_memory ("/proc");

    add_setting (req, "gpu-set", set);
    if (ram >= 1e8)
      {
        g_autofree char *ram_text = g_strdup_printf ("%.0fB", ram);

        add_setting (req, "host-ram", ram_text);
      }
  }
  return 0;
}

/* --preset, then the refusals of options that name the model twice */
static int
apply_model_choice (Request    *req,
                    VcEstimate *estimate)
{
  g_autoptr(GError) error = NULL;

  if (req->preset && !vc_estimate_set_preset (estimate, req->preset, &error))
    return usage_error ("preset", error->message);
  if (req->approximate && !req->config_path && !req->model_path)
    return usage_error ("approximate", _("applies to a model read with --config or --model; give one of them"));
  if (req->config_path && req->preset)
    return usage_error ("config", _("--config and --preset both name the model; give one of them"));
  if (req->model_path && (req->preset || req->config_path))
    return usage_error ("model", _("--model, --config and --preset all name the model; give one of them"));
  return 0;
}

/* --model: a path, hf:ORG/NAME… or a Hub address (its headers fetched), or ollama:NAME */
static VcModelFile *
open_model (const char  *spec,
            GError     **error)
{
  if (g_str_has_prefix (spec, "hf:") || g_str_has_prefix (spec, "https://huggingface.co/") ||
      g_str_has_prefix (spec, "https://hf.co/"))
    {
      g_autoptr(VcHub) hub = vc_hub_new ();
      g_autofree char *notice = NULL;
      g_autoptr(GFile) file = vc_hub_fetch (hub, spec, &notice, NULL, NULL, error);

      if (file == NULL)
        return NULL;
      if (notice)
        g_printerr ("vramcalc: %s\n", notice);
      return vc_model_file_new_for_file (file, NULL, error);
    }
  if (g_str_has_prefix (spec, "ollama:"))
    {
      g_autoptr(VcLocalModel) local = vc_local_models_find_ollama (spec + strlen ("ollama:"), error);

      if (local == NULL)
        return NULL;
      return vc_model_file_new_for_file (vc_local_model_get_file (local), NULL, error);
    }
  return vc_model_file_new_for_path (spec, error);
}

/* A config.json or a model's files are applied like a preset: every other option overrides
 * them; with no --precision the weights are the tensors' own bytes. */
static int
apply_model_file (Request    *req,
                  VcEstimate *estimate)
{
  g_autoptr(GError) error = NULL;
  const char *option = req->model_path ? "model" : "config";
  g_autoptr(VcModelFile) model = NULL;
  VcHfConfig *config;

  if (req->model_path)
    model = open_model (req->model_path, &error);
  else if (g_str_equal (req->config_path, "-"))
    {
      g_autoptr(GBytes) bytes = read_stdin (&error);
      gsize length = 0;
      const char *data = bytes ? g_bytes_get_data (bytes, &length) : NULL;

      if (bytes != NULL)
        model = vc_model_file_new_for_config_data (data ? data : "", length, _("standard input"), &error);
      else
        g_prefix_error (&error, "%s: ", _("standard input"));
    }
  else
    /* the config.json alone, its quantization_config sized as an import does */
    model = vc_model_file_new_for_config_path (req->config_path, &error);
  if (model == NULL)
    return usage_error (option, error->message);
  /* exact or refused, unless the user asks for an approximate estimate */
  config = vc_model_file_get_config (model);
  if (config != NULL && !req->approximate && !vc_hf_config_check_exact (config, &error))
    {
      g_autofree char *msg = g_strdup_printf (_("%s; --approximate estimates it anyway, naming what is not understood"),
                                              error->message);
      return usage_error (option, msg);
    }
  vc_model_file_apply (model, estimate);
  return 0;
}

/* Whether a property describes the model itself: its architecture or its parameter counts. */
static gboolean
describes_model (const char *property)
{
  guint n;
  const VcArchField *fields = vc_arch_fields (&n);

  if (g_str_equal (property, "parameters") || g_str_equal (property, "active-parameters") ||
      g_str_equal (property, "model-type"))
    return TRUE;
  for (guint i = 0; i < n; i++)
    if (g_str_equal (property, fields[i].name))
      return TRUE;
  return FALSE;
}

/* A property's value as a message shows it: "2", "1.69293e+06", "dense", "true". */
static char *
property_text (VcEstimate *estimate,
               const char *property)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (estimate), property);
  g_auto(GValue) v = G_VALUE_INIT;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (estimate), property, &v);
  if (G_VALUE_HOLDS_UINT (&v))
    return g_strdup_printf ("%u", g_value_get_uint (&v));
  if (G_VALUE_HOLDS_DOUBLE (&v))
    return g_strdup_printf ("%g", g_value_get_double (&v));
  if (G_VALUE_HOLDS_BOOLEAN (&v))
    return g_strdup (g_value_get_boolean (&v) ? "true" : "false");
  if (G_VALUE_HOLDS_ENUM (&v))
    {
      GEnumValue *e = g_enum_get_value (g_type_class_peek (pspec->value_type), g_value_get_enum (&v));

      return g_strdup (e ? e->value_nick : "?");
    }
  return g_strdup_value_contents (&v);
}

static int
compare_nicks (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The nicks of @type, sorted and separated by commas: "0.10, 0.11, 0.14, 0.17, 0.21" */
static char *
enum_nicks (GType type)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  g_autoptr(GPtrArray) nicks = g_ptr_array_new ();

  for (guint i = 0; i < klass->n_values; i++)
    g_ptr_array_add (nicks, (gpointer) klass->values[i].value_nick);
  g_ptr_array_sort (nicks, compare_nicks);
  g_ptr_array_add (nicks, NULL);
  return g_strjoinv (", ", (char **) nicks->pdata);
}

/* --engine-version: vLLM's release, or with --engine sglang SGLang's source, the input
 * --sglang-version sets (the engine as the whole command line and the profile leave it). Given
 * with --sglang-version too, both must name the same source. */
static int
apply_engine_version (VcEstimate *estimate,
                      const char *value,
                      const char *sglang_value)
{
  gboolean sglang = vc_estimate_get_inputs (estimate)->engine == VC_ENGINE_SGLANG;
  GType type = sglang ? VC_TYPE_SGLANG_VERSION : VC_TYPE_VLLM_VERSION;
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  g_autoptr(GError) error = NULL;

  if (g_enum_get_value_by_nick (klass, value) == NULL)
    {
      g_autofree char *engine = vc_estimate_dup_input_string (estimate, "engine");
      g_autofree char *vllm = enum_nicks (VC_TYPE_VLLM_VERSION);
      g_autofree char *sources = enum_nicks (VC_TYPE_SGLANG_VERSION);
      g_autofree char *message = NULL;

      /* TRANSLATORS: the value given, the engine, vLLM's releases ("0.10, 0.11, 0.14, 0.17, 0.21"), SGLang's
       * sources ("001ccef, 003fca8") */
      message = g_strdup_printf (_("“%s” is not a release of %s here; accepted with --engine vllm: %s; "
                                   "with --engine sglang: %s (the same as --sglang-version)"),
                                 value, engine, vllm, sources);
      return usage_error ("engine-version", message);
    }
  if (sglang && sglang_value != NULL && !g_str_equal (sglang_value, value))
    {
      g_autofree char *message = NULL;

      /* TRANSLATORS: the SGLang sources given with --engine-version and with --sglang-version */
      message = g_strdup_printf (_("with --engine sglang it names SGLang’s source, as --sglang-version does: "
                                   "%s and %s disagree; accepted: one of them, or both the same"),
                                 value, sglang_value);
      return usage_error ("engine-version", message);
    }
  if (!vc_estimate_set_from_string (estimate, sglang ? "sglang-version" : "engine-version", value, &error))
    return usage_error ("engine-version", error->message);
  return 0;
}

/* An option that stands for another (--parallel for --concurrency) given with it: both must say
 * the same, as numbers ("4" and "04" agree), rather than the later one silently winning */
static int
check_alias_agrees (const Request *req)
{
  g_autofree char *message = NULL;
  guint64 a, b;

  if (req->alias == NULL || req->aliased_value == NULL)
    return 0;
  if (g_ascii_string_to_unsigned (req->alias_value, 10, 0, G_MAXUINT64, &a, NULL) &&
      g_ascii_string_to_unsigned (req->aliased_value, 10, 0, G_MAXUINT64, &b, NULL) ? a == b
      : g_str_equal (req->alias_value, req->aliased_value))
    return 0;
  /* TRANSLATORS: the option it stands for (concurrency), the value given to each */
  message = g_strdup_printf (_("is the same setting as --%s, and the two disagree (%s and %s); accepted: one of "
                               "them, or both the same"),
                             req->alias->property, req->alias_value, req->aliased_value);
  return usage_error (req->alias->name, message);
}

/* Every property option in command-line order, but --precision, which is the precision of
 * the mode estimated, known once every option is read: it is left in @precision, and
 * --engine-version, whose engine is known then too (apply_engine_version()). The unit is the
 * profile's, not an input of the estimate. */
static int
apply_settings (Request     *req,
                VcEstimate  *estimate,
                VcProfile   *profile,
                const char **precision)
{
  g_autoptr(GError) error = NULL;
  const char *engine_version = NULL, *sglang_version = NULL;
  int status;

  if ((status = check_alias_agrees (req)) != 0)
    return status;
  for (guint k = 0; k < req->settings->len; k += 2)
    {
      const char *property = req->settings->pdata[k];
      const char *value = req->settings->pdata[k + 1];

      if (g_str_equal (property, "precision"))
        {
          *precision = value;
          continue;
        }
      if (g_str_equal (property, "engine-version"))
        {
          engine_version = value;
          continue;
        }
      if (g_str_equal (property, "sglang-version"))
        sglang_version = value;
      if (g_str_equal (property, "unit"))
        {
          VcUnit unit;

          if (!vc_unit_from_string (value, &unit, &error))
            return usage_error ("unit", error->message);
          vc_profile_set_unit (profile, unit);
          continue;
        }
      /* a model file's tensors are its figures: an option that changes what the file says
       * the model is would leave them describing another model */
      if (req->model_path && describes_model (property) &&
          vc_estimate_get_inputs (estimate)->source_weights_bytes > 0)
        {
          g_autofree char *before = NULL, *after = NULL;

          before = property_text (estimate, property);
          if (!vc_estimate_set_from_string (estimate, property, value, &error))
            {
              const char *option = option_for_property (property, FALSE);

              return usage_error (option ? option : property, error->message);
            }
          after = property_text (estimate, property);
          if (g_strcmp0 (before, after) != 0)
            {
              const char *option = option_for_property (property, FALSE);
              g_autofree char *msg = g_strdup_printf (_("the model file's tensors say %s is %s; an option that changes the model would leave the file's weights and parameters describing another one; accepted: %s, or --config to describe a model"),
                                                      property, before, before);

              return usage_error (option ? option : property, msg);
            }
          continue;
        }
      if (!vc_estimate_set_from_string (estimate, property, value, &error))
        {
          const char *option = option_for_property (property, FALSE);

          return usage_error (option ? option : property, error->message);
        }
    }
  if (engine_version != NULL)
    return apply_engine_version (estimate, engine_version, sglang_version);
  return 0;
}

/* An option of the other mode is kept (in a saved profile) but not used: say so. */
static void
note_other_mode_options (Request    *req,
                         VcEstimate *estimate)
{
  static const char *const training_only[] = {
    "finetune", "optimizer", "optimizer-precision", "lora-rank", "lora-percent", "lora-targets",
    "mixed-precision", "checkpointing", "loss", "compile", "train-embeddings", "training-precision",
    "expandable-segments", "trainer", "optimizer-in-backward", "packing",
    "checkpoint-every", "optimizer-impl", NULL,
  };
  static const char *const inference_only[] = { "concurrency", "kv-precision", NULL };
  gboolean training = vc_estimate_get_inputs (estimate)->mode == VC_MODE_TRAINING;

  for (guint k = 0; k < req->settings->len; k += 2)
    {
      const char *property = req->settings->pdata[k];
      gboolean other = training ? g_strv_contains (inference_only, property)
                                : g_strv_contains (training_only, property);
      const char *option = other ? option_for_property (property, TRUE) : NULL;

      if (option == NULL)
        continue;
      /* the name typed: --parallel alone stands for --concurrency */
      if (req->alias != NULL && req->aliased_value == NULL && g_str_equal (req->alias->property, property))
        option = req->alias->name;
      if (training)
        g_printerr (_("vramcalc: note: --%s applies to inference; the training estimate does not use it\n"), option);
      else
        g_printerr (_("vramcalc: note: --%s applies to training; the inference estimate does not use it\n"), option);
    }
}

/* An option that the other inputs leave without effect, said rather than ignored (kept in a
 * saved profile): the attention kernel under vLLM, whose profile run skips attention
 * (vc_estimator_vllm_profile_bytes()), and its image limit for a model without a vision encoder;
 * --checkpoint-every outside --checkpointing selective-layers; --optimizer-precision for an
 * optimizer without 32- or 16-bit state (SGD keeps none, bitsandbytes' 8-bit optimizers keep
 * 8-bit state); --optimizer-impl for SGD, whose in-place step keeps no temporary either way
 * (vc_estimator_step_temporary()) */
static void
note_unused_options (Request    *req,
                     VcEstimate *estimate)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  gboolean eight_bit = in->optimizer == VC_OPTIMIZER_ADAMW_8BIT || in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT;
  gboolean sgd = in->optimizer == VC_OPTIMIZER_SGD || in->optimizer == VC_OPTIMIZER_SGD_MOMENTUM;

  for (guint k = 0; k < req->settings->len && in->mode == VC_MODE_INFERENCE; k += 2)
    if (g_str_equal (req->settings->pdata[k], "flash-attention") && in->engine == VC_ENGINE_VLLM &&
        in->method == VC_METHOD_ARCHITECTURE)
      g_printerr (_("vramcalc: note: --flash-attention and --no-flash-attention: vLLM picks its attention backend "
                    "itself, and its profile run skips attention; the estimate does not use them\n"));
    else if (g_str_equal (req->settings->pdata[k], "limit-mm-per-prompt") && in->arch.encoder_params <= 0)
      g_printerr (_("vramcalc: note: --limit-mm-per-prompt caps the images of a model with a vision encoder; this "
                    "one has none, and the estimate does not use it\n"));
  if (in->mode != VC_MODE_TRAINING)
    return;
  for (guint k = 0; k < req->settings->len; k += 2)
    {
      const char *property = req->settings->pdata[k];

      if (g_str_equal (property, "checkpoint-every") && in->checkpointing != VC_CHECKPOINTING_SELECTIVE_LAYERS)
        g_printerr (_("vramcalc: note: --checkpoint-every applies to --checkpointing selective-layers; the estimate "
                      "does not use it\n"));
      else if (g_str_equal (property, "optimizer-precision") && (in->optimizer == VC_OPTIMIZER_SGD || eight_bit))
        g_printerr (_("vramcalc: note: --optimizer-precision sets the precision of 32- or 16-bit optimizer state; "
                      "%s keeps %s, and the estimate does not use it\n"),
                   vc_enum_nick (VC_TYPE_OPTIMIZER, in->optimizer),
                   eight_bit ? _("8-bit state") : _("no state"));
      else if (g_str_equal (property, "optimizer-impl") && sgd && in->optimizer_impl != VC_OPTIMIZER_IMPL_AUTO)
        g_printerr (_("vramcalc: note: --optimizer-impl changes nothing for SGD, whose in-place step keeps no "
                      "temporary either way; the estimate does not use it\n"));
    }
}

/* Options of the architecture method given with the by-parameter-count method (the
 * architecture's own fields, and the training and serving terms that method has no place for:
 * its activations and KV cache are shares of the weights) are kept (in a saved profile) but not used: say so.
 * Checkpointing is used: the share kept is one of the layers' (checkpoint_factor() in
 * vc-estimator.c), the layer count with it. */
static void
note_other_method_options (Request    *req,
                           VcEstimate *estimate)
{
  static const char *const architecture_only[] = {
    "loss", "compile", "train-embeddings", "expandable-segments", "optimizer-impl", "flash-attention", "lora-rank",
    "lora-targets", NULL,
  };
  /* in inference its KV cache is a share of the 16-bit weights: no KV precision, no attention
   * kernel, no llama.cpp graph or cache (the window's Inference tab names the same) */
  static const char *const inference_architecture_only[] = {
    "kv-precision", "flash-attention", "n-ubatch", "n-batch", "kv-unified", "cache-type-k", "cache-type-v", NULL,
  };
  /* the figures the estimate by parameter count starts from, which the architecture counts */
  static const char *const count_only[] = { "parameters", "active-parameters", "model-type", "lora-percent", NULL };
  const VcInputs *in = vc_estimate_get_inputs (estimate);

  for (guint k = 0; k < req->settings->len && in->method == VC_METHOD_ARCHITECTURE; k += 2)
    if (g_strv_contains (count_only, req->settings->pdata[k]))
      {
        const char *option = option_for_property (req->settings->pdata[k], TRUE);

        if (g_str_equal (req->settings->pdata[k], "lora-percent"))
          g_printerr (_("vramcalc: note: --lora-percent applies to the estimate by parameter count; the architecture "
                        "method counts the adapters from --lora-rank and --lora-targets and does not use it (add "
                        "--method rule-of-thumb)\n"));
        else
          g_printerr (_("vramcalc: note: --%s applies to the estimate by parameter count; the architecture method "
                        "counts the model's own parameters and does not use it (add --method rule-of-thumb)\n"),
                      option ? option : (const char *) req->settings->pdata[k]);
      }
  if (in->method != VC_METHOD_RULE_OF_THUMB)
    return;
  for (guint k = 0; k < req->settings->len; k += 2)
    {
      const char *property = req->settings->pdata[k];
      gboolean layers_used = g_str_equal (property, "layers") && in->mode == VC_MODE_TRAINING &&
                             (in->checkpointing == VC_CHECKPOINTING_SQRT ||
                              in->checkpointing == VC_CHECKPOINTING_FULL);
      gboolean unused = (vc_arch_field_find (property) != NULL && !layers_used) ||
                        (in->mode == VC_MODE_TRAINING && g_strv_contains (architecture_only, property)) ||
                        (in->mode == VC_MODE_INFERENCE && g_strv_contains (inference_architecture_only, property));
      const char *option = unused ? option_for_property (property, TRUE) : NULL;

      if (unused)
        g_printerr (_("vramcalc: note: --%s applies to the architecture method; the estimate by parameter "
                      "count does not use it (add --method architecture)\n"), option ? option : property);
    }
}

/* --precision: the weights' precision in inference, the parameters' in training */
static int
apply_precision (VcEstimate *estimate,
                 const char *precision)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcEstimate) scratch = NULL;

  if (vc_estimate_get_inputs (estimate)->mode != VC_MODE_TRAINING)
    {
      if (!vc_estimate_set_from_string (estimate, "precision", precision, &error))
        return usage_error ("precision", error->message);
      return 0;
    }
  if (vc_estimate_set_from_string (estimate, "training-precision", precision, &error))
    return 0;

  g_clear_error (&error);
  scratch = vc_estimate_new ();
  /* a precision, but not one a training run keeps its parameters in */
  if (vc_estimate_set_from_string (scratch, "precision", precision, NULL))
    return usage_error ("precision",
                        _("in training the parameter precision is fp32, fp16 or bf16; "
                          "the QLoRA scenarios quantize the base model to 8 or 4 bits themselves"));
  vc_estimate_set_from_string (scratch, "precision", precision, &error);
  return usage_error ("precision", error->message);
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
  int status;

  if (req->profile_path && (status = load_request_profile (req, profile)) != 0)
    return status;
  if (req->this_computer && (status = add_this_computer (req)) != 0)
    return status;
  if (req->custom_gpus->len > 0)
    add_setting (req, "custom-gpus", req->custom_gpus->str);

  if ((status = apply_model_choice (req, estimate)) != 0)
    return status;
  if ((req->config_path || req->model_path) && (status = apply_model_file (req, estimate)) != 0)
    return status;
  /* a profile keeps its own method unless --method is given */
  if (!method && !req->profile_path)
    method = (req->preset || req->config_path || req->model_path || req->arch_given) ? "architecture" : "rule-of-thumb";
  if (method && !vc_estimate_set_from_string (estimate, "method", method, &error))
    return usage_error ("method", error->message);

  if ((status = apply_settings (req, estimate, profile, &precision)) != 0)
    return status;
  if (req->mmproj_path)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (req->mmproj_path);

      if (!vc_estimate_set_mmproj_file (estimate, file, req->mmproj_path, &error))
        return usage_error ("mmproj", error->message);
    }
  {
    /* what the estimate leaves out: the model file's warning, the projector's compute buffer */
    g_auto(GStrv) warnings = vc_estimate_dup_warnings (estimate);

    for (guint i = 0; warnings[i] != NULL; i++)
      g_printerr ("vramcalc: %s\n", warnings[i]);
  }
  note_other_mode_options (req, estimate);
  note_other_method_options (req, estimate);
  note_unused_options (req, estimate);
  if (precision != NULL)
    return apply_precision (estimate, precision);
  return 0;
}

/* The card of --fit-gpu: its index in the estimate's table, or a usage error (status 2) */
static int
find_fit_gpu (Request    *req,
              VcEstimate *estimate,
              guint      *gpu_index)
{
  guint n = vc_estimate_get_n_gpus (estimate);

  for (*gpu_index = 0; *gpu_index < n; (*gpu_index)++)
    if (g_str_equal (vc_estimate_get_gpu_key (estimate, *gpu_index), req->fit_gpu))
      return 0;
  {
    g_autofree char *msg = g_strdup_printf (_("“%s” is no GPU of the catalog nor one given with --gpu; accepted: an id of --list-gpus, or the NAME of a --gpu NAME=SIZE"),
                                            req->fit_gpu);
    return usage_error ("fit-gpu", msg);
  }
}

/* --solve with --fit-gpu and --gpu-count: the answer, or a usage error (status 2). Without
 * --solve, --fit-gpu names the card of the engine's figures at the layout asked for. */
static int
solve_request (Request     *req,
               VcEstimate  *estimate,
               VcSolution  *solution,
               guint       *gpu_index)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  g_autoptr(GEnumClass) klass = NULL;
  VcSolveVariable variable;
  int status;

  /* --solve on My GPUs: the plan's answer, no --fit-gpu needed */
  if (req->solve != NULL && req->fit_gpu == NULL && vc_gpu_set_get_n (vc_estimate_get_gpu_set (estimate)) > 0)
    return 0;
  if (req->solve == NULL && (in->engine == VC_ENGINE_GENERIC || in->mode != VC_MODE_INFERENCE))
    return usage_error (req->fit_gpu ? "fit-gpu" : "gpu-count",
                        _("it goes with --solve seq|batch|concurrency, or with --engine when serving"));
  if (req->fit_gpu == NULL)
    return usage_error ("solve", _("--fit-gpu ID is required: a catalog id (see --list-gpus) or the NAME of a --gpu NAME=SIZE"));
  if ((status = find_fit_gpu (req, estimate, gpu_index)) != 0 || req->solve == NULL)
    return status;
  klass = g_type_class_ref (VC_TYPE_SOLVE_VARIABLE);
  variable = g_enum_get_value_by_nick (klass, req->solve)->value;
  if (!vc_solver_applies (in->mode, variable))
    return usage_error ("solve", _("concurrency is a serving input: in training, solve seq or batch"));
  vc_solver_solve_memo (NULL, vc_estimate_get_gpu (estimate, *gpu_index), in, variable,
                        vc_engine_gpu_capacity (in, vc_estimate_get_gpu (estimate, *gpu_index)),
                        req->gpu_count ? req->gpu_count : 1, solution);
  return 0;
}

/* ---- standard output: every write checked --------------------------------------------------- */

/* errno of the first write to standard output that failed; reported when the program ends */
static int stdout_errno;

static void
write_stdout (const char *data,
              gsize       length)
{
  if (length > 0 && fwrite (data, 1, length, stdout) < length && stdout_errno == 0)
    stdout_errno = errno != 0 ? errno : EIO;
}

/* g_print() through write_stdout(), in the console's charset as GLib's own handler writes it */
static void
print_stdout (const char *string)
{
  const char *charset;
  g_autofree char *converted = NULL;
  /* control characters from files and drivers escaped, as on standard error */
  g_autofree char *escaped = vc_escape_controls (string, TRUE);

  string = escaped;
  if (!g_get_console_charset (&charset))
    string = converted = g_convert_with_fallback (string, -1, charset, "UTF-8", "?", NULL, NULL, NULL);
  if (string != NULL)
    write_stdout (string, strlen (string));
}

/* At exit: what is still buffered is written and standard output closed; any failure on the
 * way (a full disk, a closed pipe's EPIPE, an NFS server's late error) turns the exit status
 * into 1 with a message naming it, so that no script takes a truncated result for a whole one. */
static void
close_stdout (void)
{
  int error = stdout_errno;

  if (fflush (stdout) != 0 && error == 0)
    error = errno;
  if (ferror (stdout) && error == 0)
    error = EIO;
  /* EBADF with nothing written: standard output was closed from the start, which is no error */
  if (fclose (stdout) != 0 && error == 0 && errno != EBADF)
    error = errno;
  if (error == 0)
    return;
  g_printerr (_("vramcalc: cannot write the output: %s\n"), g_strerror (error));
  _exit (1);
}

static void
print_estimate (VcEstimate            *estimate,
                VcUnit                 unit,
                Format                 format,
                gboolean               explain,
                const VcReportRequest *report)
{
  if (format == FORMAT_CSV)
    {
      gsize length;
      const VcGpu *gpu = report->gpu_index >= 0 ? vc_estimate_get_gpu (estimate, report->gpu_index) : NULL;
      g_autofree char *csv = vc_csv_export_with_solve (estimate, report->solve,
                                                       gpu ? vc_estimate_get_gpu_key (estimate, report->gpu_index) : NULL,
                                                       gpu ? gpu->name : NULL, unit, &length);

      /* as is: CRLF and UTF-8 whatever the terminal's charset */
      write_stdout (csv, length);
    }
  else if (format == FORMAT_JSON)
    {
      g_autofree char *json = vc_report_json_request (estimate, report);

      /* as is: UTF-8 whatever the terminal's charset (g_print would turn "é" into "?") */
      write_stdout (json, strlen (json));
      write_stdout ("\n", 1);
    }
  else
    {
      g_autofree char *table = vc_report_table_request (estimate, explain, unit, report);
      g_print ("%s", table);
    }
}

/* --print-command: the command alone, or the refusal naming what the engine cannot be told */
static int
print_command (Request    *req,
               VcEstimate *estimate)
{
  g_auto(VcCommandRequest) creq = { 0 };
  g_autoptr(VcCommand) command = NULL;
  g_autoptr(GError) error = NULL;
  VcCommandEngine engine;

  vc_command_engine_from_id (req->print_command, &engine, NULL);
  vc_command_request_from_estimate (&creq, estimate);
  /* the model as --model or --config named it (a config.json: its folder) */
  if ((req->model_path || req->config_path) &&
      !vc_command_request_set_model (&creq, req->model_path ? req->model_path : req->config_path, &error))
    return usage_error ("print-command", error->message);
  if ((command = vc_command_build (engine, &creq, &error)) == NULL)
    return usage_error ("print-command", error->message);
  g_print ("%s%s", command->text, g_str_has_suffix (command->text, "\n") ? "" : "\n");
  return 0;
}

static int
run_estimate (Request *req)
{
  g_autoptr(VcEstimate) estimate = vc_estimate_new ();
  g_autoptr(VcProfile) profile = vc_profile_new (estimate);
  g_autoptr(GError) error = NULL;
  VcSolution solution;
  guint gpu_index = 0;
  gboolean solving = req->solve || req->fit_gpu || req->gpu_count;
  gboolean plan_solved = FALSE;
  VcSolveVariable plan_variable = VC_SOLVE_VARIABLE_SEQ;
  guint plan_value = 0;
  int status;

  if ((status = apply_request (req, estimate, profile)) != 0)
    return status;
  /* a layout option of the other mode is refused, not ignored (a profile keeps both tabs') */
  for (guint k = 0; k < req->settings->len; k += 2)
    {
      const char *property = req->settings->pdata[k];

      if (!vc_layout_input_applies (property, vc_estimate_get_inputs (estimate)->mode, &error))
        {
          const char *option = g_str_equal (property, "sharding") ? "zero or --fsdp" : property;

          for (guint o = 0; o < vc_cli_n_options && option == property; o++)
            if (g_strcmp0 (vc_cli_options[o].property, property) == 0)
              option = vc_cli_options[o].name;
          return usage_error (option, error->message);
        }
    }
  if (!apply_active_parameters (estimate, req->settings, &error))
    return usage_error ("active-params", error->message);
  if (!vc_estimate_check (estimate, &error))
    return usage_error (NULL, error->message);
  {
    const char *bad_option = NULL;
    g_autofree char *message = NULL;

    if (!check_engine_options (g_strv_length (req->argv), req->argv, estimate, &bad_option, &message))
      return usage_error (bad_option, message);
  }
  if (solving && (status = solve_request (req, estimate, &solution, &gpu_index)) != 0)
    return status;
  plan_solved = req->solve != NULL && req->fit_gpu == NULL && vc_gpu_set_get_n (vc_estimate_get_gpu_set (estimate)) > 0;
  if (plan_solved)
    {
      g_autoptr(GEnumClass) klass = g_type_class_ref (VC_TYPE_SOLVE_VARIABLE);
      VcPlanOptions plan_options;
      gboolean ok;

      plan_variable = g_enum_get_value_by_nick (klass, req->solve)->value;
      vc_estimate_get_plan_options (estimate, &plan_options);
      ok = vc_plan_solve (vc_estimate_get_inputs (estimate), vc_estimate_get_gpu_set (estimate), &plan_options,
                          plan_variable, &plan_value, &error);
      g_free ((double *) plan_options.tensor_split);
      g_free ((guint *) plan_options.pp_partition);
      if (!ok)
        return usage_error ("solve", error->message);
    }

  if (req->save_path)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (req->save_path);

      if (!vc_profile_save (profile, file, NULL, &error))
        {
          g_autofree char *msg = g_strdup_printf ("%s: %s", req->save_path, error->message);
          return usage_error ("save-profile", msg);
        }
    }
  if (req->print_command)
    return print_command (req, estimate);
  {
    VcReportRequest report = {
      .solve = req->solve && !plan_solved ? &solution : NULL,
      .gpu_index = solving && !plan_solved ? (int) gpu_index : -1,
      .gpu_count = req->gpu_count,
      .command_model = req->model_path ? req->model_path : req->config_path,
      .plan_solved = plan_solved,
      .plan_variable = plan_variable,
      .plan_value = plan_value,
    };

    print_estimate (estimate, vc_profile_get_unit (profile), req->format, req->explain, &report);
  }
  {
    g_autofree char *warning = vc_estimate_dup_context_warning (estimate);

    if (warning != NULL)
      g_printerr (_("vramcalc: warning: %s\n"), warning);
  }
  return 0;
}

/* ---- man page and completions ---------------------------------------------------------------- */

/* The option table and vc-arch's fields as the man page and the completions see them: what
 * GOption is given, in the same order, the hidden --no-NAME switches too (for completion) but
 * not --generate. In English, whatever the locale. */
static char *
generate_doc (VcCliDocFormat format)
{
  static const char *const sections[] = {
    "Options", "Architecture (override a preset, or describe a custom model)", NULL,
  };
  static const char *const exit_status[] = {
    "0", "Success.",
    "1", "Failure, a failed write to standard output included: nothing printed is to be trusted.",
    "2", "A bad option, value or file; the message names it and says what is accepted.",
    NULL,
  };
  guint n_fields;
  const VcArchField *fields = vc_arch_fields (&n_fields);
  g_autoptr(GArray) opts = g_array_new (FALSE, TRUE, sizeof (VcCliDocOption));
  VcCliDoc doc = { "vramcalc", PACKAGE_VERSION, summary, (const char * const *) sections, examples, exit_status };

  for (guint i = 0; i < vc_cli_n_options; i++)
    {
      const VcCliOption *o = &vc_cli_options[i];
      VcCliDocOption d = { o->name, o->short_name, o->arg, vc_cli_option_help (o), NULL, FALSE, 0 };

      if (o->kind == OPT_GENERATE)
        continue;
      d.repeatable = o->kind == OPT_GPU;
      d.file = o->kind == OPT_CONFIG || o->kind == OPT_MODEL || o->kind == OPT_MMPROJ || o->kind == OPT_PROFILE || o->kind == OPT_SAVE_PROFILE;
      if (o->kind == OPT_PRESET)
        d.values_option = "list-presets";
      else if (o->kind == OPT_FIT_GPU)
        d.values_option = "list-gpus";
      g_array_append_val (opts, d);
    }
  for (guint i = 0; i < n_fields; i++)
    {
      VcCliDocOption d = { fields[i].name, 0, "N", fields[i].blurb, NULL, FALSE, 1 };

      if (fields[i].type == VC_ARCH_FIELD_NORM)
        d.arg = "rms|layer";
      else if (fields[i].type == VC_ARCH_FIELD_BOOL)
        d.arg = NULL;
      g_array_append_val (opts, d);
      if (fields[i].type == VC_ARCH_FIELD_BOOL)
        {
          g_autofree char *no_name = g_strconcat ("no-", fields[i].name, NULL);

          d.name = g_intern_string (no_name);
          d.help = NULL;
          g_array_append_val (opts, d);
        }
    }
  doc.options = (const VcCliDocOption *) opts->data;
  doc.n_options = opts->len;
  return vc_cli_doc_write (&doc, format);
}

/* Everything printed with g_printerr (g_print: print_stdout()): control characters from files
 * and drivers (a model's name, a shard's, a GPU's) are escaped, the lines of the messages kept;
 * then the text in the terminal's charset, as g_printerr writes it. */
static void
print_escaped (FILE       *stream,
               const char *text)
{
  g_autofree char *escaped = vc_escape_controls (text, TRUE);
  const char *charset;

  if (g_get_console_charset (&charset))
    fputs (escaped, stream);
  else
    {
      g_autofree char *converted = g_convert_with_fallback (escaped, -1, charset, "UTF-8", "?", NULL, NULL, NULL);

      fputs (converted ? converted : escaped, stream);
    }
  fflush (stream);
}

static void
print_err (const char *text)
{
  print_escaped (stderr, text);
}

int
main (int   argc,
      char *argv[])
{
  g_auto(Request) req = { 0 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;

  static gboolean closing_registered;

  setlocale (LC_ALL, "");
  /* VC_LOCALEDIR: translations from another folder, such as the build tree's po/ */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("VC_LOCALEDIR") ? g_getenv ("VC_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_print_handler (print_stdout);
  /* once, however often main() runs (the command-line fuzzer calls it in a loop) */
  if (!closing_registered)
    closing_registered = atexit (close_stdout) == 0;
  g_set_printerr_handler (print_err);

  req.settings = g_ptr_array_new_with_free_func (g_free);
  req.custom_gpus = g_string_new (NULL);
  context = option_context_new (&req);
  if (!parse_command_line (context, &req, argc, argv, &error))
    {
      g_printerr ("vramcalc: %s\n", error->message);
      return EXIT_USAGE;
    }

  if (req.search != NULL && req.action != ACTION_LIST_PRESETS && req.action != ACTION_HELP &&
      req.action != ACTION_VERSION)
    return usage_error ("search", _("it goes with --list-presets"));

  switch (req.action)
    {
    case ACTION_LIST_PRESETS:
      return list_presets (req.search);
    case ACTION_LIST_GPUS:
      list_gpus ();
      return 0;
    case ACTION_LIST_LOCAL_GPUS:
      return list_local_gpus ();
    case ACTION_LIST_LOCAL_MODELS:
      return list_local_models ();
    case ACTION_HELP:
      {
        g_autofree char *help = g_option_context_get_help (context, FALSE, NULL);
        g_print ("%s", help);
      }
      return 0;
    case ACTION_VERSION:
      g_print ("vramcalc %s\n", PACKAGE_VERSION);
      return 0;
    case ACTION_GENERATE:
      {
        g_autofree char *text = generate_doc (req.generate);
        write_stdout (text, strlen (text));
      }
      return 0;
    case ACTION_ESTIMATE:
    default:
      return run_estimate (&req);
    }
}
