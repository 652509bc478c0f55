/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c: starts VRAM Calculator. (build-aux/bench-gui times the start-up from outside the
 * process: nothing here reports on it.) */
#define G_LOG_DOMAIN "vram-calculator"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "vc-application.h"

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
  return g_application_run (G_APPLICATION (app), argc, argv);
}
