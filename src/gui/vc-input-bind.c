/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-input-bind.c: widget ↔ estimate property bindings (see vc-input-bind.h). */
#define G_LOG_DOMAIN "vc-input-bind"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "vc-catalog.h"
#include "vc-compat.h"
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

/* What a spin button last displayed, so that leaving it without typing (Tab) reads back the
 * value it holds, not the rounded text: a field the user did not edit never changes. */
#define SHOWN_KEY "vc-shown"

static void
show_spin_text (GtkSpinButton *spin,
                const char    *text)
{
  g_object_set_data_full (G_OBJECT (spin), SHOWN_KEY, g_strdup (text), g_free);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);
}

static gboolean
spin_unedited (GtkSpinButton *spin,
               double        *new_value)
{
  const char *shown = g_object_get_data (G_OBJECT (spin), SHOWN_KEY);

  if (shown == NULL || g_strcmp0 (shown, gtk_editable_get_text (GTK_EDITABLE (spin))) != 0)
    return FALSE;
  *new_value = gtk_adjustment_get_value (gtk_spin_button_get_adjustment (spin));
  return TRUE;
}

static gboolean
spin_output (GtkSpinButton *spin,
             gpointer       user_data)
{
  g_autofree char *text = g_strdup_printf ("%0.*f", gtk_spin_button_get_digits (spin),
                                           gtk_spin_button_get_value (spin));
  show_spin_text (spin, text);
  return TRUE;
}

/* Whole numbers (batch, sequence length, architecture sizes) take the count suffixes too:
 * 128k is 128,000 (k, M, B and T are powers of ten, as for parameters); the spin then shows
 * 128000, the value as read. Other text is refused: the spin keeps its value. */
static int
spin_input (GtkSpinButton *spin,
            double        *new_value,
            gpointer       user_data)
{
  gboolean whole = GPOINTER_TO_INT (user_data);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  double v;

  if (spin_unedited (spin, new_value))
    return TRUE;
  /* on an error GTK still takes *new_value: the value the spin holds, so nothing changes */
  *new_value = gtk_adjustment_get_value (gtk_spin_button_get_adjustment (spin));
  if (whole)
    {
      if (!vc_parse_count (text, &v, NULL) || v != floor (v))
        return GTK_INPUT_ERROR;
    }
  else
    {
      char *end = NULL;

      /* the spin shows numbers in the locale: read them back the same way (g_strtod tries
       * the locale, then C) */
      v = g_strtod (text, &end);
      if (end == text || *end != '\0' || !isfinite (v))
        return GTK_INPUT_ERROR;
    }
  *new_value = v;
  return TRUE;
}

/* The property's description, which the command line's help shares, as the input's tooltip;
 * a tooltip the window's .ui gives the input says it better for the window, and stays. */
static void
describe_input (GtkWidget  *input,
                GParamSpec *pspec)
{
  if (gtk_widget_get_tooltip_text (input) == NULL)
    vc_widget_set_tooltip_text (input, _(g_param_spec_get_blurb (pspec)));
}

static void
bind_spin (GtkSpinButton *spin,
           VcEstimate    *estimate,
           const char    *property,
           double         step,
           guint          digits,
           gboolean       own_text)
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
  /* not numeric: "128k" must reach the input handler, which refuses what is not a number */
  gtk_spin_button_set_numeric (spin, FALSE);
  describe_input (GTK_WIDGET (spin), pspec);
  if (own_text)
    {
      g_signal_connect (spin, "output", G_CALLBACK (spin_output), NULL);
      g_signal_connect (spin, "input", G_CALLBACK (spin_input),
                        GINT_TO_POINTER (G_IS_PARAM_SPEC_UINT (pspec)));
    }
  /* GBinding converts between the spin's double and the property's uint */
  g_object_bind_property (estimate, property, spin, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  if (own_text)
    spin_output (spin, NULL);
}

void
vc_bind_spin (GtkSpinButton *spin,
              VcEstimate    *estimate,
              const char    *property,
              double         step,
              guint          digits)
{
  bind_spin (spin, estimate, property, step, digits, TRUE);
}

