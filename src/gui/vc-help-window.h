/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-help-window.h: the offline help: what each method does, each component with its formula,
 * how GPU counts are made and where the numbers come from. Opened by F1 and the main menu. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VC_TYPE_HELP_WINDOW (vc_help_window_get_type ())
G_DECLARE_FINAL_TYPE (VcHelpWindow, vc_help_window, VC, HELP_WINDOW, GtkWindow)

GtkWidget *vc_help_window_new (GtkWindow *parent);

G_END_DECLS
