/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-breakdown-bar.h: the selected scenario's components as one stacked bar with a legend. */
#pragma once

#include <gtk/gtk.h>

#include "vc-chart.h"

G_BEGIN_DECLS

#define VC_TYPE_BREAKDOWN_BAR (vc_breakdown_bar_get_type ())
G_DECLARE_FINAL_TYPE (VcBreakdownBar, vc_breakdown_bar, VC, BREAKDOWN_BAR, VcChart)

G_END_DECLS
