/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-model-section.c: the model inputs of both tabs. The architecture fields are laid out from
 * the core's field table, so a field added there shows here without a change. */
#define G_LOG_DOMAIN "vc-model-section"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-a11y.h"
#include "vc-arch.h"
#include "vc-compat.h"
#include "vc-drop-down.h"
#include "vc-enums.h"
#include "vc-grid-row.h"
#include "vc-input-bind.h"
#include "vc-model-search.h"
#include "vc-model-section-private.h"
#include "vc-preset-search.h"
#include "vc-units.h"
#include "vc-window-state.h"

struct _VcModelSection
{
  GtkWidget parent_instance;

  VcEstimate *estimate;
  VcWindowState *state;        /* the window's unit, note and files imported, "approximate" */
  GHashTable *inputs;          /* property name → widget */
  gboolean arch_built;
  gboolean syncing_name;

  GtkWidget *box;
  GtkWidget *grid;
  VcModelSearch *search;
  VcDropDown *preset;
  VcDropDown *method;
  VcDropDown *model_type;
  GtkEntry *parameters;
  GtkEntry *active_parameters;
  GtkEntry *model_name;
  GtkButton *import_button;
  GtkCheckButton *approximate_check;
  GtkLabel *note;
  GtkLabel *counts_hint;
  GtkLabel *arch_note;
  GtkLabel *source;
  GtkExpander *arch_expander;
  GtkLabel *arch_hint;
  GtkGrid *arch_grid;
};

enum {
  PROP_0,
  PROP_ESTIMATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VcModelSection, vc_model_section, GTK_TYPE_WIDGET)

static const VcChoice method_choices[] = {
  { VC_METHOD_RULE_OF_THUMB, N_("By parameter count") },
  { VC_METHOD_ARCHITECTURE, N_("Architecture") },
};

static const VcChoice model_type_choices[] = {
  { VC_MODEL_TYPE_DENSE, N_("Dense") },
  { VC_MODEL_TYPE_MOE, N_("Mixture of experts") },
};

static const VcChoice norm_choices[] = {
  { VC_NORM_RMS, N_("RMSNorm") },
  { VC_NORM_LAYER, N_("LayerNorm") },
};

/* Which inputs apply follows the method, the model type and the preset. */
static void
update_applicable (VcModelSection *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);
  gboolean rule = in->method == VC_METHOD_RULE_OF_THUMB;
  gboolean custom = vc_estimate_get_preset (self->estimate)[0] == '\0';

  /* the parameter counts are the rule of thumb's inputs; the architecture counts its own and
   * says so under them (a published 37B beside a counted 37.55B only puzzled). A dense model
   * has no activated count to show. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->model_type), rule);
  gtk_widget_set_sensitive (GTK_WIDGET (self->parameters), rule);
  gtk_widget_set_sensitive (GTK_WIDGET (self->active_parameters),
                            rule && in->model_type == VC_MODEL_TYPE_MOE);
  vc_grid_row_set_visible (GTK_WIDGET (self->model_type), rule);
  vc_grid_row_set_visible (GTK_WIDGET (self->parameters), rule);
  vc_grid_row_set_visible (GTK_WIDGET (self->active_parameters), rule && in->model_type == VC_MODEL_TYPE_MOE);
  gtk_widget_set_visible (GTK_WIDGET (self->arch_expander), !rule);
  gtk_widget_set_sensitive (GTK_WIDGET (self->arch_grid), !rule && custom);
  gtk_widget_set_visible (GTK_WIDGET (self->arch_hint), !custom);
}

/* A custom architecture (typed, or read from a model's config) stays in the estimate under the
 * method by parameter count, which does not use it: said, as vramcalc notes its fields. The
 * layer count is used in training with checkpointing: the activations kept are a share of the
 * layers' (checkpoint_factor() in vc-estimator.c). A preset's architecture is the preset's. */
