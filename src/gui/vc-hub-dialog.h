/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-hub-dialog.h: a model by name: from the Hugging Face Hub (its headers fetched when the user
 * asks, with progress and Cancel, a GGUF repository's quantizations to choose from) or from the
 * models on this computer. A model ready to read is handed on with "model-chosen", which the
 * window imports as it imports a file chosen by hand. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VC_TYPE_HUB_DIALOG (vc_hub_dialog_get_type ())
G_DECLARE_FINAL_TYPE (VcHubDialog, vc_hub_dialog, VC, HUB_DIALOG, GtkWindow)

GtkWidget   *vc_hub_dialog_new              (GtkWindow    *parent);
/* fetches name (org/name[@revision][:FILE] or an address), as the Fetch button does */
void         vc_hub_dialog_fetch            (VcHubDialog  *self,
                                             const char   *name);
void         vc_hub_dialog_cancel           (VcHubDialog  *self);
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
