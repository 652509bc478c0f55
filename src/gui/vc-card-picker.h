/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-card-picker.h: a check box for each GPU, the catalog's and the user's own; the ones ticked
 * are the estimate's "chart-gpus", whose capacity the memory chart draws. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_CARD_PICKER (vc_card_picker_get_type ())
G_DECLARE_FINAL_TYPE (VcCardPicker, vc_card_picker, VC, CARD_PICKER, GtkWidget)

void        vc_card_picker_set_estimate (VcCardPicker *self,
                                         VcEstimate   *estimate);
void        vc_card_picker_populate     (VcCardPicker *self);

G_END_DECLS
