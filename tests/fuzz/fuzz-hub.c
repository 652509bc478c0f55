/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-hub: libFuzzer target for what the Hugging Face Hub reader parses before the readers
 * of vc-model-file.c see anything: the walk that finds where a GGUF header ends in the bytes
 * a range request returned, and the model names and addresses a user types.
 *
 * The walk must end without allocating or reading past the input, and say either where the
 * header ends (inside the input) or how many bytes it needs (past the input). A name must be
 * refused with a message or give org/name, a revision and a relative file.
 * Built and run by build-aux/fuzz (tests/fuzz/meson.build); seeds in tests/fuzz/corpus. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vc-hub-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  guint64 end = 0, need = 0;
  g_autofree char *text = NULL;
  g_autofree char *repo = NULL;
  g_autofree char *revision = NULL;
  g_autofree char *file = NULL;
  g_autoptr(GError) error = NULL;

  if (vc_hub_gguf_header_length (data, size, &end, &need))
    g_assert (end >= 24 && end <= size);
  else
    g_assert (need == 0 || need > size);

  text = g_strndup ((const char *) data, MIN (size, 4096));
  if (vc_hub_parse_name (text, &repo, &revision, &file, &error))
    {
      g_assert (error == NULL);
      g_assert (strchr (repo, '/') == strrchr (repo, '/') && strchr (repo, '/') != NULL);
      g_assert (*revision != '\0' && strstr (revision, "..") == NULL);
      if (file != NULL)
        {
          g_auto(GStrv) parts = g_strsplit (file, "/", -1);

          /* inside the repository: relative, no "." or ".." part */
          g_assert (file[0] != '/');
          for (guint i = 0; parts[i] != NULL; i++)
            g_assert (*parts[i] != '\0' && strcmp (parts[i], ".") != 0 && strcmp (parts[i], "..") != 0);
        }
    }
  else
    g_assert (error != NULL && error->domain == VC_HUB_ERROR);
  return 0;
}
