/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-help-window.c: the offline help window. Its text is in the .ui, translated like the rest
 * of the interface; Escape and Ctrl+W close it. */
#define G_LOG_DOMAIN "vc-help-window"

#include "config.h"

#include "vc-help-window.h"

struct _VcHelpWindow
{
  GtkWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (VcHelpWindow, vc_help_window, GTK_TYPE_WINDOW)

static void
vc_help_window_class_init (VcHelpWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-help-window.ui");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
vc_help_window_init (VcHelpWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * vc_help_window_new:
 * @parent: (nullable): the window the help is about
 *
 * Returns: (transfer none): a help window, not yet shown
 */
GtkWidget *
vc_help_window_new (GtkWindow *parent)
{
  return g_object_new (VC_TYPE_HELP_WINDOW,
                       "transient-for", parent,
                       "application", parent ? gtk_window_get_application (parent) : NULL,
                       NULL);
}
