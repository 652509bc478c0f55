/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Desktop conventions: the MIME types and the desktop file as an installation has them
 * (XDG_DATA_DIRS points at the build's copy), a profile opened through its type the way Files
 * opens it, --version, the About dialog's icon and links, and the desktop's dark preference
 * read from the Settings portal (a stand-in on the test's private bus). */
#include "config.h"

#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-application.h"
#include "vc-compat.h"
#include "vc-profile.h"
#include "vc-shortcuts-window.h"
#include "vc-test-util.h"
#include "vc-window.h"

#define PROFILE_TYPE "application/x-vram-calculator-profile"

/* waits for @done, at most @seconds */
static gboolean
spin_until (gboolean (*done) (gpointer data),
            gpointer  data,
            double    seconds)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (!done (data) && g_get_monotonic_time () < deadline)
    vc_test_iterate ();
  return done (data);
}

static char *
content_type (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_CONTENT_TYPE, G_FILE_QUERY_INFO_NONE, NULL, &error);
  g_assert_no_error (error);
  return g_strdup (g_file_info_get_content_type (info));
}

/* a profile as the window saves it: Llama 3 8B at 8192 tokens, named */
static char *
write_profile (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "plan.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VcEstimate) estimate = vc_estimate_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_estimate_set_preset (estimate, "llama-3-8b", &error));
  g_object_set (estimate, "seq", 8192, NULL);
  vc_profile_write_file (file, estimate, "Opened from Files", "", VC_UNIT_GB, NULL, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static void
test_version (void)
{
  const char *argv[] = { g_getenv ("VRAM_CALCULATOR"), "--version", NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (out, ==, "vram-calculator " PACKAGE_VERSION "\n");
}

/* A profile is told from other JSON by its content, a GGUF file by its name; the app is the
 * one the desktop file offers for each. */
static void
test_mime_types (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-desktop");
  g_autofree char *profile = write_profile (dir);
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                              "Mistral-7B-v0.1", "config.json", NULL);
  g_autofree char *gguf = g_build_filename (dir, "model.gguf", NULL);
  g_autofree char *type = NULL;
  g_autoptr(GAppInfo) app = NULL;
  g_autoptr(GError) error = NULL;
  const char **types;

  g_file_set_contents (gguf, "GGUF\3\0\0\0", 8, &error);
  g_assert_no_error (error);
  type = content_type (profile);
  g_assert_cmpstr (type, ==, PROFILE_TYPE);
  g_assert_true (g_content_type_is_a (type, "application/json"));
  g_clear_pointer (&type, g_free);
  type = content_type (config);
  g_assert_cmpstr (type, ==, "application/json");
  g_clear_pointer (&type, g_free);
  type = content_type (gguf);
  g_assert_cmpstr (type, ==, "application/x-gguf");

  app = g_app_info_get_default_for_type (PROFILE_TYPE, FALSE);
  g_assert_nonnull (app);
  g_assert_cmpstr (g_app_info_get_id (app), ==, APPLICATION_ID ".desktop");
  types = g_app_info_get_supported_types (app);
  g_assert_true (g_strv_contains (types, PROFILE_TYPE));
  g_assert_true (g_strv_contains (types, "application/x-gguf"));
  g_assert_true (g_strv_contains (types, "application/json"));
  /* %F: the files are given on the command line */
  g_assert_true (g_app_info_supports_files (app));
  vc_test_remove_tree (dir);
}

static gboolean
profile_opened (gpointer data)
{
  GtkWindow *window = gtk_application_get_active_window (data);

  return window != NULL && !vc_window_is_busy (VC_WINDOW (window)) &&
         g_strcmp0 (vc_profile_get_name (vc_window_get_profile (VC_WINDOW (window))), "Opened from Files") == 0;
}

/* As Files opens a profile: the application its type names is launched with the file; that
 * program finds this one registered on the bus under the application id and hands it the
 * file (GApplication's open), which opens it in the window. */
static void
test_open_through_mime_type (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autofree char *dir = vc_test_make_tmpdir ("vc-desktop");
  g_autofree char *path = write_profile (dir);
  g_autofree char *type = content_type (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAppInfo) app_info = NULL;
  g_autoptr(VcApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  GList files = { file, NULL, NULL };
  VcWindow *window;
  guint seq = 0;

  if (bus == NULL)
    {
      g_test_skip ("no D-Bus session bus (build-aux/test runs the tests in one)");
      vc_test_remove_tree (dir);
      return;
    }
  app_info = g_app_info_get_default_for_type (type, FALSE);
  g_assert_nonnull (app_info);

  app = vc_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));

  g_assert_true (g_app_info_launch (app_info, &files, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (spin_until (profile_opened, app, 30));
  window = VC_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_object_get (vc_window_get_estimate (window), "seq", &seq, NULL);
  g_assert_cmpuint (seq, ==, 8192);
  g_assert_cmpstr (vc_estimate_get_preset (vc_window_get_estimate (window)), ==, "llama-3-8b");
  vc_test_destroy_window (window);
  vc_test_remove_tree (dir);
}

static GtkAboutDialog *
find_about (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (GTK_IS_ABOUT_DIALOG (item))
        return GTK_ABOUT_DIALOG (item);
    }
  return NULL;
}

/* a label of @root showing @text, shown or not */
static GtkWidget *
find_text (GtkWidget  *root,
           const char *text)
{
  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), text) != NULL)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_text (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkStack *
find_stack (GtkWidget *root)
{
  if (GTK_IS_STACK (root))
    return GTK_STACK (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkStack *found = find_stack (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The icon is found uninstalled (from the resources), and the dialog links the website and
 * the issue tracker */
static void
test_about (void)
{
  g_autoptr(VcApplication) app = vc_application_new ();
  g_autoptr(GError) error = NULL;
  GtkIconTheme *theme;
  GtkAboutDialog *about;

  g_application_set_application_id (G_APPLICATION (app), APPLICATION_ID ".TestAbout");
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_application_activate (G_APPLICATION (app));
  vc_test_spin_until_idle ();

  theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  g_assert_true (gtk_icon_theme_has_icon (theme, APPLICATION_ID));
  g_assert_true (gtk_icon_theme_has_icon (theme, APPLICATION_ID "-symbolic"));

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  vc_test_spin_until_idle ();
  about = find_about ();
  g_assert_nonnull (about);
  g_assert_cmpstr (gtk_about_dialog_get_logo_icon_name (about), ==, APPLICATION_ID);
  g_assert_cmpstr (gtk_about_dialog_get_website (about), ==, "https://github.com/vramcalc/vram-calculator");
  g_assert_cmpstr (gtk_about_dialog_get_version (about), ==, PACKAGE_VERSION);
  /* the credits page, where the issue tracker is, is filled when it is shown */
  gtk_stack_set_visible_child_name (find_stack (GTK_WIDGET (about)), "credits");
  vc_test_spin_until_idle ();
  g_assert_nonnull (find_text (GTK_WIDGET (about), "Report an Issue"));
  g_assert_nonnull (find_text (GTK_WIDGET (about), "https://github.com/vramcalc/vram-calculator/issues"));
  gtk_window_destroy (GTK_WINDOW (about));
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  vc_test_spin_until_idle ();
}

/* the label beside @title's in its grid row */
static const char *
keys_of (GtkWidget  *root,
         const char *title)
{
  GtkWidget *label = find_text (root, title);
  GtkWidget *grid;
  int column, row;

  g_assert_nonnull (label);
  grid = gtk_widget_get_parent (label);
  g_assert_true (GTK_IS_GRID (grid));
  gtk_grid_query_child (GTK_GRID (grid), label, &column, &row, NULL, NULL);
  return gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 1, row)));
}

static guint
count_rows (GtkWidget *root)
{
  guint n = 0;

  if (GTK_IS_GRID (root))
    for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
      n++;
  else
    for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
      n += count_rows (child);
  return n;
}

static gboolean
another_window_shown (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) item = g_list_model_get_item (toplevels, i);

      if (item != data && gtk_window_get_transient_for (item) == data && gtk_widget_get_visible (GTK_WIDGET (item)))
        return TRUE;
    }
  return FALSE;
}

