/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-context-chart.h: memory of one GPU against the sequence length (inference) or the batch
 * size (training), on a log axis, stacked by component, with a line for the capacity of each
 * card the user picked and the current point marked. Hovering, or moving with the arrow keys
 * once focused, reads out the values at a point. */
#pragma once

#include <gtk/gtk.h>

#include "vc-chart.h"

G_BEGIN_DECLS

#define VC_TYPE_CONTEXT_CHART (vc_context_chart_get_type ())
G_DECLARE_FINAL_TYPE (VcContextChart, vc_context_chart, VC, CONTEXT_CHART, VcChart)

VcSolveVariable vc_context_chart_get_variable  (VcContextChart  *self);
void            vc_context_chart_get_range     (VcContextChart  *self,
                                                guint           *first,
                                                guint           *last);
guint           vc_context_chart_get_n_samples (VcContextChart  *self);
guint           vc_context_chart_get_sample    (VcContextChart  *self,
                                                guint            index,
                                                double           bytes[VC_N_COMPONENTS]);
double          vc_context_chart_value_to_x    (VcContextChart  *self,
                                                double           value);
double          vc_context_chart_bytes_to_y    (VcContextChart  *self,
                                                double           bytes);
int             vc_context_chart_get_cursor    (VcContextChart  *self);
void            vc_context_chart_set_cursor    (VcContextChart  *self,
                                                int              index);
char           *vc_context_chart_dup_readout   (VcContextChart  *self);
char           *vc_context_chart_dup_description (VcContextChart *self);
guint           vc_context_chart_get_n_cards   (VcContextChart  *self);
guint           vc_context_chart_get_card      (VcContextChart  *self,
                                                guint            index);

G_END_DECLS
