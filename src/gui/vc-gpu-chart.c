/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gpu-chart.c: the GPU comparison, drawn with Cairo. Each row names a GPU, draws the memory
 * each GPU of its smallest valid layout holds over the GPU's capacity, says how many such GPUs
 * it takes and in which layout (colour and text carry the same information), and what fits on
 * one of them: the longest context in inference, the largest batch in training. Beside it, its
 * speed (and with vLLM or SGLang, the KV-cache capacity). Rows are grouped by vendor under a
 * heading, the user's own cards last, and can be narrowed to one vendor. */
#define G_LOG_DOMAIN "vc-gpu-chart"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-catalog.h"
#include "vc-compat.h"
#include "vc-gpu-chart-private.h"
#include "vc-report.h"
#include "vc-speed.h"
#include "vc-units.h"

#define ROW_PAD 8
#define COL_GAP 12
#define BAR_INSET 5

typedef struct
{
  int name_w;
  int text_w;
  int fit_w;
  int speed_w;                 /* 0 when no row has a speed */
  int pool_w;                  /* 0 when no row has SGLang's Mamba pool (describe_pool()) */
  int line_h;                  /* a line of text: a row, or its first line with a pool */
  int row_h;                   /* two lines when a row has a pool */
  int text_h;
} Metrics;

/* a drawn row: a vendor's heading (gpu < 0) or a GPU */
typedef struct
{
  int gpu;
  const char *vendor;
} Row;

struct _VcGpuChart
{
  VcChart parent_instance;

  Metrics metrics;             /* text sizes, measured once per change of figures or style */
  gboolean metrics_valid;
  GArray *rows;                /* Row, in drawing order */
  char *vendor_filter;         /* NULL: every vendor; "": the user's own cards */
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
  unit = vc_chart_get_unit (VC_CHART (self));
  /* with several GPUs, what each GPU of the card's smallest layout holds, and that layout */
  need = vc_format_size (fit->count > 0 ? fit->per_gpu_bytes : vc_estimate_get_selected (vc_chart_get_estimate (VC_CHART (self)))->total,
                         unit);
  capacity = vc_format_size (fit->capacity_bytes, unit);
  if (fit->count > 0)
    {
      const VcInputs *in = vc_estimate_get_inputs (vc_chart_get_estimate (VC_CHART (self)));
      g_autofree char *how = vc_layout_describe (&fit->layout, in->mode, in->method, TRUE);
      /* the plural form from a count that fits an unsigned long: a double beyond it (the
       * count can pass 2^64) does not convert */
      g_autofree char *n = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%.0f GPU", "%.0f GPUs",
                                                         fit->count < 1e9 ? (gulong) fit->count : 1000000000UL),
                                            fit->count);

      count = *how ? g_strdup_printf ("%s · %s", n, how) : g_steal_pointer (&n);
      if (fit->experts_as_stored)
        {
          g_autofree char *stored = g_steal_pointer (&count);

          count = g_strdup_printf ("%s · %s", stored,
                                   vc_report_experts_as_stored_note (in, vc_estimate_get_gpu (vc_chart_get_estimate (VC_CHART (self)),
                                                                                              gpu_index)));
        }
    }
  else if (fit->refused)
    count = g_strdup (vc_report_gpu_refused_note ());
  else
    count = g_strdup (_("does not fit"));
  /* TRANSLATORS: memory needed, memory a program can use on one GPU, how many GPUs (or "does
   * not fit") */
  return g_strdup_printf (_("%s of %s usable · %s"), need, capacity, count);
}

/* NVIDIA, AMD, Intel and Apple first, other vendors by name, the user's own cards last */
static int
vendor_rank (const char *vendor)
{
  static const char *known[] = { "NVIDIA", "AMD", "Intel", "Apple" };

  if (*vendor == '\0')
    return G_N_ELEMENTS (known) + 1;
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (g_str_equal (vendor, known[i]))
      return i;
  return G_N_ELEMENTS (known);
}

static int
compare_vendors (gconstpointer a,
                 gconstpointer b)
{
  const char *x = *(const char * const *) a, *y = *(const char * const *) b;
  int rx = vendor_rank (x), ry = vendor_rank (y);

  return rx != ry ? rx - ry : g_strcmp0 (x, y);
}

