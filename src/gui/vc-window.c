/* vc-window.c: the main window. It owns the one estimate both tabs edit: the visible tab sets
 * its mode. Window size, tab and every input are kept in GSettings between runs. */
#define G_LOG_DOMAIN "vc-window"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-csv.h"
#include "vc-enums.h"
#include "vc-hf-config.h"
#include "vc-inference-page.h"
#include "vc-model-file.h"
#include "vc-model-section.h"
#include "vc-results-view.h"
#include "vc-training-page.h"
#include "vc-window.h"

/* what runs once a file is chosen or a question answered */
typedef void (*FileFunc) (VcWindow *self,
                          GFile    *file);

struct _VcWindow
{
  GtkApplicationWindow parent_instance;

  VcEstimate *estimate;
  VcProfile *profile;
  GSettings *settings;
  GCancellable *cancellable;   /* imports and dropped files being read */
  guint n_busy;
  gboolean close_confirmed;
  FileFunc then_func;          /* after a Save As asked for by the unsaved-changes question */
  GFile *then_file;
  VcWindowChooseFunc choose_hook;
  VcWindowAskFunc ask_hook;
  gpointer hook_data;

  GtkMenuButton *profile_button;
  GtkLabel *profile_label;
  GtkEntry *profile_name;
  GtkTextView *profile_notes;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
  GMenu *recent_menu;

  GtkHeaderBar *header_bar;
  GtkMenuButton *menu_button;
  GtkPaned *paned;
  GtkStack *stack;
  VcInferencePage *inference_page;
  VcTrainingPage *training_page;
  VcResultsView *results;
};

G_DEFINE_FINAL_TYPE (VcWindow, vc_window, GTK_TYPE_APPLICATION_WINDOW)

/* ---- inputs in GSettings -------------------------------------------------------------------- */

/* Enums and flags are stored by nick, as on the command line and in profiles, so stored values
 * survive a reordering of the C enums. */
static GVariant *
input_to_variant (VcEstimate *estimate,
                  GParamSpec *pspec)
{
  g_auto(GValue) v = G_VALUE_INIT;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (estimate), pspec->name, &v);
  if (G_IS_PARAM_SPEC_ENUM (pspec) || G_IS_PARAM_SPEC_FLAGS (pspec))
    return g_variant_new_take_string (vc_estimate_dup_input_string (estimate, pspec->name));
  if (G_IS_PARAM_SPEC_BOOLEAN (pspec))
    return g_variant_new_boolean (g_value_get_boolean (&v));
  if (G_IS_PARAM_SPEC_UINT (pspec))
    return g_variant_new_uint32 (g_value_get_uint (&v));
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    return g_variant_new_double (g_value_get_double (&v));
  if (G_IS_PARAM_SPEC_STRING (pspec))
    return g_variant_new_string (g_value_get_string (&v) ? g_value_get_string (&v) : "");
  return NULL;
}

GVariant *
vc_window_save_inputs (VcWindow *self)
{
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  guint n;
  g_autofree GParamSpec **inputs = vc_estimate_list_inputs (&n);

  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);

  for (guint i = 0; i < n; i++)
    {
      GVariant *value = input_to_variant (self->estimate, inputs[i]);

      if (value != NULL)
        g_variant_builder_add (&builder, "{sv}", inputs[i]->name, value);
    }
  return g_variant_builder_end (&builder);
}

static void
restore_one (VcEstimate *estimate,
             GParamSpec *pspec,
             GVariant   *value)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if ((G_IS_PARAM_SPEC_ENUM (pspec) || G_IS_PARAM_SPEC_FLAGS (pspec)) &&
      g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    ok = vc_estimate_set_from_string (estimate, pspec->name, g_variant_get_string (value, NULL), &error);
  else
    {
      g_auto(GValue) v = G_VALUE_INIT;

      g_dbus_gvariant_to_gvalue (value, &v);
      ok = vc_estimate_set_value (estimate, pspec->name, &v, &error);
    }
  /* a value stored by another version may be out of range now: keep the default quietly */
  if (!ok)
    g_debug ("Ignoring the stored value of %s: %s", pspec->name, error->message);
}

