/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-compat.c: GTK 4.8 and newer GTK behind one API (see vc-compat.h). */
#define G_LOG_DOMAIN "vc-compat"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-compat.h"
#include "vc-shortcuts-window.h"

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

typedef struct
{
  VcFileMode mode;
  VcFileChosenFunc callback;
  gpointer user_data;
} FileRequest;

#if GTK_CHECK_VERSION (4, 10, 0)
static void
file_dialog_done (GObject      *source,
                  GAsyncResult *result,
                  gpointer      data)
{
  FileRequest *request = data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  switch (request->mode)
    {
    case VC_FILE_OPEN:
      file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (source), result, &error);
      break;
    case VC_FILE_SAVE:
      file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (source), result, &error);
      break;
    case VC_FILE_SELECT_FOLDER:
    default:
      file = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (source), result, &error);
      break;
    }
  if (error != NULL && !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
    g_debug ("File dialog: %s", error->message);
  request->callback (file, request->user_data);
  g_free (request);
}
#else
static void
file_chooser_response (GtkNativeDialog *dialog,
                       int              response,
                       gpointer         data)
{
  FileRequest *request = data;
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  request->callback (file, request->user_data);
  g_free (request);
  /* the reference taken when the dialog was shown */
  g_object_unref (dialog);
}
#endif

void
vc_choose_file (GtkWindow        *parent,
                VcFileMode        mode,
                const char       *title,
                const char       *accept_label,
                const char       *initial_name,
                GtkFileFilter    *filter,
                VcFileChosenFunc  callback,
                gpointer          user_data)
{
  FileRequest *request = g_new0 (FileRequest, 1);

  request->mode = mode;
  request->callback = callback;
  request->user_data = user_data;

#if GTK_CHECK_VERSION (4, 10, 0)
  {
    g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

    gtk_file_dialog_set_title (dialog, title);
    gtk_file_dialog_set_modal (dialog, TRUE);
    if (accept_label != NULL)
      gtk_file_dialog_set_accept_label (dialog, accept_label);
    if (initial_name != NULL && mode == VC_FILE_SAVE)
      gtk_file_dialog_set_initial_name (dialog, initial_name);
    if (filter != NULL)
      {
        g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);

        g_list_store_append (filters, filter);
        gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
        gtk_file_dialog_set_default_filter (dialog, filter);
      }
    switch (mode)
      {
      case VC_FILE_OPEN:
        gtk_file_dialog_open (dialog, parent, NULL, file_dialog_done, request);
        break;
      case VC_FILE_SAVE:
        gtk_file_dialog_save (dialog, parent, NULL, file_dialog_done, request);
        break;
      case VC_FILE_SELECT_FOLDER:
      default:
        gtk_file_dialog_select_folder (dialog, parent, NULL, file_dialog_done, request);
        break;
      }
  }
#else
  {
    static const GtkFileChooserAction actions[] = {
      [VC_FILE_OPEN] = GTK_FILE_CHOOSER_ACTION_OPEN,
      [VC_FILE_SAVE] = GTK_FILE_CHOOSER_ACTION_SAVE,
      [VC_FILE_SELECT_FOLDER] = GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
    };
    GtkFileChooserNative *dialog;

    dialog = gtk_file_chooser_native_new (title, parent, actions[mode], accept_label, NULL);
    gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
    if (initial_name != NULL && mode == VC_FILE_SAVE)
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), initial_name);
    if (filter != NULL)
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    /* the dialog is kept until it answers; the response handler lets go of it */
    g_signal_connect (dialog, "response", G_CALLBACK (file_chooser_response), request);
    gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
  }
#endif
}

typedef struct
{
  int cancel_button;
  VcAnswerFunc callback;
  gpointer user_data;
} Question;

#if GTK_CHECK_VERSION (4, 10, 0)
static void
alert_done (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  Question *question = data;
  g_autoptr(GError) error = NULL;
  int answer = gtk_alert_dialog_choose_finish (GTK_ALERT_DIALOG (source), result, &error);

  question->callback (answer < 0 ? question->cancel_button : answer, question->user_data);
  g_free (question);
}
#else
static void
message_response (GtkDialog *dialog,
                  int        response,
                  gpointer   data)
{
  Question *question = data;

  /* closing the dialog (GTK_RESPONSE_DELETE_EVENT) is Cancel */
  question->callback (response < 0 ? question->cancel_button : response, question->user_data);
  g_free (question);
  gtk_window_destroy (GTK_WINDOW (dialog));
}
#endif