static void
rebuild_rows (VcGpuChart *self)
{
  g_autoptr(GPtrArray) vendors = g_ptr_array_new ();
  guint n = vc_chart_get_estimate (VC_CHART (self)) != NULL ? vc_estimate_get_n_gpus (vc_chart_get_estimate (VC_CHART (self))) : 0;

  g_array_set_size (self->rows, 0);
  for (guint i = 0; i < n; i++)
    {
      const char *v = vc_estimate_get_gpu (vc_chart_get_estimate (VC_CHART (self)), i)->vendor;

      if (!g_ptr_array_find_with_equal_func (vendors, v, g_str_equal, NULL))
        g_ptr_array_add (vendors, (gpointer) v);
    }
  g_ptr_array_sort (vendors, compare_vendors);
  for (guint k = 0; k < vendors->len; k++)
    {
      const char *v = vendors->pdata[k];
      Row heading = { -1, v };

      if (self->vendor_filter != NULL && !g_str_equal (self->vendor_filter, v))
        continue;
      g_array_append_val (self->rows, heading);
      for (guint i = 0; i < n; i++)
        if (g_str_equal (vc_estimate_get_gpu (vc_chart_get_estimate (VC_CHART (self)), i)->vendor, v))
          {
            Row row = { i, v };
            g_array_append_val (self->rows, row);
          }
    }
}

/* the row a GPU is drawn on; -1 when filtered out */
static int
row_of (VcGpuChart *self,
        guint       gpu_index)
{
  for (guint r = 0; r < self->rows->len; r++)
    if (g_array_index (self->rows, Row, r).gpu == (int) gpu_index)
      return r;
  return -1;
}

static char *
heading_text (const Row *row)
{
  return g_strdup (*row->vendor ? row->vendor : _("Your GPUs"));
}

/* SGLang's Mamba pool of @pool, as vramcalc's report gives it: "Mamba pool of 1,234 requests
 * (3.1 GB), 2.5 MB a request"; NULL without a pool */
static char *
describe_pool (VcGpuChart        *self,
               const VcStatePool *pool)
{
  VcUnit unit = vc_chart_get_unit (VC_CHART (self));
  g_autofree char *state = NULL, *size = NULL, *count = NULL;

  if (!(pool->request_bytes > 0))
    return NULL;
  state = vc_format_size (pool->request_bytes, unit);
  size = vc_format_size (pool->request_bytes * pool->requests, unit);
  count = g_strdup_printf ("%'.0f", pool->requests);
  /* TRANSLATORS: the requests SGLang's Mamba pool holds, the whole pool and one request's
   * state, "Mamba pool of 1,234 requests (3.1 GB), 2.5 MB a request" */
  return g_strdup_printf (_("Mamba pool of %s requests (%s), %s a request"), count, size, state);
}

/* vc_speed_describe() for one row (FORMULAS.md, "Speed" and "Engines"): the engine's capacity
 * at the layout of the Parallelism group, when one is set; and in @pool_text SGLang's Mamba
 * pool reserved before that cache, from the same figures (NULL without one) */
static char *
describe_speed (VcGpuChart  *self,
                guint        gpu_index,
                char       **pool_text)
{
  VcEstimate *estimate = vc_chart_get_estimate (VC_CHART (self));
  const VcGpuFit *fit = vc_estimate_get_gpu_fit (estimate, gpu_index);
  const VcGpu *gpu = vc_estimate_get_gpu (estimate, gpu_index);
  VcStatePool pool;
  char *line;

  g_return_val_if_fail (fit != NULL && gpu != NULL, NULL);
  line = vc_speed_describe (vc_estimate_get_inputs (estimate), vc_estimate_get_result (estimate),
                            vc_estimate_get_layout_result (estimate), gpu, fit, &pool);
  *pool_text = describe_pool (self, &pool);
  return line;
}

/* The speed's column of a row, then SGLang's Mamba pool, which the row draws on a line of its
 * own: "KV cache: … · 54 tokens/s · Mamba pool of 465 requests (26.7 GB), 57.3 MB a request" */
char *
vc_gpu_chart_describe_speed (VcGpuChart *self,
                             guint       gpu_index)
{
  g_autofree char *line = NULL, *pool = NULL;

  g_return_val_if_fail (VC_IS_GPU_CHART (self), NULL);
  g_return_val_if_fail (vc_chart_get_estimate (VC_CHART (self)) != NULL, NULL);
  line = describe_speed (self, gpu_index, &pool);
  if (pool == NULL)
    return g_steal_pointer (&line);
  /* TRANSLATORS: the KV cache's line, then SGLang's Mamba pool ("… · Mamba pool of 1,234
   * requests (3.1 GB), 2.5 MB a request") */
  return g_strdup_printf (_("%s · %s"), line, pool);
}

