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

G_END_DECLS
