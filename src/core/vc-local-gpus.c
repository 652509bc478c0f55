/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-local-gpus.c: this computer's GPUs (NVML for NVIDIA, sysfs for AMD) and system memory. */
#define G_LOG_DOMAIN "vc-local-gpus"

#include "config.h"

#include <dlfcn.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "vc-local-gpus.h"
#include "vc-text.h"

#define AMD_PCI_VENDOR 0x1002

/* The part of the NVML C API read here (nvml.h): functions return nvmlReturn_t, 0 on success;
 * nvmlMemory_t's total is in bytes; a device name fits NVML_DEVICE_NAME_V2_BUFFER_SIZE (96). */
typedef int (*NvmlInit) (void);
typedef int (*NvmlShutdown) (void);
typedef int (*NvmlGetCount) (unsigned int *count);
typedef int (*NvmlGetHandle) (unsigned int index, void **device);
typedef int (*NvmlGetName) (void *device, char *name, unsigned int length);
typedef struct
{
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
} NvmlMemory;
typedef int (*NvmlGetMemory) (void *device, NvmlMemory *memory);

#define NVML_NAME_SIZE 96

void
vc_local_gpu_free (VcLocalGpu *gpu)
{
  if (gpu == NULL)
    return;
  g_free (gpu->name);
  g_free (gpu->vendor);
  g_free (gpu);
}

static void
add_gpu (GPtrArray  *out,
         const char *name,
         const char *vendor,
         double      bytes,
         double      free_bytes)
{
  VcLocalGpu *gpu = g_new0 (VcLocalGpu, 1);

  gpu->name = g_strdup (name);
  gpu->vendor = g_strdup (vendor);
  gpu->memory_bytes = bytes;
  gpu->free_bytes = free_bytes;
  g_ptr_array_add (out, gpu);
}

static gpointer
symbol (void       *lib,
        const char *name,
        const char *fallback)
{
  gpointer p = dlsym (lib, name);

  return p != NULL || fallback == NULL ? p : dlsym (lib, fallback);
}

