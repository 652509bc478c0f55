/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-error.c: see vc-error.h. */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "vc-error.h"
#include "vc-text.h"

G_DEFINE_QUARK (vc-error-quark, vc_error)

static gboolean
set_in_file (GError     **error,
             VcError      code,
             const char  *file_name,
             const char  *format,
             va_list      ap) G_GNUC_PRINTF (4, 0);

/**
 * vc_error_in_file:
 * @file_name: (nullable): how the message names the file; %NULL: it does not
 *
 * Sets @error to "FILE: what is wrong", the message formatted from @format: the readers of
 * model files name the file in front of each fault.
 *
 * Returns: %FALSE, for `return vc_error_in_file (…)`
 */
gboolean
vc_error_in_file (GError     **error,
                  VcError      code,
                  const char  *file_name,
                  const char  *format,
                  ...)
{
  va_list ap;
  gboolean ret;

  va_start (ap, format);
  ret = set_in_file (error, code, file_name, format, ap);
  va_end (ap);
  return ret;
}

/**
 * vc_error_set:
 *
 * Sets @error to the message formatted from @format, its control characters escaped.
 *
 * Returns: %FALSE, for `return vc_error_set (…)`
 */
gboolean
vc_error_set (GError     **error,
              VcError      code,
              const char  *format,
              ...)
{
  va_list ap;
  gboolean ret;

  va_start (ap, format);
  ret = set_in_file (error, code, NULL, format, ap);
  va_end (ap);
  return ret;
}

static gboolean
set_in_file (GError     **error,
             VcError      code,
             const char  *file_name,
             const char  *format,
             va_list      ap)
{
  g_autofree char *message = g_strdup_vprintf (format, ap);

  /* what a file holds (names of tensors, shards, keys) reaches terminals and windows: its
   * control characters are escaped here, once for every reader */
  if (vc_has_controls (message) || (file_name != NULL && vc_has_controls (file_name)))
    {
      g_autofree char *escaped = vc_escape_controls (message, FALSE);
      g_autofree char *escaped_name = vc_escape_controls (file_name, FALSE);

      if (escaped_name == NULL)
        g_set_error_literal (error, VC_ERROR, code, escaped);
      else
        g_set_error (error, VC_ERROR, code, _("%s: %s"), escaped_name, escaped);
      return FALSE;
    }
  if (file_name == NULL)
    g_set_error_literal (error, VC_ERROR, code, message);
  else
    /* Translators: a file name, then what is wrong with it */
    g_set_error (error, VC_ERROR, code, _("%s: %s"), file_name, message);
  return FALSE;
}
