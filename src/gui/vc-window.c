/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-window.c: the main window. It owns the one estimate both tabs edit: the visible tab sets
 * its mode. The actions and their files are in vc-window-actions.c, dropped files in
 * vc-window-dnd.c, the recent profiles in vc-window-recent.c and the state kept between runs
 * in vc-window-settings.c. */
#define G_LOG_DOMAIN "vc-window"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-a11y.h"
#include "vc-compat.h"
#include "vc-enums.h"
#include "vc-model-search.h"
#include "vc-model-section.h"
#include "vc-text.h"
#include "vc-units.h"
#include "vc-window-private.h"

G_DEFINE_FINAL_TYPE (VcWindow, vc_window, GTK_TYPE_APPLICATION_WINDOW)

/* ---- closing --------------------------------------------------------------------------------- */

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

  /* a profile or an export being written is finished first */
  if (self->n_writing > 0)
    {
      self->close_when_written = TRUE;
      return TRUE;
    }
  /* a profile with unsaved changes asks first; Save or Discard close the window again */
  if (!self->close_confirmed && self->profile != NULL && _vc_window_needs_question (self, TRUE))
    {
      _vc_window_confirm_then (self, TRUE, close_now, NULL);
      return TRUE;
    }
  _vc_window_save_state (self);
  return GTK_WINDOW_CLASS (vc_window_parent_class)->close_request (window);
}

gboolean
_vc_window_is_disposed (VcWindow *self)
{
  return self->estimate == NULL;
}

void
_vc_window_begin_io (VcWindow *self,
                     gboolean  writing)
{
  self->n_busy++;
  if (writing)
    self->n_writing++;
}

void
_vc_window_end_io (VcWindow *self,
                   gboolean  writing)
{
  self->n_busy--;
  if (!writing)
    return;
  self->n_writing--;
  if (self->n_writing == 0 && self->close_when_written)
    {
      self->close_when_written = FALSE;
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_again, g_object_ref (self), g_object_unref);
    }
}

/**
 * vc_window_is_busy:
 *
 * Returns: whether a file is still being read or written (a profile, an export, an import or
 *   a dropped file)
 */
gboolean
vc_window_is_busy (VcWindow *self)
{
  g_return_val_if_fail (VC_IS_WINDOW (self), FALSE);
  return self->n_busy > 0;
}

/* ---- tabs ------------------------------------------------------------------------------------ */

/* the model search's choice of a model on this computer: imported as a file chosen by hand is */
static void
local_model_chosen (VcWindow *self,
                    GFile    *file)
{
  _vc_window_import (self, file);
}

/* Not visible at start-up, the Training tab is built when it is first shown (or first needed):
 * the window's first frame comes sooner. */
VcTrainingPage *
_vc_window_ensure_training_page (VcWindow *self)
{
  if (self->training_page == NULL && self->estimate != NULL)
    {
      self->training_page = g_object_new (VC_TYPE_TRAINING_PAGE, NULL);
      gtk_scrolled_window_set_child (self->training_scroller, GTK_WIDGET (self->training_page));
      vc_training_page_set_estimate (self->training_page, self->estimate);
      /* one unit, note and "import approximately" choice, shown in both tabs */
      vc_model_section_set_state (VC_MODEL_SECTION (vc_training_page_get_model_section (self->training_page)),
                                  self->state);
      g_signal_connect_object (vc_model_section_get_search (VC_MODEL_SECTION (vc_training_page_get_model_section (self->training_page))),
                               "local-model-chosen", G_CALLBACK (local_model_chosen), self, G_CONNECT_SWAPPED);
    }
  return self->training_page;
}

static void
tab_changed (VcWindow *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);

  if (g_strcmp0 (name, "training") == 0)
    _vc_window_ensure_training_page (self);

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

/* ---- units --------------------------------------------------------------------------------- */

static void
unit_change_state (GSimpleAction *action,
                   GVariant      *value,
                   VcWindow      *self)
{
  g_autoptr(GError) error = NULL;
  VcUnit unit;

  if (vc_unit_from_string (g_variant_get_string (value, NULL), &unit, &error))
    vc_profile_set_unit (self->profile, unit);
  else
    g_debug ("%s", error->message);
}

static void
unit_changed (VcWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "unit");
  VcUnit unit = vc_profile_get_unit (self->profile);
  const char *nick = vc_unit_to_string (unit);

  if (action != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (nick));
}

static void
add_unit_action (VcWindow *self)
{
  g_autoptr(GSimpleAction) unit = NULL;

  /* a plain stateful action rather than GPropertyAction, which would keep the profile alive
   * as long as the window's action group */
  unit = g_simple_action_new_stateful ("unit", G_VARIANT_TYPE_STRING,
                                       g_variant_new_string (vc_enum_nick (VC_TYPE_UNIT, VC_UNIT_GB)));
  g_signal_connect_object (unit, "change-state", G_CALLBACK (unit_change_state), self, 0);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (unit));
  g_signal_connect_object (self->profile, "notify::unit", G_CALLBACK (unit_changed), self,
                           G_CONNECT_SWAPPED);
}

