/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-preset-search.c: the search of the preset drop-down. GtkDropDown matches the start of the
 * text only: "405", "8B" or "R1" found nothing. Here each item is searched by its name, its id
 * and its size ("Llama 3.1 405B llama-3.1-405b 406B"), any part matching; Enter in the search
 * entry picks the first match and Escape closes the list at once. Position 0 is "Custom". */
#define G_LOG_DOMAIN "vc-preset-search"

#include "config.h"

#include "vc-catalog.h"
#include "vc-compat.h"
#include "vc-preset-search.h"
#include "vc-units.h"

/* the list shows the name only, whatever the search reads */
static const char factory_ui[] =
  "<?xml version='1.0' encoding='UTF-8'?>"
  "<interface>"
  "  <template class='GtkListItem'>"
  "    <property name='child'>"
  "      <object class='GtkLabel'>"
  "        <property name='xalign'>0</property>"
  "        <binding name='label'>"
  "          <lookup name='string' type='GtkStringObject'>"
  "            <lookup name='item'>GtkListItem</lookup>"
  "          </lookup>"
  "        </binding>"
  "      </object>"
  "    </property>"
  "  </template>"
  "</interface>";

static char *
search_text_for_name (const char *name)
{
  guint n;
  const VcPreset *presets = vc_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (presets[i].name, name))
      {
        g_autofree char *size = vc_format_count (presets[i].published_parameters);
        return g_strdup_printf ("%s %s %s", presets[i].name, presets[i].id, size);
      }
  return g_strdup (name);
}

static char *
search_text (GtkStringObject *item,
             gpointer         unused)
{
  return item ? search_text_for_name (gtk_string_object_get_string (item)) : g_strdup ("");
}

static gboolean
text_matches (const char *haystack,
              const char *needle)
{
  g_autofree char *h = g_utf8_casefold (haystack, -1);
  g_autofree char *n = g_utf8_casefold (needle, -1);
  g_autofree char *hn = g_utf8_normalize (h, -1, G_NORMALIZE_ALL);
  g_autofree char *nn = g_utf8_normalize (n, -1, G_NORMALIZE_ALL);

  return hn != NULL && nn != NULL && strstr (hn, nn) != NULL;
}

/**
 * vc_preset_search_matches:
 * @position: a position in the preset list (0: Custom)
 * @text: what was typed
 *
 * Returns: whether the search finds the item at @position for @text
 */
gboolean
vc_preset_search_matches (guint       position,
                          const char *text)
{
  guint n;
  const VcPreset *presets = vc_presets_get_all (&n);
  g_autofree char *haystack = NULL;

  if (position == 0 || position > n)
    return FALSE;
  haystack = search_text_for_name (presets[position - 1].name);
  return text_matches (haystack, text);
}

static GtkPopover *
find_popover (GtkWidget *dropdown)
{
  for (GtkWidget *child = gtk_widget_get_first_child (dropdown); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child))
      return GTK_POPOVER (child);
  return NULL;
}

static GtkWidget *
find_search_entry (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_SEARCH_ENTRY (child))
        return child;
      if ((found = find_search_entry (child)) != NULL)
        return found;
    }
  return NULL;
}

/* Enter: the first item the search shows */
static void
search_activated (GtkSearchEntry *entry,
                  GtkDropDown    *dropdown)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  GListModel *model = gtk_drop_down_get_model (dropdown);
  GtkPopover *popover = find_popover (GTK_WIDGET (dropdown));

  if (*text == '\0' || model == NULL)
    return;
  for (guint i = 1; i < g_list_model_get_n_items (model); i++)
    if (vc_preset_search_matches (i, text))
      {
        if (popover != NULL)
          gtk_popover_popdown (popover);
        gtk_drop_down_set_selected (dropdown, i);
        return;
      }
}

/* Escape: the list closes (closing it clears the search) */
static void
search_stopped (GtkSearchEntry *entry,
                GtkDropDown    *dropdown)
{
  GtkPopover *popover = find_popover (GTK_WIDGET (dropdown));

  if (popover != NULL)
    gtk_popover_popdown (popover);
}

/* A new model gets a new filter, which matches the start of the text again */
static void
model_changed (GtkDropDown *dropdown)
{
  vc_drop_down_search_any_part (dropdown);
}

/**
 * vc_preset_search_setup:
 * @dropdown: the preset drop-down, best before its model is set (a GtkStringList of "Custom"
 *   and the names): the rows of its list are then made once, with the factory set here
 */
void
vc_preset_search_setup (GtkDropDown *dropdown)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (factory_ui, sizeof factory_ui - 1);
  g_autoptr(GtkListItemFactory) factory = gtk_builder_list_item_factory_new_from_bytes (NULL, bytes);
  /* the drop-down takes a reference of its own */
  g_autoptr(GtkExpression) expression = gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                                                     G_CALLBACK (search_text), NULL, NULL);
  GtkWidget *entry;

  g_return_if_fail (GTK_IS_DROP_DOWN (dropdown));

  gtk_drop_down_set_factory (dropdown, factory);
  gtk_drop_down_set_expression (dropdown, expression);
  gtk_drop_down_set_enable_search (dropdown, TRUE);
  vc_drop_down_search_any_part (dropdown);
  g_signal_connect (dropdown, "notify::model", G_CALLBACK (model_changed), NULL);

  entry = find_search_entry (GTK_WIDGET (find_popover (GTK_WIDGET (dropdown))));
  if (entry != NULL)
    {
      g_signal_connect_object (entry, "activate", G_CALLBACK (search_activated), dropdown, 0);
      g_signal_connect_object (entry, "stop-search", G_CALLBACK (search_stopped), dropdown, 0);
    }
}
