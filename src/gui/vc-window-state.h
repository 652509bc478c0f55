/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-window-state.h: the settings of one window that are not inputs of the estimate (the unit
 * sizes are shown in, the note and files of the model last imported, whether an import may be
 * approximate), held once for the views of both tabs to bind to. */
#pragma once

#include <glib-object.h>

#include "vc-estimate.h"
#include "vc-model-file.h"
#include "vc-types.h"

G_BEGIN_DECLS

#define VC_TYPE_WINDOW_STATE (vc_window_state_get_type ())
G_DECLARE_FINAL_TYPE (VcWindowState, vc_window_state, VC, WINDOW_STATE, GObject)

VcWindowState *vc_window_state_new             (VcEstimate    *estimate);
VcUnit         vc_window_state_get_unit        (VcWindowState *self);
void           vc_window_state_set_unit        (VcWindowState *self,
                                                VcUnit         unit);
gboolean       vc_window_state_get_approximate (VcWindowState *self);
void           vc_window_state_set_approximate (VcWindowState *self,
                                                gboolean       approximate);
const char    *vc_window_state_get_note        (VcWindowState *self);
gboolean       vc_window_state_get_note_warning (VcWindowState *self);
void           vc_window_state_set_note        (VcWindowState *self,
                                                const char    *text,
                                                gboolean       warning);
VcModelFile   *vc_window_state_get_model_file  (VcWindowState *self);
void           vc_window_state_set_model_file  (VcWindowState *self,
                                                VcModelFile   *model_file);

G_END_DECLS
