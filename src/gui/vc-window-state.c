/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-window-state.c: the settings of one window that are not inputs of the estimate, in one
 * place: the views of both tabs bind to its properties instead of being told each in turn. It
 * also says how long the imported model's note and files stay: while the estimate's model is
 * the one they are about. */
#define G_LOG_DOMAIN "vc-window-state"

#include "config.h"

#include "vc-enums.h"
#include "vc-window-state.h"

struct _VcWindowState
{
  GObject parent_instance;

  VcEstimate *estimate;        /* weak: the window owns both */
  VcUnit unit;                 /* of every size shown */
  gboolean approximate;        /* a config.json not fully understood is imported anyway */
  char *note;                  /* about the model imported, NULL when none is shown */
  gboolean note_warning;       /* the note asks the user to check something */
  char *note_model;            /* the model the note is about: it goes when the model changes */
  VcModelFile *model_file;     /* the files last imported, while the estimate's source is theirs */
};

enum {
  PROP_0,
  PROP_UNIT,
  PROP_APPROXIMATE,
  PROP_NOTE,
  PROP_NOTE_WARNING,
  PROP_MODEL_FILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VcWindowState, vc_window_state, G_TYPE_OBJECT)

/* Choosing a preset or renaming the model ends the note about the model imported. */
static void
model_changed (VcWindowState *self)
{
  gboolean custom = vc_estimate_get_preset (self->estimate)[0] == '\0';

  if (self->note_model != NULL &&
      (!custom || g_strcmp0 (self->note_model, vc_estimate_get_model_name (self->estimate)) != 0))
    vc_window_state_set_note (self, NULL, FALSE);
}

/* The files imported describe the estimate's model while its source is in their format. */
static void
source_changed (VcWindowState *self)
{
  g_autofree char *format = NULL;

  if (self->model_file == NULL)
    return;
  g_object_get (self->estimate, "source-format", &format, NULL);
  if (format == NULL || *format == '\0' || g_strcmp0 (vc_model_file_get_format (self->model_file), format) != 0)
    vc_window_state_set_model_file (self, NULL);
}

static void
vc_window_state_finalize (GObject *object)
{
  VcWindowState *self = VC_WINDOW_STATE (object);

  g_clear_weak_pointer (&self->estimate);
  g_clear_pointer (&self->note, g_free);
  g_clear_pointer (&self->note_model, g_free);
  g_clear_object (&self->model_file);
  G_OBJECT_CLASS (vc_window_state_parent_class)->finalize (object);
}