void
vc_ask (GtkWindow          *parent,
        const char         *heading,
        const char         *detail,
        const char * const *buttons,
        int                 cancel_button,
        int                 default_button,
        VcAnswerFunc        callback,
        gpointer            user_data)
{
  Question *question = g_new0 (Question, 1);

  question->cancel_button = cancel_button;
  question->callback = callback;
  question->user_data = user_data;

#if GTK_CHECK_VERSION (4, 10, 0)
  {
    g_autoptr(GtkAlertDialog) dialog = gtk_alert_dialog_new ("%s", heading);

    gtk_alert_dialog_set_detail (dialog, detail);
    gtk_alert_dialog_set_buttons (dialog, buttons);
    gtk_alert_dialog_set_cancel_button (dialog, cancel_button);
    gtk_alert_dialog_set_default_button (dialog, default_button);
    gtk_alert_dialog_set_modal (dialog, TRUE);
    gtk_alert_dialog_choose (dialog, parent, NULL, alert_done, question);
  }
#else
  {
    GtkWidget *dialog = gtk_message_dialog_new (parent,
                                                GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s", heading);

    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", detail);
    for (int i = 0; buttons[i] != NULL; i++)
      gtk_dialog_add_button (GTK_DIALOG (dialog), buttons[i], i);
    gtk_dialog_set_default_response (GTK_DIALOG (dialog), default_button);
    g_signal_connect (dialog, "response", G_CALLBACK (message_response), question);
    gtk_window_present (GTK_WINDOW (dialog));
  }
#endif
}

/* The focus on a list's item, scrolled into view. GTK 4.12 has the call; before it, the list
 * is scrolled by its action and the row is found among the list's children: the child of each
 * row carries its position (plus one) as "vc-list-position", set when the row is bound. A row
 * not made yet (the list not laid out) takes no focus: returns whether one did. */
gboolean
vc_list_view_focus_item (GtkListView *list,
                         guint        position)
{
#if GTK_CHECK_VERSION (4, 12, 0)
  gtk_list_view_scroll_to (list, position, GTK_LIST_SCROLL_FOCUS, NULL);
  return TRUE;
#else
  gtk_widget_activate_action (GTK_WIDGET (list), "list.scroll-to-item", "u", position);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *child = gtk_widget_get_first_child (row);

      if (child != NULL &&
          GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), "vc-list-position")) == position + 1)
        return gtk_widget_grab_focus (row);
    }
  return FALSE;
#endif
}

/* GTK 4.8 asks the display where the pointer is (three round trips to the X server) each time
 * a shown widget gets a tooltip, even a widget that is not in a window yet: some forty times
 * while the window is built. A widget not on screen takes its tooltip hidden, which asks
 * nothing; on screen, the tooltip is set as GTK does it. */
void
vc_widget_set_tooltip_text (GtkWidget  *widget,
                            const char *text)
{
  /* (hiding the focus widget would move the focus) */
  if (gtk_widget_get_visible (widget) && !gtk_widget_get_mapped (widget) && !gtk_widget_is_focus (widget))
    {
      gtk_widget_set_visible (widget, FALSE);
      gtk_widget_set_tooltip_text (widget, text);
      gtk_widget_set_visible (widget, TRUE);
    }
  else
    gtk_widget_set_tooltip_text (widget, text);
}

/**
 * vc_widget_set_template_tooltips:
 * @widget: a widget built from its template
 * @widget_type: the type whose template holds the children
 * @tooltips: (array length=n_tooltips): each bound template child's tooltip, untranslated
 *
 * The tooltips of a template's children, set in code rather than in the .ui (where GtkBuilder
 * would set each one as on screen; see vc_widget_set_tooltip_text()).
 */
void
vc_widget_set_template_tooltips (GtkWidget       *widget,
                                 GType            widget_type,
                                 const VcTooltip *tooltips,
                                 guint            n_tooltips)
{
  for (guint i = 0; i < n_tooltips; i++)
    {
      GObject *child = gtk_widget_get_template_child (widget, widget_type, tooltips[i].child);

      g_return_if_fail (GTK_IS_WIDGET (child));
      vc_widget_set_tooltip_text (GTK_WIDGET (child), _(tooltips[i].text));
    }
}

/* ---- the shortcuts window --------------------------------------------------------------------- */

#if GTK_CHECK_VERSION (4, 18, 0)
static void
show_shortcuts (GtkWindow *window)
{
  gtk_window_present (GTK_WINDOW (vc_shortcuts_window_new (window)));
}
#endif

/* Both read the same description, vc-shortcuts.ui (gtk/help-overlay.ui in the sources): GTK 4.8
 * builds it as the GtkShortcutsWindow it is, newer GTK lists it in a plain window. */
