/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-context-chart.c: memory against context (or batch), drawn with Cairo.
 *
 * The curve is sampled once per change of the estimate (a few dozen estimates, computed by the
 * core's solver module), never while drawing: a redraw only maps the stored samples to pixels.
 * Text carries what colour shows: the axes are labelled, each capacity line names its card, the
 * legend names the components, and the readout gives every figure at the point under the
 * pointer or the keyboard cursor. The accessible description says it all in words.
 */
#define G_LOG_DOMAIN "vc-context-chart"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "vc-compat.h"
#include "vc-component-row.h"
#include "vc-context-chart-private.h"
#include "vc-units.h"

#define N_SAMPLES 97            /* 8 a factor of two over the longest range, plus the ends */
#define PAD 6
#define TICK 4
#define MIN_PLOT_H 120
#define LEGEND_SWATCH 10
#define SEQ_FIRST 512
#define SEQ_LAST_UNKNOWN 1048576 /* no model context known: up to 1 M tokens */
#define BATCH_LAST 1024

struct _VcContextChart
{
  VcChart parent_instance;

  VcSolveVariable variable;
  guint first, last;            /* the axis, inclusive */
  guint n_samples;
  guint values[N_SAMPLES];
  double bytes[N_SAMPLES][VC_N_COMPONENTS];
  double totals[N_SAMPLES];
  double y_max;
  GArray *cards;                /* gpu indices of the chosen cards */
  int cursor;                   /* sample read out; -1: none */
  int text_h;                   /* one line of text */
  int y_label_w;
};

G_DEFINE_FINAL_TYPE (VcContextChart, vc_context_chart, VC_TYPE_CHART)

#define ESTIMATE(self) vc_chart_get_estimate (VC_CHART (self))

/* ---- data ---------------------------------------------------------------------------------- */

static void
sample (VcContextChart *self)
{
  const VcInputs *in = vc_estimate_get_inputs (ESTIMATE (self));
  double log_first, log_last;
  guint n = 0;

  self->variable = in->mode == VC_MODE_TRAINING ? VC_SOLVE_VARIABLE_BATCH : VC_SOLVE_VARIABLE_SEQ;
  if (self->variable == VC_SOLVE_VARIABLE_SEQ)
    {
      guint context = vc_solver_model_context (in);

      self->last = context > 0 ? context : SEQ_LAST_UNKNOWN;
      self->first = MAX (1u, MIN ((guint) SEQ_FIRST, self->last / 4));
    }
  else
    {
      self->first = 1;
      self->last = BATCH_LAST;
    }

  log_first = log2 (self->first);
  log_last = log2 (self->last);
  for (guint i = 0; i < N_SAMPLES; i++)
    {
      double t = (double) i / (N_SAMPLES - 1);
      guint v = (guint) llround (exp2 (log_first + t * (log_last - log_first)));

      v = CLAMP (v, self->first, self->last);
      if (n > 0 && self->values[n - 1] == v)
        continue;
      self->values[n] = v;
      self->totals[n] = vc_solver_components_at (in, self->variable, v, self->bytes[n]);
      n++;
    }
  self->n_samples = n;

  g_clear_pointer (&self->cards, g_array_unref);
  self->cards = vc_estimate_get_chart_gpu_indices (ESTIMATE (self));

  /* The scale shows the current point and every chosen card with room above them: a curve
   * that climbs far beyond (the rule of thumb at a million tokens) leaves through the top
   * rather than flattening the region where the cards are. */
  {
    double top = vc_estimate_get_selected (ESTIMATE (self))->total;
    double highest = 0;

    for (guint i = 0; i < n; i++)
      highest = MAX (highest, self->totals[i]);
    top = MAX (top, self->totals[0]);
    for (guint i = 0; i < self->cards->len; i++)
      top = MAX (top, vc_estimate_get_gpu (ESTIMATE (self), g_array_index (self->cards, guint, i))->capacity_bytes);
    self->y_max = MIN (highest, 2 * top) * 1.08;
    self->y_max = MAX (self->y_max, top * 1.08);
  }
  if (!(self->y_max > 0))
    self->y_max = 1;
  if (self->cursor >= (int) n)
    self->cursor = n - 1;
}

/* ---- geometry ------------------------------------------------------------------------------ */

typedef struct
{
  double x, y, w, h;
} Plot;

static void
plot_area (VcContextChart *self,
           Plot           *p)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  /* readout line on top; x labels, axis title and the legend's line below */
  p->x = self->y_label_w + PAD + TICK;
  p->y = self->text_h + PAD;
  p->w = MAX (1, width - p->x - PAD);
  p->h = MAX (1, height - p->y - TICK - 3 * (self->text_h + 2) - PAD);
}

