/* vc-gpu-chart.h: one bar per GPU, the catalog's then the user's own: what the selected scenario needs against the
 * GPU's capacity, coloured and labelled by how many of that GPU are needed. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_GPU_CHART (vc_gpu_chart_get_type ())
G_DECLARE_FINAL_TYPE (VcGpuChart, vc_gpu_chart, VC, GPU_CHART, GtkWidget)

typedef enum
{
  VC_GPU_FIT_ONE,              /* one GPU holds it */
  VC_GPU_FIT_SEVERAL,          /* split over several */
  VC_GPU_FIT_NONE,             /* no number of them is enough */
} VcGpuFitKind;

VcEstimate  *vc_gpu_chart_get_estimate (VcGpuChart      *self);
void         vc_gpu_chart_set_estimate (VcGpuChart      *self,
                                        VcEstimate      *estimate);
VcGpuFitKind vc_gpu_chart_get_fit_kind (VcGpuChart      *self,
                                        guint            gpu_index);
gboolean     vc_gpu_chart_get_bar      (VcGpuChart      *self,
                                        guint            gpu_index,
                                        graphene_rect_t *filled,
                                        GdkRGBA         *color);
char        *vc_gpu_chart_describe     (VcGpuChart      *self,
                                        guint            gpu_index);
char        *vc_gpu_chart_describe_fit (VcGpuChart      *self,
                                        guint            gpu_index);

G_END_DECLS