/* The variable the "what fits" column solves for: context when serving, batch when training. */
static VcSolveVariable
fit_variable (VcGpuChart *self)
{
  return vc_estimate_get_inputs (vc_chart_get_estimate (VC_CHART (self)))->mode == VC_MODE_TRAINING
         ? VC_SOLVE_VARIABLE_BATCH : VC_SOLVE_VARIABLE_SEQ;
}

/* "up to 59,944 tokens", "up to 131,072 tokens (the model's maximum)", "batch up to 12",
 * "no context fits" */
char *
vc_gpu_chart_describe_fit (VcGpuChart *self,
                           guint       gpu_index)
{
  const VcSolution *sol;
  g_autofree char *n = NULL;

  g_return_val_if_fail (VC_IS_GPU_CHART (self), NULL);
  g_return_val_if_fail (vc_chart_get_estimate (VC_CHART (self)) != NULL, NULL);

  sol = vc_estimate_get_row_solution (vc_chart_get_estimate (VC_CHART (self)), gpu_index, fit_variable (self));
  g_return_val_if_fail (sol != NULL, NULL);
  if (!sol->found)
    return g_strdup (sol->variable == VC_SOLVE_VARIABLE_BATCH ? _("no batch fits") : _("no context fits"));
  n = g_strdup_printf ("%'u", sol->value);
  if (sol->variable == VC_SOLVE_VARIABLE_BATCH)
    /* TRANSLATORS: the largest training batch that fits on one GPU */
    return g_strdup_printf (_("batch up to %s"), n);
  if (sol->limit == VC_SOLVE_LIMIT_MODEL_CONTEXT)
    /* TRANSLATORS: the longest context that fits on one GPU is the model's own maximum */
    return g_strdup_printf (_("up to %s tokens (the model's maximum)"), n);
  /* TRANSLATORS: the longest context that fits on one GPU */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "up to %s token", "up to %s tokens", sol->value), n);
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
  m->name_w = m->text_w = m->fit_w = m->speed_w = m->pool_w = m->text_h = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = vc_gpu_chart_describe (self, i);
      g_autofree char *fit = vc_gpu_chart_describe_fit (self, i);
      g_autofree char *pool = NULL;
      g_autofree char *speed = describe_speed (self, i, &pool);
      int w, h;

      g_autofree char *name = vc_localize_gpu_name (vc_estimate_get_gpu (vc_chart_get_estimate (VC_CHART (self)), i)->name);

      pango_layout_set_text (layout, name, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      m->name_w = MAX (m->name_w, w);
      m->text_h = MAX (m->text_h, h);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      m->text_w = MAX (m->text_w, w);
      pango_layout_set_text (layout, fit, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      m->fit_w = MAX (m->fit_w, w);
      pango_layout_set_text (layout, speed, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      m->speed_w = MAX (m->speed_w, w);
      if (pool != NULL)
        {
          pango_layout_set_text (layout, pool, -1);
          pango_layout_get_pixel_size (layout, &w, &h);
          m->pool_w = MAX (m->pool_w, w);
        }
    }
  m->line_h = m->text_h + ROW_PAD;
  m->row_h = m->line_h + (m->pool_w > 0 ? m->text_h : 0);
  self->metrics = *m;
  self->metrics_valid = TRUE;
}

/* The figures' columns: the count, what fits and the speed. The count is as wide as its widest
 * text, or what is left beside the names, a short bar and the other columns, whichever is
 * less; a text that does not fit is ellipsized, and when even that leaves no room the speed,
 * then what fits, are left out (the accessible description keeps everything). So no figure
 * widens the window. SGLang's Mamba pool is not one of them: a row that has one draws it on a
 * second line, under the name and the bar, which the chart's least width holds (pool_line()). */
#define MIN_BAR_W 80
#define MIN_TEXT_W 160

typedef struct
{
  int text_w;                  /* the count's column as drawn */
  gboolean show_fit;
  gboolean show_speed;
  int total;                   /* all the columns drawn, with their gaps */
} Tail;

static void
tail_layout (const Metrics *m,
             int            width,
             Tail          *t)
{
  int room = width - m->name_w - 2 * COL_GAP - MIN_BAR_W;
  int least = MIN (m->text_w, MIN_TEXT_W);
  int fit = COL_GAP + m->fit_w;
  int speed = m->speed_w > 0 ? COL_GAP + m->speed_w : 0;

  t->show_speed = speed > 0 && room - fit - speed >= least;
  t->show_fit = room - fit - (t->show_speed ? speed : 0) >= least;
  t->text_w = CLAMP (room - (t->show_fit ? fit : 0) - (t->show_speed ? speed : 0), least, m->text_w);
  t->total = t->text_w + (t->show_fit ? fit : 0) + (t->show_speed ? speed : 0);
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
  double total = fit->count > 0 ? fit->per_gpu_bytes : vc_estimate_get_selected (vc_chart_get_estimate (VC_CHART (self)))->total;
  double x = m->name_w + COL_GAP;
  Tail t;
  double w;

  tail_layout (m, width, &t);
  w = MAX (0, width - x - COL_GAP - t.total);
  double share = fit->capacity_bytes > 0 ? total / fit->capacity_bytes : 1;
  int row = MAX (0, row_of (self, i));

  share = CLAMP (share, 0, 1);
  graphene_rect_init (track, x, row * m->row_h + BAR_INSET, w, m->line_h - 2 * BAR_INSET);
  graphene_rect_init (filled, x, row * m->row_h + BAR_INSET, w * share, m->line_h - 2 * BAR_INSET);
}

/* Where row @i draws SGLang's Mamba pool: its second line, the row's whole width, under its
 * name and bar */
static void
pool_line (VcGpuChart      *self,
           const Metrics   *m,
           int              width,
           guint            i,
           graphene_rect_t *where)
{
  graphene_rect_init (where, 0, MAX (0, row_of (self, i)) * m->row_h + m->line_h - ROW_PAD / 2.0,
                      MAX (0, width), m->text_h);
}

/* SGLang's Mamba pool of a row as drawn, for tests: its text (NULL without a pool) and in
 * @where the room its line has */
char *
vc_gpu_chart_get_pool_line (VcGpuChart      *self,
                            guint            gpu_index,
                            graphene_rect_t *where)
{
  g_autofree char *speed = NULL;
  char *pool = NULL;
  Metrics m;

  g_return_val_if_fail (VC_IS_GPU_CHART (self), NULL);
  g_return_val_if_fail (vc_chart_get_estimate (VC_CHART (self)) != NULL, NULL);
  measure_rows (self, &m);
  speed = describe_speed (self, gpu_index, &pool);
  pool_line (self, &m, gtk_widget_get_width (GTK_WIDGET (self)), gpu_index, where);
  return pool;
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
  if (vc_chart_get_estimate (VC_CHART (self)) == NULL || gpu_index >= vc_estimate_get_n_gpus (vc_chart_get_estimate (VC_CHART (self))) ||
      row_of (self, gpu_index) < 0)
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

  measure_rows (self, &m);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int speed = m.speed_w > 0 ? COL_GAP + m.speed_w : 0;

      *minimum = m.name_w + MIN (m.text_w, MIN_TEXT_W) + 2 * COL_GAP + MIN_BAR_W;
      /* a row's Mamba pool, on a line of its own, is never cut */
      *minimum = MAX (*minimum, m.pool_w);
      *natural = m.name_w + m.text_w + COL_GAP + m.fit_w + speed + 2 * COL_GAP + 240;
    }
  else
    *minimum = *natural = vc_chart_get_estimate (VC_CHART (self)) != NULL ? (int) self->rows->len * m.row_h : 0;
}

