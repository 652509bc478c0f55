/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-window-dnd.c: files dropped on the window, or given on the command line: a profile opens,
 * a config.json or a folder holding one is imported. */
#define G_LOG_DOMAIN "vc-window"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-json-input.h"
#include "vc-window-private.h"

/* The start of a file tells a profile from a config.json: a profile says what it is first. */
#define SNIFF_SIZE (64 * 1024)

static gboolean
read_more (const char *contents,
           goffset     size,
           gpointer    data)
{
  return size < SNIFF_SIZE;
}

static void
sniffed (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  g_autoptr(VcWindowPending) p = data;
  VcWindow *self = p->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  _vc_window_end_io (self, FALSE);
  if (!g_file_load_partial_contents_finish (G_FILE (source), result, &contents, &length, NULL, &error))
    {
      if (!_vc_window_is_disposed (self) && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _vc_window_show_error (self, _("Could not open “%s”"), p->file, error);
      return;
    }
  if (_vc_window_is_disposed (self))
    return;
  if (g_strstr_len (contents, length, "\"" VC_PROFILE_FORMAT "\"") != NULL)
    _vc_window_confirm_then (self, FALSE, _vc_window_open_profile, p->file);
  else
    _vc_window_import (self, p->file);
}

/**
 * vc_window_open_file:
 * @file: a profile, a config.json or a folder holding one
 *
 * Opens @file the way dropping it on the window does: a profile opens (after asking about
 * unsaved changes), a model configuration is imported.
 */
void
vc_window_open_file (VcWindow *self,
                     GFile    *file)
{
  g_autofree char *base = NULL;

  g_return_if_fail (VC_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  base = g_file_get_basename (file);
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY ||
      g_strcmp0 (base, "config.json") == 0 || (base && g_str_has_suffix (base, ".gguf")))
    {
      _vc_window_import (self, file);
      return;
    }
  /* a pipe would block the sniffing read forever, a device never end it: said at once, as the
   * command line says it */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *name = g_file_get_parse_name (file);

    if (!vc_file_check_regular (file, name, _("a profile or a model’s config.json"), NULL, &error))
      {
        _vc_window_show_error (self, _("Could not open “%s”"), file, error);
        return;
      }
  }
  _vc_window_begin_io (self, FALSE);
  g_file_load_partial_contents_async (file, self->cancellable, read_more, sniffed,
                                      _vc_window_pending_new (self, NULL, file));
}

static gboolean
drop_received (GtkDropTarget *target,
               const GValue  *value,
               double         x,
               double         y,
               VcWindow      *self)
{
  GFile *file = NULL;

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));

      file = files ? files->data : NULL;
      g_slist_free (files);
    }
  else if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    file = g_value_get_object (value);
  if (file == NULL)
    return FALSE;
  vc_window_open_file (self, file);
  return TRUE;
}

void
_vc_window_dnd_init (VcWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);

  gtk_drop_target_set_gtypes (drop, (GType[2]) { GDK_TYPE_FILE_LIST, G_TYPE_FILE }, 2);
  g_signal_connect_object (drop, "drop", G_CALLBACK (drop_received), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
