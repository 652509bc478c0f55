/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-drop-down-private.h: what only the tests use of VcDropDown: the list it shows. */
#pragma once

#include "vc-drop-down.h"

G_BEGIN_DECLS

GListModel *vc_drop_down_get_model (VcDropDown *self);

G_END_DECLS