void
vc_window_restore_inputs (VcWindow *self,
                          GVariant *stored)
{
  guint n;
  g_autofree GParamSpec **inputs = vc_estimate_list_inputs (&n);
  g_autoptr(GVariant) preset = NULL;
  GParamSpec *preset_pspec = NULL;

  g_return_if_fail (VC_IS_WINDOW (self));
  g_return_if_fail (g_variant_is_of_type (stored, G_VARIANT_TYPE_VARDICT));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GVariant) value = g_variant_lookup_value (stored, inputs[i]->name, NULL);

      if (value == NULL)
        continue;
      /* the preset last: it sets the architecture fields the loop goes through */
      if (g_str_equal (inputs[i]->name, "preset"))
        {
          preset = g_steal_pointer (&value);
          preset_pspec = inputs[i];
          continue;
        }
      restore_one (self->estimate, inputs[i], value);
    }
  if (preset != NULL)
    restore_one (self->estimate, preset_pspec, preset);
}

static void
load_state (VcWindow *self)
{
  g_autoptr(GVariant) inputs = NULL;
  g_autofree char *tab = NULL;

  if (self->settings == NULL)
    return;
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  inputs = g_settings_get_value (self->settings, "last-inputs");
  vc_window_restore_inputs (self, inputs);
  tab = g_settings_get_string (self->settings, "tab");
  gtk_stack_set_visible_child_name (self->stack, tab);
}

static void
save_state (VcWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_delay (self->settings);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_set_value (self->settings, "last-inputs", vc_window_save_inputs (self));
  g_settings_set_string (self->settings, "tab", gtk_stack_get_visible_child_name (self->stack));
  g_settings_apply (self->settings);
}

static void     confirm_then   (VcWindow *self,
                                gboolean  closing,
                                FileFunc  func,
                                GFile    *file);
static gboolean needs_question (VcWindow *self,
                                gboolean  closing);

static gboolean
close_again (gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

/* From an idle: an answer given while close-request still runs cannot close the window again. */
static void
close_now (VcWindow *self,
           GFile    *unused)
{
  self->close_confirmed = TRUE;
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_again, g_object_ref (self), g_object_unref);
}

static gboolean
vc_window_close_request (GtkWindow *window)
{
  VcWindow *self = VC_WINDOW (window);

  /* a profile with unsaved changes asks first; Save or Discard close the window again */
  if (!self->close_confirmed && self->profile != NULL && needs_question (self, TRUE))
    {
      confirm_then (self, TRUE, close_now, NULL);
      return TRUE;
    }
  save_state (self);
  return GTK_WINDOW_CLASS (vc_window_parent_class)->close_request (window);
}

/* ---- tabs ------------------------------------------------------------------------------------ */

static void
tab_changed (VcWindow *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);

  g_object_set (self->estimate, "mode",
                g_strcmp0 (name, "training") == 0 ? VC_MODE_TRAINING : VC_MODE_INFERENCE,
                NULL);
}

/* a profile opened or a New profile sets the mode: the tab follows */
static void
mode_changed (VcWindow *self)
{
  vc_window_set_mode (self, vc_estimate_get_inputs (self->estimate)->mode);
}

void
vc_window_set_mode (VcWindow *self,
                    VcMode    mode)
{
  g_return_if_fail (VC_IS_WINDOW (self));
  gtk_stack_set_visible_child_name (self->stack, mode == VC_MODE_TRAINING ? "training" : "inference");
}

static void
show_tab (GtkWidget  *widget,
          const char *action_name,
          GVariant   *parameter)
{
  vc_window_set_mode (VC_WINDOW (widget),
                      g_str_equal (action_name, "win.show-training") ? VC_MODE_TRAINING : VC_MODE_INFERENCE);
}

/* ---- units --------------------------------------------------------------------------------- */

static void
unit_change_state (GSimpleAction *action,
                   GVariant      *value,
                   VcWindow      *self)
{
  g_autoptr(GError) error = NULL;

  if (!vc_estimate_set_from_string (self->estimate, "unit", g_variant_get_string (value, NULL), &error))
    g_debug ("%s", error->message);
}

static void
unit_changed (VcWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "unit");
  const char *nick = vc_enum_nick (VC_TYPE_UNIT, vc_estimate_get_unit (self->estimate));

  if (action != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (nick));
}

/* ---- errors ---------------------------------------------------------------------------------- */

/* A failed open, save, export or import is said above the inputs; the data side is untouched
 * (the core checks everything before it changes anything). */
