/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-component-row.c: a breakdown row, updated in place when the estimate recomputes so that
 * views bound to it redraw without rebuilding the list. */
#define G_LOG_DOMAIN "vc-component-row"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "vc-component-row.h"
#include "vc-enums.h"

struct _VcComponentRow
{
  GObject parent_instance;
  VcComponent component;
  double bytes;
  double share;
};

enum {
  PROP_0,
  PROP_COMPONENT,
  PROP_ID,
  PROP_NAME,
  PROP_BYTES,
  PROP_SHARE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VcComponentRow, vc_component_row, G_TYPE_OBJECT)

const char *
vc_component_id (VcComponent component)
{
  static const char *ids[VC_N_COMPONENTS] = {
    "weights", "kv_cache", "sequence_state", "activations", "gradients", "optimizer", "master_weights", "overhead",
  };

  g_return_val_if_fail (component < VC_N_COMPONENTS, "");
  return ids[component];
}

const char *
vc_component_name (VcComponent component)
{
  switch (component)
    {
    case VC_COMPONENT_WEIGHTS: return _("Weights");
    case VC_COMPONENT_KV_CACHE: return _("KV cache");
    case VC_COMPONENT_SEQUENCE_STATE: return _("Sequence state");
    case VC_COMPONENT_ACTIVATIONS: return _("Activations");
    case VC_COMPONENT_GRADIENTS: return _("Gradients");
    case VC_COMPONENT_OPTIMIZER: return _("Optimizer state");
    case VC_COMPONENT_MASTER_WEIGHTS: return _("Master weights");
    case VC_COMPONENT_OVERHEAD: return _("Overhead");
    default: return "";
    }
}

static void
vc_component_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  VcComponentRow *self = VC_COMPONENT_ROW (object);

  switch (prop_id)
    {
    case PROP_COMPONENT: g_value_set_enum (value, self->component); break;
    case PROP_ID: g_value_set_string (value, vc_component_id (self->component)); break;
    case PROP_NAME: g_value_set_string (value, vc_component_name (self->component)); break;
    case PROP_BYTES: g_value_set_double (value, self->bytes); break;
    case PROP_SHARE: g_value_set_double (value, self->share); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_component_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  VcComponentRow *self = VC_COMPONENT_ROW (object);

  switch (prop_id)
    {
    case PROP_COMPONENT: self->component = g_value_get_enum (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_component_row_class_init (VcComponentRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = vc_component_row_get_property;
  object_class->set_property = vc_component_row_set_property;

  properties[PROP_COMPONENT] =
    g_param_spec_enum ("component", NULL, NULL, VC_TYPE_COMPONENT, VC_COMPONENT_WEIGHTS,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BYTES] =
    g_param_spec_double ("bytes", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHARE] =
    g_param_spec_double ("share", NULL, NULL, 0, 1, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
vc_component_row_init (VcComponentRow *self)
{
}

VcComponentRow *
vc_component_row_new (VcComponent component)
{
  return g_object_new (VC_TYPE_COMPONENT_ROW, "component", component, NULL);
}

VcComponent vc_component_row_get_component (VcComponentRow *self) { return self->component; }
const char *vc_component_row_get_id (VcComponentRow *self) { return vc_component_id (self->component); }
const char *vc_component_row_get_name (VcComponentRow *self) { return vc_component_name (self->component); }
double vc_component_row_get_bytes (VcComponentRow *self) { return self->bytes; }
double vc_component_row_get_share (VcComponentRow *self) { return self->share; }

void
vc_component_row_update (VcComponentRow *self,
                         double          bytes,
                         double          share)
{
  g_return_if_fail (VC_IS_COMPONENT_ROW (self));

  if (self->bytes != bytes)
    {
      self->bytes = bytes;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES]);
    }
  if (self->share != share)
    {
      self->share = share;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHARE]);
    }
}
