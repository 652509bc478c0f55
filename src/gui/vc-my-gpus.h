/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-my-gpus.h: "My GPUs", the cards of this machine and its RAM (the estimate's "gpu-set" and
 * "host-ram" inputs), and the engine's plan for them, card by card. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_MY_GPUS (vc_my_gpus_get_type ())
G_DECLARE_FINAL_TYPE (VcMyGpus, vc_my_gpus, VC, MY_GPUS, GtkWidget)

void      vc_my_gpus_set_estimate  (VcMyGpus    *self,
                                    VcEstimate  *estimate);
void      vc_my_gpus_set_unit      (VcMyGpus    *self,
                                    VcUnit       unit);
gboolean  vc_my_gpus_add           (VcMyGpus    *self,
                                    const char  *item,
                                    guint        count,
                                    GError     **error);
gboolean  vc_my_gpus_add_local     (VcMyGpus    *self,
                                    GPtrArray   *gpus,
                                    double       ram_bytes,
                                    GError     **error);
gboolean  vc_my_gpus_detect        (VcMyGpus    *self,
                                    const char  *sysfs_root,
                                    const char  *nvml_library,
                                    const char  *procfs_root,
                                    GError     **error);
guint     vc_my_gpus_get_n_rows    (VcMyGpus    *self);
char     *vc_my_gpus_dup_row_text  (VcMyGpus    *self,
                                    guint        row);
const char *vc_my_gpus_get_status  (VcMyGpus    *self);

G_END_DECLS
