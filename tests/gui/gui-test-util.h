/* gui-test-util.h: helpers shared by the GUI tests and the benchmark: waiting for the main loop
 * and for frames, finding widgets, rendering a widget to pixels. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void        vc_test_spin_until_idle  (void);
void        vc_test_wait_for_frame   (GtkWidget  *widget);
GtkWidget  *vc_test_find_label       (GtkWidget  *root,
                                      const char *text);
guint8     *vc_test_render           (GtkWidget  *widget,
                                      int        *width,
                                      int        *height,
                                      gsize      *stride);
void        vc_test_pixel            (const guint8 *data,
                                      gsize         stride,
                                      int           x,
                                      int           y,
                                      GdkRGBA      *color);

void        vc_test_scroll_into_view (GtkWidget  *widget);

G_END_DECLS