/* Shows @text at @x, centred in the row that starts at @top; returns its width. */
static int
show_text (cairo_t     *cr,
           PangoLayout *layout,
           const char  *text,
           double       x,
           double       top,
           int          row_h)
{
  int tw, th;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_move_to (cr, x, top + (row_h - th) / 2.0);
  pango_cairo_show_layout (cr, layout);
  return tw;
}

/* A vendor's name, then a thin rule to the right edge. */
static void
draw_heading (cairo_t       *cr,
              PangoLayout   *layout,
              const GdkRGBA *fg,
              const Row     *row,
              double         top,
              int            row_h,
              int            width)
{
  g_autofree char *heading = heading_text (row);
  int tw;

  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
  tw = show_text (cr, layout, heading, 0, top, row_h);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.2);
  cairo_rectangle (cr, tw + COL_GAP, top + row_h / 2.0, MAX (0, width - tw - COL_GAP), 1);
  cairo_fill (cr);
}

/* The capacity, a track with an outline, and the memory needed filled in the fit's colour. */
static void
draw_bar (cairo_t               *cr,
          const GdkRGBA         *fg,
          const GdkRGBA         *color,
          const graphene_rect_t *track,
          const graphene_rect_t *filled)
{
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.1);
  cairo_rectangle (cr, track->origin.x, track->origin.y, track->size.width, track->size.height);
  cairo_fill (cr);

  gdk_cairo_set_source_rgba (cr, color);
  cairo_rectangle (cr, filled->origin.x, filled->origin.y, filled->size.width, filled->size.height);
  cairo_fill (cr);

  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.35);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, track->origin.x + 0.5, track->origin.y + 0.5,
                   MAX (0, track->size.width - 1), track->size.height - 1);
  cairo_stroke (cr);
}

