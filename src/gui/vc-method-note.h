/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-method-note.h: the note under the method naming the inputs set but not used by the
 * estimate by parameter count, shared by the Inference and Training tabs. */
#pragma once

#include <gtk/gtk.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

void vc_method_note_update (GtkLabel          *note,
                            VcEstimate        *estimate,
                            GtkWidget         *page,
                            GType              page_type,
                            const char *const *properties,
                            guint              n_properties);

G_END_DECLS
