/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gpu-set.c: "My GPUs": parsing and writing the set of cards (vc-gpu-set.h gives the form). */
#define G_LOG_DOMAIN "vc-gpu-set"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "vc-catalog.h"
#include "vc-error.h"
#include "vc-gpu-set.h"
#include "vc-units.h"

static void
device_clear (gpointer data)
{
  VcGpuSetDevice *d = data;

  g_free (d->id);
  g_free (d->name);
}

VcGpuSet *
vc_gpu_set_new (void)
{
  VcGpuSet *set = g_new0 (VcGpuSet, 1);

  set->devices = g_array_new (FALSE, TRUE, sizeof (VcGpuSetDevice));
  g_array_set_clear_func (set->devices, device_clear);
  return set;
}

void
vc_gpu_set_free (VcGpuSet *set)
{
  if (set == NULL)
    return;
  g_array_unref (set->devices);
  g_free (set);
}

void
vc_gpu_set_add (VcGpuSet   *set,
                const char *id,
                const char *name,
                double      memory_bytes,
                double      free_bytes)
{
  VcGpuSetDevice d = { g_strdup (id), g_strdup (name), memory_bytes, free_bytes };

  g_array_append_val (set->devices, d);
}

guint
vc_gpu_set_get_n (const VcGpuSet *set)
{
  return set ? set->devices->len : 0;
}

const VcGpuSetDevice *
vc_gpu_set_get (const VcGpuSet *set,
                guint           i)
{
  g_return_val_if_fail (set != NULL && i < set->devices->len, NULL);
  return &g_array_index (set->devices, VcGpuSetDevice, i);
}

double
vc_gpu_set_available (const VcGpuSet *set,
                      guint           i)
{
  const VcGpuSetDevice *d = vc_gpu_set_get (set, i);

  return d->free_bytes >= 0 ? d->free_bytes : d->memory_bytes;
}

gboolean
vc_gpu_set_is_uniform (const VcGpuSet *set)
{
  for (guint i = 1; i < vc_gpu_set_get_n (set); i++)
    {
      const VcGpuSetDevice *a = vc_gpu_set_get (set, 0), *b = vc_gpu_set_get (set, i);

      if (g_strcmp0 (a->id, b->id) != 0 || a->memory_bytes != b->memory_bytes)
        return FALSE;
    }
  return TRUE;
}

/* whole bytes, from 0.1 GB to 100000 GB, as the custom cards take them (vc-custom-gpus.c) */
static gboolean parse_size (const char *text,
                            double      min,
                            double     *bytes);

gboolean
vc_gpu_set_parse_size (const char *text,
                       double     *bytes)
{
  return parse_size (text, 1e8, bytes);
}

static gboolean
parse_size (const char *text,
            double      min,
            double     *bytes)
{
  g_autofree char *size = g_strstrip (g_strdup (text ? text : ""));
  double value, factor = 1e9;

  if (g_str_has_suffix (size, "GiB") || g_str_has_suffix (size, "MiB"))
    {
      factor = g_str_has_suffix (size, "GiB") ? 1073741824.0 : 1048576.0;
      size[strlen (size) - 3] = '\0';
    }
  else if (g_str_has_suffix (size, "GB"))
    size[strlen (size) - 2] = '\0';
  else if (g_str_has_suffix (size, "B"))
    {
      factor = 1;
      size[strlen (size) - 1] = '\0';
    }
  g_strstrip (size);
  if (!vc_parse_number (size, &value, NULL) || !(value * factor >= min && value * factor <= 1e14))
    return FALSE;
  *bytes = round (value * factor);
  return TRUE;
}

static char *
format_size (double bytes)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (fmod (bytes, 1048576.0) == 0)
    return g_strdup_printf ("%.0fMiB", bytes / 1048576.0);
  if (fmod (bytes, 1e6) == 0)
    return g_strdup_printf ("%sGB", g_ascii_dtostr (buf, sizeof buf, bytes / 1e9));
  return g_strdup_printf ("%.0fB", bytes);
}

static const VcGpu *
catalog_gpu (const char *id)
{
  guint n;
  const VcGpu *all = vc_gpus_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (all[i].id, id) == 0)
      return &all[i];
  return NULL;
}

static gboolean
refuse (GError    **error,
        const char *item,
        const char *why)
{
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
               _("“%s” in the GPU set: %s; accepted: catalog ids (vramcalc --list-gpus) or NAME=SIZE cards, "
                 "separated by commas, each optionally /FREE and :COUNT (rtx-3090,rtx-3060-12gb or h100-80gb:8 or My card=24GB/20GB)"),
               item, why);
  return FALSE;
}