double
vc_context_chart_value_to_x (VcContextChart *self,
                             double          value)
{
  Plot p;
  double t;

  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), 0);
  plot_area (self, &p);
  if (self->last <= self->first)
    return p.x;
  t = (log2 (CLAMP (value, self->first, self->last)) - log2 (self->first)) /
      (log2 (self->last) - log2 (self->first));
  return p.x + t * p.w;
}

double
vc_context_chart_bytes_to_y (VcContextChart *self,
                             double          bytes)
{
  Plot p;

  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), 0);
  plot_area (self, &p);
  return p.y + p.h - CLAMP (bytes / self->y_max, 0, 1) * p.h;
}

/* ---- text ------------------------------------------------------------------------------------ */

static char *
format_value (VcSolveVariable variable,
              guint           value)
{
  if (variable == VC_SOLVE_VARIABLE_BATCH)
    return g_strdup_printf (_("batch of %'u"), value);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'u token", "%'u tokens", value), value);
}

/* Axis labels: 512, 2K, 128K, 1M tokens; 1, 4, 64 sequences */
static char *
tick_label (guint value)
{
  if (value >= 1048576 && value % 1048576 == 0)
    /* TRANSLATORS: a count of tokens in units of 2^20, on the chart's axis */
    return g_strdup_printf (_("%uM"), value / 1048576);
  if (value >= 1024 && value % 1024 == 0)
    /* TRANSLATORS: a count of tokens in units of 1,024, on the chart's axis */
    return g_strdup_printf (_("%uK"), value / 1024);
  return g_strdup_printf ("%u", value);
}

static void
append_components (VcContextChart *self,
                   GString        *s,
                   const double    bytes[VC_N_COMPONENTS])
{
  const VcInputs *in = vc_estimate_get_inputs (ESTIMATE (self));
  VcUnit unit = vc_chart_get_unit (VC_CHART (self));
  gboolean first = TRUE;

  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    {
      g_autofree char *size = NULL;

      if (!vc_component_applies (in, c) || bytes[c] <= 0)
        continue;
      size = vc_format_size (bytes[c], unit);
      /* TRANSLATORS: a component and its size, in a list */
      g_string_append_printf (s, first ? _("%s %s") : _(", %s %s"), vc_component_name (c), size);
      first = FALSE;
    }
}

/* "32,768 tokens: 21.3 GB (weights 16.1 GB, KV cache 4.3 GB, …)" */
char *
vc_context_chart_dup_readout (VcContextChart *self)
{
  g_autofree char *value = NULL, *total = NULL;
  g_autoptr(GString) s = g_string_new (NULL);

  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), NULL);
  if (ESTIMATE (self) == NULL || self->cursor < 0 || self->cursor >= (int) self->n_samples)
    return NULL;
  value = format_value (self->variable, self->values[self->cursor]);
  total = vc_format_size (self->totals[self->cursor], vc_chart_get_unit (VC_CHART (self)));
  /* TRANSLATORS: "32,768 tokens: 21.3 GB (weights 16.1 GB, …)" */
  g_string_append_printf (s, _("%s: %s ("), value, total);
  append_components (self, s, self->bytes[self->cursor]);
  g_string_append (s, _(")"));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

