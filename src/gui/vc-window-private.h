/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-window-private.h: what the files of the main window share (vc-window.c, the class and its
 * state; vc-window-actions.c, the actions and the profile files; vc-window-dnd.c, dropped
 * files; vc-window-recent.c, the recent profiles; vc-window-settings.c, the state kept in
 * GSettings), and the hooks the GUI tests drive the window with. Nothing else includes it. */
#pragma once

#include "vc-inference-page.h"
#include "vc-results-view.h"
#include "vc-split-view.h"
#include "vc-training-page.h"
#include "vc-window.h"
#include "vc-window-state.h"

G_BEGIN_DECLS

/* ---- for tests ------------------------------------------------------------------------------- */

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

void        vc_window_set_dialog_hooks  (VcWindow           *self,
                                         VcWindowChooseFunc  choose,
                                         VcWindowAskFunc     ask,
                                         gpointer            user_data);
gboolean    vc_window_is_busy           (VcWindow           *self);
VcEstimate *vc_window_get_estimate      (VcWindow           *self);
VcProfile  *vc_window_get_profile       (VcWindow           *self);
const char *vc_window_get_error         (VcWindow           *self);
GtkWidget  *vc_window_get_model_section (VcWindow           *self,
                                         VcMode              mode);
/* the dialog win.open-hub opened, or NULL */
GtkWidget  *vc_window_get_hub_dialog    (VcWindow           *self);

/* ---- shared by the window's files ------------------------------------------------------------ */

/* what runs once a file is chosen, a question answered or a profile written */
typedef void (*VcWindowFileFunc) (VcWindow *self,
                                  GFile    *file);

struct _VcWindow
{
  GtkApplicationWindow parent_instance;

  VcEstimate *estimate;
  VcProfile *profile;
  VcWindowState *state;        /* the unit, the imported model's note and files, "approximate" */
  GSettings *settings;
  GCancellable *cancellable;   /* files being read: cancelled when the window goes */
  guint n_busy;                /* files being read or written */
  guint n_writing;             /* profiles and exports being written: closing waits for them */
  gboolean profile_busy;       /* a profile being opened or saved */
  gboolean close_confirmed;
  gboolean close_when_written;
  VcWindowFileFunc then_func;  /* after a Save As asked for by the unsaved-changes question */
  GFile *then_file;
  VcWindowChooseFunc choose_hook;
  VcWindowAskFunc ask_hook;
  gpointer hook_data;

  GtkMenuButton *profile_button;
  GtkLabel *profile_label;
  GtkEntry *profile_name;      /* in the profile popover, made after the first frame: */
  GtkTextView *profile_notes;  /* NULL until then (vc-window.c) */
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
  GMenu *recent_menu;

  GtkHeaderBar *header_bar;
  GtkMenuButton *menu_button;
  GtkButton *dismiss_button;    /* the error bar's */
  GMenuModel *primary_menu;
  VcSplitView *split;
  GtkStack *stack;
  VcInferencePage *inference_page;
  GtkScrolledWindow *training_scroller;
  VcTrainingPage *training_page;   /* NULL until the Training tab is first shown */
  VcResultsView *results;
  GtkWidget *help_window;      /* weak */
  GtkWidget *hub_dialog;       /* weak */
};

/* A window, a function to run and a file, carried through a dialog or an asynchronous call. */
typedef struct
{
  VcWindow *self;
  VcWindowFileFunc func;
  GFile *file;
} VcWindowPending;

VcWindowPending *_vc_window_pending_new   (VcWindow          *self,
                                           VcWindowFileFunc   func,
                                           GFile             *file);
void             _vc_window_pending_free  (VcWindowPending   *pending);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VcWindowPending, _vc_window_pending_free)

/* vc-window.c */
gboolean _vc_window_is_disposed      (VcWindow          *self);
VcTrainingPage *_vc_window_ensure_training_page (VcWindow *self);
void     _vc_window_show_error       (VcWindow          *self,
                                      const char        *format,
                                      GFile             *file,
                                      GError            *error);
void     _vc_window_dismiss_error    (VcWindow          *self);
void     _vc_window_clear_notes      (VcWindow          *self);
void     _vc_window_update_model_note (VcWindow         *self);
void     _vc_window_begin_io         (VcWindow          *self,
                                      gboolean           writing);
void     _vc_window_end_io           (VcWindow          *self,
                                      gboolean           writing);

/* vc-window-actions.c */
void     _vc_window_class_actions_init (VcWindowClass   *klass);
gboolean _vc_window_needs_question   (VcWindow          *self,
                                      gboolean           closing);
void     _vc_window_confirm_then     (VcWindow          *self,
                                      gboolean           closing,
                                      VcWindowFileFunc   func,
                                      GFile             *file);
void     _vc_window_open_profile     (VcWindow          *self,
                                      GFile             *file);
void     _vc_window_import           (VcWindow          *self,
                                      GFile             *file);

/* vc-window-dnd.c */
void     _vc_window_dnd_init         (VcWindow          *self);

/* vc-window-recent.c */
void     _vc_window_recent_init      (VcWindow          *self);
void     _vc_window_add_recent       (GFile             *file);

/* vc-window-settings.c */
void     _vc_window_settings_init    (VcWindow          *self);
void     _vc_window_save_state       (VcWindow          *self);

G_END_DECLS
