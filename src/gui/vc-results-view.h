/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-results-view.h: everything the estimate model computes for the visible tab: the total, the
 * scenario table, the breakdown (column view and stacked bar) and the GPU comparison. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_RESULTS_VIEW (vc_results_view_get_type ())
G_DECLARE_FINAL_TYPE (VcResultsView, vc_results_view, VC, RESULTS_VIEW, GtkWidget)

void           vc_results_view_set_estimate      (VcResultsView *self,
                                                  VcEstimate    *estimate);
void           vc_results_view_set_unit          (VcResultsView *self,
                                                  VcUnit         unit);
void           vc_results_view_set_command_model (VcResultsView *self,
                                                  const char    *spec);

G_END_DECLS