char *
vc_context_chart_dup_description (VcContextChart *self)
{
  g_autoptr(GString) s = g_string_new (NULL);
  const VcScenarioResult *sc;
  VcUnit unit;
  g_autofree char *first = NULL, *last = NULL, *first_total = NULL, *last_total = NULL;
  g_autofree char *current = NULL, *current_total = NULL;
  const VcInputs *in;
  guint n = self->n_samples;

  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), NULL);
  if (ESTIMATE (self) == NULL || n == 0)
    return g_strdup ("");

  in = vc_estimate_get_inputs (ESTIMATE (self));
  sc = vc_estimate_get_selected (ESTIMATE (self));
  unit = vc_chart_get_unit (VC_CHART (self));
  first = format_value (self->variable, self->values[0]);
  last = format_value (self->variable, self->values[n - 1]);
  first_total = vc_format_size (self->totals[0], unit);
  last_total = vc_format_size (self->totals[n - 1], unit);
  current = format_value (self->variable, vc_solver_get (in, self->variable));
  current_total = vc_format_size (sc->total, unit);

  g_string_append_printf (s, self->variable == VC_SOLVE_VARIABLE_BATCH
                             /* TRANSLATORS: from "batch of 1" to "batch of 1,024" */
                             ? _("Memory of one GPU against the batch size, from %s to %s, on a logarithmic scale: ")
                             /* TRANSLATORS: from "512 tokens" to "131,072 tokens" */
                             : _("Memory of one GPU against the sequence length, from %s to %s, on a logarithmic scale: "),
                          first, last);
  /* TRANSLATORS: "17.9 GB at 512 tokens, 34.2 GB at 131,072 tokens." */
  g_string_append_printf (s, _("%s at %s, %s at %s. "), first_total, first, last_total, last);
  /* TRANSLATORS: the point of the current inputs: "Now: 2,048 tokens, 18.2 GB." */
  g_string_append_printf (s, _("Now: %s, %s."), current, current_total);

  for (guint i = 0; self->cards != NULL && i < self->cards->len; i++)
    {
      guint g = g_array_index (self->cards, guint, i);
      const VcSolution *sol = vc_estimate_get_gpu_solution (ESTIMATE (self), g, self->variable);
      g_autofree char *capacity = vc_format_size (vc_estimate_get_gpu (ESTIMATE (self), g)->capacity_bytes, unit);
      const char *name = vc_estimate_get_gpu (ESTIMATE (self), g)->name;

      if (sol->found)
        {
          g_autofree char *value = format_value (self->variable, sol->value);
          /* TRANSLATORS: GPU name, its capacity, the largest value that fits, what limits it */
          g_string_append_printf (s, _(" %s (%s): up to %s (limit: %s)."), name, capacity, value,
                                  vc_solve_limit_name (sol->limit));
        }
      else
        /* TRANSLATORS: GPU name and its capacity */
        g_string_append_printf (s, _(" %s (%s): nothing fits."), name, capacity);
    }
  if (self->cursor >= 0)
    {
      g_autofree char *readout = vc_context_chart_dup_readout (self);
      g_string_append_printf (s, " %s", readout);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
update_description (VcContextChart *self)
{
  g_autofree char *text = vc_context_chart_dup_description (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

/* ---- drawing ------------------------------------------------------------------------------- */

static void
measure_text (VcContextChart *self)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  VcUnit unit = vc_chart_get_unit (VC_CHART (self));
  int w, h;

  self->y_label_w = 0;
  for (guint k = 0; k <= 4; k++)
    {
      g_autofree char *label = vc_format_size ((self->y_max > 0 ? self->y_max : 1.08e9) / 1.08 * k / 4, unit);

      pango_layout_set_text (layout, label, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      self->y_label_w = MAX (self->y_label_w, w + 8);
      self->text_h = h;
    }
}

static void
vc_context_chart_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  VcContextChart *self = VC_CONTEXT_CHART (widget);

  measure_text (self);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = self->y_label_w + 200;
      *natural = self->y_label_w + 520;
    }
  else
    {
      *minimum = self->text_h * 5 + MIN_PLOT_H;
      *natural = self->text_h * 5 + 2 * MIN_PLOT_H;
    }
}

static void
show_text (cairo_t     *cr,
           PangoLayout *layout,
           const char  *text,
           double       x,
           double       y,
           double       align,       /* 0 left, 0.5 centre, 1 right of x */
           int          right)       /* the widget's width */
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  x -= align * w;
  /* a label at the right end stays inside the widget */
  if (x + w > right)
    x = right - w;
  cairo_move_to (cr, MAX (0, x), y);
  pango_cairo_show_layout (cr, layout);
  cairo_new_path (cr);
}

/* What every part of one drawing needs. */
typedef struct
{
  VcContextChart *self;
  cairo_t *cr;
  PangoLayout *layout;
  const VcInputs *in;
  VcUnit unit;
  GdkRGBA fg;
  gboolean dark;
  Plot p;
  int width;
} Canvas;

