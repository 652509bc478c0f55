/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-model-search.c: the search of the model catalog, first in the model section.
 *
 * The list is made again at each keystroke from vc_presets_search() (the core's search,
 * measured by tests/bench/bench-catalog-search.c): at most MAX_ROWS rows under a heading, then
 * a row that shows every match. The list is groups of rows, each under a heading row: the
 * catalog's models, then the models on this computer (vc-local-model.c), listed from disk when
 * a search starts and matched word by word as the catalog is; one of those is opened as the
 * Hub dialog opens it, by the window's import (the "local-model-chosen" signal). */
#define G_LOG_DOMAIN "vc-model-search"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "vc-a11y.h"
#include "vc-catalog.h"
#include "vc-enums.h"
#include "vc-local-model.h"
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
  /* the models on this computer, listed when a search starts (NULL until then) */
  GPtrArray *locals;
  /* every match shown, until the text changes */
  gboolean show_all;
};

enum
{
  SIGNAL_LOCAL_MODEL_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (VcModelSearch, vc_model_search, GTK_TYPE_WIDGET)

static const char row_id_key[] = "vc-model-id";
static const char row_file_key[] = "vc-local-file";
static const char row_more_key[] = "vc-show-all";

const char *
vc_model_search_row_id (GtkListBoxRow *row)
{
  g_return_val_if_fail (GTK_IS_LIST_BOX_ROW (row), NULL);
  return g_object_get_data (G_OBJECT (row), row_id_key);
}

GFile *
vc_model_search_row_file (GtkListBoxRow *row)
{
  g_return_val_if_fail (GTK_IS_LIST_BOX_ROW (row), NULL);
  return g_object_get_data (G_OBJECT (row), row_file_key);
}

gboolean
vc_model_search_row_shows_all (GtkListBoxRow *row)
{
  g_return_val_if_fail (GTK_IS_LIST_BOX_ROW (row), FALSE);
  return g_object_get_data (G_OBJECT (row), row_more_key) != NULL;
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

/* "Show all 23 matches": the rest of a group cut at MAX_ROWS */
static void
add_show_all (VcModelSearch *self,
              guint          n)
{
  GtkWidget *row = gtk_list_box_row_new ();
  /* Translators: the last row of a list of models cut short; it lists them all */
  g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Show all %u match",
                                                        "Show all %u matches", n), n);
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "accent");
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_top (label, 4);
  gtk_widget_set_margin_bottom (label, 4);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  g_object_set_data (G_OBJECT (row), row_more_key, GINT_TO_POINTER (TRUE));
  vc_a11y_labelled_by (row, label);
  gtk_list_box_append (GTK_LIST_BOX (self->list), row);
}

static const char *
source_label (const char *source)
{
  if (g_str_equal (source, "ollama"))
    return "Ollama";
  if (g_str_equal (source, "lmstudio"))
    return "LM Studio";
  return _("Hugging Face cache");
}

/* "qwen3:30b-a3b", then "Ollama · GGUF · 18.6 GB" */
static GtkWidget *
local_row (VcLocalModel *m)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (vc_local_model_get_name (m));
  const char *format = vc_local_model_get_format (m);
  g_autofree char *size = g_format_size_full (vc_local_model_get_bytes (m), G_FORMAT_SIZE_DEFAULT);
  g_autofree char *details_text = g_strdup_printf ("%s · %s · %s", source_label (vc_local_model_get_source (m)),
                                                   g_str_equal (format, "gguf") ? "GGUF" :
                                                   g_str_equal (format, "config") ? "config.json" : format,
                                                   size);
  GtkWidget *details = gtk_label_new (details_text);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (details), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (details, "dim-label");
  gtk_widget_add_css_class (details, "caption");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), details);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), row_file_key, g_object_ref (vc_local_model_get_file (m)), g_object_unref);
  vc_a11y_labelled_by (row, name);
  return row;
}

/* Every word typed is part of the model's name, where it was found or its format, as the
 * catalog's search asks of its models. */
