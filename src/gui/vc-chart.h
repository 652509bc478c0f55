/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-chart.h: the base of the widgets that draw the estimate with Cairo (the breakdown bar, the
 * GPU chart and the memory-versus-context chart): the "estimate" and "unit" properties, an update when the
 * figures or the unit change, and the colours they share. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_CHART (vc_chart_get_type ())
G_DECLARE_DERIVABLE_TYPE (VcChart, vc_chart, VC, CHART, GtkWidget)

struct _VcChartClass
{
  GtkWidgetClass parent_class;

  /* the estimate was set or recomputed, or the unit changed: redo what depends on it */
  void (*update) (VcChart *self);

  gpointer padding[4];
};

VcEstimate *vc_chart_get_estimate (VcChart     *self);
void        vc_chart_set_estimate (VcChart     *self,
                                   VcEstimate  *estimate);
VcUnit      vc_chart_get_unit     (VcChart     *self);
void        vc_chart_set_unit     (VcChart     *self,
                                   VcUnit       unit);

void        vc_component_color    (VcComponent  component,
                                   gboolean     dark,
                                   GdkRGBA     *color);
gboolean    vc_widget_is_dark     (GtkWidget   *widget);

G_END_DECLS