/* The text colour at `alpha`; its opposite with `inverse`. */
static void
set_fg (const Canvas *cv,
        gboolean      inverse,
        double        alpha)
{
  const GdkRGBA *fg = &cv->fg;

  if (inverse)
    cairo_set_source_rgba (cv->cr, 1 - fg->red, 1 - fg->green, 1 - fg->blue, alpha);
  else
    cairo_set_source_rgba (cv->cr, fg->red, fg->green, fg->blue, alpha);
}

static void
stroke_line (const Canvas *cv,
             double        x0,
             double        y0,
             double        x1,
             double        y1)
{
  cairo_move_to (cv->cr, x0, y0);
  cairo_line_to (cv->cr, x1, y1);
  cairo_stroke (cv->cr);
}

/* Grid and y labels: five levels from 0 to the top. */
static void
draw_y_axis (const Canvas *cv)
{
  VcContextChart *self = cv->self;
  const Plot *p = &cv->p;

  cairo_set_line_width (cv->cr, 1);
  for (guint k = 0; k <= 4; k++)
    {
      double bytes = self->y_max / 1.08 * k / 4;
      double y = round (vc_context_chart_bytes_to_y (self, bytes)) + 0.5;
      g_autofree char *label = vc_format_size (bytes, cv->unit);

      set_fg (cv, FALSE, k == 0 ? 0.5 : 0.12);
      stroke_line (cv, p->x, y, p->x + p->w, y);
      gdk_cairo_set_source_rgba (cv->cr, &cv->fg);
      show_text (cv->cr, cv->layout, label, p->x - TICK - 2, y - self->text_h / 2.0, 1, cv->width);
    }
}

/* X ticks at powers of two, every other one when the axis is long, and the axis title. */
static void
draw_x_axis (const Canvas *cv)
{
  VcContextChart *self = cv->self;
  const Plot *p = &cv->p;
  guint step = log2 ((double) self->last / self->first) > 8 ? 2 : 1;
  guint k0 = (guint) ceil (log2 (self->first));

  cairo_set_line_width (cv->cr, 1);
  for (guint k = k0; exp2 (k) <= self->last; k += step)
    {
      guint v = (guint) exp2 (k);
      double x = round (vc_context_chart_value_to_x (self, v)) + 0.5;
      g_autofree char *label = tick_label (v);

      set_fg (cv, FALSE, 0.12);
      stroke_line (cv, x, p->y, x, p->y + p->h + TICK);
      gdk_cairo_set_source_rgba (cv->cr, &cv->fg);
      show_text (cv->cr, cv->layout, label, x, p->y + p->h + TICK, 0.5, cv->width);
    }
  gdk_cairo_set_source_rgba (cv->cr, &cv->fg);
  show_text (cv->cr, cv->layout,
             self->variable == VC_SOLVE_VARIABLE_BATCH ? _("Batch size (sequences)") : _("Sequence length (tokens)"),
             p->x + p->w / 2, p->y + p->h + TICK + self->text_h + 2, 0.5, cv->width);
}

/* One component's band, from `lower` up by its bytes; `lower` then rises to its top. */
static void
fill_band (const Canvas *cv,
           guint         c,
           double       *lower)
{
  VcContextChart *self = cv->self;
  guint n = self->n_samples;
  GdkRGBA color;

  vc_component_color (c, cv->dark, &color);
  gdk_cairo_set_source_rgba (cv->cr, &color);
  cairo_move_to (cv->cr, vc_context_chart_value_to_x (self, self->values[0]),
                 vc_context_chart_bytes_to_y (self, lower[0] + self->bytes[0][c]));
  for (guint i = 1; i < n; i++)
    cairo_line_to (cv->cr, vc_context_chart_value_to_x (self, self->values[i]),
                   vc_context_chart_bytes_to_y (self, lower[i] + self->bytes[i][c]));
  for (int i = n - 1; i >= 0; i--)
    cairo_line_to (cv->cr, vc_context_chart_value_to_x (self, self->values[i]),
                   vc_context_chart_bytes_to_y (self, lower[i]));
  cairo_close_path (cv->cr);
  cairo_fill (cv->cr);
  for (guint i = 0; i < n; i++)
    lower[i] += self->bytes[i][c];
}

/* Stacked areas, component by component, inside the plot. */
static void
draw_stack (const Canvas *cv)
{
  VcContextChart *self = cv->self;
  double lower[N_SAMPLES] = { 0 };

  cairo_save (cv->cr);
  cairo_rectangle (cv->cr, cv->p.x, cv->p.y, cv->p.w, cv->p.h);
  cairo_clip (cv->cr);
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    {
      gboolean any = FALSE;

      if (!vc_component_applies (cv->in, c))
        continue;
      for (guint i = 0; i < self->n_samples; i++)
        any |= self->bytes[i][c] > 0;
      if (any)
        fill_band (cv, c, lower);
    }
  cairo_restore (cv->cr);
}

