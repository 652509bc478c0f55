/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-window-actions.c: the window's actions, one callback each, and what they do with files:
 * profiles opened and saved, CSV exported and config.json imported, all read and written in
 * threads; the file dialogs and the unsaved-changes question (replaceable by tests). */
#define G_LOG_DOMAIN "vc-window"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-atomic-file.h"
#include "vc-csv.h"
#include "vc-help-window.h"
#include "vc-hf-config.h"
#include "vc-hub-dialog.h"
#include "vc-model-file.h"
#include "vc-model-section.h"
#include "vc-window-private.h"

/* ---- dialogs (replaceable by tests) ---------------------------------------------------------- */

VcWindowPending *
_vc_window_pending_new (VcWindow         *self,
                        VcWindowFileFunc  func,
                        GFile            *file)
{
  VcWindowPending *p = g_new0 (VcWindowPending, 1);

  p->self = g_object_ref (self);
  p->func = func;
  p->file = file ? g_object_ref (file) : NULL;
  return p;
}

void
_vc_window_pending_free (VcWindowPending *p)
{
  g_object_unref (p->self);
  g_clear_object (&p->file);
  g_free (p);
}

static void
file_chosen (GFile    *file,
             gpointer  data)
{
  g_autoptr(VcWindowPending) p = data;

  /* cancelled, or the window went away while the dialog was up */
  if (file == NULL || _vc_window_is_disposed (p->self))
    return;
  p->func (p->self, file);
}

static GtkFileFilter *
make_filter (const char *name,
             const char *mime_type,
             const char *suffix)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_filter_add_suffix (filter, suffix);
  return filter;
}

/* Asks for a file, then calls func with it. */
static void
choose_file (VcWindow         *self,
             VcFileMode        mode,
             const char       *title,
             const char       *accept_label,
             const char       *initial_name,
             GtkFileFilter    *filter,
             VcWindowFileFunc  func)
{
  g_autoptr(GtkFileFilter) owned = filter;

  if (self->choose_hook != NULL)
    {
      g_autoptr(GFile) file = self->choose_hook (self, mode, self->hook_data);

      file_chosen (file, _vc_window_pending_new (self, func, NULL));
      return;
    }
  vc_choose_file (GTK_WINDOW (self), mode, title, accept_label, initial_name, filter,
                  file_chosen, _vc_window_pending_new (self, func, NULL));
}

static GtkFileFilter *
profile_filter (void)
{
  return make_filter (_("Profiles"), VC_PROFILE_MIME_TYPE, "json");
}

static char *
suggested_name (VcWindow   *self,
                const char *suffix)
{
  g_autofree char *title = vc_profile_dup_title (self->profile);

  g_strdelimit (title, "/\\", '-');
  if (g_str_has_suffix (title, suffix))
    return g_steal_pointer (&title);
  return g_strconcat (title, suffix, NULL);
}

/* ---- profiles -------------------------------------------------------------------------------- */

/* How a file read or written in a thread ended, said in the error bar: whether it went well and
 * the window is still there to go on. A read cancelled because the window went says nothing. */
static gboolean
report_done (VcWindow     *self,
             gboolean      done,
             const char   *format,
             GFile        *file,
             const GError *error)
{
  if (_vc_window_is_disposed (self))
    return FALSE;
  if (done)
    _vc_window_dismiss_error (self);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _vc_window_show_error (self, format, file, (GError *) error);
  return done;
}

/* One open or save of the profile at a time: the others wait, their actions disabled. */
static void
set_profile_busy (VcWindow *self,
                  gboolean  busy)
{
  static const char * const actions[] = { "win.new", "win.open", "win.open-recent", "win.save", "win.save-as" };

  self->profile_busy = busy;
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), actions[i], !busy);
}

