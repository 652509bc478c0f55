/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gui-test-util.c: see gui-test-util.h. */
#include "config.h"

#include "gui-test-util.h"
#include "vc-drop-down.h"
#include "vc-model-section.h"

/* GTK 4.8 keeps the display's tooltip, with its pending timeouts, on the display: a timeout
 * started in one window (a focus move, a tooltip text set) may fire after the tests destroyed
 * that window and reach the freed widget. The tests check tooltips through their query
 * handlers, never through the timeouts: dropping the tooltip cancels them. */
static void
drop_pending_tooltip (void)
{
  GdkDisplay *display = gdk_display_get_default ();

  if (display != NULL)
    g_object_set_qdata (G_OBJECT (display), g_quark_from_static_string ("gdk-display-current-tooltip"), NULL);
}

void
vc_test_spin_until_idle (void)
{
  drop_pending_tooltip ();
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
frame_done (GdkFrameClock *clock,
            gboolean      *done)
{
  *done = TRUE;
}

/* Waits until the widget's toplevel has drawn a frame after this call. */
void
vc_test_wait_for_frame (GtkWidget *widget)
{
  GdkFrameClock *clock;
  gboolean done = FALSE;
  gulong id;
  guint timeout = 0;

  vc_test_spin_until_idle ();
  clock = gtk_widget_get_frame_clock (widget);
  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (frame_done), &done);
  gtk_widget_queue_draw (GTK_WIDGET (gtk_widget_get_root (widget)));
  while (!done && timeout++ < 500)
    vc_test_iterate ();
  g_signal_handler_disconnect (clock, id);
  g_assert_true (done);
  vc_test_spin_until_idle ();
}

GtkWidget *
vc_test_find_label (GtkWidget  *root,
                    const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (root)), text) == 0 &&
      gtk_widget_is_drawable (root))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = vc_test_find_label (child, text);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The widget as the window's renderer draws it: premultiplied ARGB32, native endian. */
guint8 *
vc_test_render (GtkWidget *widget,
                int       *width,
                int       *height,
                gsize     *stride)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  guint8 *data;

  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  g_assert_cmpint (*width, >, 0);
  g_assert_cmpint (*height, >, 0);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), *width, *height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  *width = gdk_texture_get_width (texture);
  *height = gdk_texture_get_height (texture);
  *stride = *width * 4;
  data = g_malloc (*stride * *height);
  gdk_texture_download (texture, data, *stride);
  return data;
}

void
vc_test_pixel (const guint8 *data,
               gsize         stride,
               int           x,
               int           y,
               GdkRGBA      *color)
{
  guint32 p = *(const guint32 *) (data + y * stride + x * 4);
  double a = ((p >> 24) & 0xff) / 255.0;

  /* un-premultiply */
  color->alpha = a;
  color->red = a > 0 ? ((p >> 16) & 0xff) / 255.0 / a : 0;
  color->green = a > 0 ? ((p >> 8) & 0xff) / 255.0 / a : 0;
  color->blue = a > 0 ? (p & 0xff) / 255.0 / a : 0;
}

/* Every test starts from the defaults, not from what the previous one left in GSettings. */
void
vc_test_reset_stored_state (void)
{
  g_autoptr(GSettings) settings = g_settings_new (VC_SCHEMA_ID);

  g_settings_reset (settings, "last-inputs");
  g_settings_reset (settings, "tab");
}

/* A window of that size, not shown yet; *estimate is its estimate until that is freed. */
VcWindow *
vc_test_new_window (int          width,
                    int          height,
                    VcEstimate **estimate)
{
  VcWindow *window = vc_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  *estimate = vc_window_get_estimate (window);
  g_object_add_weak_pointer (G_OBJECT (*estimate), (gpointer *) estimate);
  return window;
}

/* Shows the window and waits until it has drawn. */
void
vc_test_present (VcWindow *window)
{
  gtk_window_present (GTK_WINDOW (window));
  vc_test_wait_for_frame (GTK_WIDGET (window));
}

/* A child of a widget's template, by its id in the .ui; the test fails without it. */
GtkWidget *
vc_test_child (gpointer    widget,
               GType       template_type,
               const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (widget), template_type, name);

  g_assert_true (GTK_IS_WIDGET (child));
  return GTK_WIDGET (child);
}

