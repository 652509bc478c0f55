/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-inference-page.h: the Inference tab's inputs. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_INFERENCE_PAGE (vc_inference_page_get_type ())
G_DECLARE_FINAL_TYPE (VcInferencePage, vc_inference_page, VC, INFERENCE_PAGE, GtkWidget)

void       vc_inference_page_set_estimate (VcInferencePage *self,
                                           VcEstimate      *estimate);
GtkWidget *vc_inference_page_get_model_section (VcInferencePage *self);

G_END_DECLS
