/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-application.h: the GtkApplication: app actions (about, quit), accelerators, styles. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VC_TYPE_APPLICATION (vc_application_get_type ())
G_DECLARE_FINAL_TYPE (VcApplication, vc_application, VC, APPLICATION, GtkApplication)

VcApplication *vc_application_new (void);

G_END_DECLS
