/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gpu-chart.c: the GPU comparison, drawn with Cairo. Each row names a GPU, draws the memory
 * the selected scenario needs over the GPU's capacity, and says how many such GPUs it takes:
 * colour and text carry the same information. */
#define G_LOG_DOMAIN "vc-gpu-chart"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-catalog.h"
#include "vc-compat.h"
#include "vc-gpu-chart-private.h"
#include "vc-units.h"

#define ROW_PAD 8
#define COL_GAP 12
#define BAR_INSET 5

typedef struct
{
  int name_w;
  int text_w;
  int row_h;
  int text_h;
} Metrics;

struct _VcGpuChart
{
  VcChart parent_instance;

  Metrics metrics;             /* text sizes, measured once per change of figures or style */
  gboolean metrics_valid;
};

G_DEFINE_FINAL_TYPE (VcGpuChart, vc_gpu_chart, VC_TYPE_CHART)

VcGpuFitKind
vc_gpu_chart_get_fit_kind (VcGpuChart *self,
                           guint       gpu_index)
{
  const VcGpuFit *fit;

  g_return_val_if_fail (VC_IS_GPU_CHART (self), VC_GPU_FIT_NONE);
  g_return_val_if_fail (vc_chart_get_estimate (VC_CHART (self)) != NULL, VC_GPU_FIT_NONE);
  fit = vc_estimate_get_gpu_fit (vc_chart_get_estimate (VC_CHART (self)), gpu_index);
  g_return_val_if_fail (fit != NULL, VC_GPU_FIT_NONE);
  if (fit->fits)
    return VC_GPU_FIT_ONE;
  return fit->count > 0 ? VC_GPU_FIT_SEVERAL : VC_GPU_FIT_NONE;
}

static void
fit_color (VcGpuFitKind kind,
           gboolean     dark,
           GdkRGBA     *color)
{
  static const char *light[] = { "#26a269", "#e5a50a", "#c01c28" };
  static const char *night[] = { "#57e389", "#f8e45c", "#f66151" };

  gdk_rgba_parse (color, (dark ? night : light)[kind]);
}

/* "23.1 GB of 24.0 GB · 1 GPU" */
char *
vc_gpu_chart_describe (VcGpuChart *self,
                       guint       gpu_index)
{
  const VcGpuFit *fit;
  VcUnit unit;
  g_autofree char *need = NULL, *capacity = NULL, *count = NULL;

  g_return_val_if_fail (VC_IS_GPU_CHART (self), NULL);
  g_return_val_if_fail (vc_chart_get_estimate (VC_CHART (self)) != NULL, NULL);

  fit = vc_estimate_get_gpu_fit (vc_chart_get_estimate (VC_CHART (self)), gpu_index);
  g_return_val_if_fail (fit != NULL, NULL);
  unit = vc_estimate_get_unit (vc_chart_get_estimate (VC_CHART (self)));
  need = vc_format_size (vc_estimate_get_selected (vc_chart_get_estimate (VC_CHART (self)))->total, unit);
  capacity = vc_format_size (fit->capacity_bytes, unit);
  if (fit->count > 0 && fit->count < 1e6)
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%.0f GPU", "%.0f GPUs",
                                          (gulong) MIN (fit->count, G_MAXULONG)),
                             fit->count);
  else if (fit->count > 0)
    {
      g_autofree char *n = vc_format_number (fit->count);
      /* TRANSLATORS: %s is a huge number of GPUs in the compact form "4.83 × 10¹⁵" */
      count = g_strdup_printf (_("%s GPUs"), n);
    }
  else
    count = g_strdup (_("does not fit"));
  /* TRANSLATORS: memory needed, memory a program can use on one GPU, how many GPUs (or "does
   * not fit") */
  return g_strdup_printf (_("%s of %s usable · %s"), need, capacity, count);
}

