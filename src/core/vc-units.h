/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-units.h: reading counts and sizes typed by people ("7B", "124M", "1.5T", "7e9", "2.5")
 * and writing sizes for people (locale-aware) and for machines (locale-independent).
 *
 * Count suffixes are powers of ten, for parameters and token counts alike: k or K is 1,000
 * (so a sequence of 128k is 128,000 tokens; type 131072 for 2^17), M 10^6, B or G 10^9,
 * T 10^12. Numbers are plain decimals: no hexadecimal, no "inf" or "nan", nothing beyond
 * what a double holds (1e308T is refused, not infinite). */
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
const char *vc_unit_to_string (VcUnit     unit);
gboolean vc_unit_from_string (const char *text,
                              VcUnit     *unit,
                              GError    **error);

/* the input a display unit follows where inputs are listed (profiles, CSV) */
#define VC_UNIT_FOLLOWS_INPUT "chart-gpus"
void     vc_plain_spaces_unless_utf8 (GString *text);

G_END_DECLS
