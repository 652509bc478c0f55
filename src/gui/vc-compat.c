/* vc-compat.c: GTK 4.8 and newer GTK behind one API (see vc-compat.h). */
#define G_LOG_DOMAIN "vc-compat"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-compat.h"

/* The foreground colour of a widget from its style: charts draw their text and tracks with it,
 * so they follow light and dark themes. */
void
vc_widget_get_color (GtkWidget *widget,
                     GdkRGBA   *color)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  gtk_widget_get_color (widget, color);
#else
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), color);
#endif
}

/* Column ids let others save and restore column layouts; 4.8 has no setter, so the id is kept
 * as object data there. */
void
vc_column_view_column_set_id (GtkColumnViewColumn *column,
                              const char          *id)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  gtk_column_view_column_set_id (column, id);
#else
  g_object_set_data_full (G_OBJECT (column), "vc-column-id", g_strdup (id), g_free);
#endif
}

void
vc_widget_show_error (GtkWidget  *parent,
                      const char *heading,
                      const char *message)
{
  GtkRoot *root = parent ? gtk_widget_get_root (parent) : NULL;

#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkAlertDialog) dialog = gtk_alert_dialog_new ("%s", heading);

  gtk_alert_dialog_set_detail (dialog, message);
  gtk_alert_dialog_show (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL);
#else
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", heading);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
#endif
}