static void
show_error (VcWindow   *self,
            const char *format,
            GFile      *file,
            GError     *error)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *heading = g_strdup_printf (format, name);
  g_autofree char *text = g_strdup_printf ("%s: %s", heading, error->message);

  gtk_label_set_label (self->error_label, text);
  gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
}

static void
error_dismissed (VcWindow *self)
{
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
}

/**
 * vc_window_get_error:
 *
 * Returns: (nullable): the error shown above the inputs, %NULL when none is shown
 */
const char *
vc_window_get_error (VcWindow *self)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);
  if (!gtk_revealer_get_reveal_child (self->error_revealer))
    return NULL;
  return gtk_label_get_label (self->error_label);
}

/* ---- dialogs (replaceable by tests) ---------------------------------------------------------- */

typedef struct
{
  VcWindow *self;
  FileFunc func;
  GFile *file;
} Pending;

static Pending *
pending_new (VcWindow *self,
             FileFunc  func,
             GFile    *file)
{
  Pending *p = g_new0 (Pending, 1);

  p->self = g_object_ref (self);
  p->func = func;
  p->file = file ? g_object_ref (file) : NULL;
  return p;
}

static void
pending_free (Pending *p)
{
  g_object_unref (p->self);
  g_clear_object (&p->file);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Pending, pending_free)