/* ---- errors ---------------------------------------------------------------------------------- */

/* A failed open, save, export or import is said above the inputs; the data side is untouched
 * (the core checks everything before it changes anything). */
void
_vc_window_show_error (VcWindow   *self,
                       const char *format,
                       GFile      *file,
                       GError     *error)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *heading = g_strdup_printf (format, name);
  g_autofree char *text = g_strdup_printf ("%s: %s", heading, error->message);
  /* file, shard and tensor names come from whoever wrote the file */
  g_autofree char *shown = vc_escape_controls (text, TRUE);

  gtk_label_set_label (self->error_label, shown);
  gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
}

void
_vc_window_dismiss_error (VcWindow *self)
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

/* ---- the profile ----------------------------------------------------------------------------- */

void
_vc_window_clear_notes (VcWindow *self)
{
  vc_window_state_set_note (self->state, NULL, FALSE);
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
      vc_widget_set_tooltip_text (GTK_WIDGET (self->profile_button), where);
    }
  else
    vc_widget_set_tooltip_text (GTK_WIDGET (self->profile_button), _("Profile name and notes"));
}

/* the inputs restored from the last run are where an untitled profile starts */
static void
setup_profile (VcWindow *self)
{
  vc_profile_mark_saved (self->profile);
  g_signal_connect_object (self->profile, "notify::title", G_CALLBACK (update_title), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profile, "notify::modified", G_CALLBACK (update_title), self,
                           G_CONNECT_SWAPPED);
  update_title (self);
}

/* The profile's name and notes, in the profile button's popover: made after the first frame,
 * or when the button is pressed sooner. */
static void
ensure_profile_popover (VcWindow *self)
{
  g_autoptr(GtkBuilder) builder = NULL;

  if (self->profile_name != NULL)
    return;
  builder = gtk_builder_new_from_resource ("/io/github/vramcalc/VramCalculator/vc-profile-popover.ui");
  self->profile_name = GTK_ENTRY (gtk_builder_get_object (builder, "profile_name"));
  self->profile_notes = GTK_TEXT_VIEW (gtk_builder_get_object (builder, "profile_notes"));
  gtk_menu_button_set_create_popup_func (self->profile_button, NULL, NULL, NULL);
  gtk_menu_button_set_popover (self->profile_button,
                               GTK_WIDGET (gtk_builder_get_object (builder, "profile_popover")));
  g_object_bind_property (self->profile, "name", self->profile_name, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->profile, "notes", gtk_text_view_get_buffer (self->profile_notes), "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

static void
profile_popover_wanted (GtkMenuButton *button,
                        gpointer       data)
{
  ensure_profile_popover (VC_WINDOW (data));
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

/* ---- after the first frame ------------------------------------------------------------------ */

/* The main menu's popover, a dozen items, is made after the first frame; pressed sooner
 * (F10 included), the button makes it then. The profile's popover likewise. */
static void
ensure_primary_menu (VcWindow *self)
{
  if (gtk_menu_button_get_menu_model (self->menu_button) != NULL)
    return;
  gtk_menu_button_set_create_popup_func (self->menu_button, NULL, NULL, NULL);
  gtk_menu_button_set_menu_model (self->menu_button, self->primary_menu);
}

static void
primary_menu_wanted (GtkMenuButton *button,
                     gpointer       data)
{
  ensure_primary_menu (VC_WINDOW (data));
}

/* Built after the first frame rather than with the window, as they are not visible at
 * start-up: the shortcuts window, the main menu and the profile's popover. (A low-priority
 * idle runs once the frame clock has drawn the window.) */
static gboolean
load_shortcuts (gpointer data)
{
  VcWindow *self = data;

  if (_vc_window_is_disposed (self))
    return G_SOURCE_REMOVE;
  ensure_primary_menu (self);
  ensure_profile_popover (self);
  vc_application_window_add_shortcuts (GTK_APPLICATION_WINDOW (self));
  return G_SOURCE_REMOVE;
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
    return vc_training_page_get_model_section (_vc_window_ensure_training_page (self));
  return vc_inference_page_get_model_section (self->inference_page);
}

/* ---- GObject --------------------------------------------------------------------------------- */

/* GTK 4.8 keeps a popover that is open when its window is destroyed, and all it holds (the
 * estimate, through the GPU editor or a drop-down): they are closed first. */
static void
close_popovers (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_POPOVER (child) && gtk_widget_get_visible (child))
        gtk_popover_popdown (GTK_POPOVER (child));
      close_popovers (child);
    }
}

static void
vc_window_dispose (GObject *object)
{
  VcWindow *self = VC_WINDOW (object);

  close_popovers (GTK_WIDGET (self));
  /* what is still being read finds the window gone */
  g_cancellable_cancel (self->cancellable);
  if (self->help_window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->help_window));
  if (self->hub_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->hub_dialog));
  /* the children go first: their bindings and handlers let go of the estimate */
  G_OBJECT_CLASS (vc_window_parent_class)->dispose (object);
  self->training_page = NULL;
  g_clear_object (&self->settings);
  g_clear_object (&self->profile);
  g_clear_object (&self->state);
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
  g_type_ensure (VC_TYPE_SPLIT_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, VcWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, dismiss_button);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, split);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, inference_page);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, training_scroller);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, results);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, profile_button);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, profile_label);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, VcWindow, recent_menu);
  gtk_widget_class_bind_template_callback_full (widget_class, "error_dismissed",
                                                G_CALLBACK (_vc_window_dismiss_error));

  _vc_window_class_actions_init (klass);
}

