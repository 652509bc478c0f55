/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-text.h: text from files and devices made safe to show. A model's name, a tensor's, a shard's
 * or a GPU's comes from whoever wrote the file or the driver: its control characters (ESC, CR,
 * the C1 range) would drive a terminal, clear it or forge a line, so every table and message
 * shows them escaped. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* C0 controls, DEL and C1 controls as \r, \n, \t, \e or \xHH (\u0085 for C1), bytes that are not
 * UTF-8 as \xHH; keep_lines: newlines and tabs left as they are (a message of several lines). */
char     *vc_escape_controls     (const char *text,
                                  gboolean    keep_lines);
gboolean  vc_has_controls        (const char *text);

G_END_DECLS
