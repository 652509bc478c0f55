/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-json-input.h: the one guarded way JSON files come in (profiles and config.json).
 *
 * Before json-glib sees the data, it is checked: not empty, at most VC_JSON_INPUT_MAX_SIZE
 * bytes, UTF-8 without NUL bytes, at most VC_JSON_INPUT_MAX_DEPTH levels of lists and objects
 * (json-glib's parser recurses once per level and would exhaust the stack on a deep file),
 * a single top-level value. The check reads everything json-glib 1.6 reads: double- and
 * single-quoted strings, comments. After parsing, every text must be valid UTF-8 (json-glib
 * turns octal escapes such as \377 into raw bytes) and none may hide a \u0000. */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define VC_JSON_INPUT_MAX_SIZE (4 * 1024 * 1024)
#define VC_JSON_INPUT_MAX_DEPTH 64

gboolean  vc_json_input_check     (const char    *data,
                                   gsize          length,
                                   const char    *name,
                                   const char    *kind,
                                   GHashTable   **huge_integers,
                                   GError       **error);
JsonNode *vc_json_input_parse     (const char    *data,
                                   gsize          length,
                                   const char    *name,
                                   const char    *kind,
                                   GHashTable   **huge_integers,
                                   GError       **error);
gboolean  vc_json_input_check_max (const char    *data,
                                   gsize          length,
                                   gsize          max_size,
                                   const char    *name,
                                   const char    *kind,
                                   GHashTable   **huge_integers,
                                   GError       **error);
JsonNode *vc_json_input_parse_max (const char    *data,
                                   gsize          length,
                                   gsize          max_size,
                                   const char    *name,
                                   const char    *kind,
                                   GHashTable   **huge_integers,
                                   GError       **error);
char     *vc_json_fix_numbers     (const char    *text);
GBytes   *vc_json_input_read_file (GFile         *file,
                                   const char    *name,
                                   const char    *kind,
                                   GCancellable  *cancellable,
                                   GError       **error);
gboolean  vc_file_check_regular   (GFile         *file,
                                   const char    *name,
                                   const char    *kind,
                                   GCancellable  *cancellable,
                                   GError       **error);

G_END_DECLS
