/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-split-view.h: inputs beside results when the window is wide enough, above them when it
 * is narrow; a movable divider in both. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VC_TYPE_SPLIT_VIEW (vc_split_view_get_type ())
G_DECLARE_FINAL_TYPE (VcSplitView, vc_split_view, VC, SPLIT_VIEW, GtkWidget)

GtkWidget     *vc_split_view_new             (void);
void           vc_split_view_set_start_child (VcSplitView *self,
                                              GtkWidget   *child);
GtkWidget     *vc_split_view_get_start_child (VcSplitView *self);
void           vc_split_view_set_end_child   (VcSplitView *self,
                                              GtkWidget   *child);
GtkWidget     *vc_split_view_get_end_child   (VcSplitView *self);
GtkOrientation vc_split_view_get_orientation (VcSplitView *self);

G_END_DECLS