/* A line for each chosen card's capacity, named at its right end. Labels alternate sides so
 * that two cards of about the same size both read; a backing in the opposite of the text
 * colour keeps them legible over the stack. */
static void
draw_capacities (const Canvas *cv)
{
  VcContextChart *self = cv->self;
  const Plot *p = &cv->p;

  for (guint i = 0; self->cards != NULL && i < self->cards->len; i++)
    {
      const VcGpu *gpu = vc_estimate_get_gpu (ESTIMATE (self), g_array_index (self->cards, guint, i));
      double y = round (vc_context_chart_bytes_to_y (self, gpu->capacity_bytes));
      g_autofree char *size = vc_format_size (gpu->capacity_bytes, cv->unit);
      /* TRANSLATORS: a GPU's name and capacity, on its line in the chart */
      g_autofree char *label = g_strdup_printf (_("%s · %s"), gpu->name, size);
      int tw, th;
      double lx;

      gdk_cairo_set_source_rgba (cv->cr, &cv->fg);
      cairo_set_line_width (cv->cr, 2);
      stroke_line (cv, p->x, y, p->x + p->w, y);
      pango_layout_set_text (cv->layout, label, -1);
      pango_layout_get_pixel_size (cv->layout, &tw, &th);
      lx = i % 2 == 0 ? p->x + p->w - 2 - tw : p->x + 4;
      set_fg (cv, TRUE, 0.8);
      cairo_rectangle (cv->cr, lx - 3, y - self->text_h - 2, tw + 6, th + 1);
      cairo_fill (cv->cr);
      gdk_cairo_set_source_rgba (cv->cr, &cv->fg);
      show_text (cv->cr, cv->layout, label, lx, y - self->text_h - 1, 0, cv->width);
    }
}

/* The current inputs' point. */
static void
draw_marker (const Canvas *cv)
{
  VcContextChart *self = cv->self;
  double x = vc_context_chart_value_to_x (self, vc_solver_get (cv->in, self->variable));
  double y = vc_context_chart_bytes_to_y (self, vc_estimate_get_selected (ESTIMATE (self))->total);

  cairo_new_path (cv->cr);
  cairo_arc (cv->cr, x, y, 5, 0, 2 * G_PI);
  gdk_cairo_set_source_rgba (cv->cr, &cv->fg);
  cairo_fill_preserve (cv->cr);
  cairo_set_line_width (cv->cr, 2);
  set_fg (cv, TRUE, 1);
  cairo_stroke (cv->cr);
}

/* The readout: a vertical rule at the cursor and the figures on top. */
static void
draw_readout (const Canvas *cv)
{
  VcContextChart *self = cv->self;
  const Plot *p = &cv->p;
  double x;
  g_autofree char *readout = NULL;

  if (self->cursor < 0 || self->cursor >= (int) self->n_samples)
    return;
  x = round (vc_context_chart_value_to_x (self, self->values[self->cursor])) + 0.5;
  readout = vc_context_chart_dup_readout (self);
  set_fg (cv, FALSE, 0.6);
  cairo_set_line_width (cv->cr, 1);
  stroke_line (cv, x, p->y, x, p->y + p->h);
  gdk_cairo_set_source_rgba (cv->cr, &cv->fg);
  pango_layout_set_width (cv->layout, (cv->width - p->x) * PANGO_SCALE);
  pango_layout_set_ellipsize (cv->layout, PANGO_ELLIPSIZE_END);
  show_text (cv->cr, cv->layout, readout, p->x, 0, 0, cv->width);
  pango_layout_set_width (cv->layout, -1);
  pango_layout_set_ellipsize (cv->layout, PANGO_ELLIPSIZE_NONE);
}