static void
profile_saved (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  g_autoptr(VcWindowPending) p = data;
  VcWindow *self = p->self;
  g_autoptr(GError) error = NULL;
  gboolean saved = vc_profile_save_finish (VC_PROFILE (source), result, &error);

  if (saved)
    _vc_window_add_recent (vc_profile_save_target (result));
  if (!_vc_window_is_disposed (self))
    set_profile_busy (self, FALSE);
  if (report_done (self, saved, _("Could not save “%s”"), vc_profile_save_target (result), error) &&
      p->func != NULL)
    p->func (self, p->file);
  _vc_window_end_io (self, TRUE);
}

/* Saves to file (NULL: the profile's own), then runs then_func when that worked. */
static void
save_profile (VcWindow         *self,
              GFile            *file,
              VcWindowFileFunc  then_func,
              GFile            *then_file)
{
  _vc_window_begin_io (self, TRUE);
  set_profile_busy (self, TRUE);
  /* not cancelled with the window: what the user saved gets written */
  vc_profile_save_async (self->profile, file, NULL, profile_saved,
                         _vc_window_pending_new (self, then_func, then_file));
}

static void
save_chosen (VcWindow *self,
             GFile    *file)
{
  save_profile (self, file, NULL, NULL);
}

static void
save_as (VcWindow *self)
{
  g_autofree char *name = suggested_name (self, VC_PROFILE_SUFFIX);

  choose_file (self, VC_FILE_SAVE, _("Save Profile"), _("_Save"), name, profile_filter (), save_chosen);
}

static void
profile_opened (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  g_autoptr(VcWindowPending) p = data;
  VcWindow *self = p->self;
  g_autoptr(GError) error = NULL;
  gboolean opened;

  _vc_window_end_io (self, FALSE);
  if (_vc_window_is_disposed (self))
    return;
  set_profile_busy (self, FALSE);
  opened = vc_profile_load_finish (VC_PROFILE (source), result, &error);
  if (!report_done (self, opened, _("Could not open “%s”"), p->file, error))
    return;
  _vc_window_clear_notes (self);
  /* a typed-in architecture's note (what the estimate takes for it, such as the engines' RoPE
   * table), as typing it shows it: the inputs the profile set raised it before the notes of
   * the profile left were cleared */
  if (vc_window_state_get_model_file (self->state) == NULL)
    _vc_window_update_model_note (self);
  _vc_window_add_recent (p->file);
}

void
_vc_window_open_profile (VcWindow *self,
                         GFile    *file)
{
  if (self->profile_busy)
    {
      g_debug ("Not opening a profile while another is opened or saved");
      return;
    }
  _vc_window_begin_io (self, FALSE);
  set_profile_busy (self, TRUE);
  vc_profile_load_async (self->profile, file, self->cancellable, profile_opened,
                         _vc_window_pending_new (self, NULL, file));
}

static void
new_profile (VcWindow *self,
             GFile    *unused)
{
  vc_profile_reset (self->profile);
  _vc_window_dismiss_error (self);
  _vc_window_clear_notes (self);
}

static void
choose_profile_to_open (VcWindow *self,
                        GFile    *unused)
{
  choose_file (self, VC_FILE_OPEN, _("Open Profile"), _("_Open"), NULL, profile_filter (),
               _vc_window_open_profile);
}

/* ---- the unsaved-changes question ------------------------------------------------------------ */

/* Whether leaving the current profile loses something. Closing an untitled profile does not:
 * its inputs are kept in GSettings for the next start; its name and notes are not. */
gboolean
_vc_window_needs_question (VcWindow *self,
                           gboolean  closing)
{
  if (!vc_profile_get_modified (self->profile))
    return FALSE;
  if (!closing)
    return TRUE;
  return vc_profile_get_file (self->profile) != NULL ||
         vc_profile_get_name (self->profile)[0] != '\0' ||
         vc_profile_get_notes (self->profile)[0] != '\0';
}

