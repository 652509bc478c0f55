/* vc-breakdown-bar.h: the selected scenario's components as one stacked bar with a legend. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_BREAKDOWN_BAR (vc_breakdown_bar_get_type ())
G_DECLARE_FINAL_TYPE (VcBreakdownBar, vc_breakdown_bar, VC, BREAKDOWN_BAR, GtkWidget)

VcEstimate *vc_breakdown_bar_get_estimate (VcBreakdownBar *self);
void        vc_breakdown_bar_set_estimate (VcBreakdownBar *self,
                                           VcEstimate     *estimate);
void        vc_component_color            (VcComponent     component,
                                           gboolean        dark,
                                           GdkRGBA        *color);
gboolean    vc_widget_is_dark             (GtkWidget      *widget);

G_END_DECLS
