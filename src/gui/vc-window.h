/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-window.h: the main window: the Inference and Training tabs over one estimate model, and
 * the results beside them. */
#pragma once

#include <gtk/gtk.h>

#include "vc-compat.h"
#include "vc-estimate.h"
#include "vc-profile.h"

G_BEGIN_DECLS

#define VC_TYPE_WINDOW (vc_window_get_type ())
G_DECLARE_FINAL_TYPE (VcWindow, vc_window, VC, WINDOW, GtkApplicationWindow)

#define VC_SCHEMA_ID "io.github.vramcalc.VramCalculator"

VcWindow   *vc_window_new            (GtkApplication *application);
void        vc_window_set_mode       (VcWindow       *self,
                                      VcMode          mode);
GVariant   *vc_window_save_inputs    (VcWindow       *self);
void        vc_window_restore_inputs (VcWindow       *self,
                                      GVariant       *inputs);
void        vc_window_open_file      (VcWindow       *self,
                                      GFile          *file);

G_END_DECLS
