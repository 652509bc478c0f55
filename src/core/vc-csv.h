/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-csv.h: an estimate as CSV for spreadsheets (the window's Export and vramcalc --format csv).
 *
 * RFC 4180: CRLF line ends, fields holding a comma, quote, CR or LF quoted with quotes doubled,
 * UTF-8, one header row (in the UI language), the same number of fields on every row. Numbers
 * use '.' whatever the locale; text cells a spreadsheet would take for a formula are
 * neutralised with a leading apostrophe.
 */
#pragma once

#include <gio/gio.h>

#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_CSV_N_COLUMNS 7
#define VC_CSV_MIME_TYPE "text/csv"

char     *vc_csv_export     (VcEstimate    *estimate,
                             VcUnit         unit,
                             gsize         *length);
char     *vc_csv_export_with_solve (VcEstimate       *estimate,
                                    const VcSolution *solve,
                                    const char       *gpu_key,
                                    const char       *gpu_name,
                                    VcUnit            unit,
                                    gsize            *length);
gboolean  vc_csv_write_file (GFile         *file,
                             VcEstimate    *estimate,
                             VcUnit         unit,
                             GCancellable  *cancellable,
                             GError       **error);
char     *vc_csv_text_cell  (const char    *text);

G_END_DECLS