static void
measure_rows (VcGpuChart *self,
              Metrics    *m)
{
  guint n = vc_chart_get_estimate (VC_CHART (self)) != NULL ? vc_estimate_get_n_gpus (vc_chart_get_estimate (VC_CHART (self))) : 0;
  g_autoptr(PangoLayout) layout = NULL;

  if (self->metrics_valid)
    {
      *m = self->metrics;
      return;
    }
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  m->name_w = m->text_w = m->text_h = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = vc_gpu_chart_describe (self, i);
      int w, h;

      g_autofree char *name = vc_localize_gpu_name (vc_estimate_get_gpu (vc_chart_get_estimate (VC_CHART (self)), i)->name);

      pango_layout_set_text (layout, name, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      m->name_w = MAX (m->name_w, w);
      m->text_h = MAX (m->text_h, h);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      m->text_w = MAX (m->text_w, w);
    }
  m->row_h = m->text_h + ROW_PAD;
  self->metrics = *m;
  self->metrics_valid = TRUE;
}

/* The figures' column: as wide as the widest text, or what is left beside the names and a
 * short bar, whichever is less; a text that does not fit is ellipsized (the accessible
 * description keeps it whole). So no figure widens the window. */
#define MIN_BAR_W 80
#define MIN_TEXT_W 160

static int
text_column_width (const Metrics *m,
                   int            width)
{
  return CLAMP (width - m->name_w - 2 * COL_GAP - MIN_BAR_W, MIN (m->text_w, MIN_TEXT_W), m->text_w);
}

static void
bar_geometry (VcGpuChart      *self,
              const Metrics   *m,
              int              width,
              guint            i,
              graphene_rect_t *track,
              graphene_rect_t *filled)
{
  const VcGpuFit *fit = vc_estimate_get_gpu_fit (vc_chart_get_estimate (VC_CHART (self)), i);
  double total = vc_estimate_get_selected (vc_chart_get_estimate (VC_CHART (self)))->total;
  double x = m->name_w + COL_GAP;
  double w = MAX (0, width - x - COL_GAP - text_column_width (m, width));
  double share = fit->capacity_bytes > 0 ? total / fit->capacity_bytes : 1;

  share = CLAMP (share, 0, 1);
  graphene_rect_init (track, x, i * m->row_h + BAR_INSET, w, m->row_h - 2 * BAR_INSET);
  graphene_rect_init (filled, x, i * m->row_h + BAR_INSET, w * share, m->row_h - 2 * BAR_INSET);
}

/* Where the filled part of a GPU's bar lies and its colour, for tests and tooltips. */
gboolean
vc_gpu_chart_get_bar (VcGpuChart      *self,
                      guint            gpu_index,
                      graphene_rect_t *filled,
                      GdkRGBA         *color)
{
  Metrics m;
  graphene_rect_t track;

  g_return_val_if_fail (VC_IS_GPU_CHART (self), FALSE);
  if (vc_chart_get_estimate (VC_CHART (self)) == NULL || gpu_index >= vc_estimate_get_n_gpus (vc_chart_get_estimate (VC_CHART (self))))
    return FALSE;
  measure_rows (self, &m);
  bar_geometry (self, &m, gtk_widget_get_width (GTK_WIDGET (self)), gpu_index, &track, filled);
  fit_color (vc_gpu_chart_get_fit_kind (self, gpu_index), vc_widget_is_dark (GTK_WIDGET (self)), color);
  return TRUE;
}

static void
vc_gpu_chart_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  VcGpuChart *self = VC_GPU_CHART (widget);
  Metrics m;
  guint n = vc_chart_get_estimate (VC_CHART (self)) != NULL ? vc_estimate_get_n_gpus (vc_chart_get_estimate (VC_CHART (self))) : 0;

  measure_rows (self, &m);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = m.name_w + MIN (m.text_w, MIN_TEXT_W) + 2 * COL_GAP + MIN_BAR_W;
      *natural = m.name_w + m.text_w + 2 * COL_GAP + 240;
    }
  else
    *minimum = *natural = vc_chart_get_estimate (VC_CHART (self)) != NULL ? (int) n * m.row_h : 0;
}

