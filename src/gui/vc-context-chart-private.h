/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-context-chart-private.h: what the chart samples and draws, and its read-out, for
 * vc-context-chart.c and the tests (which check the drawing and the accessible text against
 * it). */
#pragma once

#include "vc-context-chart.h"

G_BEGIN_DECLS

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
