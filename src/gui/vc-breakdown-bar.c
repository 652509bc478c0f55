/* vc-breakdown-bar.c: a stacked bar of the breakdown rows of the selected scenario, drawn with
 * Cairo, and a legend naming each component with its size and share, so the colours are never
 * the only cue. */
#define G_LOG_DOMAIN "vc-breakdown-bar"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-breakdown-bar.h"
#include "vc-compat.h"
#include "vc-component-row.h"
#include "vc-units.h"

#define BAR_HEIGHT 28
#define LEGEND_TOP 10
#define SWATCH 12
#define ITEM_GAP 18
#define LINE_GAP 4

struct _VcBreakdownBar
{
  GtkWidget parent_instance;

  VcEstimate *estimate;
};

enum {
  PROP_0,
  PROP_ESTIMATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VcBreakdownBar, vc_breakdown_bar, GTK_TYPE_WIDGET)

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

static char *
legend_text (VcBreakdownBar *self,
             VcComponentRow *row)
{
  g_autofree char *size = vc_format_size (vc_component_row_get_bytes (row),
                                          vc_estimate_get_unit (self->estimate));

  /* TRANSLATORS: a legend item: component, size, share of the total */
  return g_strdup_printf (_("%s %s (%.0f%%)"), vc_component_row_get_name (row), size,
                          vc_component_row_get_share (row) * 100);
}

/* Lays out the legend for a width; returns its height and, when cr is given, draws it. */
static int
legend (VcBreakdownBar *self,
        int             width,
        cairo_t        *cr,
        gboolean        dark,
        const GdkRGBA  *fg)
{
  GListModel *rows;
  int x = 0, y = 0, line_h = 0;

  if (self->estimate == NULL)
    return 0;
  rows = vc_estimate_get_breakdown (self->estimate);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(VcComponentRow) row = g_list_model_get_item (rows, i);
      g_autofree char *text = legend_text (self, row);
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      int tw, th, item_w;

      pango_layout_get_pixel_size (layout, &tw, &th);
      item_w = SWATCH + 6 + tw;
      if (x > 0 && x + item_w > width)
        {
          x = 0;
          y += line_h + LINE_GAP;
          line_h = 0;
        }
      line_h = MAX (line_h, th);
      if (cr != NULL)
        {
          GdkRGBA c;

          vc_component_color (vc_component_row_get_component (row), dark, &c);
          gdk_cairo_set_source_rgba (cr, &c);
          cairo_rectangle (cr, x, y + (th - SWATCH) / 2.0, SWATCH, SWATCH);
          cairo_fill (cr);
          gdk_cairo_set_source_rgba (cr, fg);
          cairo_move_to (cr, x + SWATCH + 6, y);
          pango_cairo_show_layout (cr, layout);
        }
      x += item_w + ITEM_GAP;
    }
  return y + line_h;
}

static GtkSizeRequestMode
vc_breakdown_bar_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
vc_breakdown_bar_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  VcBreakdownBar *self = VC_BREAKDOWN_BAR (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 160;
      *natural = 480;
    }
  else
    {
      int h = BAR_HEIGHT + LEGEND_TOP + legend (self, for_size < 0 ? 480 : for_size, NULL, FALSE, NULL);

      *minimum = *natural = h;
    }
}

static void
vc_breakdown_bar_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  VcBreakdownBar *self = VC_BREAKDOWN_BAR (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gboolean dark = vc_widget_is_dark (widget);
  cairo_t *cr;
  GListModel *rows;
  GdkRGBA fg;
  double x = 0;

  if (self->estimate == NULL || width <= 0)
    return;

  vc_widget_get_color (widget, &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  /* the track, visible where rounding leaves a gap */
  cairo_save (cr);
  cairo_new_sub_path (cr);
  cairo_arc (cr, width - 6, 6, 6, -G_PI / 2, 0);
  cairo_arc (cr, width - 6, BAR_HEIGHT - 6, 6, 0, G_PI / 2);
  cairo_arc (cr, 6, BAR_HEIGHT - 6, 6, G_PI / 2, G_PI);
  cairo_arc (cr, 6, 6, 6, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  cairo_clip_preserve (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.1);
  cairo_fill (cr);

  rows = vc_estimate_get_breakdown (self->estimate);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(VcComponentRow) row = g_list_model_get_item (rows, i);
      double w = vc_component_row_get_share (row) * width;
      GdkRGBA c;

      if (w <= 0)
        continue;
      vc_component_color (vc_component_row_get_component (row), dark, &c);
      gdk_cairo_set_source_rgba (cr, &c);
      cairo_rectangle (cr, x, 0, w, BAR_HEIGHT);
      cairo_fill (cr);
      x += w;
    }
  cairo_restore (cr);

  cairo_translate (cr, 0, BAR_HEIGHT + LEGEND_TOP);
  legend (self, width, cr, dark, &fg);
  cairo_destroy (cr);
}

static void
update (VcBreakdownBar *self)
{
  GListModel *rows = vc_estimate_get_breakdown (self->estimate);
  g_autoptr(GString) summary = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(VcComponentRow) row = g_list_model_get_item (rows, i);
      g_autofree char *text = legend_text (self, row);

      if (i > 0)
        g_string_append (summary, ", ");
      g_string_append (summary, text);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary->str,
                                  -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

VcEstimate *
vc_breakdown_bar_get_estimate (VcBreakdownBar *self)
{
  g_return_val_if_fail (VC_IS_BREAKDOWN_BAR (self), NULL);
  return self->estimate;
}

void
vc_breakdown_bar_set_estimate (VcBreakdownBar *self,
                               VcEstimate     *estimate)
{
  g_return_if_fail (VC_IS_BREAKDOWN_BAR (self));
  g_return_if_fail (estimate == NULL || VC_IS_ESTIMATE (estimate));

  if (self->estimate == estimate)
    return;
  if (self->estimate != NULL)
    g_signal_handlers_disconnect_by_data (self->estimate, self);
  g_set_object (&self->estimate, estimate);
  if (estimate != NULL)
    {
      g_signal_connect_object (estimate, "changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (estimate, "notify::unit", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
      update (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ESTIMATE]);
}

static void
vc_breakdown_bar_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (vc_breakdown_bar_parent_class)->css_changed (widget, change);
  gtk_widget_queue_resize (widget);
}

static void
vc_breakdown_bar_dispose (GObject *object)
{
  vc_breakdown_bar_set_estimate (VC_BREAKDOWN_BAR (object), NULL);
  G_OBJECT_CLASS (vc_breakdown_bar_parent_class)->dispose (object);
}

static void
vc_breakdown_bar_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_ESTIMATE:
      g_value_set_object (value, VC_BREAKDOWN_BAR (object)->estimate);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_breakdown_bar_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_ESTIMATE:
      vc_breakdown_bar_set_estimate (VC_BREAKDOWN_BAR (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_breakdown_bar_class_init (VcBreakdownBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_breakdown_bar_dispose;
  object_class->get_property = vc_breakdown_bar_get_property;
  object_class->set_property = vc_breakdown_bar_set_property;
  widget_class->get_request_mode = vc_breakdown_bar_get_request_mode;
  widget_class->measure = vc_breakdown_bar_measure;
  widget_class->snapshot = vc_breakdown_bar_snapshot;
  widget_class->css_changed = vc_breakdown_bar_css_changed;

  properties[PROP_ESTIMATE] =
    g_param_spec_object ("estimate", NULL, NULL, VC_TYPE_ESTIMATE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "breakdownbar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
vc_breakdown_bar_init (VcBreakdownBar *self)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory breakdown"),
                                  -1);
}
