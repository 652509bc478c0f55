/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-my-gpus.c: "My GPUs". The estimate's "gpu-set" and "host-ram" texts are the one store:
 * adding cards rewrites the set's text, so the core validates it as on the command line
 * (--gpus, --ram), and the plan shown is the core's (vc-plan.c), a row per card. */
#define G_LOG_DOMAIN "vc-my-gpus"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-a11y.h"
#include "vc-catalog.h"
#include "vc-drop-down.h"
#include "vc-engine.h"
#include "vc-error.h"
#include "vc-input-bind.h"
#include "vc-local-gpus.h"
#include "vc-my-gpus.h"
#include "vc-units.h"

struct _VcMyGpus
{
  GtkWidget parent_instance;

  VcEstimate *estimate;
  VcUnit unit;
  char *status;

  GtkExpander *expander;
  GtkDropDown *catalog_drop;
  GtkSpinButton *count_spin;
  GtkEntry *set_entry;
  GtkEntry *ram_entry;
  GtkEntry *split_entry;
  GtkGrid *set_grid;
  GtkGrid *llama_grid;            /* llama.cpp's own options, shown for that engine */
  GtkGrid *vllm_grid;             /* vLLM's layers per pipeline stage, shown for that engine */
  GtkEntry *pp_entry;
  VcDropDown *split_mode_drop;
  GtkSpinButton *main_gpu_spin;
  GtkSpinButton *n_cpu_moe_spin;
  GtkLabel *error_label;
  GtkLabel *status_label;
  GtkGrid *plan_grid;
  GtkButton *add_button;
  GtkButton *detect_button;
  GtkButton *clear_button;
  guint n_rows;                   /* of plan_grid, its heading left out */
  /* an engine's own options set aside while another engine is chosen (set_aside()) */
  GValue kept[5];
  gboolean kept_any[2];
};

G_DEFINE_FINAL_TYPE (VcMyGpus, vc_my_gpus, GTK_TYPE_WIDGET)

#define N_COLUMNS 4

static void
show_error (VcMyGpus     *self,
            const GError *error)
{
  gtk_label_set_text (self->error_label, error ? error->message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL);
}

static void
add_cell (VcMyGpus   *self,
          guint       column,
          guint       row,
          const char *text,
          gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0 : 1);
  if (heading)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (self->plan_grid, label, column, row, 1, 1);
}

static void
set_status (VcMyGpus   *self,
            const char *text)
{
  g_free (self->status);
  self->status = g_strdup (text);
  gtk_label_set_text (self->status_label, text);
}

