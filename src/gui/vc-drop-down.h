/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-drop-down.h: a drop-down list of strings whose list is made the first time it opens. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VC_TYPE_DROP_DOWN (vc_drop_down_get_type ())
G_DECLARE_FINAL_TYPE (VcDropDown, vc_drop_down, VC, DROP_DOWN, GtkWidget)

GtkWidget     *vc_drop_down_new                   (void);
void           vc_drop_down_set_model             (VcDropDown    *self,
                                                   GListModel    *model);
void           vc_drop_down_set_selected          (VcDropDown    *self,
                                                   guint          position);
guint          vc_drop_down_get_selected          (VcDropDown    *self);
gpointer       vc_drop_down_get_selected_item     (VcDropDown    *self);
void           vc_drop_down_set_search_expression (VcDropDown    *self,
                                                   GtkExpression *expression);
GtkExpression *vc_drop_down_get_search_expression (VcDropDown    *self);

G_END_DECLS