/* NVIDIA: whatever libnvidia-ml reports, when the library is there; nothing otherwise */
static void
detect_nvidia (GPtrArray  *out,
               const char *library)
{
  void *lib = dlopen (library, RTLD_NOW | RTLD_LOCAL);
  NvmlInit init;
  NvmlShutdown shutdown;
  NvmlGetCount get_count;
  NvmlGetHandle get_handle;
  NvmlGetName get_name;
  NvmlGetMemory get_memory;
  unsigned int count = 0;

  if (lib == NULL)
    {
      g_debug ("no NVIDIA management library (%s): %s", library, dlerror ());
      return;
    }
  init = (NvmlInit) symbol (lib, "nvmlInit_v2", "nvmlInit");
  shutdown = (NvmlShutdown) symbol (lib, "nvmlShutdown", NULL);
  get_count = (NvmlGetCount) symbol (lib, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
  get_handle = (NvmlGetHandle) symbol (lib, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
  get_name = (NvmlGetName) symbol (lib, "nvmlDeviceGetName", NULL);
  get_memory = (NvmlGetMemory) symbol (lib, "nvmlDeviceGetMemoryInfo", NULL);
  if (init == NULL || shutdown == NULL || get_count == NULL || get_handle == NULL ||
      get_name == NULL || get_memory == NULL || init () != 0)
    {
      dlclose (lib);
      return;
    }
  if (get_count (&count) == 0)
    for (unsigned int i = 0; i < count && i < 64; i++)
      {
        void *device = NULL;
        char name[NVML_NAME_SIZE] = { 0 };
        NvmlMemory memory = { 0 };

        if (get_handle (i, &device) != 0 || get_memory (device, &memory) != 0 || memory.total == 0)
          continue;
        if (get_name (device, name, sizeof name) != 0 || name[0] == '\0')
          g_snprintf (name, sizeof name, "NVIDIA GPU %u", i);
        name[sizeof name - 1] = '\0';
        /* nvmlMemory_t's free: what no process holds (nvml.h) */
        add_gpu (out, name, "NVIDIA", (double) memory.total,
                 memory.free <= memory.total ? (double) memory.free : -1);
      }
  shutdown ();
  dlclose (lib);
}

static char *
read_line (const char *dir,
           const char *file)
{
  g_autofree char *path = g_build_filename (dir, file, NULL);
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_strstrip (text);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* AMD: each DRM card whose PCI vendor is AMD's and whose amdgpu driver reports dedicated VRAM
 * (mem_info_vram_total, bytes); connectors (card0-DP-1) and render nodes are skipped */
static void
detect_amd (GPtrArray  *out,
            const char *sysfs_root)
{
  g_autofree char *drm = g_build_filename (sysfs_root, "class", "drm", NULL);
  g_autoptr(GDir) dir = g_dir_open (drm, 0, NULL);
  g_autoptr(GPtrArray) cards = g_ptr_array_new_with_free_func (g_free);
  const char *entry;

  if (dir == NULL)
    return;
  while ((entry = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (entry, "card") && strchr (entry, '-') == NULL)
      g_ptr_array_add (cards, g_strdup (entry));
  g_ptr_array_sort (cards, compare_names);

  for (guint i = 0; i < cards->len; i++)
    {
      g_autofree char *device = g_build_filename (drm, cards->pdata[i], "device", NULL);
      g_autofree char *vendor = read_line (device, "vendor");
      g_autofree char *vram = read_line (device, "mem_info_vram_total");
      g_autofree char *product = NULL, *pci_id = NULL, *name = NULL;
      guint64 bytes;

      if (vendor == NULL || g_ascii_strtoull (vendor, NULL, 16) != AMD_PCI_VENDOR || vram == NULL ||
          !g_ascii_string_to_unsigned (vram, 10, 1, G_MAXUINT64, &bytes, NULL))
        continue;
      product = read_line (device, "product_name");
      pci_id = read_line (device, "device");
      if (product != NULL && *product != '\0')
        name = g_strdup (product);
      else
        /* TRANSLATORS: an AMD graphics card known by its PCI device id, as "AMD GPU 0x744c" */
        name = g_strdup_printf (_("AMD GPU %s"), pci_id ? pci_id : (const char *) cards->pdata[i]);
      {
        g_autofree char *used_text = read_line (device, "mem_info_vram_used");
        guint64 used;
        double free_bytes = -1;

        /* amdgpu's mem_info_vram_used: bytes of VRAM in use */
        if (used_text != NULL && g_ascii_string_to_unsigned (used_text, 10, 0, bytes, &used, NULL))
          free_bytes = (double) (bytes - used);
        add_gpu (out, name, "AMD", (double) bytes, free_bytes);
      }
    }
}

GPtrArray *
vc_local_gpus_detect (const char *sysfs_root,
                      const char *nvml_library)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) vc_local_gpu_free);

  if (nvml_library != NULL)
    detect_nvidia (out, nvml_library);
  if (sysfs_root != NULL)
    detect_amd (out, sysfs_root);
  return out;
}

GPtrArray *
vc_local_gpus_detect_default (void)
{
  return vc_local_gpus_detect ("/sys", "libnvidia-ml.so.1");
}

/* MemTotal of /proc/meminfo, in bytes; 0 when it cannot be read */
double
vc_local_system_memory (const char *procfs_root)
{
  g_autofree char *path = g_build_filename (procfs_root, "meminfo", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      guint64 kb;
      g_auto(GStrv) f = NULL;

      if (!g_str_has_prefix (lines[i], "MemTotal:"))
        continue;
      f = g_strsplit_set (lines[i] + strlen ("MemTotal:"), " \t", -1);
      for (guint k = 0; f[k]; k++)
        if (*f[k] && g_ascii_string_to_unsigned (f[k], 10, 1, G_MAXUINT64 / 1024, &kb, NULL))
          return kb * 1024.0;
    }
  return 0;
}

/* Inside a Flatpak (its /.flatpak-info exists), cards are read only when the sandbox may see
 * devices: "devices" of [Context] holding dri or all. Outside, always. */
gboolean
vc_local_gpus_allowed (const char  *flatpak_info_path,
                       GError     **error)
{
  g_autoptr(GKeyFile) info = g_key_file_new ();
  g_auto(GStrv) devices = NULL;

  if (!g_file_test (flatpak_info_path, G_FILE_TEST_EXISTS))
    return TRUE;
  if (g_key_file_load_from_file (info, flatpak_info_path, G_KEY_FILE_NONE, NULL))
    devices = g_key_file_get_string_list (info, "Context", "devices", NULL, NULL);
  if (devices != NULL && (g_strv_contains ((const char * const *) devices, "dri") ||
                          g_strv_contains ((const char * const *) devices, "all")))
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                       _("This Flatpak has no access to the GPUs. Grant it with “flatpak override --user "
                         "--device=dri io.github.vramcalc.VramCalculator” (NVIDIA cards need --device=all)."));
  return FALSE;
}