static void
file_chosen (GFile    *file,
             gpointer  data)
{
  g_autoptr(Pending) p = data;

  /* cancelled, or the window went away while the dialog was up */
  if (file == NULL || p->self->estimate == NULL)
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
choose_file (VcWindow   *self,
             VcFileMode  mode,
             const char *title,
             const char *accept_label,
             const char *initial_name,
             GtkFileFilter *filter,
             FileFunc    func)
{
  g_autoptr(GtkFileFilter) owned = filter;

  if (self->choose_hook != NULL)
    {
      g_autoptr(GFile) file = self->choose_hook (self, mode, self->hook_data);

      file_chosen (file, pending_new (self, func, NULL));
      return;
    }
  vc_choose_file (GTK_WINDOW (self), mode, title, accept_label, initial_name, filter,
                  file_chosen, pending_new (self, func, NULL));
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

/* ---- recent profiles ------------------------------------------------------------------------- */

#define RECENT_GROUP "vram-calculator-profile"
#define MAX_RECENT 8

static void
add_recent (GFile *file)
{
  static const char *groups[] = { RECENT_GROUP, NULL };
  g_autofree char *uri = g_file_get_uri (file);
  const char *app = g_get_application_name () ? g_get_application_name () : g_get_prgname ();
  GtkRecentData data = {
    .mime_type = (char *) VC_PROFILE_MIME_TYPE,
    .app_name = (char *) (app ? app : "vram-calculator"),
    .app_exec = (char *) "vram-calculator",
    .groups = (char **) groups,
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static int
recent_newest_first (gconstpointer a,
                     gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **) a;
  GtkRecentInfo *ib = *(GtkRecentInfo **) b;

  return g_date_time_compare (gtk_recent_info_get_modified (ib), gtk_recent_info_get_modified (ia));
}

/* Profiles this program opened or saved that still exist, newest first. */
static void
rebuild_recent (VcWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr(GPtrArray) profiles = g_ptr_array_new ();
  guint shown = 0;

  g_menu_remove_all (self->recent_menu);
  for (GList *l = items; l != NULL; l = l->next)
    if (gtk_recent_info_has_group (l->data, RECENT_GROUP) && gtk_recent_info_exists (l->data))
      g_ptr_array_add (profiles, l->data);
  g_ptr_array_sort (profiles, recent_newest_first);

  for (guint i = 0; i < profiles->len && shown < MAX_RECENT; i++, shown++)
    {
      GtkRecentInfo *info = profiles->pdata[i];
      g_autoptr(GMenuItem) item = NULL;
      g_auto(GStrv) parts = g_strsplit (gtk_recent_info_get_display_name (info), "_", -1);
      /* file names are not mnemonics */
      g_autofree char *label = g_strjoinv ("__", parts);

      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent",
                                               g_variant_new_string (gtk_recent_info_get_uri (info)));
      g_menu_append_item (self->recent_menu, item);
    }
  if (shown == 0)
    g_menu_append (self->recent_menu, _("No Recent Profiles"), "win.no-recent");
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

GMenuModel *
vc_window_get_recent_menu (VcWindow *self)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);
  return G_MENU_MODEL (self->recent_menu);
}

/* ---- profiles -------------------------------------------------------------------------------- */

static void
clear_notes (VcWindow *self)
{
  vc_model_section_set_note (VC_MODEL_SECTION (vc_window_get_model_section (self, VC_MODE_INFERENCE)),
                             NULL, FALSE);
  vc_model_section_set_note (VC_MODEL_SECTION (vc_window_get_model_section (self, VC_MODE_TRAINING)),
                             NULL, FALSE);
}

static gboolean
save_to (VcWindow *self,
         GFile    *file)
{
  g_autoptr(GError) error = NULL;

  if (!vc_profile_save (self->profile, file, NULL, &error))
    {
      show_error (self, _("Could not save “%s”"), file ? file : vc_profile_get_file (self->profile), error);
      return FALSE;
    }
  error_dismissed (self);
  add_recent (vc_profile_get_file (self->profile));
  return TRUE;
}

static void
open_file (VcWindow *self,
           GFile    *file)
{
  g_autoptr(GError) error = NULL;

  if (!vc_profile_load (self->profile, file, NULL, &error))
    {
      show_error (self, _("Could not open “%s”"), file, error);
      return;
    }
  error_dismissed (self);
  clear_notes (self);
  add_recent (file);
}

static void
new_profile (VcWindow *self,
             GFile    *unused)
{
  vc_profile_reset (self->profile);
  error_dismissed (self);
  clear_notes (self);
}

/* Whether leaving the current profile loses something. Closing an untitled profile does not:
 * its inputs are kept in GSettings for the next start; its name and notes are not. */
static gboolean
needs_question (VcWindow *self,
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
  FileFunc then = self->then_func;
  g_autoptr(GFile) then_file = g_steal_pointer (&self->then_file);

  self->then_func = NULL;
  if (save_to (self, file) && then != NULL)
    then (self, then_file);
}

static void
answered (int      answer,
          gpointer data)
{
  Pending *p = data;
  VcWindow *self = p->self;

  if (self->estimate == NULL || answer == VC_WINDOW_ANSWER_CANCEL)
    {
      pending_free (p);
      return;
    }
  if (answer == VC_WINDOW_ANSWER_SAVE)
    {
      if (vc_profile_get_file (self->profile) == NULL)
        {
          g_autofree char *name = suggested_name (self, VC_PROFILE_SUFFIX);

          /* the rest waits for the Save As dialog (a cancelled one forgets it next time) */
          self->then_func = p->func;
          g_set_object (&self->then_file, p->file);
          pending_free (p);
          choose_file (self, VC_FILE_SAVE, _("Save Profile"), _("_Save"), name,
                       make_filter (_("Profiles"), VC_PROFILE_MIME_TYPE, "json"), save_as_then);
          return;
        }
      if (!save_to (self, NULL))
        {
          pending_free (p);
          return;
        }
    }
  p->func (self, p->file);
  pending_free (p);
}

/* Runs func at once when nothing would be lost, else after Save or Discard. */
static void
confirm_then (VcWindow *self,
              gboolean  closing,
              FileFunc  func,
              GFile    *file)
{
  Pending *p;
  g_autofree char *title = NULL, *heading = NULL;
  const char * const buttons[] = { _("_Cancel"), _("_Discard"), _("_Save"), NULL };

  if (!needs_question (self, closing))
    {
      func (self, file);
      return;
    }
  p = pending_new (self, func, file);
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

static void
update_title (VcWindow *self)
{
  g_autofree char *title = vc_profile_dup_title (self->profile);
  g_autofree char *shown = NULL, *window_title = NULL;
  GFile *file = vc_profile_get_file (self->profile);

  /* the bullet marks unsaved changes, as in GNOME's editors */
  shown = g_strdup_printf ("%s%s", vc_profile_get_modified (self->profile) ? "• " : "", title);
  /* TRANSLATORS: the window title: the profile's title, then the application's name */
  window_title = g_strdup_printf (_("%s — VRAM Calculator"), shown);
  gtk_label_set_label (self->profile_label, shown);
  gtk_window_set_title (GTK_WINDOW (self), window_title);
  if (file != NULL)
    {
      g_autofree char *where = g_file_get_parse_name (file);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->profile_button), where);
    }
  else
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->profile_button), _("Profile name and notes"));
}

