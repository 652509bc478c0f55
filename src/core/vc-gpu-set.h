/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gpu-set.h: "My GPUs", the cards a person actually has, in order, and the system memory
 * beside them: what vc-plan.c places a model on.
 *
 * Its text form, on the command line (--gpus), in profiles and in settings:
 *
 *   LIST  := ITEM (',' ITEM)*
 *   ITEM  := (ID | NAME '=' SIZE) ['/' FREE] [':' COUNT]
 *
 * ID is a catalog id (vramcalc --list-gpus), NAME=SIZE a card of one's own as --gpu takes it,
 * FREE the memory the card has free (as detection reads it; unknown when left out) and COUNT
 * how many of the same card follow one another: "rtx-3090,rtx-3060-12gb", "h100-80gb:8",
 * "My card=23028MiB/20000MiB". SIZE and FREE are in GB, or with a B, GB, GiB or MiB unit.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A set may hold this many cards: a node has at most a few dozen, and each is a row of the
 * plan and of every export. */
#define VC_GPU_SET_MAX 256

typedef struct
{
  char *id;                 /* catalog id; NULL for a card of one's own */
  char *name;               /* the catalog's name, or the card's own */
  double memory_bytes;      /* what the card has: the catalog's capacity, or the size given */
  double free_bytes;        /* what it has free, as detected; < 0: unknown */
} VcGpuSetDevice;

typedef struct
{
  GArray *devices;          /* VcGpuSetDevice, in the order given */
} VcGpuSet;

VcGpuSet *vc_gpu_set_new        (void);
void      vc_gpu_set_free       (VcGpuSet        *set);
VcGpuSet *vc_gpu_set_parse      (const char      *text,
                                 GError         **error);
char     *vc_gpu_set_format     (const VcGpuSet  *set);
void      vc_gpu_set_add        (VcGpuSet        *set,
                                 const char      *id,
                                 const char      *name,
                                 double           memory_bytes,
                                 double           free_bytes);
guint     vc_gpu_set_get_n      (const VcGpuSet  *set);
const VcGpuSetDevice *vc_gpu_set_get (const VcGpuSet *set,
                                      guint           i);
/* what the card offers: its free memory when known, else all of it */
double    vc_gpu_set_available  (const VcGpuSet  *set,
                                 guint            i);
/* whether every card is the same (the same catalog id, or the same size for one's own) */
gboolean  vc_gpu_set_is_uniform (const VcGpuSet  *set);
/* a size as SIZE and FREE take it ("64GB", "64", "59.6GiB", "65536MiB", "1000B") */
gboolean  vc_gpu_set_parse_size (const char      *text,
                                 double          *bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VcGpuSet, vc_gpu_set_free)

G_END_DECLS