static void
vc_window_state_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  VcWindowState *self = VC_WINDOW_STATE (object);

  switch (prop_id)
    {
    case PROP_UNIT: g_value_set_enum (value, self->unit); break;
    case PROP_APPROXIMATE: g_value_set_boolean (value, self->approximate); break;
    case PROP_NOTE: g_value_set_string (value, self->note); break;
    case PROP_NOTE_WARNING: g_value_set_boolean (value, self->note_warning); break;
    case PROP_MODEL_FILE: g_value_set_object (value, self->model_file); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_window_state_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  VcWindowState *self = VC_WINDOW_STATE (object);

  switch (prop_id)
    {
    case PROP_UNIT: vc_window_state_set_unit (self, g_value_get_enum (value)); break;
    case PROP_APPROXIMATE: vc_window_state_set_approximate (self, g_value_get_boolean (value)); break;
    case PROP_MODEL_FILE: vc_window_state_set_model_file (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_window_state_class_init (VcWindowStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = vc_window_state_finalize;
  object_class->get_property = vc_window_state_get_property;
  object_class->set_property = vc_window_state_set_property;

  properties[PROP_UNIT] =
    g_param_spec_enum ("unit", NULL, NULL, VC_TYPE_UNIT, VC_UNIT_GB,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_APPROXIMATE] =
    g_param_spec_boolean ("approximate", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NOTE] =
    g_param_spec_string ("note", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NOTE_WARNING] =
    g_param_spec_boolean ("note-warning", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL_FILE] =
    g_param_spec_object ("model-file", NULL, NULL, VC_TYPE_MODEL_FILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
vc_window_state_init (VcWindowState *self)
{
  self->unit = VC_UNIT_GB;
}

VcWindowState *
vc_window_state_new (VcEstimate *estimate)
{
  VcWindowState *self;

  g_return_val_if_fail (VC_IS_ESTIMATE (estimate), NULL);

  self = g_object_new (VC_TYPE_WINDOW_STATE, NULL);
  g_set_weak_pointer (&self->estimate, estimate);
  g_signal_connect_object (estimate, "notify::model-name", G_CALLBACK (model_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::preset", G_CALLBACK (model_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::source-format", G_CALLBACK (source_changed), self,
                           G_CONNECT_SWAPPED);
  return self;
}

VcUnit
vc_window_state_get_unit (VcWindowState *self)
{
  g_return_val_if_fail (VC_IS_WINDOW_STATE (self), VC_UNIT_GB);
  return self->unit;
}

void
vc_window_state_set_unit (VcWindowState *self,
                          VcUnit         unit)
{
  g_return_if_fail (VC_IS_WINDOW_STATE (self));

  if (self->unit == unit)
    return;
  self->unit = unit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

/**
 * vc_window_state_get_approximate:
 *
 * Returns: whether the user asks that a config.json holding what is not understood be imported
 *   anyway, as an approximate estimate
 */
gboolean
vc_window_state_get_approximate (VcWindowState *self)
{
  g_return_val_if_fail (VC_IS_WINDOW_STATE (self), FALSE);
  return self->approximate;
}

void
vc_window_state_set_approximate (VcWindowState *self,
                                 gboolean       approximate)
{
  g_return_if_fail (VC_IS_WINDOW_STATE (self));

  approximate = !!approximate;
  if (self->approximate == approximate)
    return;
  self->approximate = approximate;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_APPROXIMATE]);
}

/**
 * vc_window_state_get_note:
 *
 * Returns: (nullable): what is said about the current model, such as how an imported
 *   config.json was read; %NULL when nothing is
 */
const char *
vc_window_state_get_note (VcWindowState *self)
{
  g_return_val_if_fail (VC_IS_WINDOW_STATE (self), NULL);
  return self->note;
}

gboolean
vc_window_state_get_note_warning (VcWindowState *self)
{
  g_return_val_if_fail (VC_IS_WINDOW_STATE (self), FALSE);
  return self->note_warning;
}

/**
 * vc_window_state_set_note:
 * @text: (nullable): what to say about the current model; %NULL or "" for nothing
 * @warning: whether @text asks the user to check something (shown in the warning colour)
 *
 * The note stays while the model does: choosing a preset or renaming the model ends it.
 */
void
vc_window_state_set_note (VcWindowState *self,
                          const char    *text,
                          gboolean       warning)
{
  g_return_if_fail (VC_IS_WINDOW_STATE (self));

  if (text != NULL && *text == '\0')
    text = NULL;
  if (self->estimate == NULL)
    text = NULL;
  g_clear_pointer (&self->note_model, g_free);
  if (text != NULL)
    self->note_model = g_strdup (vc_estimate_get_model_name (self->estimate));
  warning = !!warning;
  if (g_strcmp0 (self->note, text) != 0)
    {
      g_free (self->note);
      self->note = g_strdup (text);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTE]);
    }
  if (self->note_warning != warning)
    {
      self->note_warning = warning;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTE_WARNING]);
    }
}

/**
 * vc_window_state_get_model_file:
 *
 * Returns: (nullable) (transfer none): the files last imported, while the estimate's model is
 *   the one read from them
 */
VcModelFile *
vc_window_state_get_model_file (VcWindowState *self)
{
  g_return_val_if_fail (VC_IS_WINDOW_STATE (self), NULL);
  return self->model_file;
}

void
vc_window_state_set_model_file (VcWindowState *self,
                                VcModelFile   *model_file)
{
  g_return_if_fail (VC_IS_WINDOW_STATE (self));

  if (g_set_object (&self->model_file, model_file))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL_FILE]);
}