/* Ctrl+? shows the shortcuts (GtkShortcutsWindow on GTK 4.8, VcShortcutsWindow from 4.18);
 * VcShortcutsWindow lists every shortcut of the description with the application's keys */
static void
test_shortcuts (void)
{
  g_autoptr(VcApplication) app = vc_application_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) description = NULL;
  g_auto(GStrv) parts = NULL;
  GtkWindow *window;
  GtkWidget *shortcuts;

  g_application_set_application_id (G_APPLICATION (app), APPLICATION_ID ".TestShortcuts");
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_application_activate (G_APPLICATION (app));
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  vc_test_wait_for_frame (GTK_WIDGET (window));
  vc_test_spin_until_idle ();
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_true (spin_until (another_window_shown, window, 5));

  shortcuts = vc_shortcuts_window_new (window);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (shortcuts)), ==, "Keyboard Shortcuts");
  g_assert_cmpstr (keys_of (shortcuts, "Save As"), ==, "Shift+Ctrl+S");
  g_assert_cmpstr (keys_of (shortcuts, "Import config.json"), ==, "Ctrl+I");
  g_assert_cmpstr (keys_of (shortcuts, "Move between panes"), ==, "F6");
  g_assert_cmpstr (keys_of (shortcuts, "Show Shortcuts"), ==, "Ctrl+?");
  g_assert_cmpstr (keys_of (shortcuts, "Training"), ==, "Alt+2");
  g_assert_nonnull (find_text (shortcuts, "Navigation"));
  /* a title and its keys for each shortcut of the description */
  description = g_resources_lookup_data ("/io/github/vramcalc/VramCalculator/vc-shortcuts.ui", 0, &error);
  g_assert_no_error (error);
  parts = g_strsplit (g_bytes_get_data (description, NULL), "\"GtkShortcutsShortcut\"", -1);
  g_assert_cmpuint (count_rows (shortcuts), ==, 2 * (g_strv_length (parts) - 1));
  g_assert_cmpuint (g_strv_length (parts) - 1, ==, 15);
  gtk_window_destroy (GTK_WINDOW (shortcuts));
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  vc_test_spin_until_idle ();
}

