/* SPDX-License-Identifier: GPL-3.0-or-later */
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
  VcChart parent_instance;

};

G_DEFINE_FINAL_TYPE (VcBreakdownBar, vc_breakdown_bar, VC_TYPE_CHART)

static char *
legend_text (VcBreakdownBar *self,
             VcComponentRow *row)
{
  g_autofree char *size = vc_format_size (vc_component_row_get_bytes (row),
                                          vc_chart_get_unit (VC_CHART (self)));

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

  if (vc_chart_get_estimate (VC_CHART (self)) == NULL)
    return 0;
  rows = vc_estimate_get_breakdown (vc_chart_get_estimate (VC_CHART (self)));
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

  if (vc_chart_get_estimate (VC_CHART (self)) == NULL || width <= 0)
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

  rows = vc_estimate_get_breakdown (vc_chart_get_estimate (VC_CHART (self)));
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
update (VcChart *chart)
{
  VcBreakdownBar *self = VC_BREAKDOWN_BAR (chart);
  GListModel *rows = vc_estimate_get_breakdown (vc_chart_get_estimate (VC_CHART (self)));
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

static void
vc_breakdown_bar_class_init (VcBreakdownBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->get_request_mode = vc_breakdown_bar_get_request_mode;
  widget_class->measure = vc_breakdown_bar_measure;
  widget_class->snapshot = vc_breakdown_bar_snapshot;

  VC_CHART_CLASS (klass)->update = update;

  gtk_widget_class_set_css_name (widget_class, "breakdownbar");
}

static void
vc_breakdown_bar_init (VcBreakdownBar *self)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory breakdown"),
                                  -1);
}
