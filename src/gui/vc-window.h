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
VcEstimate *vc_window_get_estimate   (VcWindow       *self);
GtkWidget  *vc_window_get_page       (VcWindow       *self,
                                      VcMode          mode);
GtkWidget  *vc_window_get_input      (VcWindow       *self,
                                      VcMode          mode,
                                      const char     *property);
GtkWidget  *vc_window_get_results    (VcWindow       *self);
void        vc_window_set_mode       (VcWindow       *self,
                                      VcMode          mode);
GVariant   *vc_window_save_inputs    (VcWindow       *self);
void        vc_window_restore_inputs (VcWindow       *self,
                                      GVariant       *inputs);
VcProfile  *vc_window_get_profile    (VcWindow       *self);
const char *vc_window_get_error      (VcWindow       *self);
GtkWidget  *vc_window_get_model_section (VcWindow    *self,
                                         VcMode       mode);
GMenuModel *vc_window_get_recent_menu (VcWindow      *self);
gboolean    vc_window_is_busy        (VcWindow       *self);
void        vc_window_open_file      (VcWindow       *self,
                                      GFile          *file);

/* The answers of the unsaved-changes question, in the order of its buttons. */
typedef enum
{
  VC_WINDOW_ANSWER_CANCEL,
  VC_WINDOW_ANSWER_DISCARD,
  VC_WINDOW_ANSWER_SAVE,
} VcWindowAnswer;

/* Tests drive the real actions with these in place of the file dialogs and the question:
 * `choose` returns the file a dialog would have returned (NULL: cancelled), `ask` the answer. */
typedef GFile          *(*VcWindowChooseFunc) (VcWindow   *self,
                                               VcFileMode  mode,
                                               gpointer    user_data);
typedef VcWindowAnswer  (*VcWindowAskFunc)    (VcWindow   *self,
                                               gpointer    user_data);

void        vc_window_set_dialog_hooks (VcWindow           *self,
                                        VcWindowChooseFunc  choose,
                                        VcWindowAskFunc     ask,
                                        gpointer            user_data);

G_END_DECLS
