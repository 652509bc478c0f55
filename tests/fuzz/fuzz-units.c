/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-units: number and size parsing. What parses is finite and formats as UTF-8. */
#include "config.h"

#include <math.h>

#include "vc-units.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  double v;

  if (vc_parse_count (text, &v, NULL))
    {
      g_autofree char *count = vc_format_count (v);
      g_autofree char *gb = vc_format_size (v, VC_UNIT_GB);
      g_autofree char *gib = vc_format_size (v, VC_UNIT_GIB);
      g_autofree char *bytes = vc_format_bytes_machine (v);

      g_assert_true (isfinite (v));
      g_assert_true (g_utf8_validate (count, -1, NULL) && g_utf8_validate (gb, -1, NULL) &&
                     g_utf8_validate (gib, -1, NULL) && g_utf8_validate (bytes, -1, NULL));
    }
  if (vc_parse_number (text, &v, NULL))
    g_assert_true (isfinite (v));
  return 0;
}
