/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-compat.h: the one place where GTK versions differ. Debian 12 has GTK 4.8; the GNOME
 * runtime has newer API that replaces deprecated calls. Everything else calls these. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void vc_widget_get_color               (GtkWidget           *widget,
                                        GdkRGBA             *color);
void vc_column_view_column_set_id      (GtkColumnViewColumn *column,
                                        const char          *id);
gboolean vc_list_view_focus_item       (GtkListView         *list,
                                        guint                position);
void vc_widget_set_tooltip_text        (GtkWidget           *widget,
                                        const char          *text);

typedef struct
{
  const char *child;           /* the name of a bound template child */
  const char *text;            /* marked with N_(), translated when set */
} VcTooltip;

void vc_widget_set_template_tooltips   (GtkWidget           *widget,
                                        GType                widget_type,
                                        const VcTooltip     *tooltips,
                                        guint                n_tooltips);

/* File dialogs: GtkFileDialog on GTK 4.10 and later, GtkFileChooserNative before. The callback
 * gets the chosen file, or NULL when the dialog was cancelled or failed. */
typedef enum
{
  VC_FILE_OPEN,
  VC_FILE_SAVE,
  VC_FILE_SELECT_FOLDER,
} VcFileMode;

typedef void (*VcFileChosenFunc) (GFile    *file,
                                  gpointer  user_data);

void vc_choose_file                    (GtkWindow           *parent,
                                        VcFileMode           mode,
                                        const char          *title,
                                        const char          *accept_label,
                                        const char          *initial_name,
                                        GtkFileFilter       *filter,
                                        VcFileChosenFunc     callback,
                                        gpointer             user_data);

/* A question with buttons: GtkAlertDialog on GTK 4.10 and later, GtkMessageDialog before. The
 * callback gets the index of the chosen button, or cancel_button when dismissed. */
typedef void (*VcAnswerFunc)     (int       answer,
                                  gpointer  user_data);

void vc_ask                            (GtkWindow           *parent,
                                        const char          *heading,
                                        const char          *detail,
                                        const char * const  *buttons,
                                        int                  cancel_button,
                                        int                  default_button,
                                        VcAnswerFunc         callback,
                                        gpointer             user_data);

/* The keyboard shortcuts behind win.show-help-overlay (Ctrl+?): GtkShortcutsWindow before GTK
 * 4.18, VcShortcutsWindow from 4.18 on, where GtkShortcutsWindow is deprecated. */
void vc_application_window_add_shortcuts (GtkApplicationWindow *window);

/* The desktop's dark preference (the Settings portal's org.freedesktop.appearance
 * color-scheme) as gtk-application-prefer-dark-theme, read asynchronously and followed when it
 * changes, where GTK does not read it itself (before 4.20). @connection: the session bus, or
 * NULL to connect to it. */
void vc_follow_dark_preference         (GDBusConnection     *connection);
gboolean vc_follows_dark_preference    (void);

G_END_DECLS