/* Save As for the question's Save on an untitled profile, then what was asked for */
static void
save_as_then (VcWindow *self,
              GFile    *file)
{
  VcWindowFileFunc then = self->then_func;
  g_autoptr(GFile) then_file = g_steal_pointer (&self->then_file);

  self->then_func = NULL;
  save_profile (self, file, then, then_file);
}

static void
answered (int      answer,
          gpointer data)
{
  g_autoptr(VcWindowPending) p = data;
  VcWindow *self = p->self;
  g_autofree char *name = NULL;

  if (_vc_window_is_disposed (self) || answer == VC_WINDOW_ANSWER_CANCEL)
    return;
  if (answer != VC_WINDOW_ANSWER_SAVE)
    {
      p->func (self, p->file);
      return;
    }
  if (vc_profile_get_file (self->profile) != NULL)
    {
      save_profile (self, NULL, p->func, p->file);
      return;
    }
  /* the rest waits for the Save As dialog (a cancelled one forgets it next time) */
  self->then_func = p->func;
  g_set_object (&self->then_file, p->file);
  name = suggested_name (self, VC_PROFILE_SUFFIX);
  choose_file (self, VC_FILE_SAVE, _("Save Profile"), _("_Save"), name, profile_filter (), save_as_then);
}

/* Runs func at once when nothing would be lost, else after Save or Discard. */
void
_vc_window_confirm_then (VcWindow         *self,
                         gboolean          closing,
                         VcWindowFileFunc  func,
                         GFile            *file)
{
  VcWindowPending *p;
  g_autofree char *title = NULL, *heading = NULL;
  const char * const buttons[] = { _("_Cancel"), _("_Discard"), _("_Save"), NULL };

  if (!_vc_window_needs_question (self, closing))
    {
      func (self, file);
      return;
    }
  p = _vc_window_pending_new (self, func, file);
  if (self->ask_hook != NULL)
    {
      answered (self->ask_hook (self, self->hook_data), p);
      return;
    }
  title = vc_profile_dup_title (self->profile);
  heading = g_strdup_printf (_("Save changes to “%s”?"), title);
  vc_ask (GTK_WINDOW (self), heading,
          _("The changed inputs, name and notes are lost if you do not save them."),
          buttons, VC_WINDOW_ANSWER_CANCEL, VC_WINDOW_ANSWER_SAVE, answered, p);
}

/* ---- exporting CSV --------------------------------------------------------------------------- */

static void
exported (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  g_autoptr(VcWindowPending) p = data;
  VcWindow *self = p->self;
  g_autoptr(GError) error = NULL;
  gboolean written = vc_atomic_file_replace_finish (G_FILE (source), result, &error);

  report_done (self, written, _("Could not export to “%s”"), p->file, error);
  _vc_window_end_io (self, TRUE);
}

static void
export_to (VcWindow *self,
           GFile    *file)
{
  gsize length;
  char *csv = vc_csv_export (self->estimate, vc_profile_get_unit (self->profile), &length);
  g_autoptr(GBytes) bytes = g_bytes_new_take (csv, length);

  _vc_window_begin_io (self, TRUE);
  vc_atomic_file_replace_async (file, bytes, NULL, exported, _vc_window_pending_new (self, NULL, file));
}

/* ---- importing a model: config.json, safetensors folder or GGUF -------------------------------- */

static void
import_done (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_autoptr(VcWindowPending) p = data;
  VcWindow *self = p->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(VcModelFile) model = vc_model_file_load_finish (result, &error);
  VcHfConfig *config = model != NULL ? vc_model_file_get_config (model) : NULL;

  _vc_window_end_io (self, FALSE);
  /* exact or refused, unless the user asks for an approximate estimate */
  if (config != NULL && !_vc_window_is_disposed (self) &&
      !vc_window_state_get_approximate (self->state) &&
      !vc_hf_config_check_exact (config, &error))
    {
      g_autoptr(GError) refused = g_error_new (error->domain, error->code,
                                               _("%s. Check “Import approximately what is not understood” "
                                                 "to estimate it anyway."), error->message);

      report_done (self, FALSE, _("Could not import “%s”"), p->file, refused);
      return;
    }
  if (!report_done (self, model != NULL, _("Could not import “%s”"), p->file, error))
    return;
  vc_model_file_apply (model, self->estimate);
  {
    /* the command names the model by its files */
    g_autofree char *path = g_file_get_path (p->file);

    vc_results_view_set_command_model (self->results, path);
  }

  vc_window_state_set_model_file (self->state, model);
  _vc_window_update_model_note (self);
}