/* ---- a stand-in Settings portal -------------------------------------------------------------- */

typedef struct
{
  guint32 scheme;
  gboolean read_one;           /* FALSE: a portal older than ReadOne (Read only) */
  guint calls;
} Portal;

static const char portal_xml[] =
  "<node><interface name='org.freedesktop.portal.Settings'>"
  "<method name='ReadOne'><arg type='s' direction='in'/><arg type='s' direction='in'/>"
  "<arg type='v' direction='out'/></method>"
  "<method name='Read'><arg type='s' direction='in'/><arg type='s' direction='in'/>"
  "<arg type='v' direction='out'/></method>"
  "<signal name='SettingChanged'><arg type='s'/><arg type='s'/><arg type='v'/></signal>"
  "</interface></node>";

static void
portal_call (GDBusConnection       *connection,
             const char            *sender,
             const char            *path,
             const char            *interface,
             const char            *method,
             GVariant              *parameters,
             GDBusMethodInvocation *invocation,
             gpointer               data)
{
  Portal *portal = data;
  const char *name_space, *key;
  GVariant *value;

  portal->calls++;
  g_variant_get (parameters, "(&s&s)", &name_space, &key);
  if (g_str_equal (method, "ReadOne") && !portal->read_one)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD, "no ReadOne");
      return;
    }
  if (!g_str_equal (name_space, "org.freedesktop.appearance") || !g_str_equal (key, "color-scheme"))
    {
      g_dbus_method_invocation_return_dbus_error (invocation, "org.freedesktop.portal.Error.NotFound", "not found");
      return;
    }
  value = g_variant_new_uint32 (portal->scheme);
  if (g_str_equal (method, "Read"))
    value = g_variant_new_variant (value);
  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(v)", value));
}

static gboolean
name_owned (gpointer data)
{
  return *(gboolean *) data;
}

static void
name_acquired (GDBusConnection *connection,
               const char      *name,
               gpointer         data)
{
  *(gboolean *) data = TRUE;
}