/* The custom-gpus text for them: "NAME=SIZEMiB; …", names cleared of the separators and of
 * control characters. A card the custom-gpus input cannot take (a carve-out under 0.1 GB, more
 * than 100000 GB) is left out and `notes` (when not NULL) says why; the same card twice is
 * one card type; two different cards of one name are numbered. */
char *
vc_local_gpus_to_custom_full (GPtrArray  *gpus,
                              GStrv      *notes)
{
  GString *s = g_string_new (NULL);
  g_autoptr(GStrvBuilder) said = g_strv_builder_new ();
  g_autoptr(GHashTable) items = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < gpus->len; i++)
    {
      const VcLocalGpu *gpu = gpus->pdata[i];
      g_autofree char *cleared = g_strdelimit (g_strstrip (g_strdup (gpu->name)), ";=", ' ');
      g_autofree char *name = NULL;
      g_autofree char *shown = NULL;
      g_autofree char *item = NULL;
      double mib = floor (gpu->memory_bytes / 1048576.0);

      /* control characters (ESC, CR, C1) would reach terminals and file names */
      for (char *c = cleared; *c; c++)
        if ((guchar) *c < 0x20 || *c == 0x7f)
          *c = ' ';
      if (g_utf8_validate (cleared, -1, NULL))
        {
          g_autoptr(GString) clean = g_string_new (NULL);

          for (const char *c = cleared; *c; c = g_utf8_next_char (c))
            {
              gunichar u = g_utf8_get_char (c);

              if (u >= 0x80 && u < 0xa0)
                g_string_append_c (clean, ' ');
              else
                g_string_append_unichar (clean, u);
            }
          g_free (cleared);
          cleared = g_strstrip (g_string_free (g_steal_pointer (&clean), FALSE));
        }
      /* the custom-gpus input takes names of 1 to 64 characters */
      name = !g_utf8_validate (cleared, -1, NULL) || *cleared == '\0' ? g_strdup_printf ("%s GPU", gpu->vendor)
             /* g_utf8_substring reads past a shorter text's end */
             : g_utf8_strlen (cleared, -1) > 64 ? g_utf8_substring (cleared, 0, 64)
             : g_strdup (cleared);
      shown = vc_escape_controls (gpu->name, FALSE);
      if (!(mib * 1048576.0 >= 1e8 && mib * 1048576.0 <= 1e14))
        {
          g_autofree char *note = g_strdup_printf (_("“%s” is left out: its %.0f MiB of memory is outside the 0.1 GB to 100000 GB a GPU may have"),
                                                   shown, mib);

          g_strv_builder_add (said, note);
          continue;
        }
      item = g_strdup_printf ("%s=%.0fMiB", name, mib);
      if (!g_hash_table_add (items, g_strdup (item)))
        continue;
      for (guint n = 2; g_hash_table_contains (names, name); n++)
        {
          g_free (name);
          name = g_strdup_printf ("%.58s (%u)", cleared, n);
        }
      g_hash_table_add (names, g_strdup (name));
      g_string_append_printf (s, "%s%s=%.0fMiB", s->len ? "; " : "", name, mib);
    }
  if (notes)
    *notes = g_strv_builder_end (said);
  return g_string_free (s, FALSE);
}