static gboolean
local_matches (VcLocalModel *m,
               char        **words)
{
  g_autofree char *haystack_raw = g_strdup_printf ("%s %s %s", vc_local_model_get_name (m),
                                                   vc_local_model_get_source (m),
                                                   vc_local_model_get_format (m));
  g_autofree char *haystack = g_utf8_strdown (haystack_raw, -1);

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0' && strstr (haystack, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

/* The models on this computer that match, as their own group */
static void
add_local_group (VcModelSearch *self,
                 const char    *text)
{
  g_autofree char *lower = g_utf8_strdown (text, -1);
  g_auto(GStrv) words = g_strsplit_set (lower, " \t", -1);
  g_autoptr(GPtrArray) matches = g_ptr_array_new ();
  guint shown;

  if (self->locals == NULL)
    self->locals = vc_local_models_list (NULL, NULL);
  for (guint i = 0; i < self->locals->len; i++)
    if (local_matches (self->locals->pdata[i], words))
      g_ptr_array_add (matches, self->locals->pdata[i]);
  if (matches->len == 0)
    return;
  shown = self->show_all ? matches->len : MIN (matches->len, MAX_ROWS);
  /* Translators: the heading of the models found in Ollama's, LM Studio's and the Hugging Face
   * cache's folders */
  add_heading (self, _("On this computer"));
  for (guint i = 0; i < shown; i++)
    gtk_list_box_append (GTK_LIST_BOX (self->list), local_row (matches->pdata[i]));
  if (shown < matches->len)
    add_show_all (self, matches->len);
}

/* What is typed, or, with nothing typed, the most-run models until a model is chosen. */
static void
update (VcModelSearch *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  gboolean typed = text[0] != '\0';
  guint n_presets, n, total, limit;
  g_autofree guint *found = NULL;
  GtkWidget *child;

  vc_presets_get_all (&n_presets);
  while ((child = gtk_widget_get_first_child (self->list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->list), child);
  if (!typed)
    /* the next search lists this computer's models again */
    g_clear_pointer (&self->locals, g_ptr_array_unref);
  if (!typed && (self->estimate == NULL || vc_estimate_get_preset (self->estimate)[0] != '\0'))
    {
      gtk_widget_set_visible (self->list, FALSE);
      return;
    }
  limit = typed && self->show_all ? MAX (n_presets, 1) : MAX_ROWS;
  found = g_new (guint, limit);
  n = vc_presets_search (text, found, limit);
  total = typed && !self->show_all ? vc_presets_search (text, NULL, MAX (n_presets, 1)) : n;
  if (!typed)
    add_group (self, _("Most run models"), found, n);
  else if (n == 0)
    add_heading (self, _("No built-in model matches. Import config.json… reads any other model."));
  else if (total > n)
    {
      add_group (self, _("Built-in models (first matches; type more to narrow)"), found, n);
      add_show_all (self, total);
    }
  else
    add_group (self, _("Built-in models"), found, n);
  if (typed)
    add_local_group (self, text);
  gtk_widget_set_visible (self->list, TRUE);
}

/* a new text: its first matches, until asked for all */
static void
text_changed (VcModelSearch *self)
{
  self->show_all = FALSE;
  update (self);
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

/* a model on this computer: the window opens its files as the Hub dialog's choice */
static void
pick_local (VcModelSearch *self,
            GFile         *file)
{
  g_autoptr(GFile) chosen = g_object_ref (file);

  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  g_signal_emit (self, signals[SIGNAL_LOCAL_MODEL_CHOSEN], 0, chosen);
}

static void
row_activated (VcModelSearch *self,
               GtkListBoxRow *row)
{
  GFile *file = vc_model_search_row_file (row);

  if (g_object_get_data (G_OBJECT (row), row_more_key) != NULL)
    {
      self->show_all = TRUE;
      update (self);
    }
  else if (file != NULL)
    pick_local (self, file);
  else
    pick (self, vc_model_search_row_id (row));
}

/* Enter picks the first model listed, of the catalog or of this computer */
static void
entry_activated (VcModelSearch *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (self->list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (vc_model_search_row_id (GTK_LIST_BOX_ROW (row)) != NULL ||
        vc_model_search_row_file (GTK_LIST_BOX_ROW (row)) != NULL)
      {
        row_activated (self, GTK_LIST_BOX_ROW (row));
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
  g_clear_pointer (&self->locals, g_ptr_array_unref);
  G_OBJECT_CLASS (vc_model_search_parent_class)->dispose (object);
}

static void
vc_model_search_class_init (VcModelSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_model_search_dispose;
  widget_class->grab_focus = vc_model_search_grab_focus;

  /* a model on this computer was chosen: its file or folder, to open as an import */
  signals[SIGNAL_LOCAL_MODEL_CHOSEN] =
    g_signal_new ("local-model-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_FILE);
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
  g_signal_connect_object (self->entry, "changed", G_CALLBACK (text_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "activate", G_CALLBACK (entry_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "stop-search", G_CALLBACK (stop_search), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->list, "row-activated", G_CALLBACK (row_activated), self, G_CONNECT_SWAPPED);
}
