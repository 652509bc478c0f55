/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-local-gpus.h: the GPUs and system memory of this computer, read-only and only on request:
 * NVIDIA cards through libnvidia-ml (opened with dlopen when it is installed), AMD cards through
 * /sys/class/drm, system memory from /proc/meminfo. Nothing leaves the machine. In a Flatpak the
 * cards are read only when the sandbox was given device access.
 *
 * Every path is a parameter, so that tests read fake trees; vc_local_gpus_detect_default()
 * uses the real ones.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *name;
  char *vendor;                  /* "NVIDIA" or "AMD" */
  double memory_bytes;           /* the total the driver reports */
  double free_bytes;             /* what it reports free (NVML's free, amdgpu's total less
                                  * mem_info_vram_used); < 0: not reported */
} VcLocalGpu;

void       vc_local_gpu_free           (VcLocalGpu  *gpu);
GPtrArray *vc_local_gpus_detect        (const char  *sysfs_root,
                                        const char  *nvml_library);
GPtrArray *vc_local_gpus_detect_default (void);
double     vc_local_system_memory      (const char  *procfs_root);
gboolean   vc_local_gpus_allowed       (const char  *flatpak_info_path,
                                        GError     **error);
char      *vc_local_gpus_to_custom     (GPtrArray   *gpus);
char      *vc_local_gpus_to_custom_full (GPtrArray  *gpus,
                                         GStrv      *notes);
char      *vc_local_gpus_merge_custom  (const char  *custom,
                                        GPtrArray   *gpus,
                                        GStrv       *notes);
char      *vc_local_gpus_to_set        (GPtrArray   *gpus);

G_END_DECLS