static gboolean
parse_item (VcGpuSet   *set,
            const char *text,
            GError    **error)
{
  g_autofree char *item = g_strstrip (g_strdup (text));
  const char *colon = strrchr (item, ':');
  g_autofree char *card = NULL;
  char *slash, *eq;
  guint64 count = 1;
  double memory = 0, free_bytes = -1;
  g_autofree char *name = NULL;
  const VcGpu *gpu = NULL;

  if (colon != NULL && strchr (colon, '=') == NULL && strchr (colon, '/') == NULL)
    {
      g_autofree char *n = g_strstrip (g_strdup (colon + 1));

      if (!g_ascii_string_to_unsigned (n, 10, 1, VC_GPU_SET_MAX, &count, NULL))
        return refuse (error, item, _("the count after “:” must be a whole number from 1 to 256"));
      card = g_strstrip (g_strndup (item, colon - item));
    }
  else
    card = g_strdup (item);
  eq = strrchr (card, '=');
  slash = strrchr (eq ? eq : card, '/');
  if (slash != NULL)
    {
      if (!parse_size (slash + 1, 0, &free_bytes))
        return refuse (error, item, _("the free memory after “/” must be between 0 and 100000 GB"));
      *slash = '\0';
    }
  if (eq != NULL)
    {
      name = g_strstrip (g_strndup (card, eq - card));
      if (*name == '\0' || !g_utf8_validate (name, -1, NULL) || g_utf8_strlen (name, -1) > 64)
        return refuse (error, item, _("a card needs a name of 1 to 64 characters before “=”"));
      if (!vc_gpu_set_parse_size (eq + 1, &memory))
        return refuse (error, item, _("the size after “=” must be between 0.1 GB and 100000 GB"));
    }
  else
    {
      g_strstrip (card);
      gpu = catalog_gpu (card);
      if (gpu == NULL)
        return refuse (error, item, _("not a GPU of the catalog"));
      memory = gpu->capacity_bytes;
    }
  if (free_bytes > memory)
    return refuse (error, item, _("the free memory exceeds the card's"));
  if (vc_gpu_set_get_n (set) + count > VC_GPU_SET_MAX)
    return refuse (error, item, _("a set holds at most 256 cards"));
  for (guint64 k = 0; k < count; k++)
    vc_gpu_set_add (set, gpu ? gpu->id : NULL, gpu ? gpu->name : name, memory, free_bytes);
  return TRUE;
}

/**
 * vc_gpu_set_parse:
 * @text: (nullable): the set's text form (vc-gpu-set.h); empty: no set
 *
 * Returns: (transfer full) (nullable): the set, %NULL with @error naming the item that is wrong
 */
VcGpuSet *
vc_gpu_set_parse (const char  *text,
                  GError     **error)
{
  g_autoptr(VcGpuSet) set = vc_gpu_set_new ();
  g_auto(GStrv) items = NULL;

  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    {
      refuse (error, "", _("the text is not UTF-8"));
      return NULL;
    }
  /* counted before anything is split: a list of millions stops here */
  if (text != NULL && strlen (text) > VC_GPU_SET_MAX * 96)
    {
      refuse (error, "…", _("a set holds at most 256 cards"));
      return NULL;
    }
  items = g_strsplit (text ? text : "", ",", -1);
  for (guint i = 0; items[i]; i++)
    {
      g_autofree char *item = g_strstrip (g_strdup (items[i]));

      if (*item == '\0')
        {
          if (items[1] == NULL)
            continue;
          refuse (error, text, _("an empty item between commas"));
          return NULL;
        }
      if (!parse_item (set, item, error))
        return NULL;
    }
  return g_steal_pointer (&set);
}

static char *
format_device (const VcGpuSetDevice *d)
{
  g_autofree char *size = format_size (d->memory_bytes);
  g_autofree char *card = d->id ? g_strdup (d->id) : g_strdup_printf ("%s=%s", d->name, size);

  if (d->free_bytes >= 0)
    {
      g_autofree char *free_text = format_size (d->free_bytes);

      return g_strdup_printf ("%s/%s", card, free_text);
    }
  return g_steal_pointer (&card);
}

/* The text form, runs of the same card as ID:COUNT: parsing it gives the same set. */
char *
vc_gpu_set_format (const VcGpuSet *set)
{
  GString *s = g_string_new (NULL);
  guint n = vc_gpu_set_get_n (set);

  for (guint i = 0; i < n;)
    {
      g_autofree char *item = format_device (vc_gpu_set_get (set, i));
      guint run = 1;

      while (i + run < n)
        {
          g_autofree char *next = format_device (vc_gpu_set_get (set, i + run));

          if (!g_str_equal (next, item))
            break;
          run++;
        }
      g_string_append_printf (s, "%s%s", s->len ? "," : "", item);
      if (run > 1)
        g_string_append_printf (s, ":%u", run);
      i += run;
    }
  return g_string_free (s, FALSE);
}
