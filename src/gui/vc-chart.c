/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-chart.c: see vc-chart.h. */
#define G_LOG_DOMAIN "vc-chart"

#include "config.h"

#include "vc-chart.h"
#include "vc-compat.h"
#include "vc-enums.h"

typedef struct
{
  VcEstimate *estimate;
  VcUnit unit;
} VcChartPrivate;

enum {
  PROP_0,
  PROP_ESTIMATE,
  PROP_UNIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (VcChart, vc_chart, GTK_TYPE_WIDGET)

/* GNOME palette; lighter shades on dark backgrounds */
void
vc_component_color (VcComponent  component,
                    gboolean     dark,
                    GdkRGBA     *color)
{
  static const char *light[VC_N_COMPONENTS] = {
    "#1c71d8", "#813d9c", "#2190a4", "#e66100", "#c01c28", "#26a269", "#986a44", "#77767b",
  };
  static const char *night[VC_N_COMPONENTS] = {
    "#62a0ea", "#c061cb", "#33c7de", "#ffa348", "#f66151", "#57e389", "#cdab8f", "#9a9996",
  };

  gdk_rgba_parse (color, (dark ? night : light)[MIN ((guint) component, VC_N_COMPONENTS - 1)]);
}

/* Light text means a dark theme. */
gboolean
vc_widget_is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

  vc_widget_get_color (widget, &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

static void
update (VcChart *self)
{
  VC_CHART_GET_CLASS (self)->update (self);
}

VcEstimate *
vc_chart_get_estimate (VcChart *self)
{
  VcChartPrivate *priv = vc_chart_get_instance_private (self);

  g_return_val_if_fail (VC_IS_CHART (self), NULL);
  return priv->estimate;
}

void
vc_chart_set_estimate (VcChart    *self,
                       VcEstimate *estimate)
{
  VcChartPrivate *priv = vc_chart_get_instance_private (self);

  g_return_if_fail (VC_IS_CHART (self));
  g_return_if_fail (estimate == NULL || VC_IS_ESTIMATE (estimate));

  if (priv->estimate == estimate)
    return;
  if (priv->estimate != NULL)
    g_signal_handlers_disconnect_by_data (priv->estimate, self);
  g_set_object (&priv->estimate, estimate);
  if (estimate != NULL)
    {
      g_signal_connect_object (estimate, "changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
      update (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ESTIMATE]);
}

VcUnit
vc_chart_get_unit (VcChart *self)
{
  VcChartPrivate *priv = vc_chart_get_instance_private (self);

  g_return_val_if_fail (VC_IS_CHART (self), VC_UNIT_GB);
  return priv->unit;
}

/* the unit the sizes are shown in, a view setting */
void
vc_chart_set_unit (VcChart *self,
                   VcUnit   unit)
{
  VcChartPrivate *priv = vc_chart_get_instance_private (self);

  g_return_if_fail (VC_IS_CHART (self));

  if (priv->unit == unit)
    return;
  priv->unit = unit;
  if (priv->estimate != NULL)
    update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

/* sizes follow the style's fonts */
static void
vc_chart_css_changed (GtkWidget         *widget,
                      GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (vc_chart_parent_class)->css_changed (widget, change);
  gtk_widget_queue_resize (widget);
}

static void
vc_chart_dispose (GObject *object)
{
  vc_chart_set_estimate (VC_CHART (object), NULL);
  G_OBJECT_CLASS (vc_chart_parent_class)->dispose (object);
}

static void
vc_chart_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_ESTIMATE:
      g_value_set_object (value, vc_chart_get_estimate (VC_CHART (object)));
      break;
    case PROP_UNIT:
      g_value_set_enum (value, vc_chart_get_unit (VC_CHART (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_chart_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_ESTIMATE:
      vc_chart_set_estimate (VC_CHART (object), g_value_get_object (value));
      break;
    case PROP_UNIT:
      vc_chart_set_unit (VC_CHART (object), g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_chart_class_init (VcChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = vc_chart_dispose;
  object_class->get_property = vc_chart_get_property;
  object_class->set_property = vc_chart_set_property;
  GTK_WIDGET_CLASS (klass)->css_changed = vc_chart_css_changed;

  properties[PROP_ESTIMATE] =
    g_param_spec_object ("estimate", NULL, NULL, VC_TYPE_ESTIMATE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNIT] =
    g_param_spec_enum ("unit", NULL, NULL, VC_TYPE_UNIT, VC_UNIT_GB,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
}

static void
vc_chart_init (VcChart *self)
{
}
