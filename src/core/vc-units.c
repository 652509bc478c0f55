/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-units.c: parsing and formatting of counts and sizes. */
#define G_LOG_DOMAIN "vc-units"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <math.h>

#include "vc-enums.h"
#include "vc-error.h"
#include "vc-units.h"

/* A plain decimal number: an optional sign, digits with an optional point, an optional
 * exponent. g_ascii_strtod alone would also take hexadecimal ("0x1p40"), "inf" and "nan". */
static gboolean
is_decimal (const char *p)
{
  gboolean digits = FALSE;

  if (*p == '+' || *p == '-')
    p++;
  while (g_ascii_isdigit (*p))
    {
      p++;
      digits = TRUE;
    }
  if (*p == '.')
    {
      p++;
      while (g_ascii_isdigit (*p))
        {
          p++;
          digits = TRUE;
        }
    }
  if (!digits)
    return FALSE;
  if (*p == 'e' || *p == 'E')
    {
      p++;
      if (*p == '+' || *p == '-')
        p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  return *p == '\0';
}

gboolean
vc_parse_number (const char *text,
                 double     *value,
                 GError    **error)
{
  g_autofree char *copy = NULL;
  char *end = NULL;
  double v;

  if (text == NULL || *text == '\0')
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE, _("a number is required"));
      return FALSE;
    }
  copy = g_strstrip (g_strdup (text));
  if (!is_decimal (copy))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("“%s” is not a number"), text);
      return FALSE;
    }
  v = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !isfinite (v))
    {
      /* beyond what a double holds (1e400): too large, not infinite */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("“%s” is too large a number"), text);
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

/* Spaces around a count, the no-break space before a suffix ("8,19 Md") included. */
static void
strip_spaces (char *text)
{
  gsize len;

  g_strstrip (text);
  while ((len = strlen (text)) >= 2 && (guchar) text[len - 2] == 0xc2 && (guchar) text[len - 1] == 0xa0)
    {
      text[len - 2] = '\0';
      g_strchomp (text);
    }
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
  /* French milliards: "8,19 Md" */
  if (len > 2 && g_ascii_strcasecmp (copy + len - 2, "Md") == 0)
    {
      copy[len - 2] = '\0';
      strip_spaces (copy);
      multiplier = 1e9;
      len = 0;
    }
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
      /* "8.19 B", with a space before the suffix, as French writes it */
      strip_spaces (copy);
    }
  if (!vc_parse_number (copy, value, NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("“%s” is not a count; accepted: a number with an optional K, M, B or T suffix (7B, 124M, 1.5T, 7e9)"),
                   text);
      return FALSE;
    }
  if (!isfinite (*value * multiplier))
    {
      /* 1e308T: finite as typed, infinite once multiplied */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("“%s” is too large a number"), text);
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