/* ---- choices ------------------------------------------------------------------------------- */

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
vc_bind_choices (VcDropDown     *dropdown,
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
  vc_drop_down_set_model (dropdown, G_LIST_MODEL (list));
  describe_input (GTK_WIDGET (dropdown), pspec);

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

/* The list's factory and its search are vc_preset_search_setup()'s. */
void
vc_bind_preset_dropdown (VcDropDown  *dropdown,
                         VcEstimate  *estimate)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  guint n;
  const VcPreset *presets = vc_presets_get_all (&n);

  gtk_string_list_append (list, C_("preset", "Custom"));
  for (guint i = 0; i < n; i++)
    gtk_string_list_append (list, presets[i].name);
  vc_drop_down_set_model (dropdown, G_LIST_MODEL (list));
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
  GObject *entry = g_binding_dup_target (binding);
  char *text = vc_format_count (g_value_get_double (from));

  /* what the model's value looks like: leaving the entry with this text changes nothing
   * ("7.24B" stands for 7,241,732,096 and must not become 7,240,000,000) */
  if (entry != NULL)
    {
      g_object_set_data_full (entry, SHOWN_KEY, g_strdup (text), g_free);
      g_object_unref (entry);
    }
  g_value_take_string (to, text);
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
  if (g_strcmp0 (text, g_object_get_data (G_OBJECT (entry), SHOWN_KEY)) == 0)
    {
      /* not edited: the model keeps its exact value */
      gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
      vc_widget_set_tooltip_text (GTK_WIDGET (entry),
                                   _("A number, optionally with K, M, B or T (7B, 46.7B, 1.5T)"));
      return;
    }
  if (vc_estimate_set_from_string (estimate, property, text, &error))
    {
      g_auto(GValue) v = G_VALUE_INIT;
      g_autofree char *shown = NULL;

      gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
      vc_widget_set_tooltip_text (GTK_WIDGET (entry),
                                   _("A number, optionally with K, M, B or T (7B, 46.7B, 1.5T)"));
      /* show the value as the model holds it, also when it did not change */
      g_value_init (&v, G_TYPE_DOUBLE);
      g_object_get_property (G_OBJECT (estimate), property, &v);
      shown = vc_format_count (g_value_get_double (&v));
      g_object_set_data_full (G_OBJECT (entry), SHOWN_KEY, g_strdup (shown), g_free);
      if (g_strcmp0 (shown, text) != 0)
        gtk_editable_set_text (GTK_EDITABLE (entry), shown);
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      vc_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
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
  vc_widget_set_tooltip_text (GTK_WIDGET (entry),
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
  describe_input (toggle, pspec);
  g_object_bind_property (estimate, property, toggle, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

/* A spin button with one value that means something other than a number: a word is shown for
 * it and read back. */
typedef struct
{
  double value;
  char *word;
} SpinWord;

static void
spin_word_free (gpointer data)
{
  SpinWord *w = data;

  g_free (w->word);
  g_free (w);
}

#define SPIN_WORD_KEY "vc-spin-word"

static gboolean
word_output (GtkSpinButton *spin,
             gpointer       user_data)
{
  const SpinWord *w = g_object_get_data (G_OBJECT (spin), SPIN_WORD_KEY);

  if (gtk_spin_button_get_value (spin) == w->value)
    {
      show_spin_text (spin, w->word);
      return TRUE;
    }
  return spin_output (spin, user_data);
}

static int
word_input (GtkSpinButton *spin,
            double        *new_value,
            gpointer       user_data)
{
  const SpinWord *w = g_object_get_data (G_OBJECT (spin), SPIN_WORD_KEY);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  char *end = NULL;
  double v;

  if (spin_unedited (spin, new_value))
    return TRUE;
  if (g_utf8_collate (text, w->word) == 0 || *text == '\0')
    {
      *new_value = w->value;
      return TRUE;
    }
  /* the spin shows numbers in the locale: read them back the same way (g_strtod tries the
   * locale, then C) */
  v = g_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (v))
    {
      /* GTK still takes *new_value: the value the spin holds */
      *new_value = gtk_adjustment_get_value (gtk_spin_button_get_adjustment (spin));
      return GTK_INPUT_ERROR;
    }
  *new_value = v;
  return TRUE;
}

/**
 * vc_bind_spin_with_word:
 * @value: the value shown as @word
 * @word: (transfer none): the translated word, as "All" for every layer
 *
 * vc_bind_spin() for an input one of whose values is a word: "Default", "All".
 */
void
vc_bind_spin_with_word (GtkSpinButton *spin,
                        VcEstimate    *estimate,
                        const char    *property,
                        double         step,
                        guint          digits,
                        double         value,
                        const char    *word)
{
  SpinWord *w = g_new0 (SpinWord, 1);

  w->value = value;
  w->word = g_strdup (word);
  g_object_set_data_full (G_OBJECT (spin), SPIN_WORD_KEY, w, spin_word_free);
  bind_spin (spin, estimate, property, step, digits, FALSE);
  g_signal_connect (spin, "output", G_CALLBACK (word_output), NULL);
  g_signal_connect (spin, "input", G_CALLBACK (word_input), NULL);
  gtk_spin_button_update (spin);
  word_output (spin, NULL);
}

/* negative values of the overhead mean "the method's default" */
void
vc_bind_spin_with_default (GtkSpinButton *spin,
                           VcEstimate    *estimate,
                           const char    *property,
                           double         step,
                           guint          digits)
{
  vc_bind_spin_with_word (spin, estimate, property, step, digits, -1, C_("overhead", "Default"));
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
