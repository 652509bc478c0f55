/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-custom-gpus.h: parsing the GPUs a user adds to the catalog. */
#pragma once

#include "vc-catalog.h"

G_BEGIN_DECLS

GArray *vc_custom_gpus_parse (const char  *text,
                              GError     **error);

G_END_DECLS
