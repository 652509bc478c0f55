/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-atomic-file.h: replacing a file's contents without ever writing over the old file. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

gboolean vc_atomic_file_replace (GFile         *file,
                                 const char    *data,
                                 gsize          length,
                                 GCancellable  *cancellable,
                                 GError       **error);
void     vc_atomic_file_replace_async  (GFile               *file,
                                        GBytes              *bytes,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean vc_atomic_file_replace_finish (GFile               *file,
                                        GAsyncResult        *result,
                                        GError             **error);

G_END_DECLS
