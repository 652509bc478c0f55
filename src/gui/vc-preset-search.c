/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-preset-search.c: what the preset drop-down's search reads. Each item is searched by its
 * name, its id and its size ("Llama 3.1 405B llama-3.1-405b 406B"), any part matching, so that
 * "405", "8B" or "R1" find their model. */
#define G_LOG_DOMAIN "vc-preset-search"

#include "config.h"

#include "vc-catalog.h"
#include "vc-preset-search.h"
#include "vc-units.h"

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

/**
 * vc_preset_search_setup:
 * @dropdown: the preset drop-down (a GtkStringList of "Custom" and the names), before its list
 *   first opens
 */
void
vc_preset_search_setup (VcDropDown *dropdown)
{
  g_autoptr(GtkExpression) expression = gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                                                     G_CALLBACK (search_text), NULL, NULL);

  g_return_if_fail (VC_IS_DROP_DOWN (dropdown));

  vc_drop_down_set_search_expression (dropdown, expression);
}