/**
 * vc_local_gpus_merge_custom:
 * @custom: the custom-gpus text as it stands ("NAME=SIZE; …" or joined by ";")
 * @gpus: (element-type VcLocalGpu): cards read from this computer
 * @notes: (out) (optional): why a card was left out (vc_local_gpus_to_custom_full())
 *
 * Returns: the custom-gpus text with @gpus added after the cards already there, a card already
 * there under the same name and size not added twice, as "--this-computer" adds them.
 */
char *
vc_local_gpus_merge_custom (const char *custom,
                            GPtrArray  *gpus,
                            GStrv      *notes)
{
  g_autofree char *found = vc_local_gpus_to_custom_full (gpus, notes);
  g_auto(GStrv) old = g_strsplit (custom ? custom : "", ";", -1);
  g_auto(GStrv) add = g_strsplit (found, ";", -1);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < 2; k++)
    for (char **p = k == 0 ? old : add; *p != NULL; p++)
      {
        char *item = g_strstrip (g_strdup (*p));

        if (*item == '\0' || g_ptr_array_find_with_equal_func (items, item, g_str_equal, NULL))
          g_free (item);
        else
          g_ptr_array_add (items, item);
      }
  for (guint i = 0; i < items->len; i++)
    g_string_append_printf (s, "%s%s", i ? "; " : "", (const char *) items->pdata[i]);
  return g_string_free (s, FALSE);
}

char *
vc_local_gpus_to_custom (GPtrArray *gpus)
{
  return vc_local_gpus_to_custom_full (gpus, NULL);
}

/* The cards as "My GPUs" (vc-gpu-set.h): NAME=TOTAL/FREE, sizes in whole MiB as nvidia-smi shows
 * them; a name loses the characters the set's text form uses (",", ":", "/", "="). Cards the
 * custom list leaves out (a size outside 0.1 GB to 100000 GB) are left out here too. */
char *
vc_local_gpus_to_set (GPtrArray *gpus)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < gpus->len; i++)
    {
      const VcLocalGpu *gpu = gpus->pdata[i];
      g_autofree char *name = g_strdelimit (g_strdup (gpu->name), ",:/=;", ' ');
      double mib = floor (gpu->memory_bytes / 1048576.0);
      double free_mib = gpu->free_bytes >= 0 ? MIN (mib, floor (gpu->free_bytes / 1048576.0)) : -1;

      for (char *c = name; *c; c++)
        if ((guchar) *c < 0x20 || *c == 0x7f)
          *c = ' ';
      g_strstrip (name);
      if (!g_utf8_validate (name, -1, NULL) || *name == '\0')
        {
          g_free (name);
          name = g_strdup_printf ("%s GPU", gpu->vendor);
        }
      else if (g_utf8_strlen (name, -1) > 64)
        {
          char *cut = g_utf8_substring (name, 0, 64);

          g_free (name);
          name = cut;
        }
      if (!(mib * 1048576.0 >= 1e8 && mib * 1048576.0 <= 1e14))
        continue;
      g_string_append_printf (s, "%s%s=%.0fMiB", s->len ? "," : "", name, mib);
      if (free_mib >= 0)
        g_string_append_printf (s, "/%.0fMiB", free_mib);
    }
  return g_string_free (s, FALSE);
}
