/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c: starts VRAM Calculator.
 *
 * With VC_REPORT_FIRST_FRAME set, the program prints, after its first frame is drawn, the wall
 * clock time of that frame and its resident memory, then quits: build-aux/bench-gui uses it to
 * compare the start-up with a bare GTK window. */
#define G_LOG_DOMAIN "vram-calculator"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "vc-application.h"

static void
report_first_frame (GdkFrameClock *clock,
                    GApplication  *app)
{
  g_autofree char *status = NULL;
  const char *rss;

  g_signal_handlers_disconnect_by_func (clock, report_first_frame, app);
  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL) &&
      (rss = strstr (status, "VmRSS:")) != NULL)
    rss += strlen ("VmRSS:");
  else
    rss = " 0 kB\n";
  printf ("first-frame-us %" G_GINT64_FORMAT "\nrss-kb %ld\n", g_get_real_time (), strtol (rss, NULL, 10));
  fflush (stdout);
  g_application_quit (app);
}

static void
window_realized (GtkWidget    *window,
                 GApplication *app)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (report_first_frame), app);
}

static void
window_added (GtkApplication *app,
              GtkWindow      *window)
{
  g_signal_connect (window, "realize", G_CALLBACK (window_realized), app);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VcApplication) app = NULL;

  setlocale (LC_ALL, "");
  /* VC_LOCALEDIR: translations from another folder, such as the build tree's po/ */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("VC_LOCALEDIR") ? g_getenv ("VC_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = vc_application_new ();
  if (g_getenv ("VC_REPORT_FIRST_FRAME") != NULL)
    g_signal_connect (app, "window-added", G_CALLBACK (window_added), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
