/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-preset-search.h: the search of the preset drop-down: any part of a model's name, id or
 * size matches, Enter picks the first match, one Escape closes the list. */
#pragma once

#include "vc-drop-down.h"

G_BEGIN_DECLS

void vc_preset_search_setup (VcDropDown *dropdown);

G_END_DECLS
