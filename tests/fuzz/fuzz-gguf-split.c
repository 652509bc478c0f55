/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-gguf-split: libFuzzer target for a GGUF model split in parts.
 *
 * The input is the parts, one after another, separated by "--PART--"; they are written as
 * m-00001-of-0000N.gguf … in a scratch folder and read from the first as vramcalc --model reads
 * them. vc_gguf_read() must accept them or refuse them with a message, never crash or hang; what
 * it accepts counts each tensor once (no name in two parts) and no more bytes than the files
 * hold.
 * Built and run by build-aux/fuzz (tests/fuzz/meson.build); seeds in tests/fuzz/corpus. */
#include "config.h"

#include <glib/gstdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "vc-gguf.h"

#define SEPARATOR "--PART--"
#define MAX_PARTS 8

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *folder;

/* the separator's first place in [p, end), or NULL */
static const uint8_t *
find_separator (const uint8_t *p,
                const uint8_t *end)
{
  size_t n = strlen (SEPARATOR);

  for (; (size_t) (end - p) >= n; p++)
    if (memcmp (p, SEPARATOR, n) == 0)
      return p;
  return NULL;
}

static guint last_n;

/* the previous input's parts, whose names another count would not overwrite */
static void
remove_parts (void)
{
  for (guint i = 1; i <= last_n; i++)
    {
      g_autofree char *name = g_strdup_printf ("m-%05u-of-%05u.gguf", i, last_n);
      g_autofree char *path = g_build_filename (folder, name, NULL);

      g_unlink (path);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_auto(VcGguf) gguf = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) first = NULL;
  g_autoptr(GHashTable) names = NULL;
  const uint8_t *starts[MAX_PARTS];
  size_t lengths[MAX_PARTS];
  guint n = 0;
  size_t total = 0;
  gboolean ok;

  if (folder == NULL)
    {
      /* in memory when /dev/shm is there: thousands of small files a second */
      if (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR))
        {
          folder = g_build_filename ("/dev/shm", "fuzz-gguf-split-XXXXXX", NULL);
          if (g_mkdtemp (folder) == NULL)
            g_clear_pointer (&folder, g_free);
        }
      if (folder == NULL)
        folder = g_dir_make_tmp ("fuzz-gguf-split-XXXXXX", NULL);
    }
  g_assert (folder != NULL);

  /* the parts */
  for (const uint8_t *p = data, *end = data + size; n < MAX_PARTS;)
    {
      const uint8_t *sep = find_separator (p, end);

      starts[n] = p;
      lengths[n] = sep ? (size_t) (sep - p) : (size_t) (end - p);
      total += lengths[n];
      n++;
      if (sep == NULL)
        break;
      p = sep + strlen (SEPARATOR);
    }

  remove_parts ();
  last_n = n;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("m-%05u-of-%05u.gguf", i + 1, n);
      g_autofree char *path = g_build_filename (folder, name, NULL);
      FILE *f = fopen (path, "wb");

      g_assert (f != NULL);
      g_assert (fwrite (starts[i], 1, lengths[i], f) == lengths[i]);
      g_assert (fclose (f) == 0);
      if (i == 0)
        first = g_file_new_for_path (path);
    }

  vc_gguf_init (&gguf);
  ok = vc_gguf_read (&gguf, first, NULL, &error);
  /* exactly one of a result and an error */
  g_assert (ok == (error == NULL));
  if (ok)
    {
      g_assert (gguf.tensor_bytes <= total);
      g_assert (gguf.n_files <= n);
      names = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < gguf.tensors->len; i++)
        g_assert (g_hash_table_add (names, ((VcGgufTensor *) gguf.tensors->pdata[i])->name));
    }
  return 0;
}
