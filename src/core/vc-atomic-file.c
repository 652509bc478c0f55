/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-atomic-file.c: the data goes to a new file in the same folder, is flushed to the disk,
 * then renamed over the old file in one step. GLib's g_file_replace() writes over the old file
 * in place when it cannot create a file beside it (a read-only folder holding a writable
 * file): a full disk then leaves a truncated file. This never does. The window's saves and
 * exports run it in a thread (vc_atomic_file_replace_async). */
#define G_LOG_DOMAIN "vc-atomic-file"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vc-atomic-file.h"

static gboolean
fail (GError     **error,
      int          saved_errno,
      const char  *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError     **error,
      int          saved_errno,
      const char  *format,
      ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), message);
  return FALSE;
}

/* The temporary file beside @real, with the old file's permissions; -1 with @error set. */
static int
open_temporary (const char  *real,
                gboolean     exists,
                int          mode,
                char       **tmp,
                GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (real);
  g_autofree char *base = g_path_get_basename (real);
  int fd, saved;

  /* at most 200 bytes of the name: a name of 255 bytes, the most a folder holds, still gets
   * its temporary file beside it */
  *tmp = g_strdup_printf ("%s%c.%.200s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  fd = g_mkstemp_full (*tmp, O_WRONLY | O_CLOEXEC, exists ? (mode & 0777) : 0666);
  if (fd < 0)
    {
      saved = errno;
      if (exists)
        fail (error, saved,
              _("cannot write in the file's folder (%s); a save writes a new file beside the "
                "old one and never writes over it, so the file was left as it was"),
              g_strerror (saved));
      else
        fail (error, saved, _("cannot create the file: %s"), g_strerror (saved));
      return -1;
    }
  if (exists)
    (void) fchmod (fd, mode);
  return fd;
}

/* Writes everything and syncs it: 0, or the errno of what failed (ECANCELED when cancelled). */
static int
write_all (int            fd,
           const char    *data,
           gsize          length,
           GCancellable  *cancellable)
{
  gsize done = 0;

  while (done < length)
    {
      gssize n;

      if (g_cancellable_is_cancelled (cancellable))
        return ECANCELED;
      n = write (fd, data + done, length - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno;
      done += n;
    }
  if (fsync (fd) != 0)
    return errno;
  return 0;
}

/* The rename itself reaches the disk with the folder. */
static void
sync_folder (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  int fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

  if (fd >= 0)
    {
      (void) fsync (fd);
      close (fd);
    }
}

static gboolean
write_failed (GError   **error,
              int        saved,
              gboolean   exists)
{
  if (saved == ECANCELED)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("the save was cancelled"));
      return FALSE;
    }
  if (exists)
    return fail (error, saved, _("cannot write the file: %s; the old file was left as it was"),
                 g_strerror (saved));
  return fail (error, saved, _("cannot write the file: %s; nothing was saved"), g_strerror (saved));
}

/* A link whose target does not exist yet: the target, followed link by link (realpath()
 * refuses it), so that the save creates it and the link stays a link. */
static char *
dangling_target (const char *path)
{
  char *current = g_strdup (path);

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *target = NULL;
      struct stat st;

      if (g_lstat (current, &st) != 0 || !S_ISLNK (st.st_mode) ||
          (target = g_file_read_link (current, NULL)) == NULL)
        break;
      if (!g_path_is_absolute (target))
        {
          g_autofree char *dir = g_path_get_dirname (current);
          char *joined = g_build_filename (dir, target, NULL);

          g_free (target);
          target = joined;
        }
      g_free (current);
      current = g_steal_pointer (&target);
    }
  return current;
}

static gboolean
replace_local (const char    *path,
               const char    *data,
               gsize          length,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autofree char *real = NULL;
  g_autofree char *tmp = NULL;
  struct stat st;
  gboolean exists;
  int mode = 0666, fd, saved;

  /* a link is followed: the file it names is replaced, the link stays */
  real = realpath (path, NULL);
  if (real == NULL)
    real = dangling_target (path);
  exists = g_stat (real, &st) == 0;
  if (exists && !S_ISREG (st.st_mode))
    return fail (error, S_ISDIR (st.st_mode) ? EISDIR : EINVAL,
                 _("this is a folder or a special file, not a file that can be replaced"));
  if (exists)
    mode = st.st_mode & 07777;
  /* a file its owner made read-only is not replaced (a rename in a writable folder would do it,
   * where a shell redirect or gio save refuses), even for root, who may write anything */
  if (exists && (access (real, W_OK) != 0 || (st.st_uid == geteuid () && !(st.st_mode & S_IWUSR))))
    return fail (error, EACCES, _("the file is read-only; it was left as it was (make it writable, or save under another name)"));
  /* a rename would part the file from its other names, which would keep the old content */
  if (exists && st.st_nlink > 1)
    return fail (error, EMLINK,
                 _("the file has other names (hard links), which a save would part from it; it was left as it was (save under another name)"));

  fd = open_temporary (real, exists, mode, &tmp, error);
  if (fd < 0)
    return FALSE;

  saved = write_all (fd, data, length, cancellable);
  if (saved != 0)
    close (fd);
  else if (close (fd) != 0)
    saved = errno;
  else if (g_rename (tmp, real) != 0)
    saved = errno;
  if (saved != 0)
    {
      g_unlink (tmp);
      return write_failed (error, saved, exists);
    }
  sync_folder (real);
  return TRUE;
}

/* Other locations (GVfs): GIO's replace, abandoning the temporary file on a failed write. */
static gboolean
replace_other (GFile         *file,
               const char    *data,
               gsize          length,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GFileOutputStream) out = NULL;
  gsize written;

  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, error);
  if (out == NULL)
    return FALSE;
  if (!g_output_stream_write_all (G_OUTPUT_STREAM (out), data, length, &written, cancellable, error))
    {
      /* closing with a cancelled cancellable discards the temporary file */
      g_autoptr(GCancellable) abandon = g_cancellable_new ();

      g_cancellable_cancel (abandon);
      g_output_stream_close (G_OUTPUT_STREAM (out), abandon, NULL);
      return FALSE;
    }
  return g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, error);
}

/**
 * vc_atomic_file_replace:
 *
 * Replaces @file's contents: a temporary file in the same folder receives @data, is flushed
 * to the disk and renamed over @file. When that is impossible (a read-only folder, a full
 * disk) the error says so, the previous file is left byte for byte as it was and no
 * temporary file stays behind. A new file keeps the default permissions; a replaced one keeps
 * its own.
 */
gboolean
vc_atomic_file_replace (GFile         *file,
                        const char    *data,
                        gsize          length,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  path = g_file_get_path (file);
  if (path != NULL)
    return replace_local (path, data, length, cancellable, error);
  return replace_other (file, data, length, cancellable, error);
}

static void
write_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GError *error = NULL;
  gsize length;
  const char *data = g_bytes_get_data (task_data, &length);

  if (vc_atomic_file_replace (source, data, length, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * vc_atomic_file_replace_async:
 *
 * vc_atomic_file_replace() in a thread, for the window's saves and exports.
 */
void
vc_atomic_file_replace_async (GFile               *file,
                              GBytes              *bytes,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (bytes != NULL);

  task = g_task_new (file, cancellable, callback, user_data);
  g_task_set_source_tag (task, vc_atomic_file_replace_async);
  g_task_set_task_data (task, g_bytes_ref (bytes), (GDestroyNotify) g_bytes_unref);
  g_task_run_in_thread (task, write_thread);
}

gboolean
vc_atomic_file_replace_finish (GFile         *file,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, file), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