static void
update_arch_note (VcModelSection *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);
  gboolean layers_used = in->mode == VC_MODE_TRAINING &&
                         (in->checkpointing == VC_CHECKPOINTING_SQRT || in->checkpointing == VC_CHECKPOINTING_FULL);
  gboolean set = FALSE;
  guint n;
  const VcArchField *fields = vc_arch_fields (&n);

  if (in->method == VC_METHOD_RULE_OF_THUMB && vc_estimate_get_preset (self->estimate)[0] == '\0')
    for (guint i = 0; i < n && !set; i++)
      {
        GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self->estimate), fields[i].name);
        g_auto(GValue) value = G_VALUE_INIT;

        if (layers_used && g_str_equal (fields[i].name, "layers"))
          continue;
        g_value_init (&value, pspec->value_type);
        g_object_get_property (G_OBJECT (self->estimate), pspec->name, &value);
        set = !g_param_value_defaults (pspec, &value);
      }
  gtk_widget_set_visible (GTK_WIDGET (self->arch_note), set);
}

/* what update_arch_note() follows: the method, the preset, the layers' use, every field */
static void
watch_arch_note (VcModelSection *self,
                 VcEstimate     *estimate)
{
  static const char *const watched[] = { "method", "preset", "mode", "checkpointing" };
  guint n;
  const VcArchField *fields = vc_arch_fields (&n);

  for (guint i = 0; i < G_N_ELEMENTS (watched); i++)
    {
      g_autofree char *signal = g_strconcat ("notify::", watched[i], NULL);

      g_signal_connect_object (estimate, signal, G_CALLBACK (update_arch_note), self, G_CONNECT_SWAPPED);
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *signal = g_strconcat ("notify::", fields[i].name, NULL);

      g_signal_connect_object (estimate, signal, G_CALLBACK (update_arch_note), self, G_CONNECT_SWAPPED);
    }
}

static void
update_counts_hint (VcModelSection *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);
  double total, active;
  g_autofree char *t = NULL, *a = NULL, *text = NULL;

  if (in->method == VC_METHOD_RULE_OF_THUMB)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->counts_hint), FALSE);
      return;
    }
  g_object_get (self->estimate,
                "model-parameters", &total,
                "model-active-parameters", &active,
                NULL);
  t = vc_format_count (total);
  a = vc_format_count (active);
  if (in->mode == VC_MODE_INFERENCE && in->source_weights_bytes > 0)
    {
      /* the model's own tensors, not the architecture's count */
      if (total != active)
        text = g_strdup_printf (_("In the model's files: %s parameters, %s activated per token"), t, a);
      else
        text = g_strdup_printf (_("In the model's files: %s parameters"), t);
    }
  else if (total != active)
    text = g_strdup_printf (_("Counted from the architecture: %s parameters, %s activated per token"), t, a);
  else
    text = g_strdup_printf (_("Counted from the architecture: %s parameters"), t);
  gtk_label_set_label (self->counts_hint, text);
  gtk_widget_set_visible (GTK_WIDGET (self->counts_hint), TRUE);
}

/* What the model's files said: format, quantization, tensors, size on disk, longest context.
 * Shown while the estimate's model is the one read from them; a preset or a profile without
 * files hides it, a profile that kept the source shows what it kept. */
static void
update_source (VcModelSection *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);
  g_autofree char *format = NULL;
  g_autofree char *quantization = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  VcModelFile *model_file = self->state ? vc_window_state_get_model_file (self->state) : NULL;
  VcUnit unit = self->state ? vc_window_state_get_unit (self->state) : VC_UNIT_GB;
  const char *shown;

  g_object_get (self->estimate, "source-format", &format, "source-quantization", &quantization, NULL);
  if (format == NULL || *format == '\0')
    {
      gtk_widget_set_visible (GTK_WIDGET (self->source), FALSE);
      return;
    }
  /* the window's state forgets files of another format; until it has, they are not shown */
  if (model_file && g_strcmp0 (vc_model_file_get_format (model_file), format) != 0)
    model_file = NULL;

  shown = g_str_equal (format, "gguf") ? "GGUF"
          : g_str_equal (format, "safetensors") ? "safetensors" : "config.json";
  /* Translators: where the model was read from: GGUF, safetensors or config.json */
  g_string_append_printf (text, _("Read from: %s"), shown);
  if (quantization && *quantization)
    /* Translators: how the files store the weights: Q4_K_M, BF16, gptq 4-bit, … */
    g_string_append_printf (text, _(", stored as %s"), quantization);
  if (model_file && vc_model_file_get_n_tensors (model_file) > 0)
    {
      g_autofree char *disk = vc_format_size (vc_model_file_get_file_bytes (model_file),
                                              unit);
      guint64 n = vc_model_file_get_n_tensors (model_file);

      g_string_append (text, "\n");
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%llu tensor, %s on disk", "%llu tensors, %s on disk",
                                                 n > 1000000 ? 1000000 : (gulong) n),
                              (unsigned long long) n, disk);
    }
  if (in->source_weights_bytes > 0)
    {
      g_autofree char *weights = vc_format_size (in->source_weights_bytes, unit);

      g_string_append (text, "\n");
      g_string_append_printf (text, _("Weights at the stored precision: %s exactly"), weights);
    }
  if (model_file && vc_model_file_get_max_context (model_file) > 0)
    {
      g_string_append (text, "\n");
      /* the ' flag: grouped digits in the user's locale */
      g_string_append_printf (text, _("Maximum context: %'llu tokens"),
                              (unsigned long long) vc_model_file_get_max_context (model_file));
    }
  gtk_label_set_label (self->source, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->source), TRUE);
}

