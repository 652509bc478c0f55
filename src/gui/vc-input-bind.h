/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-input-bind.h: binds input widgets to properties of the estimate model. The ranges come
 * from the properties' GParamSpecs, so the window, the command line and profiles accept the
 * same values. */
#pragma once

#include <gtk/gtk.h>

#include "vc-drop-down.h"
#include "vc-estimate.h"

G_BEGIN_DECLS

typedef struct
{
  int value;
  const char *label;           /* marked with N_(), translated when the list is built */
} VcChoice;

void vc_bind_spin            (GtkSpinButton  *spin,
                              VcEstimate     *estimate,
                              const char     *property,
                              double          step,
                              guint           digits);
void vc_bind_choices         (VcDropDown     *dropdown,
                              VcEstimate     *estimate,
                              const char     *property,
                              const VcChoice *choices,
                              guint           n_choices);
void vc_bind_preset_dropdown (VcDropDown     *dropdown,
                              VcEstimate     *estimate);
void vc_bind_count_entry     (GtkEntry       *entry,
                              VcEstimate     *estimate,
                              const char     *property);
void vc_bind_active          (GtkWidget      *toggle,
                              VcEstimate     *estimate,
                              const char     *property);


void vc_bind_spin_with_word (GtkSpinButton *spin,
                             VcEstimate    *estimate,
                             const char    *property,
                             double         step,
                             guint          digits,
                             double         value,
                             const char    *word);
void vc_bind_spin_with_default (GtkSpinButton *spin,
                                VcEstimate    *estimate,
                                const char    *property,
                                double         step,
                                guint          digits);


void vc_size_group_add_grid_labels (GtkSizeGroup *group,
                                    GtkGrid      *grid);

G_END_DECLS