static gboolean
prefers_dark (gpointer data)
{
  gboolean dark = FALSE;

  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &dark, NULL);
  return dark == GPOINTER_TO_INT (data);
}

static void
emit_scheme (GDBusConnection *bus,
             const char      *name_space,
             guint32          scheme)
{
  g_autoptr(GError) error = NULL;

  g_dbus_connection_emit_signal (bus, NULL, "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings",
                                 "SettingChanged",
                                 g_variant_new ("(ssv)", name_space, "color-scheme", g_variant_new_uint32 (scheme)),
                                 &error);
  g_assert_no_error (error);
}

/* an application started with the portal answering @scheme */
static void
start_app (Portal     *portal,
           guint32     scheme,
           gboolean    unique,
           const char *id)
{
  g_autoptr(VcApplication) app = vc_application_new ();
  g_autoptr(GError) error = NULL;

  portal->scheme = scheme;
  portal->calls = 0;
  /* an id of its own: an application stays exported on this bus once registered */
  g_application_set_application_id (G_APPLICATION (app), id);
  if (!unique)
    g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  /* startup reads the portal and returns at once: the answer comes in the main loop */
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (spin_until (prefers_dark, GINT_TO_POINTER (scheme == 1), 5));
  g_assert_cmpuint (portal->calls, >=, 1);
}

static void
test_dark_preference (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GDBusNodeInfo) node = g_dbus_node_info_new_for_xml (portal_xml, NULL);
  static const GDBusInterfaceVTable vtable = { portal_call, NULL, NULL, { 0 } };
  Portal portal = { 1, TRUE, 0 };
  gboolean owned = FALSE;
  guint object, owner;

  if (!vc_follows_dark_preference ())
    {
      g_test_skip ("GTK reads the dark preference itself from GTK 4.20 on");
      return;
    }
  if (bus == NULL)
    {
      g_test_skip ("no D-Bus session bus (build-aux/test runs the tests in one)");
      return;
    }
  object = g_dbus_connection_register_object (bus, "/org/freedesktop/portal/desktop", node->interfaces[0],
                                              &vtable, &portal, NULL, NULL);
  owner = g_bus_own_name_on_connection (bus, "org.freedesktop.portal.Desktop", G_BUS_NAME_OWNER_FLAGS_NONE,
                                        name_acquired, NULL, &owned, NULL);
  g_assert_true (spin_until (name_owned, &owned, 5));

  /* dark at start-up, through the application's own bus connection */
  start_app (&portal, 1, TRUE, APPLICATION_ID ".TestDark");
  /* followed when it changes; another setting's change is not this one */
  emit_scheme (bus, "org.freedesktop.appearance", 2);
  g_assert_true (spin_until (prefers_dark, GINT_TO_POINTER (FALSE), 5));
  emit_scheme (bus, "org.gnome.desktop.interface", 1);
  emit_scheme (bus, "org.freedesktop.appearance", 1);
  g_assert_true (spin_until (prefers_dark, GINT_TO_POINTER (TRUE), 5));
  /* no preference is light */
  emit_scheme (bus, "org.freedesktop.appearance", 0);
  g_assert_true (spin_until (prefers_dark, GINT_TO_POINTER (FALSE), 5));

  /* a portal without ReadOne is asked with Read; an application not unique on the bus
   * connects to it itself */
  portal.read_one = FALSE;
  start_app (&portal, 1, FALSE, APPLICATION_ID ".TestDarkRead");
  g_assert_cmpuint (portal.calls, ==, 2);

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  g_bus_unown_name (owner);
  g_dbus_connection_unregister_object (bus, object);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/desktop/version", test_version);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display: GUI tests need one (build-aux/test runs them under Xvfb)");
      return g_test_run ();
    }
  g_test_add_func ("/desktop/mime-types", test_mime_types);
  g_test_add_func ("/desktop/open-through-mime-type", test_open_through_mime_type);
  g_test_add_func ("/desktop/about", test_about);
  g_test_add_func ("/desktop/shortcuts", test_shortcuts);
  g_test_add_func ("/desktop/dark-preference", test_dark_preference);
  return g_test_run ();
}