/* Set after the template is built, not in the .ui: see vc_widget_set_tooltip_text() */
static const VcTooltip tooltips[] = {
  { "profile_button", N_("Profile name and notes") },
  { "menu_button", N_("Main Menu") },
  { "dismiss_button", N_("Dismiss") },
};

static void
vc_window_init (VcWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  vc_widget_set_template_tooltips (GTK_WIDGET (self), VC_TYPE_WINDOW, tooltips, G_N_ELEMENTS (tooltips));
  vc_a11y_name (GTK_WIDGET (self->menu_button), _("Main Menu"));
  gtk_menu_button_set_create_popup_func (self->menu_button, primary_menu_wanted, self, NULL);
  gtk_menu_button_set_create_popup_func (self->profile_button, profile_popover_wanted, self, NULL);
  vc_a11y_labelled_by (GTK_WIDGET (self->profile_button), GTK_WIDGET (self->profile_label));

  if (g_str_equal (PROFILE, "development"))
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  self->estimate = vc_estimate_new ();
  vc_inference_page_set_estimate (self->inference_page, self->estimate);
  vc_results_view_set_estimate (self->results, self->estimate);
  /* the profile keeps the unit the settings restore; the views show it through the window's
   * state, which both tabs and the results bind to */
  self->profile = vc_profile_new (self->estimate);
  self->state = vc_window_state_new (self->estimate);
  g_object_bind_property (self->profile, "unit", self->state, "unit", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->state, "unit", self->results, "unit", G_BINDING_SYNC_CREATE);
  vc_model_section_set_state (VC_MODEL_SECTION (vc_inference_page_get_model_section (self->inference_page)),
                              self->state);
  add_unit_action (self);

  _vc_window_settings_init (self);
  unit_changed (self);

  g_signal_connect_object (self->stack, "notify::visible-child-name", G_CALLBACK (tab_changed),
                           self, G_CONNECT_SWAPPED);
  tab_changed (self);
  g_signal_connect_object (self->estimate, "notify::mode", G_CALLBACK (mode_changed), self,
                           G_CONNECT_SWAPPED);
  /* the model note says what the estimate leaves out, which a projector changes */
  g_signal_connect_object (self->estimate, "notify::mmproj-bytes", G_CALLBACK (_vc_window_update_model_note), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->estimate, "notify::mmproj-offload", G_CALLBACK (_vc_window_update_model_note), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->estimate, "notify::engine", G_CALLBACK (_vc_window_update_model_note), self,
                           G_CONNECT_SWAPPED);
  /* and a typed-in architecture's RoPE table, which these inputs change */
  {
    static const char *const rope_inputs[] = {
      "notify::max-context", "notify::rope-table-rows", "notify::rotary-dim", "notify::rope-table-kind",
      "notify::head-dim", "notify::hidden-size", "notify::heads", "notify::method", "notify::mode",
      "notify::learned-positions", "notify::kv-lora-rank", "notify::qk-rope-head-dim",
    };

    for (guint i = 0; i < G_N_ELEMENTS (rope_inputs); i++)
      g_signal_connect_object (self->estimate, rope_inputs[i], G_CALLBACK (_vc_window_update_model_note), self,
                               G_CONNECT_SWAPPED);
  }

  self->cancellable = g_cancellable_new ();
  setup_profile (self);
  _vc_window_recent_init (self);
  g_idle_add_full (G_PRIORITY_LOW, load_shortcuts, g_object_ref (self), g_object_unref);
  _vc_window_dnd_init (self);

  /* a model on this computer chosen in the search opens as the Hub dialog's choice does (the
   * training page's search too, when the page is made) */
  g_signal_connect_object (vc_model_section_get_search (VC_MODEL_SECTION (vc_inference_page_get_model_section (self->inference_page))),
                           "local-model-chosen", G_CALLBACK (local_model_chosen), self, G_CONNECT_SWAPPED);

  /* the first question is "which model?": with none chosen, typing goes to the search */
  if (vc_estimate_get_preset (self->estimate)[0] == '\0')
    gtk_window_set_focus (GTK_WINDOW (self),
                          vc_model_search_get_entry (VC_MODEL_SEARCH (vc_model_section_get_search (
                            VC_MODEL_SECTION (vc_inference_page_get_model_section (self->inference_page))))));
}