/* ---- importing a config.json ----------------------------------------------------------------- */

static void
import_done (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_autoptr(Pending) p = data;
  VcWindow *self = p->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(VcModelFile) model = vc_model_file_load_finish (result, &error);
  g_autoptr(GString) note = NULL;
  VcHfConfig *config;
  const char *warning;

  self->n_busy--;
  if (self->estimate == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (model == NULL)
    {
      show_error (self, _("Could not import “%s”"), p->file, error);
      return;
    }
  error_dismissed (self);
  vc_model_file_apply (model, self->estimate);

  config = vc_model_file_get_config (model);
  note = g_string_new (config ? vc_hf_config_get_description (config) : NULL);
  warning = vc_model_file_get_warning (model);
  if (warning != NULL && *warning != '\0')
    g_string_append_printf (note, "%s%s", note->len ? "\n" : "", warning);
  for (VcMode mode = VC_MODE_INFERENCE; mode <= VC_MODE_TRAINING; mode++)
    {
      VcModelSection *section = VC_MODEL_SECTION (vc_window_get_model_section (self, mode));

      vc_model_section_set_note (section, note->str, warning != NULL && *warning != '\0');
      vc_model_section_set_model_file (section, model);
    }
}

/* In a thread: the file may sit on a slow disk or a network mount. */
static void
import_file (VcWindow *self,
             GFile    *file)
{
  self->n_busy++;
  vc_model_file_load_async (file, self->cancellable, import_done, pending_new (self, NULL, file));
}

/**
 * vc_window_is_busy:
 *
 * Returns: whether an import or a dropped file is still being read
 */
gboolean
vc_window_is_busy (VcWindow *self)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), FALSE);
  return self->n_busy > 0;
}

/* ---- dropped files --------------------------------------------------------------------------- */

/* The start of a file tells a profile from a config.json: a profile says what it is first. */
#define SNIFF_SIZE (64 * 1024)

static gboolean
read_more (const char *contents,
           goffset     size,
           gpointer    data)
{
  return size < SNIFF_SIZE;
}

static void
open_dropped_profile (VcWindow *self,
                      GFile    *file)
{
  confirm_then (self, FALSE, open_file, file);
}

static void
sniffed (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  g_autoptr(Pending) p = data;
  VcWindow *self = p->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  self->n_busy--;
  if (!g_file_load_partial_contents_finish (G_FILE (source), result, &contents, &length, NULL, &error))
    {
      if (self->estimate != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, _("Could not open “%s”"), p->file, error);
      return;
    }
  if (self->estimate == NULL)
    return;
  if (g_strstr_len (contents, length, "\"" VC_PROFILE_FORMAT "\"") != NULL)
    open_dropped_profile (self, p->file);
  else
    import_file (self, p->file);
}

/* A profile opens; a config.json, a .gguf file or a model folder is imported. */
static void
open_dropped (VcWindow *self,
              GFile    *file)
{
  g_autofree char *base = g_file_get_basename (file);

  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY ||
      g_strcmp0 (base, "config.json") == 0 || (base && g_str_has_suffix (base, ".gguf")))
    {
      import_file (self, file);
      return;
    }
  self->n_busy++;
  g_file_load_partial_contents_async (file, self->cancellable, read_more, sniffed,
                                      pending_new (self, NULL, file));
}

/**
 * vc_window_open_file:
 * @file: a profile, a config.json or a folder holding one
 *
 * Opens @file the way dropping it on the window does: a profile opens (after asking about
 * unsaved changes), a model configuration is imported.
 */
void
vc_window_open_file (VcWindow *self,
                     GFile    *file)
{
  g_return_if_fail (VC_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  open_dropped (self, file);
}

static gboolean
drop_received (GtkDropTarget *target,
               const GValue  *value,
               double         x,
               double         y,
               VcWindow      *self)
{
  GFile *file = NULL;

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));

      file = files ? files->data : NULL;
      g_slist_free (files);
    }
  else if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    file = g_value_get_object (value);
  if (file == NULL)
    return FALSE;
  open_dropped (self, file);
  return TRUE;
}

/* ---- actions --------------------------------------------------------------------------------- */