/* Superscript digits for the exponent of huge figures: "7.32 × 10¹⁰". */
static void
append_exponent (GString *s,
                 int      exponent)
{
  static const char *const digits[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
  char buf[16];

  g_snprintf (buf, sizeof buf, "%d", exponent);
  for (const char *p = buf; *p; p++)
    g_string_append (s, *p == '-' ? "⁻" : digits[*p - '0']);
}

/* At least three significant digits in the locale's format: 8.30, 18.8, 188; from a million
 * on, the compact form 1.23 × 10⁶, so that a figure stays short whatever the inputs. */
static char *
format_significant (double value)
{
  int exponent;
  double mantissa;
  g_autoptr(GString) s = NULL;

  if (!isfinite (value) || value < 0)
    value = 0;
  if (value < 10 - 0.005)
    return g_strdup_printf ("%.2f", value);
  if (value < 100 - 0.05)
    return g_strdup_printf ("%.1f", value);
  if (value < 1e6 - 0.5)
    return g_strdup_printf ("%.0f", value);
  exponent = (int) floor (log10 (value));
  mantissa = value / pow (10, exponent);
  if (mantissa >= 10 - 0.005)
    {
      mantissa /= 10;
      exponent++;
    }
  s = g_string_new (NULL);
  g_string_append_printf (s, "%.2f × 10", mantissa);
  append_exponent (s, exponent);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/**
 * vc_format_number:
 * @value: a figure such as a number of GPUs
 *
 * Returns: @value with at least three significant digits, whole numbers as they are up to a
 *   million, then in the compact form "4.83 × 10¹⁵"
 */
char *
vc_format_number (double value)
{
  if (isfinite (value) && value >= 0 && value < 1e6 && value == floor (value))
    return g_strdup_printf ("%.0f", value);
  return format_significant (value);
}

/* At least three significant digits ("8.30 GB", "18.8 GB", "1.37 TB", "137 EB"), the locale's
 * decimal separator and unit names ("Go", "Gio" in French), a no-break space between. Past the
 * largest unit, a million yottabytes, the figure takes the compact form ("1.00 × 10⁶ YB").
 * Below 1 kB: bytes. */
char *
vc_format_size (double bytes,
                VcUnit unit)
{
  /* TRANSLATORS: sizes; keep the no-break space before the unit, and translate the unit as
   * GLib does (GB is "Go" in French) */
  static const char *const si[] = {
    N_("%s kB"), N_("%s MB"), N_("%s GB"), N_("%s TB"), N_("%s PB"), N_("%s EB"), N_("%s ZB"), N_("%s YB")
  };
  static const char *const iec[] = {
    N_("%s KiB"), N_("%s MiB"), N_("%s GiB"), N_("%s TiB"), N_("%s PiB"), N_("%s EiB"), N_("%s ZiB"), N_("%s YiB")
  };
  double base = unit == VC_UNIT_GIB ? 1024.0 : 1000.0;
  const char *const *names = unit == VC_UNIT_GIB ? iec : si;
  g_autofree char *number = NULL;
  double value;
  guint i;

  if (!isfinite (bytes) || bytes < 0)
    bytes = 0;
  if (bytes < base)
    return g_format_size_full ((guint64) bytes, unit == VC_UNIT_GIB ? G_FORMAT_SIZE_IEC_UNITS : G_FORMAT_SIZE_DEFAULT);
  value = bytes / base;
  for (i = 0; i < G_N_ELEMENTS (si) - 1 && value >= base - 0.5; i++)
    value /= base;
  /* 999.6 kB would print as 1000 kB: the next unit's 1.00 MB instead */
  number = format_significant (value);
  return g_strdup_printf (_(names[i]), number);
}

char *
vc_format_count (double count)
{
  /* TRANSLATORS: parameter counts in trillions, billions and millions. The window reads back
   * what it shows: keep a suffix it accepts (K, M, B, G or T, or "Md" for French milliards,
   * optionally after a no-break space) and the number right before it. */
  if (!isfinite (count) || count < 0)
    count = 0;
  if (count >= 1e12)
    return g_strdup_printf (C_("trillions", "%.2fT"), count / 1e12);
  if (count >= 1e9)
    return g_strdup_printf (C_("billions", "%.2fB"), count / 1e9);
  if (count >= 1e6)
    return g_strdup_printf (C_("millions", "%.1fM"), count / 1e6);
  return g_strdup_printf ("%.0f", count);
}

/**
 * vc_localize_gpu_name:
 * @name: a card's name from the catalog, such as "RTX 4060 Ti 16 GB"
 *
 * Cards are named after their memory in "GB" (sold in GiB, as the window says); in French
 * the unit reads "Go".
 *
 * Returns: (transfer full): @name with its " GB" in the interface's language
 */
char *
vc_localize_gpu_name (const char *name)
{
  /* TRANSLATORS: the unit in a graphics card's name, "16 GB" ("16 Go" in French) */
  const char *gb = C_("gpu name", "GB");
  g_autoptr(GString) s = NULL;

  /* untranslated, the name stays as the catalog writes it */
  if (g_str_equal (gb, "GB"))
    return g_strdup (name);
  s = g_string_new (NULL);
  for (const char *p = name; *p; p++)
    {
      if (p > name && g_str_has_prefix (p, " GB") && g_ascii_isdigit (p[-1]) &&
          (p[3] == '\0' || p[3] == ' ' || p[3] == ','))
        {
          g_string_append_printf (s, " %s", gb);
          p += 2;
        }
      else
        g_string_append_c (s, *p);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
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

/**
 * vc_plain_spaces_unless_utf8:
 *
 * In a locale whose charset is not UTF-8 (the C locale), writes the text in ASCII: the no-break
 * spaces that sizes and French punctuation carry (U+00A0, U+202F) become plain spaces, the
 * signs the tables use ("·", "×", "…", "≤", "→", typographic quotes and dashes) their ASCII
 * forms, and anything else is transliterated by GLib. Converted to such a charset they would
 * print as "?".
 */
void
vc_plain_spaces_unless_utf8 (GString *text)
{
  static const char *const plain[][2] = {
    { "\u00a0", " " }, { "\u202f", " " }, { "\u00b7", "-" }, { "\u00d7", "x" },
    { "\u2026", "..." }, { "\u2264", "<=" }, { "\u2265", ">=" }, { "\u2192", "->" },
    { "\u201c", "\"" }, { "\u201d", "\"" }, { "\u2018", "'" }, { "\u2019", "'" },
    { "\u00ab", "\"" }, { "\u00bb", "\"" }, { "\u2013", "-" }, { "\u2014", "-" },
    { "\u2212", "-" }, { "\u221a", "sqrt " },
  };
  g_autofree char *ascii = NULL;

  if (g_get_charset (NULL))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    g_string_replace (text, plain[i][0], plain[i][1], 0);
  ascii = g_str_to_ascii (text->str, "C");
  g_string_assign (text, ascii);
}

/**
 * vc_unit_to_string:
 *
 * Returns: the unit's one text form ("gb", "gib"), as profiles and the command line write it
 */
const char *
vc_unit_to_string (VcUnit unit)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (VC_TYPE_UNIT);
  GEnumValue *ev = g_enum_get_value (klass, unit);

  return ev ? ev->value_nick : "gb";
}

/**
 * vc_unit_from_string:
 * @text: "gb" or "gib"
 * @unit: (out): the unit read
 *
 * Returns: FALSE with @error naming what is accepted when @text is no unit
 */
gboolean
vc_unit_from_string (const char  *text,
                     VcUnit      *unit,
                     GError     **error)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (VC_TYPE_UNIT);
  g_autoptr(GString) accepted = g_string_new (NULL);
  GEnumValue *ev;

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("the value given for %s is not UTF-8 text"), "unit");
      return FALSE;
    }
  ev = g_enum_get_value_by_nick (klass, text);
  if (ev != NULL)
    {
      *unit = ev->value;
      return TRUE;
    }
  for (guint i = 0; i < klass->n_values; i++)
    g_string_append_printf (accepted, "%s%s", i ? ", " : "", klass->values[i].value_nick);
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
               _("“%s” is not valid for %s; accepted: %s"), text, "unit", accepted->str);
  return FALSE;
}