/* the plan, rebuilt from the core's on every change of the inputs */
static void
refresh (VcMyGpus *self)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *child;
  VcPlan plan;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->plan_grid))) != NULL)
    gtk_grid_remove (self->plan_grid, child);
  self->n_rows = 0;
  if (self->estimate == NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->llama_grid),
                          g_str_equal (vc_plan_engine_id (vc_estimate_get_inputs (self->estimate)), "llama.cpp"));
  gtk_widget_set_visible (GTK_WIDGET (self->vllm_grid),
                          g_str_equal (vc_plan_engine_id (vc_estimate_get_inputs (self->estimate)), "vllm"));
  if (vc_gpu_set_get_n (vc_estimate_get_gpu_set (self->estimate)) == 0)
    {
      set_status (self, _("No cards yet: add them from the catalog, type them, or detect this computer."));
      return;
    }
  if (!vc_estimate_compute_plan (self->estimate, &plan, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Plan (%s) refused: %s"),
                                               vc_plan_engine_id (vc_estimate_get_inputs (self->estimate)),
                                               error->message);

      set_status (self, text);
      return;
    }
  {
    g_autofree char *text = NULL;

    if (plan.fills_first >= 0)
      /* Translators: "Plan (llama.cpp): fits; RTX 3060 fills first" */
      text = g_strdup_printf (_("Plan (%s): %s; %s fills first"), vc_plan_engine_id (vc_estimate_get_inputs (self->estimate)),
                              plan.fits ? _("fits") : _("does not fit"),
                              vc_gpu_set_get (vc_estimate_get_gpu_set (self->estimate), plan.fills_first)->name);
    else
      text = g_strdup_printf (_("Plan (%s): %s"), vc_plan_engine_id (vc_estimate_get_inputs (self->estimate)),
                              plan.fits ? _("fits") : _("does not fit"));
    if (plan.balanced != NULL)
      {
        g_autoptr(GString) counts = g_string_new (NULL);
        char *with;

        for (guint i = 0; i < plan.n_balanced; i++)
          g_string_append_printf (counts, "%s%u", i > 0 ? "," : "", plan.balanced[i]);
        /* Translators: "Plan (vllm): fits; B fills first. Layers in proportion to each card's free memory: 21,11" */
        with = g_strdup_printf (_("%s. Layers in proportion to each card’s free memory: %s"), text, counts->str);
        g_free (text);
        text = with;
      }
    set_status (self, text);
  }
  add_cell (self, 0, 0, _("Card"), TRUE);
  add_cell (self, 1, 0, _("Layers"), TRUE);
  add_cell (self, 2, 0, _("Holds"), TRUE);
  add_cell (self, 3, 0, _("Available"), TRUE);
  for (guint i = 0; i < plan.devices->len; i++)
    {
      const VcPlanDevice *d = vc_plan_get_device (&plan, i);
      g_autofree char *layers = NULL;
      g_autofree char *holds = vc_format_size (d->bytes, self->unit);
      g_autofree char *limit = vc_format_size (d->limit_bytes, self->unit);

      if (d->n_layers > 0)
        layers = g_strdup_printf (d->output ? _("%u–%u and the output") : "%u–%u",
                                  d->first_layer, d->first_layer + d->n_layers - 1);
      else
        layers = g_strdup (d->output ? _("the output") : _("none"));
      add_cell (self, 0, i + 1, vc_gpu_set_get (vc_estimate_get_gpu_set (self->estimate), i)->name, FALSE);
      add_cell (self, 1, i + 1, layers, FALSE);
      add_cell (self, 2, i + 1, holds, FALSE);
      add_cell (self, 3, i + 1, limit, FALSE);
    }
  {
    g_autofree char *layers = g_strdup_printf (g_dngettext (NULL, "%u layer", "%u layers", plan.cpu_layers), plan.cpu_layers);
    g_autofree char *holds = vc_format_size (plan.host_bytes, self->unit);
    g_autofree char *ram = plan.ram_bytes > 0 ? vc_format_size (plan.ram_bytes, self->unit) : g_strdup (_("not given"));
    guint row = plan.devices->len + 1;

    add_cell (self, 0, row, _("System RAM"), FALSE);
    add_cell (self, 1, row, layers, FALSE);
    add_cell (self, 2, row, holds, FALSE);
    add_cell (self, 3, row, ram, FALSE);
  }
  self->n_rows = plan.devices->len + 1;
  vc_plan_clear (&plan);
}

static void
sync_entries (VcMyGpus *self)
{
  g_autofree char *set = vc_estimate_dup_input_string (self->estimate, "gpu-set");
  g_autofree char *ram = vc_estimate_dup_input_string (self->estimate, "host-ram");
  g_autofree char *split = vc_estimate_dup_input_string (self->estimate, "tensor-split");
  g_autofree char *stages = vc_estimate_dup_input_string (self->estimate, "pp-partition");

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->set_entry)), set) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->set_entry), set);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->ram_entry)), ram) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->ram_entry), ram);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->split_entry)), split) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->split_entry), split);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->pp_entry)), stages) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->pp_entry), stages);
  refresh (self);
}

