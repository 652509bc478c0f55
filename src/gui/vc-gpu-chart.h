/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gpu-chart.h: one bar per GPU, the catalog's then the user's own: what the selected scenario needs against the
 * GPU's capacity, coloured and labelled by how many of that GPU are needed. */
#pragma once

#include <gtk/gtk.h>

#include "vc-chart.h"

G_BEGIN_DECLS

#define VC_TYPE_GPU_CHART (vc_gpu_chart_get_type ())
G_DECLARE_FINAL_TYPE (VcGpuChart, vc_gpu_chart, VC, GPU_CHART, VcChart)

G_END_DECLS
