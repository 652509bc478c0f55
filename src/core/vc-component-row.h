/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-component-row.h: one row of the breakdown of the selected scenario (weights, KV cache, …),
 * an item of the estimate's breakdown GListModel. */
#pragma once

#include <glib-object.h>

#include "vc-types.h"

G_BEGIN_DECLS

#define VC_TYPE_COMPONENT_ROW (vc_component_row_get_type ())
G_DECLARE_FINAL_TYPE (VcComponentRow, vc_component_row, VC, COMPONENT_ROW, GObject)

VcComponentRow *vc_component_row_new         (VcComponent     component);
VcComponent     vc_component_row_get_component (VcComponentRow *self);
const char     *vc_component_row_get_id      (VcComponentRow *self);
const char     *vc_component_row_get_name    (VcComponentRow *self);
double          vc_component_row_get_bytes   (VcComponentRow *self);
double          vc_component_row_get_share   (VcComponentRow *self);
void            vc_component_row_update      (VcComponentRow *self,
                                              double          bytes,
                                              double          share);

const char     *vc_component_id              (VcComponent     component);
const char     *vc_component_name            (VcComponent     component);

G_END_DECLS