static void
set_activated (VcMyGpus *self)
{
  g_autoptr(GError) error = NULL;

  if (!vc_estimate_set_from_string (self->estimate, "gpu-set",
                                    gtk_editable_get_text (GTK_EDITABLE (self->set_entry)), &error))
    show_error (self, error);
  else
    show_error (self, NULL);
}

static void
ram_activated (VcMyGpus *self)
{
  g_autoptr(GError) error = NULL;

  if (!vc_estimate_set_from_string (self->estimate, "host-ram",
                                    gtk_editable_get_text (GTK_EDITABLE (self->ram_entry)), &error))
    show_error (self, error);
  else
    show_error (self, NULL);
}

static void
split_activated (VcMyGpus *self)
{
  g_autoptr(GError) error = NULL;

  if (!vc_estimate_set_from_string (self->estimate, "tensor-split",
                                    gtk_editable_get_text (GTK_EDITABLE (self->split_entry)), &error))
    show_error (self, error);
  else
    show_error (self, NULL);
}

static void
pp_activated (VcMyGpus *self)
{
  g_autoptr(GError) error = NULL;

  if (!vc_estimate_set_from_string (self->estimate, "pp-partition",
                                    gtk_editable_get_text (GTK_EDITABLE (self->pp_entry)), &error))
    show_error (self, error);
  else
    show_error (self, NULL);
}

/* An engine's own options: llama.cpp's split (shown in llama_grid) and vLLM's stages (in
 * vllm_grid). The core refuses them for any other engine, as the command line must; the
 * window hides their controls for other engines, so it sets them aside when the engine
 * changes to one that refuses them (the other engine's plan is not refused over inputs the
 * window no longer shows, and a saved profile holds what is in effect) and brings them back,
 * where they are still at their defaults, when the engine that reads them is chosen again
 * (comparing engines back and forth keeps what was set for each). */
static const char *const engine_options[] = { "tensor-split", "main-gpu", "split-mode", "n-cpu-moe", "pp-partition" };
static const struct { guint first, n; } option_groups[] = { { 0, 4 }, { 4, 1 } };

static gboolean
group_accepted (const VcInputs *in,
                guint           group)
{
  if (group == 0)
    return vc_engine_is_llama_cpp (in);
  return in->mode == VC_MODE_INFERENCE && in->engine == VC_ENGINE_VLLM;
}

static GParamSpec *
option_pspec (VcMyGpus *self,
              guint     k)
{
  return g_object_class_find_property (G_OBJECT_GET_CLASS (self->estimate), engine_options[k]);
}

static void
put_option (VcMyGpus     *self,
            guint         k,
            const GValue *value)
{
  /* the texts through the core's parser: a split kept for a set since changed is refused in
   * words by the plan, never a warning */
  if (G_VALUE_HOLDS_STRING (value))
    vc_estimate_set_plan_text (self->estimate, engine_options[k], g_value_get_string (value), NULL);
  else
    g_object_set_property (G_OBJECT (self->estimate), engine_options[k], value);
}

static void
set_aside (VcMyGpus *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);

  for (guint g = 0; g < G_N_ELEMENTS (option_groups); g++)
    {
      guint first = option_groups[g].first, last = first + option_groups[g].n;
      gboolean accepted = group_accepted (in, g), set = FALSE;

      if (accepted && self->kept_any[g])
        {
          self->kept_any[g] = FALSE;
          for (guint k = first; k < last; k++)
            {
              g_auto(GValue) now = G_VALUE_INIT;

              g_value_init (&now, G_PARAM_SPEC_VALUE_TYPE (option_pspec (self, k)));
              g_object_get_property (G_OBJECT (self->estimate), engine_options[k], &now);
              if (g_param_value_defaults (option_pspec (self, k), &now))
                put_option (self, k, &self->kept[k]);
              g_value_unset (&self->kept[k]);
            }
          continue;
        }
      if (accepted)
        continue;
      for (guint k = first; k < last; k++)
        {
          g_auto(GValue) now = G_VALUE_INIT;

          g_value_init (&now, G_PARAM_SPEC_VALUE_TYPE (option_pspec (self, k)));
          g_object_get_property (G_OBJECT (self->estimate), engine_options[k], &now);
          set |= !g_param_value_defaults (option_pspec (self, k), &now);
        }
      if (!set)
        continue;
      for (guint k = first; k < last; k++)
        {
          if (self->kept_any[g])
            g_value_unset (&self->kept[k]);
          g_value_init (&self->kept[k], G_PARAM_SPEC_VALUE_TYPE (option_pspec (self, k)));
          g_object_get_property (G_OBJECT (self->estimate), engine_options[k], &self->kept[k]);
          put_option (self, k, g_param_spec_get_default_value (option_pspec (self, k)));
        }
      self->kept_any[g] = TRUE;
    }
}

