/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-test-util.h: what the core and command-line tests share: running vramcalc, reading its
 * JSON, and scratch folders. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "vc-estimate-private.h"

G_BEGIN_DECLS

/* A run of vramcalc: its exit status and what it wrote */
typedef struct
{
  int status;
  char *out;
  char *err;
} VcTestRun;

int   vc_test_run_vramcalc (const char * const *args,
                            const char * const *env,
                            char              **out,
                            char              **err);
void  vc_test_run_clear    (VcTestRun          *run);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VcTestRun, vc_test_run_clear)
/* vramcalc's JSON report for args, which must succeed; the object lives as long as parser */
JsonObject *vc_test_run_json (JsonParser         *parser,
                              const char * const *args);
/* the index of the catalog card id in the estimate's GPU list */
guint vc_test_gpu_index    (VcEstimate         *estimate,
                            const char         *id);
gint64 vc_test_component_bytes (JsonObject      *report,
                                const char      *id);
char *vc_test_make_tmpdir  (const char         *prefix);
/* Whether the catalog's model at `index` is the smallest of its reader family with its kind
 * (dense or MoE): sweeps over every shape of model, in a time the catalog's size leaves alone. */
gboolean vc_test_first_of_family (guint index);
/* Whether an exhaustive sweep takes case `index` of its `round`: all of them, unless
 * VC_TEST_SAMPLE=N is set (the sanitizer pass of build-aux/test sets it), then one in N, the
 * chosen ones rotating with `round` so that every case is still met across rounds. The plain
 * builds check every combination's figures; the sanitizers need each path, not each pair. */
gboolean vc_test_sampled       (guint index,
                                guint round);
void  vc_test_remove_tree  (const char         *path);
char *vc_test_make_model_fixtures (void);

/* A preset by the architecture method, then property / value text pairs, each set as
 * vc_estimate_set_from_string() reads it (an error aborts the test) */
VcEstimate *vc_test_estimate_new (const char *preset,
                                  ...) G_GNUC_NULL_TERMINATED;

G_END_DECLS
