/* SPDX-License-Identifier: GPL-3.0-or-later */
/* startup-probe.c: how long a GUI program takes to start, seen from outside: from the exec until
 * its first top-level window is shown (mapped) and until the program has drawn its first frame
 * into it. Then, after a settle delay, its resident memory. The program is killed afterwards.
 * Used by build-aux/bench-gui.
 *
 * The two times differ by the whole first layout and drawing. A DAMAGE object created on a
 * window that is already shown reports the whole window at once, so "first damage after the
 * map" is the map itself. Here the damage object is made when the window is created, before it
 * is shown; what the X server paints when it maps the window (its background) is reported
 * before the reply to a round trip made on the MapNotify, and is left out.
 *
 *   startup-probe [-s SETTLE_MS] [-t TIMEOUT_MS] -- COMMAND [ARGS...]
 *
 * Prints "map_ms=… frame_ms=… rss_kib=…"; exits 1 when no frame came before the timeout. */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
monotonic_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long
resident_kib (pid_t pid)
{
  char path[64], line[256];
  long kib = -1;
  FILE *f;

  snprintf (path, sizeof path, "/proc/%d/status", (int) pid);
  if ((f = fopen (path, "r")) == NULL)
    return -1;
  while (fgets (line, sizeof line, f) != NULL)
    if (strncmp (line, "VmRSS:", 6) == 0)
      {
        kib = strtol (line + 6, NULL, 10);
        break;
      }
  fclose (f);
  return kib;
}

/* a window watched from its creation may be gone before the server sees our request */
static int
ignore_error (Display     *display,
              XErrorEvent *error)
{
  (void) display;
  (void) error;
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  int settle_ms = 500, timeout_ms = 20000, first = 1;
  int damage_event, damage_error, status;
  double start, map_ms = -1, frame_ms = -1;
  Display *display;
  Window root, window = 0, created[16];
  Damage damages[16], damage = None;
  int n_created = 0;
  pid_t pid;

  for (; first < argc; first++)
    {
      if (strcmp (argv[first], "-s") == 0 && first + 1 < argc)
        settle_ms = atoi (argv[++first]);
      else if (strcmp (argv[first], "-t") == 0 && first + 1 < argc)
        timeout_ms = atoi (argv[++first]);
      else if (strcmp (argv[first], "--") == 0)
        {
          first++;
          break;
        }
      else
        break;
    }
  if (first >= argc)
    {
      fprintf (stderr, "usage: startup-probe [-s SETTLE_MS] [-t TIMEOUT_MS] -- COMMAND [ARGS...]\n");
      return 2;
    }
  if ((display = XOpenDisplay (NULL)) == NULL ||
      !XDamageQueryExtension (display, &damage_event, &damage_error))
    {
      fprintf (stderr, "startup-probe: needs an X display with the DAMAGE extension\n");
      return 2;
    }

  XSetErrorHandler (ignore_error);
  /* watch for top-level windows before the program exists */
  root = DefaultRootWindow (display);
  XSelectInput (display, root, SubstructureNotifyMask);
  XSync (display, False);

  start = monotonic_ms ();
  pid = fork ();
  if (pid == 0)
    {
      setpgid (0, 0);
      execvp (argv[first], argv + first);
      _exit (127);
    }

  while (frame_ms < 0 && monotonic_ms () - start < timeout_ms)
    {
      struct pollfd fd = { ConnectionNumber (display), POLLIN, 0 };

      while (frame_ms < 0 && XPending (display))
        {
          XEvent event;

          XNextEvent (display, &event);
          /* watched from its creation: every top-level window until one is shown (toolkits
           * also make windows that are never shown, a GDK leader window for one) */
          if (event.type == CreateNotify && window == 0 && event.xcreatewindow.parent == root &&
              !event.xcreatewindow.override_redirect &&
              n_created < (int) (sizeof created / sizeof created[0]))
            {
              created[n_created] = event.xcreatewindow.window;
              damages[n_created++] = XDamageCreate (display, event.xcreatewindow.window,
                                                    XDamageReportNonEmpty);
              XSync (display, False);
            }
          else if (event.type == MapNotify && window == 0 && event.xmap.event == root &&
                   !event.xmap.override_redirect)
            {
              for (int i = 0; i < n_created; i++)
                if (created[i] == event.xmap.window)
                  damage = damages[i];
              if (damage == None)
                continue;
              window = event.xmap.window;
              map_ms = monotonic_ms () - start;
              /* the server's own painting at the map was reported before this round trip's
               * reply: drop it, and empty the region so that the next drawing is reported */
              XDamageSubtract (display, damage, None, None);
              XSync (display, False);
              while (XCheckTypedEvent (display, damage_event + XDamageNotify, &event))
                ;
            }
          else if (map_ms >= 0 && event.type == damage_event + XDamageNotify &&
                   ((XDamageNotifyEvent *) &event)->drawable == window)
            frame_ms = monotonic_ms () - start;
        }
      if (frame_ms >= 0 || waitpid (pid, &status, WNOHANG) == pid)
        break;
      poll (&fd, 1, 5);
    }

  if (frame_ms >= 0)
    usleep (settle_ms * 1000);
  printf ("map_ms=%.1f frame_ms=%.1f rss_kib=%ld\n", map_ms, frame_ms, frame_ms >= 0 ? resident_kib (pid) : -1);
  kill (-pid, SIGTERM);
  usleep (100000);
  kill (-pid, SIGKILL);
  waitpid (pid, NULL, 0);
  return frame_ms >= 0 ? 0 : 1;
}