static void
choose_profile_to_open (VcWindow *self,
                        GFile    *unused)
{
  choose_file (self, VC_FILE_OPEN, _("Open Profile"), _("_Open"), NULL,
               make_filter (_("Profiles"), VC_PROFILE_MIME_TYPE, "json"), open_file);
}

static void
save_chosen (VcWindow *self,
             GFile    *file)
{
  save_to (self, file);
}

static void
save_as (VcWindow *self)
{
  g_autofree char *name = suggested_name (self, VC_PROFILE_SUFFIX);

  choose_file (self, VC_FILE_SAVE, _("Save Profile"), _("_Save"), name,
               make_filter (_("Profiles"), VC_PROFILE_MIME_TYPE, "json"),
               save_chosen);
}

static void
export_to (VcWindow *self,
           GFile    *file)
{
  g_autoptr(GError) error = NULL;

  if (!vc_csv_write_file (file, self->estimate, NULL, &error))
    show_error (self, _("Could not export to “%s”"), file, error);
  else
    error_dismissed (self);
}

static void
profile_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  VcWindow *self = VC_WINDOW (widget);

  if (g_str_equal (action_name, "win.new"))
    confirm_then (self, FALSE, new_profile, NULL);
  else if (g_str_equal (action_name, "win.open"))
    confirm_then (self, FALSE, choose_profile_to_open, NULL);
  else if (g_str_equal (action_name, "win.open-recent"))
    {
      g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));
      confirm_then (self, FALSE, open_file, file);
    }
  else if (g_str_equal (action_name, "win.save"))
    {
      if (vc_profile_get_file (self->profile) != NULL)
        save_to (self, NULL);
      else
        save_as (self);
    }
  else if (g_str_equal (action_name, "win.save-as"))
    save_as (self);
  else if (g_str_equal (action_name, "win.profile-details"))
    gtk_menu_button_popup (self->profile_button);
  else if (g_str_equal (action_name, "win.export"))
    {
      g_autofree char *name = suggested_name (self, ".csv");
      choose_file (self, VC_FILE_SAVE, _("Export CSV"), _("_Export"), name,
                   make_filter (_("CSV files"), VC_CSV_MIME_TYPE, "csv"), export_to);
    }
  else if (g_str_equal (action_name, "win.import-config"))
    {
      GtkFileFilter *filter = make_filter (_("Model files (config.json, .gguf)"), "application/json", "json");

      gtk_file_filter_add_suffix (filter, "gguf");
      choose_file (self, VC_FILE_OPEN, _("Import config.json"), _("_Import"), NULL, filter, import_file);
    }
  else if (g_str_equal (action_name, "win.import-folder"))
    choose_file (self, VC_FILE_SELECT_FOLDER, _("Import a Model Folder"), _("_Import"), NULL, NULL,
                 import_file);
}

void
vc_window_set_dialog_hooks (VcWindow           *self,
                            VcWindowChooseFunc  choose,
                            VcWindowAskFunc     ask,
                            gpointer            user_data)
{
  g_return_if_fail (VC_IS_WINDOW (self));
  self->choose_hook = choose;
  self->ask_hook = ask;
  self->hook_data = user_data;
}

/* ---- public ---------------------------------------------------------------------------------- */

VcWindow *
vc_window_new (GtkApplication *application)
{
  return g_object_new (VC_TYPE_WINDOW, "application", application, NULL);
}

VcEstimate *
vc_window_get_estimate (VcWindow *self)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);
  return self->estimate;
}

GtkWidget *
vc_window_get_page (VcWindow *self,
                    VcMode    mode)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);
  return mode == VC_MODE_TRAINING ? GTK_WIDGET (self->training_page) : GTK_WIDGET (self->inference_page);
}

GtkWidget *
vc_window_get_input (VcWindow   *self,
                     VcMode      mode,
                     const char *property)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);
  if (mode == VC_MODE_TRAINING)
    return vc_training_page_get_input (self->training_page, property);
  return vc_inference_page_get_input (self->inference_page, property);
}

VcProfile *
vc_window_get_profile (VcWindow *self)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);
  return self->profile;
}

GtkWidget *
vc_window_get_model_section (VcWindow *self,
                             VcMode    mode)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);
  if (mode == VC_MODE_TRAINING)
    return vc_training_page_get_model_section (self->training_page);
  return vc_inference_page_get_model_section (self->inference_page);
}

