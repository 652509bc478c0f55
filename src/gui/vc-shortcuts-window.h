/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-shortcuts-window.h: the keyboard shortcuts, where GtkShortcutsWindow is deprecated (GTK
 * 4.18 and later; vc-compat.c chooses). It lists what the shortcuts description
 * (gtk/help-overlay.ui, the GtkShortcutsWindow of GTK 4.8) holds, read from it, so that the
 * two forms cannot differ. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VC_TYPE_SHORTCUTS_WINDOW (vc_shortcuts_window_get_type ())
G_DECLARE_FINAL_TYPE (VcShortcutsWindow, vc_shortcuts_window, VC, SHORTCUTS_WINDOW, GtkWindow)

GtkWidget *vc_shortcuts_window_new (GtkWindow *parent);

G_END_DECLS