void
vc_application_window_add_shortcuts (GtkApplicationWindow *window)
{
#if GTK_CHECK_VERSION (4, 18, 0)
  g_autoptr(GSimpleAction) action = NULL;

  if (g_action_map_lookup_action (G_ACTION_MAP (window), "show-help-overlay") != NULL)
    return;
  action = g_simple_action_new ("show-help-overlay", NULL);
  g_signal_connect_object (action, "activate", G_CALLBACK (show_shortcuts), window, G_CONNECT_SWAPPED);
  g_action_map_add_action (G_ACTION_MAP (window), G_ACTION (action));
#else
  g_autoptr(GtkBuilder) builder = NULL;

  if (gtk_application_window_get_help_overlay (window) != NULL)
    return;
  builder = gtk_builder_new_from_resource ("/io/github/vramcalc/VramCalculator/vc-shortcuts.ui");
  gtk_application_window_set_help_overlay (window, GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
#endif
}

/* ---- the dark preference ---------------------------------------------------------------------- */

/* GTK 4.20 reads the Settings portal's color-scheme itself (GtkSettings:gtk-interface-color-scheme,
 * docs.gtk.org/gtk4/property.Settings.gtk-interface-color-scheme.html). Before it, GTK 4 leaves
 * the dark preference to libadwaita, which this app does not use: the portal is read here and
 * gtk-application-prefer-dark-theme set from it. Nothing waits for the answer: start-up goes on
 * and the window turns dark when it comes. (xdg-desktop-portal's org.freedesktop.portal.Settings:
 * ReadOne since version 2, Read before; color-scheme is 0 no preference, 1 dark, 2 light.) */
#if !GTK_CHECK_VERSION (4, 20, 0)
#define PORTAL_BUS_NAME "org.freedesktop.portal.Desktop"
#define PORTAL_PATH "/org/freedesktop/portal/desktop"
#define PORTAL_SETTINGS "org.freedesktop.portal.Settings"
#define APPEARANCE "org.freedesktop.appearance"

static void
apply_color_scheme (GVariant *value)
{
  g_autoptr(GVariant) inner = g_variant_ref (value);

  /* ReadOne gives the value in one variant, Read in two */
  while (g_variant_is_of_type (inner, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *next = g_variant_get_variant (inner);

      g_variant_unref (inner);
      inner = next;
    }
  if (!g_variant_is_of_type (inner, G_VARIANT_TYPE_UINT32))
    return;
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme",
                g_variant_get_uint32 (inner) == 1, NULL);
}

static void
setting_changed (GDBusConnection *connection,
                 const char      *sender,
                 const char      *path,
                 const char      *interface,
                 const char      *signal,
                 GVariant        *parameters,
                 gpointer         data)
{
  const char *name_space, *key;
  g_autoptr(GVariant) value = NULL;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(ssv)")))
    return;
  g_variant_get (parameters, "(&s&sv)", &name_space, &key, &value);
  if (g_str_equal (name_space, APPEARANCE) && g_str_equal (key, "color-scheme"))
    apply_color_scheme (value);
}

static void
color_scheme_read (GObject      *source,
                   GAsyncResult *result,
                   gpointer      data)
{
  GDBusConnection *connection = G_DBUS_CONNECTION (source);
  gboolean read_one = GPOINTER_TO_INT (data);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (connection, result, &error);
  g_autoptr(GVariant) value = NULL;

  if (reply == NULL)
    {
      /* a portal older than ReadOne: Read, deprecated since, gives the same */
      if (read_one && g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD))
        g_dbus_connection_call (connection, PORTAL_BUS_NAME, PORTAL_PATH, PORTAL_SETTINGS, "Read",
                                g_variant_new ("(ss)", APPEARANCE, "color-scheme"), G_VARIANT_TYPE ("(v)"),
                                G_DBUS_CALL_FLAGS_NONE, -1, NULL, color_scheme_read, GINT_TO_POINTER (FALSE));
      else
        g_debug ("No dark preference from the portal: %s", error->message);
      return;
    }
  g_variant_get (reply, "(v)", &value);
  apply_color_scheme (value);
}

static void
follow_on_connection (GDBusConnection *connection)
{
  g_dbus_connection_signal_subscribe (connection, PORTAL_BUS_NAME, PORTAL_SETTINGS, "SettingChanged",
                                      PORTAL_PATH, APPEARANCE, G_DBUS_SIGNAL_FLAGS_NONE,
                                      setting_changed, NULL, NULL);
  g_dbus_connection_call (connection, PORTAL_BUS_NAME, PORTAL_PATH, PORTAL_SETTINGS, "ReadOne",
                          g_variant_new ("(ss)", APPEARANCE, "color-scheme"), G_VARIANT_TYPE ("(v)"),
                          G_DBUS_CALL_FLAGS_NONE, -1, NULL, color_scheme_read, GINT_TO_POINTER (TRUE));
}

static void
bus_ready (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) connection = g_bus_get_finish (result, &error);

  if (connection == NULL)
    g_debug ("No session bus for the dark preference: %s", error->message);
  else
    follow_on_connection (connection);
}
#endif

void
vc_follow_dark_preference (GDBusConnection *connection)
{
#if !GTK_CHECK_VERSION (4, 20, 0)
  if (connection != NULL)
    follow_on_connection (connection);
  else
    g_bus_get (G_BUS_TYPE_SESSION, NULL, bus_ready, NULL);
#endif
}

/* TRUE where this app reads the preference (vc_follow_dark_preference), FALSE where GTK does */
gboolean
vc_follows_dark_preference (void)
{
  return !GTK_CHECK_VERSION (4, 20, 0);
}
