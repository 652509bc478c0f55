/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-hub-dialog-private.h: the dialog driven as a user would, for the tests: a fetch, what
 * it says, the lists it offers and a click on one of their rows. */
#pragma once

#include "vc-hub-dialog.h"

G_BEGIN_DECLS

/* fetches name (org/name[@revision][:FILE] or an address), as the Fetch button does */
void         vc_hub_dialog_fetch            (VcHubDialog  *self,
                                             const char   *name);
gboolean     vc_hub_dialog_is_busy          (VcHubDialog  *self);
/* what the dialog says: progress, an error, what was opened */
const char  *vc_hub_dialog_get_status       (VcHubDialog  *self);
/* the quantizations offered (GtkStringObject), in the order of the list */
GListModel  *vc_hub_dialog_get_quantizations (VcHubDialog *self);
GListModel  *vc_hub_dialog_get_local_models (VcHubDialog  *self);
/* as a click on the row at position */
void         vc_hub_dialog_choose_quantization (VcHubDialog *self,
                                                guint        position);
void         vc_hub_dialog_choose_local     (VcHubDialog  *self,
                                             guint         position);

G_END_DECLS
