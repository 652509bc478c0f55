/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a screen reader finds in the window: walks the accessible tree of the real window (both
 * tabs, the architecture fields, the error bar) and fails on any focusable element without a
 * name, given by its label (labelled-by) or by an accessible label. */
#include "config.h"

#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-results-view.h"

/* Roles that are not exposed on their own: a focusable one (the text inside a spin button or
 * an entry) is named by the first ancestor that is. */
static gboolean
is_hidden_role (GtkAccessible *accessible)
{
  GtkAccessibleRole role = gtk_accessible_get_accessible_role (accessible);

  return role == GTK_ACCESSIBLE_ROLE_NONE || role == GTK_ACCESSIBLE_ROLE_PRESENTATION ||
         role == GTK_ACCESSIBLE_ROLE_GENERIC;
}

static gboolean
has_name (GtkWidget *widget)
{
  while (widget != NULL && is_hidden_role (GTK_ACCESSIBLE (widget)))
    widget = gtk_widget_get_parent (widget);
  if (widget == NULL)
    return FALSE;
  return gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL) ||
         gtk_test_accessible_has_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
}

/* Every element the keyboard reaches, as Tab reaches it: the focus chain of the window. */
static void
walk (GtkWidget *window,
      GString   *unnamed,
      guint     *n_focusable)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < 600; i++)
    {
      GtkWidget *focus;

      if (!gtk_widget_child_focus (window, GTK_DIR_TAB_FORWARD))
        continue;
      focus = gtk_root_get_focus (GTK_ROOT (window));
      if (focus == NULL || !g_hash_table_add (seen, focus))
        continue;
      (*n_focusable)++;
      if (!has_name (focus))
        {
          GtkWidget *parent = gtk_widget_get_parent (focus);
          const char *tooltip = gtk_widget_get_tooltip_text (focus);

          /* a menu button's tooltip is on the menu button, not on the button inside */
          if (tooltip == NULL && parent != NULL)
            tooltip = gtk_widget_get_tooltip_text (parent);
          g_string_append_printf (unnamed, "\n  %s (in %s, tooltip “%s”)", G_OBJECT_TYPE_NAME (focus),
                                  parent ? G_OBJECT_TYPE_NAME (parent) : "-", tooltip ? tooltip : "");
        }
    }
}

static void
expand_architecture (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_EXPANDER (child))
        gtk_expander_set_expanded (GTK_EXPANDER (child), TRUE);
      expand_architecture (child);
    }
}

static void
test_every_focusable_named (void)
{
  g_autoptr(GSettings) settings = g_settings_new (VC_SCHEMA_ID);
  VcWindow *window;
  g_autoptr(GString) unnamed = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/profile.json");
  guint n_focusable = 0;

  g_settings_reset (settings, "last-inputs");
  g_settings_reset (settings, "tab");
  window = vc_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 900);
  gtk_window_present (GTK_WINDOW (window));
  vc_test_wait_for_frame (GTK_WIDGET (window));

  /* the error bar, as a failed open shows it */
  g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No such file");
  _vc_window_show_error (window, "Could not open “%s”", missing, error);

  for (VcMode mode = VC_MODE_INFERENCE; mode <= VC_MODE_TRAINING; mode++)
    {
      vc_window_set_mode (window, mode);
      g_object_set (vc_window_get_estimate (window), "method", VC_METHOD_ARCHITECTURE, NULL);
      vc_test_wait_for_frame (GTK_WIDGET (window));
      expand_architecture (vc_test_window_page (window, mode));
      vc_test_wait_for_frame (GTK_WIDGET (window));
      walk (GTK_WIDGET (window), unnamed, &n_focusable);
      g_object_set (vc_window_get_estimate (window), "method", VC_METHOD_RULE_OF_THUMB, NULL);
    }

  /* the window has many controls: the walk saw them */
  g_assert_cmpuint (n_focusable, >, 60);
  if (unnamed->len > 0)
    g_error ("focusable elements without an accessible name:%s", unnamed->str);

  /* the charts keep their text descriptions: what a bar shows, said in words */
  {
    GtkWidget *results = vc_test_window_results (window);

    g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (vc_test_child (results, VC_TYPE_RESULTS_VIEW, "gpu_chart")),
                                                     GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
    g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (vc_test_child (results, VC_TYPE_RESULTS_VIEW, "breakdown_bar")),
                                                     GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  }

  /* the error bar is an alert: screen readers announce it when it shows */
  {
    GtkWidget *bar = gtk_widget_get_first_child (vc_test_child (window, VC_TYPE_WINDOW, "error_revealer"));
    g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (bar)), ==, GTK_ACCESSIBLE_ROLE_ALERT);
  }

  vc_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display: GUI tests need one (build-aux/test runs them under Xvfb)");
      return g_test_run ();
    }

  g_test_add_func ("/accessibility/every-focusable-named", test_every_focusable_named);
  return g_test_run ();
}