GtkWidget *
vc_window_get_results (VcWindow *self)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->results);
}

/* ---- GObject --------------------------------------------------------------------------------- */

static void
vc_window_dispose (GObject *object)
{
  VcWindow *self = VC_WINDOW (object);

  /* what is still being read finds the window gone */
  g_cancellable_cancel (self->cancellable);
  /* the children go first: their bindings and handlers let go of the estimate */
  G_OBJECT_CLASS (vc_window_parent_class)->dispose (object);
  g_clear_object (&self->settings);
  g_clear_object (&self->profile);
  g_clear_object (&self->then_file);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->estimate);
}

static void
vc_window_class_init (VcWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = vc_window_dispose;
  window_class->close_request = vc_window_close_request;

  g_type_ensure (VC_TYPE_INFERENCE_PAGE);
  g_type_ensure (VC_TYPE_TRAINING_PAGE);
  g_type_ensure (VC_TYPE_RESULTS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, VcWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, inference_page);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, training_page);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, results);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, profile_button);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, profile_label);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, profile_name);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, profile_notes);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, recent_menu);
  gtk_widget_class_bind_template_callback (widget_class, error_dismissed);

  gtk_widget_class_install_action (widget_class, "win.show-inference", NULL, show_tab);
  gtk_widget_class_install_action (widget_class, "win.show-training", NULL, show_tab);
  gtk_widget_class_install_action (widget_class, "win.new", NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "win.open", NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", profile_action);
  gtk_widget_class_install_action (widget_class, "win.no-recent", NULL, NULL);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "win.profile-details", NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "win.import-config", NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "win.import-folder", NULL, profile_action);
}

static void
vc_window_init (VcWindow *self)
{
  g_autoptr(GSimpleAction) unit = NULL;
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));

  if (g_str_equal (PROFILE, "development"))
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  self->estimate = vc_estimate_new ();
  vc_inference_page_set_estimate (self->inference_page, self->estimate);
  vc_training_page_set_estimate (self->training_page, self->estimate);
  vc_results_view_set_estimate (self->results, self->estimate);

  /* a plain stateful action rather than GPropertyAction, which would keep the estimate alive
   * as long as the window's action group */
  unit = g_simple_action_new_stateful ("unit", G_VARIANT_TYPE_STRING,
                                       g_variant_new_string (vc_enum_nick (VC_TYPE_UNIT, VC_UNIT_GB)));
  g_signal_connect_object (unit, "change-state", G_CALLBACK (unit_change_state), self, 0);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (unit));
  g_signal_connect_object (self->estimate, "notify::unit", G_CALLBACK (unit_changed), self,
                           G_CONNECT_SWAPPED);

  /* without the schema (run from a build tree without GSETTINGS_SCHEMA_DIR) nothing is kept */
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, VC_SCHEMA_ID, TRUE);
  if (schema != NULL)
    self->settings = g_settings_new (VC_SCHEMA_ID);
  else
    g_debug ("Schema %s not found: window state and inputs will not be kept", VC_SCHEMA_ID);
  load_state (self);
  unit_changed (self);

  g_signal_connect_object (self->stack, "notify::visible-child-name", G_CALLBACK (tab_changed),
                           self, G_CONNECT_SWAPPED);
  tab_changed (self);
  g_signal_connect_object (self->estimate, "notify::mode", G_CALLBACK (mode_changed), self,
                           G_CONNECT_SWAPPED);

  /* the inputs restored from the last run are where an untitled profile starts */
  self->profile = vc_profile_new (self->estimate);
  self->cancellable = g_cancellable_new ();
  g_signal_connect_object (self->profile, "notify::title", G_CALLBACK (update_title), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profile, "notify::modified", G_CALLBACK (update_title), self,
                           G_CONNECT_SWAPPED);
  g_object_bind_property (self->profile, "name", self->profile_name, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->profile, "notes", gtk_text_view_get_buffer (self->profile_notes), "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  update_title (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.no-recent", FALSE);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (rebuild_recent),
                           self, G_CONNECT_SWAPPED);
  rebuild_recent (self);

  drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop, (GType[2]) { GDK_TYPE_FILE_LIST, G_TYPE_FILE }, 2);
  g_signal_connect_object (drop, "drop", G_CALLBACK (drop_received), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
