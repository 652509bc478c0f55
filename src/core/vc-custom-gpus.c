/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-custom-gpus.c: GPUs of the user's own, as the estimate's custom-gpus text gives them
 * (the window's GPU editor, vramcalc --gpu and profiles all write that text). */
#define G_LOG_DOMAIN "vc-custom-gpus"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "vc-custom-gpus.h"
#include "vc-error.h"
#include "vc-units.h"

/* A profile or a command line may add this many GPUs of one's own: each is a bar, a row and a
 * column of every export, so a list of thousands would stall the window and the exports. */
#define MAX_CUSTOM_GPUS 256

static void
gpu_clear (gpointer data)
{
  VcGpu *gpu = data;

  g_free (gpu->id);
  g_free (gpu->name);
  g_free (gpu->vendor);
}

/* The items of @text that are not blank, without splitting it. */
static guint
count_items (const char *text)
{
  guint n_items = 0;

  for (const char *item = text ? text : ""; item != NULL;)
    {
      const char *end = strchr (item, ';');
      gsize length = end ? (gsize) (end - item) : strlen (item);
      gboolean blank = TRUE;

      for (gsize k = 0; k < length && blank; k++)
        blank = g_ascii_isspace (item[k]);
      n_items += !blank;
      item = end ? end + 1 : NULL;
    }
  return n_items;
}

/* The catalog's names and ids, casefolded, which a GPU of one's own may not take: folded once,
 * not at every parse (every new estimate parses its empty list, and the catalog holds a few
 * hundred names) */
static GHashTable *
catalog_names (void)
{
  static GHashTable *names;

  if (g_once_init_enter (&names))
    {
      GHashTable *folded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      guint n_catalog;
      const VcGpu *catalog = vc_gpus_get_all (&n_catalog);

      for (guint i = 0; i < n_catalog; i++)
        {
          g_hash_table_add (folded, g_utf8_casefold (catalog[i].name, -1));
          g_hash_table_add (folded, g_utf8_casefold (catalog[i].id, -1));
        }
      g_once_init_leave (&names, folded);
    }
  return names;
}

/**
 * vc_custom_gpus_parse:
 * @text: (nullable): "RTX 6000 Ada=48; My card=23028MiB": a name, '=', a size in GB or with a
 *   unit, for each GPU, separated by ';'
 *
 * Returns: (transfer full) (nullable): the GPUs (VcGpu, ids custom-1, custom-2, …; freed with
 *   the array), %NULL with @error saying which one is wrong
 */
GArray *
vc_custom_gpus_parse (const char  *text,
                      GError     **error)
{
  g_auto(GStrv) items = NULL;
  g_autoptr(GArray) out = g_array_new (FALSE, TRUE, sizeof (VcGpu));
  /* the names taken so far in this list */
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTable *catalog = catalog_names ();
  guint n_items;

  g_array_set_clear_func (out, gpu_clear);
  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("the GPU list is not UTF-8 text; accepted: NAME=SIZE, the size in GB or with a GB, GiB or MiB unit (RTX 6000 Ada=48GB)"));
      return NULL;
    }
  /* counted before anything is split or parsed */
  n_items = count_items (text);
  if (n_items > MAX_CUSTOM_GPUS)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("the GPU list holds %u GPUs; accepted: at most %u GPUs of one's own"), n_items, MAX_CUSTOM_GPUS);
      return NULL;
    }
  items = g_strsplit (text ? text : "", ";", -1);
  for (guint i = 0; items[i]; i++)
    {
      g_autofree char *item = g_strstrip (g_strdup (items[i]));
      g_autofree char *name = NULL;
      g_autofree char *size = NULL;
      const char *eq;
      double value, factor = 1e9;
      VcGpu gpu = { 0 };

      if (*item == '\0')
        continue;
      eq = strrchr (item, '=');
      if (eq == NULL)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("“%s” is not a GPU; accepted: NAME=SIZE, the size in GB or with a GB, GiB or MiB unit (RTX 6000 Ada=48GB)"),
                       item);
          return NULL;
        }
      name = g_strstrip (g_strndup (item, eq - item));
      size = g_strstrip (g_strdup (eq + 1));
      /* validated before its characters are counted: g_utf8_strlen trusts its input */
      if (*name == '\0' || !g_utf8_validate (name, -1, NULL) || g_utf8_strlen (name, -1) > 64)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("a GPU needs a name of 1 to 64 characters before “=”: “%s”"), item);
          return NULL;
        }
      {
        g_autofree char *folded = g_utf8_casefold (name, -1);

        if (g_hash_table_contains (catalog, folded) || !g_hash_table_add (names, g_steal_pointer (&folded)))
          {
            g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                         _("the GPU name “%s” is already taken (by the catalog or an earlier GPU); accepted: a name of its own"),
                         name);
            return NULL;
          }
      }
      if (g_str_has_suffix (size, "GiB"))
        factor = 1073741824.0;
      else if (g_str_has_suffix (size, "MiB"))
        factor = 1048576.0;
      if (g_str_has_suffix (size, "GiB") || g_str_has_suffix (size, "MiB"))
        size[strlen (size) - 3] = '\0';
      else if (g_str_has_suffix (size, "GB"))
        size[strlen (size) - 2] = '\0';
      g_strstrip (size);
      if (!vc_parse_number (size, &value, NULL) || value * factor < 1e8 || value * factor > 1e14)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("the size of GPU “%s” must be between 0.1 GB and 100000 GB (a number, optionally followed by GB, GiB or MiB)"),
                       name);
          return NULL;
        }
      gpu.id = g_strdup_printf ("custom-%u", out->len + 1);
      gpu.name = g_steal_pointer (&name);
      gpu.vendor = g_strdup ("");
      gpu.memory_bytes = value * factor;
      gpu.memory_mib = factor == 1048576.0 ? value : 0;
      gpu.capacity_bytes = value * factor;
      g_array_append_val (out, gpu);
    }
  return g_steal_pointer (&out);
}
