/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-a11y.h: accessible names for the controls GTK 4.8 leaves unnamed: the button inside a
 * drop-down or a menu button takes the focus, not the widget a label names. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void vc_a11y_labelled_by      (GtkWidget *input,
                               GtkWidget *label);
void vc_a11y_label_mnemonics  (GtkWidget *root);
void vc_a11y_named_by_own_label (GtkWidget *button);
void vc_a11y_name             (GtkWidget  *widget,
                               const char *name);

G_END_DECLS
