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
void         vc_hub_dialog_cancel           (VcHubDialog  *self);

G_END_DECLS
