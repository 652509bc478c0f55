/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-allocator.h: PyTorch's CUDA caching allocator, replayed on a list of allocations.
 *
 * Training frameworks report what the allocator *reserves* (max_memory_reserved, what nvidia-smi
 * and an out-of-memory error see) beside what tensors hold (max_memory_allocated). The gap comes
 * from the allocator's own rules (c10/cuda/CUDACachingAllocator.cpp): every request rounded to
 * 512 bytes; requests up to 1 MiB packed in 2 MiB segments of a small pool; requests up to
 * 10 MiB carved out of 20 MiB segments; larger ones given a segment of their size rounded up to
 * 2 MiB; best-fit reuse of freed blocks, split only when enough remains; freed memory kept, never
 * returned. With expandable_segments one segment per pool grows by 2 MiB (small) or 20 MiB
 * (large) pages instead. FORMULAS.md ("Reserved and allocated") gives the sources.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define VC_ALLOCATOR_MIN_BLOCK     512.0
#define VC_ALLOCATOR_SMALL_SIZE    1048576.0
#define VC_ALLOCATOR_SMALL_BUFFER  2097152.0
#define VC_ALLOCATOR_MIN_LARGE     10485760.0
#define VC_ALLOCATOR_LARGE_BUFFER  20971520.0
#define VC_ALLOCATOR_ROUND_LARGE   2097152.0

typedef struct _VcAllocator VcAllocator;

double       vc_allocator_round_size      (double bytes);
double       vc_allocator_segment_size    (double rounded);

VcAllocator *vc_allocator_new             (gboolean     expandable_segments);
void         vc_allocator_free            (VcAllocator *self);
guint        vc_allocator_malloc          (VcAllocator *self,
                                           double       bytes);
void         vc_allocator_release         (VcAllocator *self,
                                           guint        handle);
double       vc_allocator_allocated       (const VcAllocator *self);
double       vc_allocator_reserved        (const VcAllocator *self);
double       vc_allocator_peak_allocated  (const VcAllocator *self);
double       vc_allocator_peak_requested  (const VcAllocator *self);
double       vc_allocator_peak_reserved   (const VcAllocator *self);
guint        vc_allocator_n_segments      (const VcAllocator *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VcAllocator, vc_allocator_free)

G_END_DECLS
