/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-model-search.h: the model section's search of the catalog. A search field and, under it,
 * the models matching what is typed (any part of a name, family or size, "moe", "vision"),
 * with their parameters, activated parameters, context and release date; with nothing typed
 * and no model chosen, the most-run models; then the models on this computer that match, as
 * their own group. Picking a catalog model sets the estimate's preset; picking one of this
 * computer's emits "local-model-chosen" with its file, which the window imports. */
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
/* the id of the catalog model a row of the list shows; NULL for any other row */
const char *vc_model_search_row_id       (GtkListBoxRow *row);
/* the file of the model on this computer a row shows; NULL for any other row */
GFile      *vc_model_search_row_file     (GtkListBoxRow *row);
/* whether a row is the one that lists every match of a group cut short */
gboolean    vc_model_search_row_shows_all (GtkListBoxRow *row);

G_END_DECLS
