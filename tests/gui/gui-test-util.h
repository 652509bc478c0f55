/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gui-test-util.h: helpers shared by the GUI tests and the benchmark: waiting for the main loop
 * and for frames, finding widgets (template children, the window's inputs), rendering a widget
 * to pixels, and destroying a window with a check that it is freed. */
#pragma once

#include <gtk/gtk.h>

#include "vc-card-picker-private.h"
#include "vc-drop-down-private.h"
#include "vc-model-section-private.h"
#include "vc-window-private.h"

G_BEGIN_DECLS

void        vc_test_spin_until_idle  (void);
void        vc_test_iterate          (void);
void        vc_test_wait_for_frame   (GtkWidget  *widget);
GtkWidget  *vc_test_find_label       (GtkWidget  *root,
                                      const char *text);
guint8     *vc_test_render           (GtkWidget  *widget,
                                      int        *width,
                                      int        *height,
                                      gsize      *stride);
void        vc_test_reset_stored_state (void);
VcWindow   *vc_test_new_window       (int          width,
                                      int          height,
                                      VcEstimate **estimate);
void        vc_test_present          (VcWindow   *window);
GtkWidget  *vc_test_child            (gpointer    widget,
                                      GType       template_type,
                                      const char *name);
GtkWidget  *vc_test_window_page      (VcWindow   *window,
                                      VcMode      mode);
GtkWidget  *vc_test_window_results   (VcWindow   *window);
GtkWidget  *vc_test_window_input     (VcWindow   *window,
                                      VcMode      mode,
                                      const char *property);
/* the position of the choice labelled label in a VcDropDown */
guint       vc_test_choice_position  (GtkWidget  *dropdown,
                                      const char *label);
void        vc_test_wait_while_busy  (VcWindow   *window);
void        vc_test_destroy_window   (VcWindow   *window);
/* waits up to `seconds` for the weak pointer `*object` to be cleared, and asserts it was */
void        vc_test_wait_gone        (gpointer   *object,
                                      guint       seconds);
void        vc_test_pixel            (const guint8 *data,
                                      gsize         stride,
                                      int           x,
                                      int           y,
                                      GdkRGBA      *color);

void        vc_test_scroll_into_view (GtkWidget  *widget);

/* Benchmarks: one frame's painting, timed from the frame clock's before-paint to its
 * after-paint (zero the struct before the frame); the order of gint64 values for sorting */
typedef struct
{
  gint64 paint_start;
  gint64 paint_end;
} VcTestFrame;

void        vc_test_frame_watch      (GdkFrameClock *clock,
                                      VcTestFrame   *frame);
int         vc_test_compare_int64    (gconstpointer  a,
                                      gconstpointer  b);

G_END_DECLS
