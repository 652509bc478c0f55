/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-test-util.h: what the core and command-line tests share: running vramcalc, and scratch
 * folders. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int   vc_test_run_vramcalc (const char * const *args,
                            const char * const *env,
                            char              **out,
                            char              **err);
char *vc_test_make_tmpdir  (const char         *prefix);
void  vc_test_remove_tree  (const char         *path);

G_END_DECLS
