/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-model-search.h: the model section's search of the catalog. A search field and, under it,
 * the models matching what is typed (any part of a name, family or size, "moe", "vision"),
 * with their parameters, activated parameters, context and release date; with nothing typed
 * and no model chosen, the most-run models. Picking one sets the estimate's preset. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_MODEL_SEARCH (vc_model_search_get_type ())
G_DECLARE_FINAL_TYPE (VcModelSearch, vc_model_search, VC, MODEL_SEARCH, GtkWidget)

void        vc_model_search_set_estimate (VcModelSearch *self,
                                          VcEstimate    *estimate);
GtkWidget  *vc_model_search_get_entry    (VcModelSearch *self);
GtkWidget  *vc_model_search_get_list     (VcModelSearch *self);
/* the id of the model a row of the list shows; NULL for a heading */
const char *vc_model_search_row_id       (GtkListBoxRow *row);

G_END_DECLS
