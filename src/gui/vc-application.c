/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-application.c: application-wide actions, the window's creation, the files it is given
 * (`vram-calculator FILE`, Files' "Open With") and --version. */
#define G_LOG_DOMAIN "vc-application"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-application.h"
#include "vc-catalog.h"
#include "vc-compat.h"
#include "vc-window.h"

#define RESOURCE_BASE "/io/github/vramcalc/VramCalculator"
/* as the metainfo's homepage and bugtracker */
#define WEBSITE "https://github.com/vramcalc/vram-calculator"
#define ISSUES WEBSITE "/issues"

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
  /* GtkAboutDialog has no issue-tracker field: a credits line holding an address is a link */
  static const char *issues[] = { ISSUES, NULL };
  GtkWidget *about;

  about = g_object_new (GTK_TYPE_ABOUT_DIALOG,
                        "transient-for", gtk_application_get_active_window (app),
                        "modal", TRUE,
                        "hide-on-close", FALSE,
                        "program-name", _("VRAM Calculator"),
                        /* found in the installed icon theme, or in the resources (vc-icons.gresource.xml) */
                        "logo-icon-name", APPLICATION_ID,
                        "version", PACKAGE_VERSION,
                        "website", WEBSITE,
                        "website-label", _("Website"),
                        "comments", _("How much GPU memory a language model needs to run or to fine-tune, "
                                      "and which GPUs can hold it"),
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "authors", developers,
                        /* TRANSLATORS: your names, one a line */
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_about_dialog_add_credit_section (GTK_ABOUT_DIALOG (about), _("Report an Issue"), issues);
  gtk_window_present (GTK_WINDOW (about));
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
  /* the desktop's dark preference, where GTK does not follow it itself; asynchronous */
  vc_follow_dark_preference (g_application_get_dbus_connection (application));
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

/* `vram-calculator --version`, answered in the process it is given to */
static int
vc_application_handle_local_options (GApplication *application,
                                     GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("vram-calculator %s\n", PACKAGE_VERSION);
      return 0;
    }
  return -1;
}

static void
vc_application_class_init (VcApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->handle_local_options = vc_application_handle_local_options;
  app_class->startup = vc_application_startup;
  app_class->activate = vc_application_activate;
  app_class->open = vc_application_open;
}

static void
vc_application_init (VcApplication *self)
{
  static const GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Show the version"), NULL },
    { NULL },
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  /* TRANSLATORS: what `vram-calculator --help` says it takes after the options */
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
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