/**
 * _vc_window_update_model_note:
 *
 * The note about the model imported: its description, then what the estimate leaves out
 * (vc_estimate_dup_warnings(): the file's warning, the projector's compute buffer), again
 * whenever a projector is chosen or the engine changes; none once the model is another. A model
 * typed in has the warnings alone (the engines' RoPE table taken as a Llama-shaped model's).
 */
void
_vc_window_update_model_note (VcWindow *self)
{
  VcModelFile *model = vc_window_state_get_model_file (self->state);
  VcHfConfig *config;
  g_autoptr(GString) note = NULL;
  g_auto(GStrv) warnings = NULL;

  if (model == NULL)
    {
      /* a model typed in (no preset, no file): what the estimate takes for it, such as the
       * engines' RoPE table */
      if (vc_estimate_get_preset (self->estimate)[0] != '\0')
        return;
      warnings = vc_estimate_dup_warnings (self->estimate);
      note = g_string_new (NULL);
      for (guint i = 0; warnings[i] != NULL; i++)
        g_string_append_printf (note, "%s%s", note->len ? "\n" : "", warnings[i]);
      vc_window_state_set_note (self->state, note->str, warnings[0] != NULL);
      return;
    }
  config = vc_model_file_get_config (model);
  note = g_string_new (config ? vc_hf_config_get_description (config) : NULL);
  warnings = vc_estimate_dup_warnings (self->estimate);
  for (guint i = 0; warnings[i] != NULL; i++)
    g_string_append_printf (note, "%s%s", note->len ? "\n" : "", warnings[i]);
  /* both tabs show them, through the window's state */
  vc_window_state_set_note (self->state, note->str, warnings[0] != NULL);
}

/* In a thread: the file may sit on a slow disk or a network mount. */
void
_vc_window_import (VcWindow *self,
                   GFile    *file)
{
  _vc_window_begin_io (self, FALSE);
  vc_model_file_load_async (file, self->cancellable, import_done, _vc_window_pending_new (self, NULL, file));
}

/* ---- actions --------------------------------------------------------------------------------- */

static void
show_inference_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  vc_window_set_mode (VC_WINDOW (widget), VC_MODE_INFERENCE);
}

static void
show_training_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  vc_window_set_mode (VC_WINDOW (widget), VC_MODE_TRAINING);
}

/* F1 and the main menu: one help window per main window */
static void
help_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  VcWindow *self = VC_WINDOW (widget);

  if (self->help_window == NULL)
    {
      self->help_window = vc_help_window_new (GTK_WINDOW (self));
      g_object_add_weak_pointer (G_OBJECT (self->help_window), (gpointer *) &self->help_window);
    }
  gtk_window_present (GTK_WINDOW (self->help_window));
}

/* A model by name from the Hub or from this computer: one dialog per window; what it hands on
 * is imported as a file chosen by hand is. */
static void
hub_model_chosen (VcHubDialog *dialog,
                  GFile       *file,
                  VcWindow    *self)
{
  _vc_window_import (self, file);
}

static void
open_hub_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  VcWindow *self = VC_WINDOW (widget);

  if (self->hub_dialog == NULL)
    {
      self->hub_dialog = vc_hub_dialog_new (GTK_WINDOW (self));
      g_object_add_weak_pointer (G_OBJECT (self->hub_dialog), (gpointer *) &self->hub_dialog);
      g_signal_connect_object (self->hub_dialog, "model-chosen", G_CALLBACK (hub_model_chosen), self, 0);
    }
  gtk_window_present (GTK_WINDOW (self->hub_dialog));
}

