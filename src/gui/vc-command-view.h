/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-command-view.h: the "Command" area of the results: the command that runs the estimate on
 * the engine chosen (vc-command.c), monospace and selectable, with a button that copies it. */
#pragma once

#include <gtk/gtk.h>

#include "vc-command.h"
#include "vc-estimate.h"

G_BEGIN_DECLS

#define VC_TYPE_COMMAND_VIEW (vc_command_view_get_type ())
G_DECLARE_FINAL_TYPE (VcCommandView, vc_command_view, VC, COMMAND_VIEW, GtkWidget)

void            vc_command_view_set_estimate (VcCommandView   *self,
                                              VcEstimate      *estimate);
void            vc_command_view_set_model    (VcCommandView   *self,
                                              const char      *spec);
VcCommandEngine vc_command_view_get_engine   (VcCommandView   *self);
void            vc_command_view_set_engine   (VcCommandView   *self,
                                              VcCommandEngine  engine);
const char     *vc_command_view_get_text     (VcCommandView   *self);

G_END_DECLS
