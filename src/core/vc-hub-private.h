/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-hub-private.h: what only the tests and the fuzzers use of VcHub: the settings that
 * vc_hub_new() otherwise takes from the environment, the request counters, and the GGUF
 * header reader on its own. */
#pragma once

#include "vc-hub.h"

G_BEGIN_DECLS

void        vc_hub_set_endpoint    (VcHub          *self,
                                    const char     *endpoint);
const char *vc_hub_get_endpoint    (VcHub          *self);
void        vc_hub_set_token       (VcHub          *self,
                                    const char     *token);
void        vc_hub_set_offline     (VcHub          *self,
                                    gboolean        offline);
void        vc_hub_set_cache_dir   (VcHub          *self,
                                    const char     *path);
const char *vc_hub_get_cache_dir   (VcHub          *self);
void        vc_hub_set_timeout     (VcHub          *self,
                                    guint           seconds);
/* HTTP requests sent (redirects included), redirects followed and body bytes received */
guint       vc_hub_get_n_requests  (VcHub          *self);
guint       vc_hub_get_n_redirects (VcHub          *self);
guint64     vc_hub_get_n_bytes     (VcHub          *self);
void        vc_hub_reset_counts    (VcHub          *self);
/* A GGUF header in data: TRUE with where its tensor infos end, else FALSE with the bytes
 * needed to go on (0: not a GGUF header of version 2 or 3). For fuzzing and tests. */
gboolean    vc_hub_gguf_header_length (const guint8 *data,
                                       gsize         length,
                                       guint64      *end,
                                       guint64      *need);

G_END_DECLS