/* What was set aside belongs to the inputs of its time: not brought into an opened or new
 * profile. Dropped before the replaced inputs' notifications reach set_aside(). */
static void
drop_kept (VcMyGpus *self)
{
  for (guint g = 0; g < G_N_ELEMENTS (option_groups); g++)
    {
      guint first = option_groups[g].first, last = first + option_groups[g].n;

      if (!self->kept_any[g])
        continue;
      for (guint k = first; k < last; k++)
        g_value_unset (&self->kept[k]);
      self->kept_any[g] = FALSE;
    }
}

/**
 * vc_my_gpus_add:
 * @item: a catalog id, or NAME=SIZE
 *
 * Appends @count of the card to the set.
 */
gboolean
vc_my_gpus_add (VcMyGpus    *self,
                const char  *item,
                guint        count,
                GError     **error)
{
  g_autofree char *set = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (VC_IS_MY_GPUS (self) && self->estimate != NULL, FALSE);
  set = vc_estimate_dup_input_string (self->estimate, "gpu-set");
  text = count > 1 ? g_strdup_printf ("%s%s%s:%u", set, *set ? "," : "", item, count)
                   : g_strdup_printf ("%s%s%s", set, *set ? "," : "", item);
  if (!vc_estimate_set_from_string (self->estimate, "gpu-set", text, error))
    return FALSE;
  show_error (self, NULL);
  return TRUE;
}

static void
add_clicked (VcMyGpus *self)
{
  g_autoptr(GError) error = NULL;
  guint n, i = gtk_drop_down_get_selected (self->catalog_drop);
  const VcGpu *all = vc_gpus_get_all (&n);

  if (i >= n)
    return;
  if (!vc_my_gpus_add (self, all[i].id, (guint) gtk_spin_button_get_value_as_int (self->count_spin), &error))
    show_error (self, error);
}

/**
 * vc_my_gpus_add_local:
 * @gpus: (element-type VcLocalGpu): cards read from this computer
 * @ram_bytes: its memory; 0: unknown
 *
 * Makes the set this computer's cards, with what each has free, and the RAM its memory; the
 * cards join the GPU table as well (custom-gpus), as the command line's --this-computer does.
 * A card the table cannot take is left out of both, and said.
 */
gboolean
vc_my_gpus_add_local (VcMyGpus   *self,
                      GPtrArray  *gpus,
                      double      ram_bytes,
                      GError    **error)
{
  g_autofree char *text = NULL;
  g_autofree char *custom = NULL;
  g_autofree char *merged = NULL;
  g_autofree char *said = NULL;
  g_auto(GStrv) notes = NULL;

  g_return_val_if_fail (VC_IS_MY_GPUS (self) && self->estimate != NULL, FALSE);
  text = vc_local_gpus_to_set (gpus);
  if (*text == '\0')
    {
      g_set_error_literal (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                           _("No GPU found on this computer: NVIDIA cards are read through their driver’s "
                             "libnvidia-ml, AMD cards through the amdgpu driver"));
      return FALSE;
    }
  g_object_get (self->estimate, "custom-gpus", &custom, NULL);
  merged = vc_local_gpus_merge_custom (custom, gpus, &notes);
  if (!vc_estimate_set_custom_gpus (self->estimate, merged, error))
    return FALSE;
  if (!vc_estimate_set_from_string (self->estimate, "gpu-set", text, error))
    return FALSE;
  if (ram_bytes >= 1e8)
    {
      g_autofree char *ram = g_strdup_printf ("%.0fB", ram_bytes);

      if (!vc_estimate_set_from_string (self->estimate, "host-ram", ram, error))
        return FALSE;
    }
  said = g_strjoinv ("\n", notes);
  if (*said != '\0')
    {
      g_autoptr(GError) note = g_error_new_literal (VC_ERROR, VC_ERROR_INVALID_VALUE, said);

      show_error (self, note);
    }
  else
    show_error (self, NULL);
  return TRUE;
}

