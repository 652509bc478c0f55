/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-split-view.c: the window's two halves, inputs and results, side by side when the width
 * allows both at their minimum (and at least wide-width pixels), stacked when it does not. Its
 * minimum width is the wider half's, so the window can be made as narrow as the content
 * allows. A GtkPaned does the dividing; this widget only turns it.
 *
 * libadwaita's breakpoints do this on newer runtimes, but Debian 12 has GTK 4.8 without
 * libadwaita 1.4: one widget of our own serves both. */
#define G_LOG_DOMAIN "vc-split-view"

#include "config.h"

#include "vc-split-view.h"

#define WIDE_WIDTH 880

struct _VcSplitView
{
  GtkWidget parent_instance;

  GtkPaned *paned;
  int wide_position;             /* the divider's place side by side, kept while stacked */
  guint turn_id;
  GtkOrientation wanted;
};

enum {
  PROP_0,
  PROP_START_CHILD,
  PROP_END_CHILD,
  PROP_ORIENTATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VcSplitView, vc_split_view, GTK_TYPE_WIDGET)

static int
child_min_width (GtkWidget *child)
{
  int min = 0;

  if (child != NULL && gtk_widget_get_visible (child))
    gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  return min;
}

static int
side_by_side_min_width (VcSplitView *self)
{
  /* the handle is a few pixels wide: counted generously */
  return child_min_width (gtk_paned_get_start_child (self->paned)) +
         child_min_width (gtk_paned_get_end_child (self->paned)) + 12;
}

static void
vc_split_view_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  VcSplitView *self = VC_SPLIT_VIEW (widget);

  gtk_widget_measure (GTK_WIDGET (self->paned), orientation, for_size,
                      minimum, natural, minimum_baseline, natural_baseline);
  /* as narrow as the wider half: then the halves stack */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = MAX (child_min_width (gtk_paned_get_start_child (self->paned)),
                    child_min_width (gtk_paned_get_end_child (self->paned)));
}

static gboolean
turn (gpointer data)
{
  VcSplitView *self = data;

  self->turn_id = 0;
  if (gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) == self->wanted)
    return G_SOURCE_REMOVE;
  if (self->wanted == GTK_ORIENTATION_VERTICAL)
    {
      self->wide_position = gtk_paned_get_position (self->paned);
      gtk_orientable_set_orientation (GTK_ORIENTABLE (self->paned), GTK_ORIENTATION_VERTICAL);
      /* the inputs above, the results below: each half scrolls */
      gtk_paned_set_position (self->paned, MAX (120, gtk_widget_get_height (GTK_WIDGET (self)) * 9 / 20));
    }
  else
    {
      gtk_orientable_set_orientation (GTK_ORIENTABLE (self->paned), GTK_ORIENTATION_HORIZONTAL);
      gtk_paned_set_position (self->paned, self->wide_position);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORIENTATION]);
  return G_SOURCE_REMOVE;
}

static void
vc_split_view_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  VcSplitView *self = VC_SPLIT_VIEW (widget);
  GtkOrientation current = gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned));
  gboolean wide = width >= MAX (WIDE_WIDTH, side_by_side_min_width (self));

  self->wanted = wide ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL;
  /* turned before the next frame: not while GTK allocates */
  if (self->wanted != current && self->turn_id == 0)
    self->turn_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, turn, self, NULL);
  /* side by side but too narrow for it until turned: the paned gets what it needs, clipped */
  if (current == GTK_ORIENTATION_HORIZONTAL && !wide)
    width = MAX (width, side_by_side_min_width (self));
  gtk_widget_size_allocate (GTK_WIDGET (self->paned), &(GtkAllocation) { 0, 0, width, height }, baseline);
}

void
vc_split_view_set_start_child (VcSplitView *self,
                               GtkWidget   *child)
{
  g_return_if_fail (VC_IS_SPLIT_VIEW (self));
  gtk_paned_set_start_child (self->paned, child);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_START_CHILD]);
}

GtkWidget *
vc_split_view_get_start_child (VcSplitView *self)
{
  g_return_val_if_fail (VC_IS_SPLIT_VIEW (self), NULL);
  return gtk_paned_get_start_child (self->paned);
}

void
vc_split_view_set_end_child (VcSplitView *self,
                             GtkWidget   *child)
{
  g_return_if_fail (VC_IS_SPLIT_VIEW (self));
  gtk_paned_set_end_child (self->paned, child);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END_CHILD]);
}

GtkWidget *
vc_split_view_get_end_child (VcSplitView *self)
{
  g_return_val_if_fail (VC_IS_SPLIT_VIEW (self), NULL);
  return gtk_paned_get_end_child (self->paned);
}

GtkOrientation
vc_split_view_get_orientation (VcSplitView *self)
{
  g_return_val_if_fail (VC_IS_SPLIT_VIEW (self), GTK_ORIENTATION_HORIZONTAL);
  return gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned));
}

GtkWidget *
vc_split_view_new (void)
{
  return g_object_new (VC_TYPE_SPLIT_VIEW, NULL);
}

static void
vc_split_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  VcSplitView *self = VC_SPLIT_VIEW (object);

  switch (prop_id)
    {
    case PROP_START_CHILD: g_value_set_object (value, vc_split_view_get_start_child (self)); break;
    case PROP_END_CHILD: g_value_set_object (value, vc_split_view_get_end_child (self)); break;
    case PROP_ORIENTATION: g_value_set_enum (value, vc_split_view_get_orientation (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_split_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  VcSplitView *self = VC_SPLIT_VIEW (object);

  switch (prop_id)
    {
    case PROP_START_CHILD: vc_split_view_set_start_child (self, g_value_get_object (value)); break;
    case PROP_END_CHILD: vc_split_view_set_end_child (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_split_view_dispose (GObject *object)
{
  VcSplitView *self = VC_SPLIT_VIEW (object);

  g_clear_handle_id (&self->turn_id, g_source_remove);
  if (self->paned != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->paned));
      self->paned = NULL;
    }
  G_OBJECT_CLASS (vc_split_view_parent_class)->dispose (object);
}

static void
vc_split_view_class_init (VcSplitViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_split_view_dispose;
  object_class->get_property = vc_split_view_get_property;
  object_class->set_property = vc_split_view_set_property;
  widget_class->measure = vc_split_view_measure;
  widget_class->size_allocate = vc_split_view_size_allocate;

  properties[PROP_START_CHILD] =
    g_param_spec_object ("start-child", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_END_CHILD] =
    g_param_spec_object ("end-child", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ORIENTATION] =
    g_param_spec_enum ("orientation", NULL, NULL, GTK_TYPE_ORIENTATION, GTK_ORIENTATION_HORIZONTAL,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "vc-split-view");
}

static void
vc_split_view_init (VcSplitView *self)
{
  self->paned = GTK_PANED (gtk_paned_new (GTK_ORIENTATION_HORIZONTAL));
  self->wide_position = 520;
  self->wanted = GTK_ORIENTATION_HORIZONTAL;
  gtk_paned_set_position (self->paned, self->wide_position);
  gtk_paned_set_resize_start_child (self->paned, FALSE);
  gtk_paned_set_shrink_start_child (self->paned, FALSE);
  gtk_paned_set_shrink_end_child (self->paned, FALSE);
  gtk_widget_set_parent (GTK_WIDGET (self->paned), GTK_WIDGET (self));
}
