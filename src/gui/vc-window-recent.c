/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-window-recent.c: the Open Recent menu, from the profiles this program opened or saved. */
#define G_LOG_DOMAIN "vc-window"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-window-private.h"

#define RECENT_GROUP "vram-calculator-profile"
#define MAX_RECENT 8

/* GTK 4's gtk_recent_manager_add_full() tests the first byte of the groups array, which is
 * the lowest byte of the first name's address, where it means the name's first character:
 * a name stored at an address that ends in 0x00 is dropped, and the profile left out of the
 * menu (it happened in a sanitizer build). The name is kept at an odd address. */
static const char group_name[] __attribute__ ((aligned (2))) = "_" RECENT_GROUP;

void
_vc_window_add_recent (GFile *file)
{
  const char *groups[] = { group_name + 1, NULL };
  g_autofree char *uri = g_file_get_uri (file);
  const char *app = g_get_application_name () ? g_get_application_name () : g_get_prgname ();
  GtkRecentData data = {
    .mime_type = (char *) VC_PROFILE_MIME_TYPE,
    .app_name = (char *) (app ? app : "vram-calculator"),
    .app_exec = (char *) "vram-calculator",
    .groups = (char **) groups,
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static int
recent_newest_first (gconstpointer a,
                     gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **) a;
  GtkRecentInfo *ib = *(GtkRecentInfo **) b;

  return g_date_time_compare (gtk_recent_info_get_modified (ib), gtk_recent_info_get_modified (ia));
}

/* Profiles this program opened or saved that still exist, newest first. */
static void
rebuild_recent (VcWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr(GPtrArray) profiles = g_ptr_array_new ();
  guint shown = 0;

  g_menu_remove_all (self->recent_menu);
  for (GList *l = items; l != NULL; l = l->next)
    if (gtk_recent_info_has_group (l->data, RECENT_GROUP) && gtk_recent_info_exists (l->data))
      g_ptr_array_add (profiles, l->data);
  g_ptr_array_sort (profiles, recent_newest_first);

  for (guint i = 0; i < profiles->len && shown < MAX_RECENT; i++, shown++)
    {
      GtkRecentInfo *info = profiles->pdata[i];
      g_autoptr(GMenuItem) item = NULL;
      g_auto(GStrv) parts = g_strsplit (gtk_recent_info_get_display_name (info), "_", -1);
      /* file names are not mnemonics */
      g_autofree char *label = g_strjoinv ("__", parts);

      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent",
                                               g_variant_new_string (gtk_recent_info_get_uri (info)));
      g_menu_append_item (self->recent_menu, item);
    }
  if (shown == 0)
    g_menu_append (self->recent_menu, _("No Recent Profiles"), "win.no-recent");
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* The recent files are read after the first frame: GtkRecentManager parses the whole
 * recently-used.xbel, which can be large, and the menu is not visible at start-up. */
static gboolean
recent_init_later (gpointer data)
{
  VcWindow *self = data;

  if (_vc_window_is_disposed (self))
    return G_SOURCE_REMOVE;
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (rebuild_recent),
                           self, G_CONNECT_SWAPPED);
  rebuild_recent (self);
  return G_SOURCE_REMOVE;
}

void
_vc_window_recent_init (VcWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.no-recent", FALSE);
  g_menu_append (self->recent_menu, _("No Recent Profiles"), "win.no-recent");
  g_idle_add_full (G_PRIORITY_LOW, recent_init_later, g_object_ref (self), g_object_unref);
}