GtkWidget *
vc_test_window_page (VcWindow *window,
                     VcMode    mode)
{
  /* the Training tab is built when first shown: as if it were */
  if (mode == VC_MODE_TRAINING)
    return GTK_WIDGET (_vc_window_ensure_training_page (window));
  return vc_test_child (window, VC_TYPE_WINDOW, "inference_page");
}

GtkWidget *
vc_test_window_results (VcWindow *window)
{
  return vc_test_child (window, VC_TYPE_WINDOW, "results");
}

/* The widget that edits an input on a tab: one of the page's own (its id in the .ui is the
 * property's name with '_'), or one of its model section's. */
GtkWidget *
vc_test_window_input (VcWindow   *window,
                      VcMode      mode,
                      const char *property)
{
  GtkWidget *page = vc_test_window_page (window, mode);
  GType type = G_OBJECT_TYPE (page);
  g_autofree char *id = g_strdelimit (g_strdup (property), "-", '_');
  GObject *own = gtk_widget_get_template_child (page, type, id);
  GtkWidget *input;

  if (GTK_IS_WIDGET (own) && !VC_IS_MODEL_SECTION (own))
    return GTK_WIDGET (own);
  input = vc_model_section_get_input (VC_MODEL_SECTION (vc_test_child (page, type, "model_section")), property);
  g_assert_nonnull (input);
  return input;
}

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_REMOVE;
}

/* One iteration of the main loop, back within 50 ms when nothing happens: a loop that waits
 * for something until a deadline must not sleep past it waiting for an event that never
 * comes. */
void
vc_test_iterate (void)
{
  GSource *wake = g_timeout_source_new (50);

  g_source_set_callback (wake, wake_up, NULL, NULL);
  g_source_attach (wake, NULL);
  g_main_context_iteration (NULL, TRUE);
  g_source_destroy (wake);
  g_source_unref (wake);
}

/* Files are read and written in threads: waits until the window has none left. */
void
vc_test_wait_while_busy (VcWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (vc_window_is_busy (window) && g_get_monotonic_time () < deadline)
    vc_test_iterate ();
  g_assert_false (vc_window_is_busy (window));
  vc_test_spin_until_idle ();
}

/* Destroys the window and checks that nothing keeps it alive (a widget may linger until its
 * last timeout, a cursor blink, has run). */
void
vc_test_destroy_window (VcWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  while (G_OBJECT (window)->ref_count > 1 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_finalize_object (window);
}

void
vc_test_wait_gone (gpointer *object,
                   guint     seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  while (*object != NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_null (*object);
}

/* Scrolls the scrolled window holding `widget` so that its top shows: a widget scrolled out of
 * sight is not drawn, and so cannot be rendered to pixels. */
void
vc_test_scroll_into_view (GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *content;
  GtkAdjustment *adjustment;
  graphene_rect_t bounds;

  g_assert_nonnull (scrolled);
  content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));
  g_assert_true (gtk_widget_compute_bounds (widget, content, &bounds));
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (adjustment, bounds.origin.y - 12);
  vc_test_wait_for_frame (widget);
}

guint
vc_test_choice_position (GtkWidget  *dropdown,
                         const char *label)
{
  GListModel *model = vc_drop_down_get_model (VC_DROP_DOWN (dropdown));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkStringObject) s = g_list_model_get_item (model, i);

      if (g_str_equal (gtk_string_object_get_string (s), label))
        return i;
    }
  g_error ("no choice “%s”", label);
}

static void
frame_before_paint (GdkFrameClock *clock,
                    VcTestFrame   *frame)
{
  if (frame->paint_start == 0)
    frame->paint_start = g_get_monotonic_time ();
}

static void
frame_after_paint (GdkFrameClock *clock,
                   VcTestFrame   *frame)
{
  if (frame->paint_start != 0)
    frame->paint_end = g_get_monotonic_time ();
}

void
vc_test_frame_watch (GdkFrameClock *clock,
                     VcTestFrame   *frame)
{
  g_signal_connect (clock, "before-paint", G_CALLBACK (frame_before_paint), frame);
  g_signal_connect (clock, "after-paint", G_CALLBACK (frame_after_paint), frame);
}

int
vc_test_compare_int64 (gconstpointer a,
                       gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}
