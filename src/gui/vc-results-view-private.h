/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-results-view-private.h: the results view's popovers, made when first opened, for the
 * tests that drive what is inside them. */
#pragma once

#include "vc-card-picker.h"
#include "vc-gpu-editor.h"
#include "vc-results-view.h"

G_BEGIN_DECLS

VcGpuEditor  *_vc_results_view_ensure_gpu_editor  (VcResultsView *self);
VcCardPicker *_vc_results_view_ensure_card_picker (VcResultsView *self);

G_END_DECLS
