/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-page-choices.h: the labels the dropdowns of both tabs show for the core's enums. */
#pragma once

#include "vc-input-bind.h"

G_BEGIN_DECLS

extern const VcChoice vc_precision_choices[];
extern const guint vc_n_precision_choices;
extern const VcChoice vc_training_precision_choices[];
extern const guint vc_n_training_precision_choices;

G_END_DECLS
