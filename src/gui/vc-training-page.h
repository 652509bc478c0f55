/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-training-page.h: the Training tab's inputs. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_TRAINING_PAGE (vc_training_page_get_type ())
G_DECLARE_FINAL_TYPE (VcTrainingPage, vc_training_page, VC, TRAINING_PAGE, GtkWidget)

void       vc_training_page_set_estimate (VcTrainingPage *self,
                                           VcEstimate      *estimate);
GtkWidget *vc_training_page_get_model_section (VcTrainingPage *self);

G_END_DECLS
