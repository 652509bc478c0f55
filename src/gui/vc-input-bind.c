/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-input-bind.c: widget ↔ estimate property bindings (see vc-input-bind.h). */
#define G_LOG_DOMAIN "vc-input-bind"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-catalog.h"
#include "vc-input-bind.h"
#include "vc-page-choices.h"
#include "vc-units.h"

static GParamSpec *
find_input (VcEstimate *estimate,
            const char *property)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (estimate), property);

  g_return_val_if_fail (pspec != NULL, NULL);
  return pspec;
}

void
vc_bind_spin (GtkSpinButton *spin,
              VcEstimate    *estimate,
              const char    *property,
              double         step,
              guint          digits)
{
  GParamSpec *pspec = find_input (estimate, property);
  double lower, upper;
  GtkAdjustment *adj;

  g_return_if_fail (pspec != NULL);

  if (G_IS_PARAM_SPEC_UINT (pspec))
    {
      lower = G_PARAM_SPEC_UINT (pspec)->minimum;
      upper = G_PARAM_SPEC_UINT (pspec)->maximum;
    }
  else if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    {
      lower = G_PARAM_SPEC_DOUBLE (pspec)->minimum;
      upper = G_PARAM_SPEC_DOUBLE (pspec)->maximum;
    }
  else
    g_return_if_reached ();

  adj = gtk_adjustment_new (lower, lower, upper, step, step * 10, 0);
  gtk_spin_button_configure (spin, adj, step, digits);
  gtk_spin_button_set_numeric (spin, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (spin), _(g_param_spec_get_blurb (pspec)));
  /* GBinding converts between the spin's double and the property's uint */
  g_object_bind_property (estimate, property, spin, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

typedef struct
{
  const VcChoice *choices;
  guint n_choices;
} ChoiceTable;

static gboolean
enum_to_position (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  ChoiceTable *table = user_data;
  int v = G_VALUE_HOLDS_ENUM (from) ? g_value_get_enum (from) : (int) g_value_get_boolean (from);

  for (guint i = 0; i < table->n_choices; i++)
    if (table->choices[i].value == v)
      {
        g_value_set_uint (to, i);
        return TRUE;
      }
  /* a value this list does not offer (fp8 weights on the Training tab): select nothing */
  g_value_set_uint (to, GTK_INVALID_LIST_POSITION);
  return TRUE;
}

static gboolean
position_to_enum (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  ChoiceTable *table = user_data;
  guint pos = g_value_get_uint (from);

  if (pos >= table->n_choices)
    return FALSE;
  if (G_VALUE_HOLDS_ENUM (to))
    g_value_set_enum (to, table->choices[pos].value);
  else
    g_value_set_boolean (to, table->choices[pos].value != 0);
  return TRUE;
}

void
vc_bind_choices (GtkDropDown    *dropdown,
                 VcEstimate     *estimate,
                 const char     *property,
                 const VcChoice *choices,
                 guint           n_choices)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  GParamSpec *pspec = find_input (estimate, property);
  ChoiceTable *table;

  g_return_if_fail (pspec != NULL);

  for (guint i = 0; i < n_choices; i++)
    gtk_string_list_append (list, _(choices[i].label));
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (list));
  gtk_widget_set_tooltip_text (GTK_WIDGET (dropdown), _(g_param_spec_get_blurb (pspec)));

  table = g_new (ChoiceTable, 1);
  table->choices = choices;
  table->n_choices = n_choices;
  g_object_bind_property_full (estimate, property, dropdown, "selected",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               enum_to_position, position_to_enum, table, g_free);
}

/* The preset list: "Custom" first, then the catalog in its order. */
static gboolean
preset_to_position (GBinding     *binding,
                    const GValue *from,
                    GValue       *to,
                    gpointer      user_data)
{
  const char *id = g_value_get_string (from);
  guint n;
  const VcPreset *presets = vc_presets_get_all (&n);

  g_value_set_uint (to, 0);
  for (guint i = 0; id != NULL && i < n; i++)
    if (g_str_equal (presets[i].id, id))
      g_value_set_uint (to, i + 1);
  return TRUE;
}

static gboolean
position_to_preset (GBinding     *binding,
                    const GValue *from,
                    GValue       *to,
                    gpointer      user_data)
{
  guint pos = g_value_get_uint (from);
  guint n;
  const VcPreset *presets = vc_presets_get_all (&n);

  if (pos == GTK_INVALID_LIST_POSITION || pos > n)
    return FALSE;
  g_value_set_string (to, pos == 0 ? "" : presets[pos - 1].id);
  return TRUE;
}

void
vc_bind_preset_dropdown (GtkDropDown *dropdown,
                         VcEstimate  *estimate)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  guint n;
  const VcPreset *presets = vc_presets_get_all (&n);

  gtk_string_list_append (list, C_("preset", "Custom"));
  for (guint i = 0; i < n; i++)
    gtk_string_list_append (list, presets[i].name);
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (list));
  gtk_drop_down_set_enable_search (dropdown, TRUE);
  gtk_drop_down_set_expression (dropdown,
                                gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
  g_object_bind_property_full (estimate, "preset", dropdown, "selected",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               preset_to_position, position_to_preset, NULL, NULL);
}

