/* vc-window.c: the main window. It owns the one estimate both tabs edit: the visible tab sets
 * its mode. Window size, tab and every input are kept in GSettings between runs. */
#define G_LOG_DOMAIN "vc-window"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-enums.h"
#include "vc-inference-page.h"
#include "vc-results-view.h"
#include "vc-training-page.h"
#include "vc-window.h"

struct _VcWindow
{
  GtkApplicationWindow parent_instance;

  VcEstimate *estimate;
  GSettings *settings;

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
  if (G_IS_PARAM_SPEC_ENUM (pspec))
    return g_variant_new_string (vc_enum_nick (pspec->value_type, g_value_get_enum (&v)));
  if (G_IS_PARAM_SPEC_FLAGS (pspec))
    {
      GFlagsClass *klass = G_PARAM_SPEC_FLAGS (pspec)->flags_class;
      guint flags = g_value_get_flags (&v);
      g_autoptr(GString) s = g_string_new (NULL);

      for (guint i = 0; i < klass->n_values; i++)
        if ((flags & klass->values[i].value) == klass->values[i].value)
          g_string_append_printf (s, "%s%s", s->len ? "," : "", klass->values[i].value_nick);
      return g_variant_new_string (s->str);
    }
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

static gboolean
vc_window_close_request (GtkWindow *window)
{
  save_state (VC_WINDOW (window));
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

  /* the children go first: their bindings and handlers let go of the estimate */
  G_OBJECT_CLASS (vc_window_parent_class)->dispose (object);
  g_clear_object (&self->settings);
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

  gtk_widget_class_install_action (widget_class, "win.show-inference", NULL, show_tab);
  gtk_widget_class_install_action (widget_class, "win.show-training", NULL, show_tab);
}

static void
vc_window_init (VcWindow *self)
{
  g_autoptr(GSimpleAction) unit = NULL;
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

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
}
