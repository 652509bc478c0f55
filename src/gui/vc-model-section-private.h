/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-model-section-private.h: what only the tests use of VcModelSection: the input of a
 * property, and the note, "import approximately" and source text as shown. */
#pragma once

#include "vc-model-section.h"

G_BEGIN_DECLS

GtkWidget  *vc_model_section_get_input       (VcModelSection *self,
                                              const char     *property);
const char *vc_model_section_get_note        (VcModelSection *self);
gboolean    vc_model_section_get_approximate (VcModelSection *self);
const char *vc_model_section_get_source_text (VcModelSection *self);

G_END_DECLS
