/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-error.h: the error domain for everything a user can get wrong (inputs, files, options). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define VC_ERROR (vc_error_quark ())

typedef enum
{
  VC_ERROR_INVALID_VALUE,     /* a value out of its range or of the wrong kind */
  VC_ERROR_INVALID_COMBINATION,
  VC_ERROR_UNKNOWN_ID,        /* preset, GPU, enum nick */
  VC_ERROR_PARSE,             /* malformed file */
  VC_ERROR_VERSION,           /* a newer file format */
  VC_ERROR_TOO_LARGE,
  VC_ERROR_NOT_UNDERSTOOD,    /* a model whose estimate would not be exact */
} VcError;

GQuark   vc_error_quark (void);
gboolean vc_error_in_file (GError     **error,
                           VcError      code,
                           const char  *file_name,
                           const char  *format,
                           ...) G_GNUC_PRINTF (4, 5);
gboolean vc_error_set     (GError     **error,
                           VcError      code,
                           const char  *format,
                           ...) G_GNUC_PRINTF (3, 4);

G_END_DECLS
