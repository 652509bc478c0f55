/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-units.c: parsing and formatting of counts and sizes. */
#define G_LOG_DOMAIN "vc-units"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <math.h>

#include "vc-error.h"
#include "vc-units.h"

gboolean
vc_parse_number (const char *text,
                 double     *value,
                 GError    **error)
{
  char *end = NULL;
  double v;

  if (text == NULL || *text == '\0')
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE, _("a number is required"));
      return FALSE;
    }
  v = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (v))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("“%s” is not a number"), text);
      return FALSE;
    }
  *value = v;
  return TRUE;
}

/* Counts are shown with the locale's decimal separator ("46,7B" in French) and typed back the
 * same way: accept that separator too, beside '.', so what the window shows parses again. */
static void
locale_decimal_to_ascii (char *text)
{
  const char *point = localeconv ()->decimal_point;
  char *p;

  if (point == NULL || point[0] == '\0' || point[1] != '\0' || point[0] == '.')
    return;
  p = strchr (text, point[0]);
  if (p != NULL && strchr (p + 1, point[0]) == NULL)
    *p = '.';
}

gboolean
vc_parse_count (const char *text,
                double     *value,
                GError    **error)
{
  g_autofree char *copy = NULL;
  double multiplier = 1;
  gsize len;

  if (text == NULL || *text == '\0')
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE, _("a number is required"));
      return FALSE;
    }
  copy = g_strstrip (g_strdup (text));
  locale_decimal_to_ascii (copy);
  len = strlen (copy);
  if (len > 0)
    {
      switch (copy[len - 1])
        {
        case 'k': case 'K': multiplier = 1e3; break;
        case 'm': case 'M': multiplier = 1e6; break;
        case 'b': case 'B': case 'g': case 'G': multiplier = 1e9; break;
        case 't': case 'T': multiplier = 1e12; break;
        default: break;
        }
      if (multiplier != 1)
        copy[len - 1] = '\0';
    }
  if (!vc_parse_number (copy, value, NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("“%s” is not a count; accepted: a number with an optional K, M, B or T suffix (7B, 124M, 1.5T, 7e9)"),
                   text);
      return FALSE;
    }
  *value = *value * multiplier;
  return TRUE;
}

double
vc_unit_divisor (VcUnit unit)
{
  return unit == VC_UNIT_GIB ? 1073741824.0 : 1e9;
}

/* One decimal, the locale's decimal separator, the locale's unit ("GB"/"Go", "GiB"/"Gio"):
 * GLib's own translations of g_format_size provide the unit names. Sizes below 1 GB keep
 * GLib's smaller units; this keeps 0.14 GB readable as "140.0 MB". */
char *
vc_format_size (double bytes,
                VcUnit unit)
{
  GFormatSizeFlags flags = unit == VC_UNIT_GIB ? G_FORMAT_SIZE_IEC_UNITS : G_FORMAT_SIZE_DEFAULT;

  if (!isfinite (bytes) || bytes < 0)
    bytes = 0;
  if (bytes >= 1.8e19)
    {
      /* beyond guint64: print in the largest unit ourselves */
      double v = bytes / (unit == VC_UNIT_GIB ? 1125899906842624.0 : 1e15);
      return g_strdup_printf (unit == VC_UNIT_GIB ? _("%.0f PiB") : _("%.0f PB"), v);
    }
  return g_format_size_full ((guint64) bytes, flags);
}

char *
vc_format_count (double count)
{
  /* Translators: parameter counts in trillions, billions and millions. Keep the suffixes T, B
   * and M as they are and the number right before them: the window reads what it shows back
   * with the same suffixes. */
  if (count >= 1e12)
    return g_strdup_printf (_("%.2fT"), count / 1e12);
  if (count >= 1e9)
    return g_strdup_printf (_("%.2fB"), count / 1e9);
  if (count >= 1e6)
    return g_strdup_printf (_("%.1fM"), count / 1e6);
  return g_strdup_printf ("%.0f", count);
}

char *
vc_format_bytes_machine (double bytes)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (bytes) || bytes < 0)
    bytes = 0;
  g_ascii_formatd (buf, sizeof buf, "%.0f", round (bytes));
  return g_strdup (buf);
}
