/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-card-picker-private.h: what only the tests use of VcCardPicker: the check box of a GPU. */
#pragma once

#include "vc-card-picker.h"

G_BEGIN_DECLS

GtkWidget *vc_card_picker_get_check (VcCardPicker *self,
                                     guint         gpu_index);

G_END_DECLS
