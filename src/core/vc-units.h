/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-units.h: reading counts and sizes typed by people ("7B", "124M", "1.5T", "7e9", "2.5")
 * and writing sizes for people (locale-aware) and for machines (locale-independent). */
#pragma once

#include <glib.h>

#include "vc-types.h"

G_BEGIN_DECLS

gboolean vc_parse_count      (const char *text,
                              double     *value,
                              GError    **error);
gboolean vc_parse_number     (const char *text,
                              double     *value,
                              GError    **error);
char    *vc_format_size      (double      bytes,
                              VcUnit      unit);
char    *vc_format_count     (double      count);
char    *vc_format_number    (double      value);
char    *vc_localize_gpu_name (const char *name);
char    *vc_format_bytes_machine (double  bytes);
double   vc_unit_divisor     (VcUnit      unit);

G_END_DECLS