/* The count (ellipsized to its column), then what fits and the speed where there is room. */
static void
draw_figures (VcGpuChart    *self,
              cairo_t       *cr,
              PangoLayout   *layout,
              const Metrics *m,
              const Tail    *t,
              guint          i,
              double         top,
              int            width)
{
  g_autofree char *text = vc_gpu_chart_describe (self, i);
  g_autofree char *fit = vc_gpu_chart_describe_fit (self, i);
  g_autofree char *pool = NULL;
  g_autofree char *speed = describe_speed (self, i, &pool);
  graphene_rect_t where;

  pango_layout_set_width (layout, t->text_w * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  show_text (cr, layout, text, width - t->total, top, m->line_h);
  pango_layout_set_width (layout, -1);

  if (t->show_fit)
    show_text (cr, layout, fit, width - m->fit_w - (t->show_speed ? COL_GAP + m->speed_w : 0), top, m->line_h);
  if (t->show_speed)
    show_text (cr, layout, speed, width - m->speed_w, top, m->line_h);
  if (pool != NULL)
    {
      pool_line (self, m, width, i, &where);
      pango_layout_set_width (layout, (int) where.size.width * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      show_text (cr, layout, pool, where.origin.x, where.origin.y, m->text_h);
      pango_layout_set_width (layout, -1);
    }
}

static void
draw_gpu_row (VcGpuChart    *self,
              cairo_t       *cr,
              PangoLayout   *layout,
              const GdkRGBA *fg,
              const Metrics *m,
              const Tail    *t,
              guint          r,
              guint          i,
              int            width,
              gboolean       dark)
{
  VcEstimate *estimate = vc_chart_get_estimate (VC_CHART (self));
  g_autofree char *name = vc_localize_gpu_name (vc_estimate_get_gpu (estimate, i)->name);
  double top = r * m->row_h;
  graphene_rect_t track, filled;
  GdkRGBA c;

  bar_geometry (self, m, width, i, &track, &filled);

  /* zebra rows help the eye from name to figure */
  if (r % 2 == 1)
    {
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.04);
      cairo_rectangle (cr, 0, top, width, m->row_h);
      cairo_fill (cr);
    }

  gdk_cairo_set_source_rgba (cr, fg);
  pango_layout_set_width (layout, -1);
  show_text (cr, layout, name, 0, top, m->line_h);

  fit_color (vc_gpu_chart_get_fit_kind (self, i), dark, &c);
  draw_bar (cr, fg, &c, &track, &filled);

  gdk_cairo_set_source_rgba (cr, fg);
  draw_figures (self, cr, layout, m, t, i, top, width);
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
  Tail t;

  if (vc_chart_get_estimate (VC_CHART (self)) == NULL || width <= 0)
    return;

  measure_rows (self, &m);
  tail_layout (&m, width, &t);
  vc_widget_get_color (widget, &fg);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  for (guint r = 0; r < self->rows->len; r++)
    {
      const Row *row = &g_array_index (self->rows, Row, r);

      if (row->gpu < 0)
        draw_heading (cr, layout, &fg, row, r * m.row_h, m.line_h, width);
      else
        draw_gpu_row (self, cr, layout, &fg, &m, &t, r, row->gpu, width, dark);
    }
  cairo_destroy (cr);
}

/* The chart in words, for assistive technologies: which cards hold the estimate on one GPU, on
 * several (and how) or not at all; what fits on each row's GPUs; and each row's speed column
 * with SGLang's Mamba pool, as the row draws them (the speed is left out of a narrow chart,
 * never out of this) */
char *
vc_gpu_chart_dup_description (VcGpuChart *self)
{
  g_autoptr(GString) one = g_string_new (NULL);
  g_autoptr(GString) several = g_string_new (NULL);
  g_autoptr(GString) none = g_string_new (NULL);
  g_autoptr(GString) summary = g_string_new (NULL);
  g_autoptr(GString) fits = g_string_new (NULL);
  g_autoptr(GString) speeds = g_string_new (NULL);
  guint n;

  g_return_val_if_fail (VC_IS_GPU_CHART (self), NULL);
  g_return_val_if_fail (vc_chart_get_estimate (VC_CHART (self)) != NULL, NULL);
  n = vc_estimate_get_n_gpus (vc_chart_get_estimate (VC_CHART (self)));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = vc_localize_gpu_name (vc_estimate_get_gpu (vc_chart_get_estimate (VC_CHART (self)), i)->name);
      g_autofree char *fit = vc_gpu_chart_describe_fit (self, i);
      g_autofree char *speed = vc_gpu_chart_describe_speed (self, i);
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
      g_string_append_printf (fits, "%s%s %s", fits->len ? ", " : "", name, fit);
      /* the speed's figures hold commas and " · ": rows apart by semicolons */
      if (speed != NULL && *speed)
        g_string_append_printf (speeds, "%s%s: %s", speeds->len ? "; " : "", name, speed);
    }
  if (one->len > 0)
    g_string_append_printf (summary, _("Fits on one GPU: %s. "), one->str);
  if (several->len > 0)
    g_string_append_printf (summary, _("Needs several GPUs: %s. "), several->str);
  if (none->len > 0)
    g_string_append_printf (summary, _("Does not fit: %s."), none->str);
  if (fits->len > 0)
    g_string_append_printf (summary, " %s %s.",
                            fit_variable (self) == VC_SOLVE_VARIABLE_BATCH
                            ? _("Largest batch on each row's GPUs:") : _("Longest context on each row's GPUs:"),
                            fits->str);
  if (speeds->len > 0)
    g_string_append_printf (summary, " %s %s.", _("Speed on each row's GPUs:"), speeds->str);
  return g_string_free (g_steal_pointer (&summary), FALSE);
}