/* Legend: a swatch and a name per component, so colour is never the only key. */
static void
draw_legend (const Canvas *cv)
{
  VcContextChart *self = cv->self;
  double x = cv->p.x;
  double y = cv->p.y + cv->p.h + TICK + 2 * (self->text_h + 2);

  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    {
      GdkRGBA color;
      int w, h;

      if (!vc_component_applies (cv->in, c))
        continue;
      vc_component_color (c, cv->dark, &color);
      gdk_cairo_set_source_rgba (cv->cr, &color);
      cairo_rectangle (cv->cr, x, y + (self->text_h - LEGEND_SWATCH) / 2.0, LEGEND_SWATCH, LEGEND_SWATCH);
      cairo_fill (cv->cr);
      gdk_cairo_set_source_rgba (cv->cr, &cv->fg);
      pango_layout_set_text (cv->layout, vc_component_name (c), -1);
      pango_layout_get_pixel_size (cv->layout, &w, &h);
      cairo_move_to (cv->cr, x + LEGEND_SWATCH + 4, y);
      pango_cairo_show_layout (cv->cr, cv->layout);
      x += LEGEND_SWATCH + 4 + w + 12;
    }
}

/* Keyboard focus: a ring around the plot. */
static void
draw_focus_ring (const Canvas *cv)
{
  const Plot *p = &cv->p;

  set_fg (cv, FALSE, 0.5);
  cairo_set_line_width (cv->cr, 1);
  cairo_rectangle (cv->cr, p->x - 0.5, p->y - 0.5, p->w + 1, p->h + 1);
  cairo_stroke (cv->cr);
}

static void
vc_context_chart_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  VcContextChart *self = VC_CONTEXT_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = NULL;
  Canvas cv = { .self = self, .width = width, .dark = vc_widget_is_dark (widget) };

  if (ESTIMATE (self) == NULL || self->n_samples == 0 || width <= 0 || height <= 0)
    return;

  cv.in = vc_estimate_get_inputs (ESTIMATE (self));
  cv.unit = vc_chart_get_unit (VC_CHART (self));
  measure_text (self);
  plot_area (self, &cv.p);
  vc_widget_get_color (widget, &cv.fg);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  cv.layout = layout;
  cv.cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  draw_y_axis (&cv);
  draw_x_axis (&cv);
  draw_stack (&cv);
  draw_capacities (&cv);
  draw_marker (&cv);
  draw_readout (&cv);
  draw_legend (&cv);
  if (gtk_widget_has_visible_focus (widget))
    draw_focus_ring (&cv);
  cairo_destroy (cv.cr);
}

/* ---- interaction --------------------------------------------------------------------------- */

static int
nearest_sample (VcContextChart *self,
                double          x)
{
  int best = -1;
  double best_d = G_MAXDOUBLE;

  for (guint i = 0; i < self->n_samples; i++)
    {
      double d = fabs (vc_context_chart_value_to_x (self, self->values[i]) - x);

      if (d < best_d)
        {
          best_d = d;
          best = i;
        }
    }
  return best;
}

int
vc_context_chart_get_cursor (VcContextChart *self)
{
  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), -1);
  return self->cursor;
}

