/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-model-section.h: the model inputs shared by both tabs (preset, method, parameter counts,
 * architecture fields), bound to the estimate model. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"
#include "vc-model-file.h"
#include "vc-window-state.h"

G_BEGIN_DECLS

#define VC_TYPE_MODEL_SECTION (vc_model_section_get_type ())
G_DECLARE_FINAL_TYPE (VcModelSection, vc_model_section, VC, MODEL_SECTION, GtkWidget)

VcEstimate *vc_model_section_get_estimate (VcModelSection *self);
void        vc_model_section_set_estimate (VcModelSection *self,
                                           VcEstimate     *estimate);
GtkWidget  *vc_model_section_get_search   (VcModelSection *self);
void        vc_model_section_align_labels (VcModelSection *self,
                                           GtkSizeGroup   *group);
void        vc_model_section_set_state    (VcModelSection *self,
                                           VcWindowState  *state);

G_END_DECLS
