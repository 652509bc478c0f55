/* vc-compat.h: the one place where GTK versions differ. Debian 12 has GTK 4.8; the GNOME
 * runtime has newer API that replaces deprecated calls. Everything else calls these. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void vc_widget_get_color               (GtkWidget           *widget,
                                        GdkRGBA             *color);
void vc_column_view_column_set_id      (GtkColumnViewColumn *column,
                                        const char          *id);
void vc_widget_show_error              (GtkWidget           *parent,
                                        const char          *heading,
                                        const char          *message);

G_END_DECLS