static void
vc_gpu_chart_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  VcGpuChart *self = VC_GPU_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gboolean dark = vc_widget_is_dark (widget);
  g_autoptr(PangoLayout) layout = NULL;
  cairo_t *cr;
  GdkRGBA fg;
  Metrics m;
  guint n;

  if (vc_chart_get_estimate (VC_CHART (self)) == NULL || width <= 0)
    return;

  /* the catalog first, then the user's own cards */
  n = vc_estimate_get_n_gpus (vc_chart_get_estimate (VC_CHART (self)));
  measure_rows (self, &m);
  vc_widget_get_color (widget, &fg);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = vc_gpu_chart_describe (self, i);
      graphene_rect_t track, filled;
      GdkRGBA c;
      int tw, th;

      bar_geometry (self, &m, width, i, &track, &filled);

      /* zebra rows help the eye from name to figure */
      if (i % 2 == 1)
        {
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.04);
          cairo_rectangle (cr, 0, i * m.row_h, width, m.row_h);
          cairo_fill (cr);
        }

      gdk_cairo_set_source_rgba (cr, &fg);
      g_autofree char *name = vc_localize_gpu_name (vc_estimate_get_gpu (vc_chart_get_estimate (VC_CHART (self)), i)->name);

      pango_layout_set_width (layout, -1);
      pango_layout_set_text (layout, name, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      cairo_move_to (cr, 0, i * m.row_h + (m.row_h - th) / 2.0);
      pango_cairo_show_layout (cr, layout);

      /* the capacity: a track with an outline */
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.1);
      cairo_rectangle (cr, track.origin.x, track.origin.y, track.size.width, track.size.height);
      cairo_fill (cr);

      fit_color (vc_gpu_chart_get_fit_kind (self, i), dark, &c);
      gdk_cairo_set_source_rgba (cr, &c);
      cairo_rectangle (cr, filled.origin.x, filled.origin.y, filled.size.width, filled.size.height);
      cairo_fill (cr);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.35);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, track.origin.x + 0.5, track.origin.y + 0.5,
                       MAX (0, track.size.width - 1), track.size.height - 1);
      cairo_stroke (cr);

      gdk_cairo_set_source_rgba (cr, &fg);
      pango_layout_set_width (layout, text_column_width (&m, width) * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      cairo_move_to (cr, width - text_column_width (&m, width), i * m.row_h + (m.row_h - th) / 2.0);
      pango_cairo_show_layout (cr, layout);
    }
  cairo_destroy (cr);
}

static void
update (VcChart *chart)
{
  VcGpuChart *self = VC_GPU_CHART (chart);
  g_autoptr(GString) one = g_string_new (NULL);
  g_autoptr(GString) several = g_string_new (NULL);
  g_autoptr(GString) none = g_string_new (NULL);
  g_autoptr(GString) summary = g_string_new (NULL);
  guint n = vc_estimate_get_n_gpus (vc_chart_get_estimate (VC_CHART (self)));

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = vc_localize_gpu_name (vc_estimate_get_gpu (vc_chart_get_estimate (VC_CHART (self)), i)->name);
      GString *s;

      switch (vc_gpu_chart_get_fit_kind (self, i))
        {
        case VC_GPU_FIT_ONE: s = one; break;
        case VC_GPU_FIT_SEVERAL: s = several; break;
        case VC_GPU_FIT_NONE:
        default: s = none; break;
        }
      if (s->len > 0)
        g_string_append (s, ", ");
      if (s == several)
        {
          g_autofree char *d = vc_gpu_chart_describe (self, i);
          g_string_append_printf (s, "%s (%s)", name, d);
        }
      else
        g_string_append (s, name);
    }
  if (one->len > 0)
    g_string_append_printf (summary, _("Fits on one GPU: %s. "), one->str);
  if (several->len > 0)
    g_string_append_printf (summary, _("Needs several GPUs: %s. "), several->str);
  if (none->len > 0)
    g_string_append_printf (summary, _("Does not fit: %s."), none->str);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary->str,
                                  -1);
  self->metrics_valid = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
vc_gpu_chart_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  VC_GPU_CHART (widget)->metrics_valid = FALSE;
  GTK_WIDGET_CLASS (vc_gpu_chart_parent_class)->css_changed (widget, change);
}

static void
vc_gpu_chart_class_init (VcGpuChartClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->measure = vc_gpu_chart_measure;
  widget_class->snapshot = vc_gpu_chart_snapshot;
  widget_class->css_changed = vc_gpu_chart_css_changed;

  VC_CHART_CLASS (klass)->update = update;

  gtk_widget_class_set_css_name (widget_class, "gpuchart");
}

static void
vc_gpu_chart_init (VcGpuChart *self)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("GPU comparison"),
                                  -1);
}