void
vc_context_chart_set_cursor (VcContextChart *self,
                             int             index)
{
  g_return_if_fail (VC_IS_CONTEXT_CHART (self));

  index = CLAMP (index, -1, (int) self->n_samples - 1);
  if (self->cursor == index)
    return;
  self->cursor = index;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion (GtkEventControllerMotion *controller,
        double                    x,
        double                    y,
        VcContextChart           *self)
{
  vc_context_chart_set_cursor (self, nearest_sample (self, x));
}

static void
leave (GtkEventControllerMotion *controller,
       VcContextChart           *self)
{
  if (!gtk_widget_has_focus (GTK_WIDGET (self)))
    vc_context_chart_set_cursor (self, -1);
}

/* The sample nearest the current inputs' value: where the keyboard cursor starts. */
static int
current_sample (VcContextChart *self)
{
  const VcInputs *in = vc_estimate_get_inputs (ESTIMATE (self));

  return nearest_sample (self, vc_context_chart_value_to_x (self, vc_solver_get (in, self->variable)));
}

static gboolean
key_pressed (GtkEventControllerKey *controller,
             guint                  keyval,
             guint                  keycode,
             GdkModifierType        state,
             VcContextChart        *self)
{
  int c = self->cursor >= 0 ? self->cursor : current_sample (self);
  int page = MAX (1, (int) self->n_samples / 8);

  if (self->n_samples == 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_KP_Left: c--; break;
    case GDK_KEY_Right: case GDK_KEY_KP_Right: c++; break;
    case GDK_KEY_Page_Down: c -= page; break;
    case GDK_KEY_Page_Up: c += page; break;
    case GDK_KEY_Home: c = 0; break;
    case GDK_KEY_End: c = self->n_samples - 1; break;
    default: return FALSE;
    }
  vc_context_chart_set_cursor (self, CLAMP (c, 0, (int) self->n_samples - 1));
  return TRUE;
}

static void
focus_enter (GtkEventControllerFocus *controller,
             VcContextChart          *self)
{
  if (self->cursor < 0 && ESTIMATE (self) != NULL)
    vc_context_chart_set_cursor (self, current_sample (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
focus_leave (GtkEventControllerFocus *controller,
             VcContextChart          *self)
{
  vc_context_chart_set_cursor (self, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
click (GtkGestureClick *gesture,
       int              n_press,
       double           x,
       double           y,
       VcContextChart  *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  vc_context_chart_set_cursor (self, nearest_sample (self, x));
}

/* ---- model --------------------------------------------------------------------------------- */

static void
vc_context_chart_update (VcChart *chart)
{
  VcContextChart *self = VC_CONTEXT_CHART (chart);

  sample (self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->variable == VC_SOLVE_VARIABLE_BATCH
                                  ? _("Memory against batch size") : _("Memory against context"),
                                  -1);
  update_description (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* The chosen cards are an input that changes no figure: no "changed" comes, so listen to it. */
static void
estimate_set (VcContextChart *self,
              GParamSpec     *pspec,
              gpointer        data)
{
  VcEstimate *estimate = ESTIMATE (self);

  self->n_samples = 0;
  self->cursor = -1;
  if (estimate != NULL)
    {
      g_signal_connect_object (estimate, "notify::chart-gpus", G_CALLBACK (vc_context_chart_update), self,
                               G_CONNECT_SWAPPED);
      vc_context_chart_update (VC_CHART (self));
    }
}

VcSolveVariable
vc_context_chart_get_variable (VcContextChart *self)
{
  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), VC_SOLVE_VARIABLE_SEQ);
  return self->variable;
}

void
vc_context_chart_get_range (VcContextChart *self,
                            guint          *first,
                            guint          *last)
{
  g_return_if_fail (VC_IS_CONTEXT_CHART (self));
  *first = self->first;
  *last = self->last;
}

guint
vc_context_chart_get_n_samples (VcContextChart *self)
{
  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), 0);
  return self->n_samples;
}

/* The value of sample `index` and its components; the total is their sum. */
guint
vc_context_chart_get_sample (VcContextChart *self,
                             guint           index,
                             double          bytes[VC_N_COMPONENTS])
{
  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), 0);
  g_return_val_if_fail (index < self->n_samples, 0);
  if (bytes != NULL)
    for (guint c = 0; c < VC_N_COMPONENTS; c++)
      bytes[c] = self->bytes[index][c];
  return self->values[index];
}

guint
vc_context_chart_get_n_cards (VcContextChart *self)
{
  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), 0);
  return self->cards ? self->cards->len : 0;
}

guint
vc_context_chart_get_card (VcContextChart *self,
                           guint           index)
{
  g_return_val_if_fail (VC_IS_CONTEXT_CHART (self), 0);
  g_return_val_if_fail (self->cards != NULL && index < self->cards->len, 0);
  return g_array_index (self->cards, guint, index);
}

static void
vc_context_chart_dispose (GObject *object)
{
  VcContextChart *self = VC_CONTEXT_CHART (object);

  g_clear_pointer (&self->cards, g_array_unref);
  G_OBJECT_CLASS (vc_context_chart_parent_class)->dispose (object);
}

static void
vc_context_chart_class_init (VcContextChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  VcChartClass *chart_class = VC_CHART_CLASS (klass);

  object_class->dispose = vc_context_chart_dispose;
  widget_class->measure = vc_context_chart_measure;
  widget_class->snapshot = vc_context_chart_snapshot;
  chart_class->update = vc_context_chart_update;

  gtk_widget_class_set_css_name (widget_class, "contextchart");
}

static void
vc_context_chart_init (VcContextChart *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->cursor = -1;
  g_signal_connect (self, "notify::estimate", G_CALLBACK (estimate_set), NULL);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory against context"),
                                  -1);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_focus_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (focus_enter), self);
  g_signal_connect (controller, "leave", G_CALLBACK (focus_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "pressed", G_CALLBACK (click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}
