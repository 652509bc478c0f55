/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gpu-editor.h: the user's own GPUs beside the catalog: add a card by name and memory size,
 * remove the ones added. Writes the estimate's "custom-gpus" input. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_GPU_EDITOR (vc_gpu_editor_get_type ())
G_DECLARE_FINAL_TYPE (VcGpuEditor, vc_gpu_editor, VC, GPU_EDITOR, GtkWidget)

void        vc_gpu_editor_set_estimate (VcGpuEditor  *self,
                                        VcEstimate   *estimate);
void        vc_gpu_editor_set_unit     (VcGpuEditor  *self,
                                        VcUnit        unit);
gboolean    vc_gpu_editor_add          (VcGpuEditor  *self,
                                        const char   *name,
                                        double        size_gb,
                                        GError      **error);
gboolean    vc_gpu_editor_add_local    (VcGpuEditor  *self,
                                        GPtrArray    *gpus,
                                        GError      **error);
gboolean    vc_gpu_editor_remove       (VcGpuEditor  *self,
                                        guint         position,
                                        GError      **error);

G_END_DECLS