static void
update_source_if_ready (VcModelSection *self)
{
  if (self->estimate != NULL)
    update_source (self);
}

const char *
vc_model_section_get_source_text (VcModelSection *self)
{
  g_return_val_if_fail (VC_IS_MODEL_SECTION (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->source)) ? gtk_label_get_label (self->source) : NULL;
}

/* A preset names its own model; a custom or imported one takes the name typed here. */
static void
sync_model_name (VcModelSection *self)
{
  const char *name = vc_estimate_get_model_name (self->estimate);
  gboolean custom = vc_estimate_get_preset (self->estimate)[0] == '\0';

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->model_name)), name) != 0)
    {
      self->syncing_name = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->model_name), name);
      self->syncing_name = FALSE;
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->model_name), custom);
}

static void
model_name_changed (VcModelSection *self)
{
  if (self->syncing_name || vc_estimate_get_preset (self->estimate)[0] != '\0')
    return;
  vc_estimate_set_model_name (self->estimate, gtk_editable_get_text (GTK_EDITABLE (self->model_name)));
}

/* The window's note about the model imported; it goes when the model changes. */
static void
update_note (VcModelSection *self)
{
  const char *text = self->state ? vc_window_state_get_note (self->state) : NULL;

  gtk_label_set_label (self->note, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->note), text != NULL);
  if (self->state && vc_window_state_get_note_warning (self->state))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->note), "warning");
      gtk_widget_remove_css_class (GTK_WIDGET (self->note), "dim-label");
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->note), "dim-label");
      gtk_widget_remove_css_class (GTK_WIDGET (self->note), "warning");
    }
}

const char *
vc_model_section_get_note (VcModelSection *self)
{
  g_return_val_if_fail (VC_IS_MODEL_SECTION (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->note)) ? gtk_label_get_label (self->note) : NULL;
}

/* 31 fields, twice (one section per tab): built when first shown, not at start-up. */
static void
build_arch_grid (VcModelSection *self)
{
  guint n;
  const VcArchField *fields = vc_arch_fields (&n);

  if (self->arch_built || self->estimate == NULL)
    return;
  self->arch_built = TRUE;

  for (guint i = 0; i < n; i++)
    {
      const VcArchField *f = &fields[i];
      GtkWidget *label = gtk_label_new (_(f->nick));
      GtkWidget *input;

      gtk_label_set_xalign (GTK_LABEL (label), 1);
      if (f->type == VC_ARCH_FIELD_UINT)
        {
          input = gtk_spin_button_new (NULL, 1, 0);
          gtk_editable_set_width_chars (GTK_EDITABLE (input), 9);
          vc_bind_spin (GTK_SPIN_BUTTON (input), self->estimate, f->name, 1, 0);
        }
      else if (f->type == VC_ARCH_FIELD_BOOL)
        {
          input = gtk_switch_new ();
          gtk_widget_set_halign (input, GTK_ALIGN_START);
          gtk_widget_set_valign (input, GTK_ALIGN_CENTER);
          vc_bind_active (input, self->estimate, f->name);
        }
      else
        {
          input = vc_drop_down_new ();
          gtk_widget_set_halign (input, GTK_ALIGN_START);
          vc_bind_choices (VC_DROP_DOWN (input), self->estimate, f->name,
                           norm_choices, G_N_ELEMENTS (norm_choices));
        }
      vc_widget_set_tooltip_text (input, _(f->blurb));
      vc_a11y_labelled_by (input, label);
      gtk_grid_attach (self->arch_grid, label, 0, i, 1, 1);
      gtk_grid_attach (self->arch_grid, input, 1, i, 1, 1);
      g_hash_table_insert (self->inputs, (gpointer) f->name, input);
    }
}

