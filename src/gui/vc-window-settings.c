/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-window-settings.c: what the window keeps in GSettings between runs: its size, the tab and
 * every input of the estimate. */
#define G_LOG_DOMAIN "vc-window"

#include "config.h"

#include "vc-profile.h"
#include "vc-units.h"
#include "vc-window-private.h"

/* Not an input: the profile format version of the stored inputs; none before format 3 */
#define VC_STORED_FORMAT_VERSION "profile-version"

GVariant *
vc_window_save_inputs (VcWindow *self)
{
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  guint n;
  g_autofree GParamSpec **inputs = vc_estimate_list_inputs (&n);

  g_return_val_if_fail (VC_IS_WINDOW (self), NULL);

  /* the profile format the inputs follow (vc_window_restore_inputs) */
  g_variant_builder_add (&builder, "{sv}", VC_STORED_FORMAT_VERSION,
                         g_variant_new_take_string (g_strdup_printf ("%d", VC_PROFILE_VERSION)));
  for (guint i = 0; i < n; i++)
    {
      /* the inputs' one text form, as in profiles and on the command line */
      char *text = vc_estimate_dup_input_string (self->estimate, inputs[i]->name);

      g_variant_builder_add (&builder, "{sv}", inputs[i]->name, g_variant_new_take_string (text));
      /* the profile's unit, kept with the inputs as in a profile */
      if (g_str_equal (inputs[i]->name, VC_UNIT_FOLLOWS_INPUT))
        g_variant_builder_add (&builder, "{sv}", "unit",
                               g_variant_new_string (vc_unit_to_string (vc_profile_get_unit (self->profile))));
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

  if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    ok = vc_estimate_set_from_string (estimate, pspec->name, g_variant_get_string (value, NULL), &error);
  else
    {
      /* numbers and booleans as an older version stored them */
      g_auto(GValue) v = G_VALUE_INIT;

      g_dbus_gvariant_to_gvalue (value, &v);
      ok = vc_estimate_set_value (estimate, pspec->name, &v, &error);
    }
  /* a value stored by another version may be out of range now: keep the default quietly */
  if (!ok)
    g_debug ("Ignoring the stored value of %s: %s", pspec->name, error->message);
}

static void
restore_unit (VcWindow *self,
              GVariant *stored)
{
  g_autoptr(GError) error = NULL;
  const char *text;
  VcUnit unit;

  if (!g_variant_lookup (stored, "unit", "&s", &text))
    return;
  /* a value stored by another version may be unknown now: keep the unit quietly */
  if (vc_unit_from_string (text, &unit, &error))
    vc_profile_set_unit (self->profile, unit);
  else
    g_debug ("Ignoring the stored value of unit: %s", error->message);
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
  restore_unit (self, stored);
  /* inputs kept before training had a precision of its own: training used the one precision
   * when it was a floating-point one */
  if (!g_variant_lookup (stored, "training-precision", "&s", NULL) &&
      vc_precision_is_float (vc_estimate_get_inputs (self->estimate)->precision))
    g_object_set (self->estimate, "training-precision",
                  (VcTrainingPrecision) vc_estimate_get_inputs (self->estimate)->precision, NULL);
  /* inputs kept before format 3 stored a typed-in architecture's RoPE table as kind 0, as its
   * profiles did: read as a profile of that format is */
  {
    g_autoptr(GVariant) version = g_variant_lookup_value (stored, VC_STORED_FORMAT_VERSION, NULL);
    g_autoptr(GVariant) kind = g_variant_lookup_value (stored, "rope-table-kind", NULL);

    if (version == NULL && kind != NULL)
      vc_profile_read_old_rope_table (self->estimate);
  }
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

void
_vc_window_save_state (VcWindow *self)
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

void
_vc_window_settings_init (VcWindow *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  /* without the schema (run from a build tree without GSETTINGS_SCHEMA_DIR) nothing is kept */
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, VC_SCHEMA_ID, TRUE);
  if (schema != NULL)
    self->settings = g_settings_new (VC_SCHEMA_ID);
  else
    g_debug ("Schema %s not found: window state and inputs will not be kept", VC_SCHEMA_ID);
  load_state (self);
}
