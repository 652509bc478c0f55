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

G_END_DECLS
