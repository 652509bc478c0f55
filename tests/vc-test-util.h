/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-test-util.h: what the core and command-line tests share: running vramcalc, reading its
 * JSON, and scratch folders. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

int   vc_test_run_vramcalc (const char * const *args,
                            const char * const *env,
                            char              **out,
                            char              **err);
gint64 vc_test_component_bytes (JsonObject      *report,
                                const char      *id);
char *vc_test_make_tmpdir  (const char         *prefix);
/* Whether the catalog's model at `index` is the smallest of its reader family with its kind
 * (dense or MoE): sweeps over every shape of model, in a time the catalog's size leaves alone. */
gboolean vc_test_first_of_family (guint index);
void  vc_test_remove_tree  (const char         *path);
char *vc_test_make_model_fixtures (void);

G_END_DECLS
