/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-application.c: application-wide actions and the window's creation. */
#define G_LOG_DOMAIN "vc-application"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-application.h"
#include "vc-catalog.h"
#include "vc-window.h"

#define RESOURCE_BASE "/io/github/vramcalc/VramCalculator"

struct _VcApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (VcApplication, vc_application, GTK_TYPE_APPLICATION)

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *app = user_data;
  /* as the metainfo's developer name */
  static const char *developers[] = { "VRAM Calculator developers", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", _("VRAM Calculator"),
                         "logo-icon-name", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("How much GPU memory a language model needs to run or to fine-tune, "
                                       "and which GPUs can hold it"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", developers,
                         /* TRANSLATORS: your names, one a line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

/* Closing each window first lets it save its size and inputs. */
static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

/* The built-in catalog (presets and GPUs, JSON) is read on a thread of its own while GTK opens
 * the display; the window, which needs it, waits for it if it is not done by then. */
static gpointer
read_catalog (gpointer data)
{
  guint n;

  vc_presets_get_all (&n);
  return NULL;
}

static void
vc_application_startup (GApplication *application)
{
  static const GActionEntry actions[] = {
    { "about", about_activated, NULL, NULL, NULL },
    { "quit", quit_activated, NULL, NULL, NULL },
  };
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *inference_accels[] = { "<Alt>1", NULL };
  static const char *training_accels[] = { "<Alt>2", NULL };
  /* as GtkApplication sets them for gtk/help-overlay.ui; ours is loaded after the first frame */
  static const char *shortcuts_accels[] = { "<Control>question", NULL };
  static const struct { const char *action; const char *accel; } window_accels[] = {
    { "win.new", "<Control>n" },
    { "win.open", "<Control>o" },
    { "win.save", "<Control>s" },
    { "win.save-as", "<Shift><Control>s" },
    { "win.export", "<Control>e" },
    { "win.import-config", "<Control>i" },
    { "win.open-hub", "<Control>h" },
  };
  g_autoptr(GtkCssProvider) css = NULL;

  g_thread_unref (g_thread_new ("vc-catalog", read_catalog, NULL));
  G_APPLICATION_CLASS (vc_application_parent_class)->startup (application);
  css = gtk_css_provider_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (application), actions, G_N_ELEMENTS (actions), application);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.show-inference", inference_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.show-training", training_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.show-help-overlay", shortcuts_accels);
  for (guint i = 0; i < G_N_ELEMENTS (window_accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (application), window_accels[i].action,
                                           (const char *[]) { window_accels[i].accel, NULL });

  gtk_css_provider_load_from_resource (css, RESOURCE_BASE "/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_window_set_default_icon_name (APPLICATION_ID);
}

static void
vc_application_activate (GApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window == NULL)
    window = GTK_WINDOW (vc_window_new (GTK_APPLICATION (application)));
  gtk_window_present (window);
}

/* `vram-calculator FILE`: a profile opens; a config.json, a .gguf file or a model folder is
 * imported. One window takes the first file; there is one estimate per window. */
static void
vc_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window == NULL)
    window = GTK_WINDOW (vc_window_new (GTK_APPLICATION (application)));
  gtk_window_present (window);
  if (n_files > 0)
    vc_window_open_file (VC_WINDOW (window), files[0]);
}

static void
vc_application_class_init (VcApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = vc_application_startup;
  app_class->activate = vc_application_activate;
  app_class->open = vc_application_open;
}

static void
vc_application_init (VcApplication *self)
{
}

VcApplication *
vc_application_new (void)
{
  /* the development build has its own id but the same resources (help overlay, styles) */
  return g_object_new (VC_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", RESOURCE_BASE,
                       NULL);
}