/**
 * vc_my_gpus_detect:
 * @sysfs_root: where /sys is ("/sys")
 * @nvml_library: the NVIDIA management library to open ("libnvidia-ml.so.1")
 * @procfs_root: where /proc is ("/proc")
 *
 * "Detect This Computer": reads the cards and the memory (vc-local-gpus.c) and adds them.
 */
gboolean
vc_my_gpus_detect (VcMyGpus    *self,
                   const char  *sysfs_root,
                   const char  *nvml_library,
                   const char  *procfs_root,
                   GError     **error)
{
  g_autoptr(GPtrArray) gpus = NULL;

  g_return_val_if_fail (VC_IS_MY_GPUS (self) && self->estimate != NULL, FALSE);
  gpus = vc_local_gpus_detect (sysfs_root, nvml_library);
  return vc_my_gpus_add_local (self, gpus, vc_local_system_memory (procfs_root), error);
}

static void
detect_clicked (VcMyGpus *self)
{
  g_autoptr(GError) error = NULL;

  /* read only on request, and in a Flatpak only with device access */
  if (!vc_local_gpus_allowed ("/.flatpak-info", &error))
    {
      show_error (self, error);
      return;
    }
  if (!vc_my_gpus_detect (self, "/sys", "libnvidia-ml.so.1", "/proc", &error))
    show_error (self, error);
}

static void
clear_clicked (VcMyGpus *self)
{
  vc_estimate_set_from_string (self->estimate, "gpu-set", "", NULL);
  show_error (self, NULL);
}

/* llama.cpp's --split-mode (common/arg.cpp): row is offered, and the plan refuses it in words */
static const VcChoice split_modes[] = {
  { VC_SPLIT_MODE_LAYER, N_("Layers across the cards (layer)") },
  { VC_SPLIT_MODE_ROW, N_("Rows of every matrix (row, not modelled)") },
  { VC_SPLIT_MODE_NONE, N_("The main GPU alone (none)") },
};

