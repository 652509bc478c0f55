/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-grid-row.h: showing or hiding an input of a label-and-input grid with its label. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void vc_grid_row_set_visible (GtkWidget *input,
                              gboolean   visible);

G_END_DECLS