GtkWidget *
vc_window_get_hub_dialog (VcWindow *self)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);
  return self->hub_dialog;
}

static void
new_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  _vc_window_confirm_then (VC_WINDOW (widget), FALSE, new_profile, NULL);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  _vc_window_confirm_then (VC_WINDOW (widget), FALSE, choose_profile_to_open, NULL);
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  _vc_window_confirm_then (VC_WINDOW (widget), FALSE, _vc_window_open_profile, file);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  VcWindow *self = VC_WINDOW (widget);

  if (vc_profile_get_file (self->profile) != NULL)
    save_profile (self, NULL, NULL, NULL);
  else
    save_as (self);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  save_as (VC_WINDOW (widget));
}

static void
profile_details_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  gtk_menu_button_popup (VC_WINDOW (widget)->profile_button);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  VcWindow *self = VC_WINDOW (widget);
  g_autofree char *name = suggested_name (self, ".csv");

  choose_file (self, VC_FILE_SAVE, _("Export CSV"), _("_Export"), name,
               make_filter (_("CSV files"), VC_CSV_MIME_TYPE, "csv"), export_to);
}

static void
import_config_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  GtkFileFilter *filter = make_filter (_("Model files (config.json, .gguf)"), "application/json", "json");

  gtk_file_filter_add_suffix (filter, "gguf");
  choose_file (VC_WINDOW (widget), VC_FILE_OPEN, _("Import config.json"), _("_Import"), NULL, filter,
               _vc_window_import);
}

/* ---- llama.cpp's multimodal projector (--mmproj) --------------------------------------------- */

/* The projector's header read (vc_estimate_set_mmproj_file()); a file that is not one is said
 * above the inputs and the estimate keeps what it had. */
static void
set_mmproj (VcWindow *self,
            GFile    *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);

  if (!vc_estimate_set_mmproj_file (self->estimate, file, path, &error))
    {
      _vc_window_show_error (self, _("Could not use “%s” as the multimodal projector"), file, error);
      return;
    }
  _vc_window_dismiss_error (self);
}

static void
choose_mmproj_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Multimodal projectors (.gguf)"));
  gtk_file_filter_add_suffix (filter, "gguf");
  choose_file (VC_WINDOW (widget), VC_FILE_OPEN, _("Choose a Multimodal Projector"), _("_Choose"), NULL, filter,
               set_mmproj);
}

static void
clear_mmproj_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  vc_estimate_set_mmproj_file (VC_WINDOW (widget)->estimate, NULL, NULL, NULL);
}

static void
import_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  choose_file (VC_WINDOW (widget), VC_FILE_SELECT_FOLDER, _("Import a Model Folder"), _("_Import"), NULL,
               NULL, _vc_window_import);
}

void
_vc_window_class_actions_init (VcWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.show-inference", NULL, show_inference_action);
  gtk_widget_class_install_action (widget_class, "win.show-training", NULL, show_training_action);
  gtk_widget_class_install_action (widget_class, "win.help", NULL, help_action);
  gtk_widget_class_install_action (widget_class, "win.new", NULL, new_action);
  /* on the window itself, so they work whichever application runs it */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F1, 0, "win.help", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.no-recent", NULL, NULL);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.profile-details", NULL, profile_details_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.import-config", NULL, import_config_action);
  gtk_widget_class_install_action (widget_class, "win.import-folder", NULL, import_folder_action);
  gtk_widget_class_install_action (widget_class, "win.choose-mmproj", NULL, choose_mmproj_action);
  gtk_widget_class_install_action (widget_class, "win.clear-mmproj", NULL, clear_mmproj_action);
  gtk_widget_class_install_action (widget_class, "win.open-hub", NULL, open_hub_action);
}