void
vc_my_gpus_set_estimate (VcMyGpus   *self,
                         VcEstimate *estimate)
{
  static const char *const watched[] = {
    "notify::gpu-set", "notify::host-ram", "notify::tensor-split", "notify::main-gpu",
    "notify::split-mode", "notify::n-cpu-moe", "notify::pp-partition",
  };

  g_return_if_fail (VC_IS_MY_GPUS (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (self->estimate == NULL);

  self->estimate = g_object_ref (estimate);
  vc_bind_choices (self->split_mode_drop, estimate, "split-mode", split_modes, G_N_ELEMENTS (split_modes));
  vc_bind_spin (self->main_gpu_spin, estimate, "main-gpu", 1, 0);
  vc_bind_spin (self->n_cpu_moe_spin, estimate, "n-cpu-moe", 1, 0);
  for (guint i = 0; i < G_N_ELEMENTS (watched); i++)
    g_signal_connect_object (estimate, watched[i], G_CALLBACK (sync_entries), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "inputs-replaced", G_CALLBACK (drop_kept), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::engine", G_CALLBACK (set_aside), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::mode", G_CALLBACK (set_aside), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "changed", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  set_aside (self);
  sync_entries (self);
}

void
vc_my_gpus_set_unit (VcMyGpus *self,
                     VcUnit    unit)
{
  g_return_if_fail (VC_IS_MY_GPUS (self));
  if (self->unit == unit)
    return;
  self->unit = unit;
  refresh (self);
}

/* The plan's rows as shown: a card's, then the RAM's, columns joined by " | " */
guint
vc_my_gpus_get_n_rows (VcMyGpus *self)
{
  g_return_val_if_fail (VC_IS_MY_GPUS (self), 0);
  return self->n_rows;
}

char *
vc_my_gpus_dup_row_text (VcMyGpus *self,
                         guint     row)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (VC_IS_MY_GPUS (self) && row < self->n_rows, NULL);
  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkWidget *cell = gtk_grid_get_child_at (self->plan_grid, c, row + 1);

      g_string_append_printf (s, "%s%s", c ? " | " : "", gtk_label_get_text (GTK_LABEL (cell)));
    }
  return g_string_free (s, FALSE);
}

const char *
vc_my_gpus_get_status (VcMyGpus *self)
{
  g_return_val_if_fail (VC_IS_MY_GPUS (self), NULL);
  return self->status;
}

static void
vc_my_gpus_dispose (GObject *object)
{
  VcMyGpus *self = VC_MY_GPUS (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), VC_TYPE_MY_GPUS);
  g_clear_object (&self->estimate);
  g_clear_pointer (&self->status, g_free);
  for (guint k = 0; k < G_N_ELEMENTS (self->kept); k++)
    if (G_IS_VALUE (&self->kept[k]))
      g_value_unset (&self->kept[k]);
  G_OBJECT_CLASS (vc_my_gpus_parent_class)->dispose (object);
}

static void
vc_my_gpus_class_init (VcMyGpusClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_my_gpus_dispose;
  g_type_ensure (VC_TYPE_DROP_DOWN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-my-gpus.ui");
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, expander);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, catalog_drop);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, count_spin);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, set_entry);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, ram_entry);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, split_entry);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, set_grid);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, llama_grid);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, vllm_grid);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, pp_entry);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, split_mode_drop);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, main_gpu_spin);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, n_cpu_moe_spin);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, error_label);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, status_label);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, plan_grid);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, add_button);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, detect_button);
  gtk_widget_class_bind_template_child (widget_class, VcMyGpus, clear_button);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked);
  gtk_widget_class_bind_template_callback (widget_class, set_activated);
  gtk_widget_class_bind_template_callback (widget_class, ram_activated);
  gtk_widget_class_bind_template_callback (widget_class, split_activated);
  gtk_widget_class_bind_template_callback (widget_class, pp_activated);
  gtk_widget_class_bind_template_callback (widget_class, detect_clicked);
  gtk_widget_class_bind_template_callback (widget_class, clear_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
vc_my_gpus_init (VcMyGpus *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n;
  const VcGpu *all = vc_gpus_get_all (&n);
  g_autoptr(GtkSizeGroup) labels = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  gtk_widget_init_template (GTK_WIDGET (self));
  vc_size_group_add_grid_labels (labels, self->set_grid);
  vc_size_group_add_grid_labels (labels, self->llama_grid);
  vc_size_group_add_grid_labels (labels, self->vllm_grid);
  for (guint i = 0; i < n; i++)
    gtk_string_list_append (names, all[i].name);
  gtk_drop_down_set_model (self->catalog_drop, G_LIST_MODEL (names));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->expander), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("My GPUs and their plan"), -1);
  /* the buttons inside the drop-downs take the focus: they are named too (vc-a11y.h) */
  vc_a11y_name (GTK_WIDGET (self->catalog_drop), _("Card of the catalog"));
  vc_a11y_label_mnemonics (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->count_spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("How many"), -1);
}
