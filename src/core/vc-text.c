/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-text.c: control characters escaped for terminals and windows (see vc-text.h). */
#define G_LOG_DOMAIN "vc-text"

#include "config.h"

#include <string.h>

#include "vc-text.h"

static gboolean
is_control (gunichar c)
{
  return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0);
}

char *
vc_escape_controls (const char *text,
                    gboolean    keep_lines)
{
  GString *s;
  const char *p, *end;

  if (text == NULL)
    return NULL;
  s = g_string_sized_new (strlen (text));
  end = text + strlen (text);
  for (p = text; p < end;)
    {
      const char *run = p;
      gunichar c;

      /* printable ASCII (and kept line breaks and tabs) in one piece: most of a report */
      while (p < end && ((*p >= 0x20 && *p < 0x7f) || (keep_lines && (*p == '\n' || *p == '\t'))))
        p++;
      if (p > run)
        {
          g_string_append_len (s, run, p - run);
          continue;
        }
      c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (s, "\\x%02X", (guchar) *p);
          p++;
          continue;
        }
      if (!is_control (c) || (keep_lines && (c == '\n' || c == '\t')))
        g_string_append_len (s, p, g_utf8_next_char (p) - p);
      else if (c == '\r')
        g_string_append (s, "\\r");
      else if (c == '\n')
        g_string_append (s, "\\n");
      else if (c == '\t')
        g_string_append (s, "\\t");
      else if (c == 0x1b)
        g_string_append (s, "\\e");
      else if (c < 0x80)
        g_string_append_printf (s, "\\x%02X", c);
      else
        g_string_append_printf (s, "\\u%04X", c);
      p = g_utf8_next_char (p);
    }
  return g_string_free (s, FALSE);
}

gboolean
vc_has_controls (const char *text)
{
  g_autofree char *escaped = vc_escape_controls (text, FALSE);

  return text != NULL && g_strcmp0 (escaped, text) != 0;
}
