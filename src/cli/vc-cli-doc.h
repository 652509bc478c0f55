/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-cli-doc.h: vramcalc's man page and its bash, zsh and fish completions, written from the
 * option table itself (vramcalc --generate FORMAT), so that none of them can drift from it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  VC_CLI_DOC_MAN,
  VC_CLI_DOC_BASH,
  VC_CLI_DOC_ZSH,
  VC_CLI_DOC_FISH,
} VcCliDocFormat;

typedef struct
{
  const char *name;           /* the long name, without "--" */
  char short_name;            /* 0: none */
  const char *arg;            /* NULL: a switch; "a|b|c": the values accepted; else a placeholder */
  const char *help;           /* NULL: not in the man page (a --no-NAME), completed all the same */
  const char *values_option;  /* an option listing the accepted values in its first column, or NULL */
  gboolean file;              /* the value is a file or a folder */
  guint section;              /* index into VcCliDoc.sections */
  gboolean repeatable;        /* each one given counts (not only the last) */
} VcCliDocOption;

typedef struct
{
  const char *program;
  const char *version;
  const char *summary;
  const char * const *sections;     /* titles, in English */
  const char * const *examples;     /* command lines, NULL-terminated */
  const char * const *exit_status;  /* "STATUS", "meaning" pairs, NULL-terminated */
  const VcCliDocOption *options;
  guint n_options;
} VcCliDoc;

gboolean  vc_cli_doc_format_from_string (const char          *text,
                                         VcCliDocFormat      *format);
char     *vc_cli_doc_write              (const VcCliDoc      *doc,
                                         VcCliDocFormat       format);

G_END_DECLS