static void
update (VcChart *chart)
{
  VcGpuChart *self = VC_GPU_CHART (chart);
  g_autofree char *description = vc_gpu_chart_dup_description (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
  rebuild_rows (self);
  self->metrics_valid = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* Shows one vendor's cards only ("" the user's own), or every card with NULL. A view
 * setting, not an input of the estimate. */
void
vc_gpu_chart_set_vendor_filter (VcGpuChart *self,
                                const char *vendor)
{
  g_return_if_fail (VC_IS_GPU_CHART (self));

  if (g_strcmp0 (self->vendor_filter, vendor) == 0)
    return;
  g_free (self->vendor_filter);
  self->vendor_filter = g_strdup (vendor);
  rebuild_rows (self);
  self->metrics_valid = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

const char *
vc_gpu_chart_get_vendor_filter (VcGpuChart *self)
{
  g_return_val_if_fail (VC_IS_GPU_CHART (self), NULL);
  return self->vendor_filter;
}

static void
vc_gpu_chart_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  VC_GPU_CHART (widget)->metrics_valid = FALSE;
  GTK_WIDGET_CLASS (vc_gpu_chart_parent_class)->css_changed (widget, change);
  gtk_widget_queue_resize (widget);
}

static void
vc_gpu_chart_finalize (GObject *object)
{
  VcGpuChart *self = VC_GPU_CHART (object);

  g_array_unref (self->rows);
  g_free (self->vendor_filter);
  G_OBJECT_CLASS (vc_gpu_chart_parent_class)->finalize (object);
}

static void
vc_gpu_chart_class_init (VcGpuChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = vc_gpu_chart_finalize;
  widget_class->measure = vc_gpu_chart_measure;
  widget_class->snapshot = vc_gpu_chart_snapshot;
  widget_class->css_changed = vc_gpu_chart_css_changed;

  VC_CHART_CLASS (klass)->update = update;

  gtk_widget_class_set_css_name (widget_class, "gpuchart");
}

static void
vc_gpu_chart_init (VcGpuChart *self)
{
  self->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("GPU comparison"),
                                  -1);
}
