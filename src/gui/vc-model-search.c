/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-model-search.c: the search of the model catalog, first in the model section.
 *
 * The list is made again at each keystroke from vc_presets_search() (the core's search,
 * measured by tests/bench/bench-catalog-search.c): at most MAX_ROWS rows under a heading.
 * The list is groups of rows, each under a heading row; the catalog's models are one group, so
 * another source of models is one more group (add_group). */
#define G_LOG_DOMAIN "vc-model-search"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-a11y.h"
#include "vc-catalog.h"
#include "vc-enums.h"
#include "vc-model-search.h"
#include "vc-units.h"

#define MAX_ROWS 8

struct _VcModelSearch
{
  GtkWidget parent_instance;

  VcEstimate *estimate;
  GtkWidget *box;
  GtkWidget *entry;
  GtkWidget *list;
};

G_DEFINE_FINAL_TYPE (VcModelSearch, vc_model_search, GTK_TYPE_WIDGET)

static const char row_id_key[] = "vc-model-id";

const char *
vc_model_search_row_id (GtkListBoxRow *row)
{
  g_return_val_if_fail (GTK_IS_LIST_BOX_ROW (row), NULL);
  return g_object_get_data (G_OBJECT (row), row_id_key);
}

/* "30.53B parameters · 3.35B activated · 40K context · 2025-04" */
static char *
model_details (const VcPreset *p)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *total = vc_format_count (p->published_parameters);

  /* Translators: a model's parameter count ("8.03B parameters") */
  g_string_append_printf (text, _("%s parameters"), total);
  if (p->published_active_parameters > 0)
    {
      g_autofree char *active = vc_format_count (p->published_active_parameters);

      g_string_append (text, " · ");
      /* Translators: parameters of a mixture of experts activated per token ("3.35B activated") */
      g_string_append_printf (text, _("%s activated"), active);
    }
  if (p->max_context > 0)
    {
      g_autofree char *context = p->max_context % 1024 == 0 ?
        g_strdup_printf ("%uK", p->max_context / 1024) : g_strdup_printf ("%u", p->max_context);

      g_string_append (text, " · ");
      /* Translators: the longest context of a model in tokens ("128K context") */
      g_string_append_printf (text, _("%s context"), context);
    }
  if (p->vision)
    {
      g_string_append (text, " · ");
      /* Translators: the model also reads images */
      g_string_append (text, _("vision"));
    }
  g_string_append (text, " · ");
  g_string_append (text, p->released);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static GtkWidget *
model_row (const VcPreset *p)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (p->name);
  g_autofree char *details_text = model_details (p);
  GtkWidget *details = gtk_label_new (details_text);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (details), 0);
  gtk_label_set_wrap (GTK_LABEL (details), TRUE);
  gtk_widget_add_css_class (details, "dim-label");
  gtk_widget_add_css_class (details, "caption");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), details);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), row_id_key, g_strdup (p->id), g_free);
  vc_a11y_labelled_by (row, name);
  return row;
}

static void
add_heading (VcModelSearch *self,
             const char    *heading)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *label = gtk_label_new (heading);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_top (label, 4);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_focusable (row, FALSE);
  gtk_list_box_append (GTK_LIST_BOX (self->list), row);
}

/* One group of the list: its heading, then its models (indices into the catalog). */
static void
add_group (VcModelSearch *self,
           const char    *heading,
           const guint   *found,
           guint          n)
{
  guint n_presets;
  const VcPreset *presets = vc_presets_get_all (&n_presets);

  add_heading (self, heading);
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (GTK_LIST_BOX (self->list), model_row (&presets[found[i]]));
}

/* What is typed, or, with nothing typed, the most-run models until a model is chosen. */
static void
update (VcModelSearch *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  gboolean typed = text[0] != '\0';
  guint found[MAX_ROWS + 1];
  guint n;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->list), child);
  if (!typed && (self->estimate == NULL || vc_estimate_get_preset (self->estimate)[0] != '\0'))
    {
      gtk_widget_set_visible (self->list, FALSE);
      return;
    }
  n = vc_presets_search (text, found, MAX_ROWS + 1);
  if (!typed)
    add_group (self, _("Most run models"), found, MIN (n, MAX_ROWS));
  else if (n == 0)
    add_heading (self, _("No built-in model matches. Import config.json… reads any other model."));
  else if (n > MAX_ROWS)
    add_group (self, _("Built-in models (first matches; type more to narrow)"), found, MAX_ROWS);
  else
    add_group (self, _("Built-in models"), found, n);
  gtk_widget_set_visible (self->list, TRUE);
}

static void
pick (VcModelSearch *self,
      const char    *id)
{
  if (self->estimate == NULL || id == NULL)
    return;
  /* a model of the catalog has an architecture: counting it is what the user wants */
  if (vc_estimate_set_preset (self->estimate, id, NULL))
    g_object_set (self->estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  update (self);
}

static void
row_activated (VcModelSearch *self,
               GtkListBoxRow *row)
{
  pick (self, vc_model_search_row_id (row));
}

/* Enter picks the first model listed */
static void
entry_activated (VcModelSearch *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (self->list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (vc_model_search_row_id (GTK_LIST_BOX_ROW (row)) != NULL)
      {
        pick (self, vc_model_search_row_id (GTK_LIST_BOX_ROW (row)));
        return;
      }
}

static void
stop_search (VcModelSearch *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
}

void
vc_model_search_set_estimate (VcModelSearch *self,
                              VcEstimate    *estimate)
{
  g_return_if_fail (VC_IS_MODEL_SEARCH (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (self->estimate == NULL);

  self->estimate = g_object_ref (estimate);
  g_signal_connect_object (estimate, "notify::preset", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  update (self);
}

GtkWidget *
vc_model_search_get_entry (VcModelSearch *self)
{
  g_return_val_if_fail (VC_IS_MODEL_SEARCH (self), NULL);
  return self->entry;
}

GtkWidget *
vc_model_search_get_list (VcModelSearch *self)
{
  g_return_val_if_fail (VC_IS_MODEL_SEARCH (self), NULL);
  return self->list;
}

static gboolean
vc_model_search_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (VC_MODEL_SEARCH (widget)->entry);
}

static void
vc_model_search_dispose (GObject *object)
{
  VcModelSearch *self = VC_MODEL_SEARCH (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->estimate);
  G_OBJECT_CLASS (vc_model_search_parent_class)->dispose (object);
}

static void
vc_model_search_class_init (VcModelSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_model_search_dispose;
  widget_class->grab_focus = vc_model_search_grab_focus;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
vc_model_search_init (VcModelSearch *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->entry = gtk_search_entry_new ();
  self->list = gtk_list_box_new ();

  g_object_set (self->entry,
                /* Translators: in the empty search field of the model section */
                "placeholder-text", _("Search models: a name, a family, a size such as 70b, moe, vision"),
                "hexpand", TRUE,
                NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Search models"), -1);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (self->list), TRUE);
  gtk_widget_add_css_class (self->list, "frame");
  gtk_widget_set_visible (self->list, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->entry);
  gtk_box_append (GTK_BOX (self->box), self->list);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  /* "changed", not "search-changed": results as each key is typed, without the entry's delay */
  g_signal_connect_object (self->entry, "changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "activate", G_CALLBACK (entry_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "stop-search", G_CALLBACK (stop_search), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->list, "row-activated", G_CALLBACK (row_activated), self, G_CONNECT_SWAPPED);
}