/* Counts ("7B", "46.7e9") are typed, not spun: a spin button over 1e3…1e15 is unusable. The
 * text is parsed by the core when the entry is activated or left; a bad value keeps the
 * entry marked with the core's message until it is corrected. */
static gboolean
count_to_text (GBinding     *binding,
               const GValue *from,
               GValue       *to,
               gpointer      user_data)
{
  g_value_take_string (to, vc_format_count (g_value_get_double (from)));
  return TRUE;
}

static void
commit_count (GtkEntry *entry)
{
  GWeakRef *ref = g_object_get_data (G_OBJECT (entry), "vc-estimate");
  g_autoptr(VcEstimate) estimate = ref ? g_weak_ref_get (ref) : NULL;
  const char *property = g_object_get_data (G_OBJECT (entry), "vc-property");
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autoptr(GError) error = NULL;

  if (estimate == NULL)
    return;
  if (vc_estimate_set_from_string (estimate, property, text, &error))
    {
      g_auto(GValue) v = G_VALUE_INIT;
      g_autofree char *shown = NULL;

      gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry),
                                   _("A number, optionally with K, M, B or T (7B, 46.7B, 1.5T)"));
      /* show the value as the model holds it, also when it did not change */
      g_value_init (&v, G_TYPE_DOUBLE);
      g_object_get_property (G_OBJECT (estimate), property, &v);
      shown = vc_format_count (g_value_get_double (&v));
      if (g_strcmp0 (shown, text) != 0)
        gtk_editable_set_text (GTK_EDITABLE (entry), shown);
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
      gtk_accessible_update_property (GTK_ACCESSIBLE (entry),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, error->message, -1);
    }
}

static void
count_focus_leave (GtkEventControllerFocus *controller,
                   GtkEntry                *entry)
{
  commit_count (entry);
}

static void
free_weak_ref (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

void
vc_bind_count_entry (GtkEntry   *entry,
                     VcEstimate *estimate,
                     const char *property)
{
  GtkEventController *focus;
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  /* weak: a focused entry can outlive its window for a blink of the cursor */
  g_weak_ref_init (ref, estimate);
  g_object_set_data_full (G_OBJECT (entry), "vc-estimate", ref, free_weak_ref);
  g_object_set_data_full (G_OBJECT (entry), "vc-property", g_strdup (property), g_free);
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry),
                               _("A number, optionally with K, M, B or T (7B, 46.7B, 1.5T)"));
  g_object_bind_property_full (estimate, property, entry, "text", G_BINDING_SYNC_CREATE,
                               count_to_text, NULL, NULL, NULL);
  g_signal_connect (entry, "activate", G_CALLBACK (commit_count), NULL);
  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (count_focus_leave), entry);
  gtk_widget_add_controller (GTK_WIDGET (entry), focus);
}

void
vc_bind_active (GtkWidget  *toggle,
                VcEstimate *estimate,
                const char *property)
{
  GParamSpec *pspec = find_input (estimate, property);

  g_return_if_fail (pspec != NULL);
  gtk_widget_set_tooltip_text (toggle, _(g_param_spec_get_blurb (pspec)));
  g_object_bind_property (estimate, property, toggle, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

/* A spin button whose negative values mean "the default" (the overhead): it shows a word for
 * them and accepts that word back. */
static gboolean
default_output (GtkSpinButton *spin,
                gpointer       user_data)
{
  if (gtk_spin_button_get_value (spin) < 0)
    {
      gtk_editable_set_text (GTK_EDITABLE (spin), C_("overhead", "Default"));
      return TRUE;
    }
  return FALSE;
}

static int
default_input (GtkSpinButton *spin,
               double        *new_value,
               gpointer       user_data)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  char *end = NULL;

  if (g_utf8_collate (text, C_("overhead", "Default")) == 0 || *text == '\0')
    {
      *new_value = -1;
      return TRUE;
    }
  /* the spin shows numbers in the locale: read them back the same way (g_strtod tries the
   * locale, then C) */
  *new_value = g_strtod (text, &end);
  if (end == text || *end != '\0')
    return GTK_INPUT_ERROR;
  return TRUE;
}

void
vc_bind_spin_with_default (GtkSpinButton *spin,
                           VcEstimate    *estimate,
                           const char    *property,
                           double         step,
                           guint          digits)
{
  vc_bind_spin (spin, estimate, property, step, digits);
  gtk_spin_button_set_numeric (spin, FALSE);
  g_signal_connect (spin, "output", G_CALLBACK (default_output), NULL);
  g_signal_connect (spin, "input", G_CALLBACK (default_input), NULL);
  gtk_spin_button_update (spin);
  default_output (spin, NULL);
}

/* Lines up the label column of several grids (the model section and a tab's own sections). */
void
vc_size_group_add_grid_labels (GtkSizeGroup *group,
                               GtkGrid      *grid)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (grid));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int column;

      gtk_grid_query_child (grid, child, &column, NULL, NULL, NULL);
      if (column == 0 && GTK_IS_LABEL (child))
        gtk_size_group_add_widget (group, child);
    }
}