/* A model chosen from the list has an architecture: counting it is what the user wants (the
 * rule of thumb gives Llama 3 8B six times its KV cache). The method can be switched back. The
 * preset coming from the estimate (a profile opened, the inputs restored) changes no method:
 * then the estimate already holds the preset shown. */
static void
preset_chosen (VcModelSection *self)
{
  guint pos = vc_drop_down_get_selected (self->preset);
  guint n;
  const VcPreset *presets = vc_presets_get_all (&n);

  if (self->estimate == NULL || pos == 0 || pos == GTK_INVALID_LIST_POSITION || pos > n)
    return;
  if (g_strcmp0 (vc_estimate_get_preset (self->estimate), presets[pos - 1].id) == 0)
    return;
  g_object_set (self->estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
}

/* the search of the catalog, where a new user starts */
GtkWidget *
vc_model_section_get_search (VcModelSection *self)
{
  g_return_val_if_fail (VC_IS_MODEL_SECTION (self), NULL);
  return GTK_WIDGET (self->search);
}

VcEstimate *
vc_model_section_get_estimate (VcModelSection *self)
{
  g_return_val_if_fail (VC_IS_MODEL_SECTION (self), NULL);
  return self->estimate;
}

/* Bound once: both tabs share the window's single estimate for the window's lifetime. */
void
vc_model_section_set_estimate (VcModelSection *self,
                               VcEstimate     *estimate)
{
  g_return_if_fail (VC_IS_MODEL_SECTION (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));

  if (self->estimate == estimate)
    return;
  g_return_if_fail (self->estimate == NULL);
  self->estimate = g_object_ref (estimate);

  /* connected before the binding, so it runs while the estimate still holds the previous preset */
  g_signal_connect_object (self->preset, "notify::selected", G_CALLBACK (preset_chosen), self,
                           G_CONNECT_SWAPPED);
  /* the factory before the model: the list's rows are made once */
  vc_preset_search_setup (self->preset);
  vc_model_search_set_estimate (self->search, estimate);
  vc_bind_preset_dropdown (self->preset, estimate);
  vc_bind_choices (self->method, estimate, "method", method_choices, G_N_ELEMENTS (method_choices));
  vc_bind_choices (self->model_type, estimate, "model-type",
                   model_type_choices, G_N_ELEMENTS (model_type_choices));
  vc_bind_count_entry (self->parameters, estimate, "parameters");
  vc_bind_count_entry (self->active_parameters, estimate, "active-parameters");
  g_hash_table_insert (self->inputs, (gpointer) "preset", self->preset);
  g_hash_table_insert (self->inputs, (gpointer) "method", self->method);
  g_hash_table_insert (self->inputs, (gpointer) "model-type", self->model_type);
  g_hash_table_insert (self->inputs, (gpointer) "parameters", self->parameters);
  g_hash_table_insert (self->inputs, (gpointer) "active-parameters", self->active_parameters);
  g_hash_table_insert (self->inputs, (gpointer) "model-name", self->model_name);
  g_signal_connect_object (self->model_name, "changed", G_CALLBACK (model_name_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::model-name", G_CALLBACK (sync_model_name), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::preset", G_CALLBACK (sync_model_name), self,
                           G_CONNECT_SWAPPED);
  sync_model_name (self);
  g_signal_connect_object (self->arch_expander, "notify::expanded", G_CALLBACK (build_arch_grid),
                           self, G_CONNECT_SWAPPED);

  g_signal_connect_object (estimate, "notify::method", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::model-type", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::preset", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "changed", G_CALLBACK (update_counts_hint), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::source-format", G_CALLBACK (update_source), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::source-quantization", G_CALLBACK (update_source), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::source-weights-bytes", G_CALLBACK (update_source), self, G_CONNECT_SWAPPED);
  watch_arch_note (self, estimate);
  update_applicable (self);
  update_counts_hint (self);
  update_source (self);
  update_arch_note (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ESTIMATE]);
}

GtkWidget *
vc_model_section_get_input (VcModelSection *self,
                            const char     *property)
{
  g_return_val_if_fail (VC_IS_MODEL_SECTION (self), NULL);
  if (g_hash_table_lookup (self->inputs, property) == NULL)
    build_arch_grid (self);
  return g_hash_table_lookup (self->inputs, property);
}

void
vc_model_section_align_labels (VcModelSection *self,
                               GtkSizeGroup   *group)
{
  g_return_if_fail (VC_IS_MODEL_SECTION (self));
  vc_size_group_add_grid_labels (group, GTK_GRID (self->grid));
}

static void
vc_model_section_dispose (GObject *object)
{
  VcModelSection *self = VC_MODEL_SECTION (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), VC_TYPE_MODEL_SECTION);
  g_clear_pointer (&self->inputs, g_hash_table_unref);
  g_clear_object (&self->state);
  g_clear_object (&self->estimate);
  G_OBJECT_CLASS (vc_model_section_parent_class)->dispose (object);
}

static void
vc_model_section_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  VcModelSection *self = VC_MODEL_SECTION (object);

  switch (prop_id)
    {
    case PROP_ESTIMATE:
      g_value_set_object (value, self->estimate);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_model_section_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  VcModelSection *self = VC_MODEL_SECTION (object);

  switch (prop_id)
    {
    case PROP_ESTIMATE:
      if (g_value_get_object (value) != NULL)
        vc_model_section_set_estimate (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/**
 * vc_model_section_set_state:
 * @state: the window's settings: the unit of the sizes, the note and files of the model
 *   imported, and "import approximately", which the check box of each tab edits
 */
void
vc_model_section_set_state (VcModelSection *self,
                            VcWindowState  *state)
{
  g_return_if_fail (VC_IS_MODEL_SECTION (self));
  g_return_if_fail (VC_IS_WINDOW_STATE (state));
  g_return_if_fail (self->state == NULL);

  self->state = g_object_ref (state);
  g_object_bind_property (state, "approximate", self->approximate_check, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_object (state, "notify::note", G_CALLBACK (update_note), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::note-warning", G_CALLBACK (update_note), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::unit", G_CALLBACK (update_source_if_ready), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::model-file", G_CALLBACK (update_source_if_ready), self,
                           G_CONNECT_SWAPPED);
  update_note (self);
  update_source_if_ready (self);
}

/**
 * vc_model_section_get_approximate:
 *
 * Returns: whether the user asks that a config.json holding what is not understood be imported
 *   anyway, as an approximate estimate
 */
gboolean
vc_model_section_get_approximate (VcModelSection *self)
{
  g_return_val_if_fail (VC_IS_MODEL_SECTION (self), FALSE);
  return gtk_check_button_get_active (self->approximate_check);
}

static void
vc_model_section_class_init (VcModelSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_model_section_dispose;
  object_class->get_property = vc_model_section_get_property;
  object_class->set_property = vc_model_section_set_property;

  properties[PROP_ESTIMATE] =
    g_param_spec_object ("estimate", NULL, NULL, VC_TYPE_ESTIMATE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (VC_TYPE_DROP_DOWN);
  g_type_ensure (VC_TYPE_MODEL_SEARCH);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-model-section.ui");
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, box);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, grid);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, search);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, preset);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, method);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, model_type);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, parameters);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, active_parameters);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, model_name);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, import_button);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, approximate_check);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, note);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, counts_hint);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, arch_note);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, source);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, arch_expander);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, arch_hint);
  gtk_widget_class_bind_template_child (widget_class, VcModelSection, arch_grid);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* Set after the template is built, not in the .ui: see vc_widget_set_tooltip_text() */
static const VcTooltip tooltips[] = {
  { "import_button", N_("Read the exact architecture from a model's config.json, or from a folder holding one") },
  { "approximate_check", N_("A config.json holding what is not understood (an unknown model type, keys its family does not have, a quantization) is refused; with this on, it is estimated anyway and what was not understood is named") },
  { "model_name", N_("Name of a custom or imported model; a preset names its own") },
};

static void
vc_model_section_init (VcModelSection *self)
{
  self->inputs = g_hash_table_new (g_str_hash, g_str_equal);
  gtk_widget_init_template (GTK_WIDGET (self));
  vc_widget_set_template_tooltips (GTK_WIDGET (self), VC_TYPE_MODEL_SECTION, tooltips, G_N_ELEMENTS (tooltips));
}
