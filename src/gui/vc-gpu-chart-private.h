/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gpu-chart-private.h: what the chart computes for each row, for vc-gpu-chart.c and the
 * tests (which check the drawn bars and the accessible text against it). */
#pragma once

#include "vc-gpu-chart.h"

G_BEGIN_DECLS

typedef enum
{
  VC_GPU_FIT_ONE,              /* one GPU holds it */
  VC_GPU_FIT_SEVERAL,          /* split over several */
  VC_GPU_FIT_NONE,             /* no number of them is enough */
} VcGpuFitKind;

VcGpuFitKind vc_gpu_chart_get_fit_kind (VcGpuChart      *self,
                                        guint            gpu_index);
gboolean     vc_gpu_chart_get_bar      (VcGpuChart      *self,
                                        guint            gpu_index,
                                        graphene_rect_t *filled,
                                        GdkRGBA         *color);
char        *vc_gpu_chart_describe     (VcGpuChart      *self,
                                        guint            gpu_index);
char        *vc_gpu_chart_describe_speed (VcGpuChart    *self,
                                          guint          gpu_index);
char        *vc_gpu_chart_describe_fit (VcGpuChart      *self,
                                        guint            gpu_index);
/* the accessible description, as update() sets it */
char        *vc_gpu_chart_dup_description (VcGpuChart   *self);
char        *vc_gpu_chart_get_pool_line (VcGpuChart     *self,
                                         guint           gpu_index,
                                         graphene_rect_t *where);

G_END_DECLS
