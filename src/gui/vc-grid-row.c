/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-grid-row.c: an input that does not apply is hidden with its label rather than greyed: a
 * greyed switch that is on looks off, and a greyed choice shows a value that means nothing
 * (fp32 state for an 8-bit optimizer). */
#define G_LOG_DOMAIN "vc-grid-row"

#include "config.h"

#include "vc-grid-row.h"

/**
 * vc_grid_row_set_visible:
 * @input: an input in a GtkGrid whose first column holds the labels
 * @visible: whether the row shows
 *
 * Shows or hides @input and every other widget on its row of the grid.
 */
void
vc_grid_row_set_visible (GtkWidget *input,
                         gboolean   visible)
{
  GtkWidget *grid;
  int row;

  g_return_if_fail (GTK_IS_WIDGET (input));

  grid = gtk_widget_get_parent (input);
  gtk_widget_set_visible (input, visible);
  if (!GTK_IS_GRID (grid))
    return;
  gtk_grid_query_child (GTK_GRID (grid), input, NULL, &row, NULL, NULL);
  for (GtkWidget *child = gtk_widget_get_first_child (grid); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_row;

      gtk_grid_query_child (GTK_GRID (grid), child, NULL, &child_row, NULL, NULL);
      if (child_row == row)
        gtk_widget_set_visible (child, visible);
    }
}
