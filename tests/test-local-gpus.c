/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This computer's GPUs and memory, read from fake trees: a /sys with AMD and Intel cards,
 * connectors and a render node; a /proc/meminfo; a stand-in libnvidia-ml (fake-nvml.c, its
 * path the first argument) and a missing one; Flatpak sandboxes with and without devices. */
#include "config.h"

#include <gio/gio.h>

#include "vc-estimate.h"
#include "vc-local-gpus.h"
#include "vc-test-util.h"

static const char *fake_nvml;

static void
write_file (const char *root,
            const char *path,
            const char *text)
{
  g_autofree char *file = g_build_filename (root, path, NULL);
  g_autofree char *dir = g_path_get_dirname (file);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (file, text, -1, &error));
}

static char *
fake_sysfs (void)
{
  char *root = vc_test_make_tmpdir ("sysfs");

  /* an RX 7900 XTX with its marketing name */
  write_file (root, "class/drm/card0/device/vendor", "0x1002\n");
  write_file (root, "class/drm/card0/device/device", "0x744c\n");
  write_file (root, "class/drm/card0/device/mem_info_vram_total", "25753026560\n");
  write_file (root, "class/drm/card0/device/product_name", "AMD Radeon RX 7900 XTX\n");
  /* amdgpu's VRAM in use: 4 GiB */
  write_file (root, "class/drm/card0/device/mem_info_vram_used", "4294967296\n");
  write_file (root, "class/drm/card0-DP-1/status", "connected\n");
  write_file (root, "class/drm/renderD128/device/vendor", "0x1002\n");
  /* an AMD card without a product name */
  write_file (root, "class/drm/card1/device/vendor", "0x1002\n");
  write_file (root, "class/drm/card1/device/device", "0x73bf\n");
  write_file (root, "class/drm/card1/device/mem_info_vram_total", "17163091968\n");
  /* an Intel integrated GPU: no dedicated memory reported */
  write_file (root, "class/drm/card2/device/vendor", "0x8086\n");
  /* an AMD APU whose file is unreadable garbage */
  write_file (root, "class/drm/card3/device/vendor", "0x1002\n");
  write_file (root, "class/drm/card3/device/mem_info_vram_total", "lots\n");
  return root;
}

static void
test_amd_sysfs (void)
{
  g_autofree char *root = fake_sysfs ();
  g_autoptr(GPtrArray) gpus = vc_local_gpus_detect (root, NULL);
  const VcLocalGpu *a, *b;

  g_assert_cmpuint (gpus->len, ==, 2);
  a = gpus->pdata[0];
  b = gpus->pdata[1];
  g_assert_cmpstr (a->name, ==, "AMD Radeon RX 7900 XTX");
  g_assert_cmpstr (a->vendor, ==, "AMD");
  g_assert_cmpfloat (a->memory_bytes, ==, 25753026560.0);
  /* free: the total less mem_info_vram_used; unknown without it */
  g_assert_cmpfloat (a->free_bytes, ==, 25753026560.0 - 4294967296.0);
  g_assert_cmpstr (b->name, ==, "AMD GPU 0x73bf");
  g_assert_cmpfloat (b->memory_bytes, ==, 17163091968.0);
  g_assert_cmpfloat (b->free_bytes, <, 0);
  vc_test_remove_tree (root);
}

static void
test_no_sysfs_no_library (void)
{
  g_autoptr(GPtrArray) gpus = vc_local_gpus_detect ("/nonexistent-sysfs", "libdoes-not-exist-nvml.so.1");

  g_assert_cmpuint (gpus->len, ==, 0);
}

static void
test_nvml (void)
{
  g_autofree char *root = fake_sysfs ();
  g_autoptr(GPtrArray) gpus = vc_local_gpus_detect (root, fake_nvml);
  g_autofree char *custom = NULL;
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  guint n_catalog;
  const VcLocalGpu *g;

  /* NVIDIA's first, from the library; the unnamed one gets a name */
  g_assert_cmpuint (gpus->len, ==, 4);
  g = gpus->pdata[0];
  g_assert_cmpstr (g->name, ==, "NVIDIA GeForce RTX 4090");
  g_assert_cmpstr (g->vendor, ==, "NVIDIA");
  g_assert_cmpfloat (g->memory_bytes, ==, 24564.0 * 1048576);
  /* NVML's free (the stand-in reports half the total) */
  g_assert_cmpfloat (g->free_bytes, ==, 12282.0 * 1048576);
  g = gpus->pdata[1];
  g_assert_cmpstr (g->name, ==, "NVIDIA GPU 1");

  /* offered as the user's cards: the custom-gpus input, checked by the estimate like a typed one */
  custom = vc_local_gpus_to_custom (gpus);
  g_assert_cmpstr (custom, ==, "NVIDIA GeForce RTX 4090=24564MiB; NVIDIA GPU 1=81559MiB; "
                               "AMD Radeon RX 7900 XTX=24560MiB; AMD GPU 0x73bf=16368MiB");
  g_assert_true (vc_estimate_set_custom_gpus (e, custom, &error));
  g_assert_no_error (error);
  vc_gpus_get_all (&n_catalog);
  g_assert_cmpuint (vc_estimate_get_n_gpus (e), ==, n_catalog + 4);
  g_assert_cmpfloat (vc_estimate_get_gpu (e, n_catalog)->capacity_bytes, ==, 24564.0 * 1048576);

  /* and as My GPUs: each card with what it has free, in whole MiB */
  {
    g_autofree char *set = vc_local_gpus_to_set (gpus);

    g_assert_cmpstr (set, ==, "NVIDIA GeForce RTX 4090=24564MiB/12282MiB,NVIDIA GPU 1=81559MiB/40779MiB,"
                              "AMD Radeon RX 7900 XTX=24560MiB/20464MiB,AMD GPU 0x73bf=16368MiB");
    g_assert_true (vc_estimate_set_from_string (e, "gpu-set", set, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (vc_gpu_set_get_n (vc_estimate_get_gpu_set (e)), ==, 4);
    g_assert_cmpfloat (vc_gpu_set_available (vc_estimate_get_gpu_set (e), 2), ==, 20464.0 * 1048576);
  }

  /* added to the cards already in the table, as --this-computer adds them: after them, once */
  {
    g_autofree char *merged = vc_local_gpus_merge_custom ("Old=8GB;NVIDIA GPU 1=81559MiB ; ", gpus, NULL);

    g_assert_cmpstr (merged, ==, "Old=8GB; NVIDIA GPU 1=81559MiB; NVIDIA GeForce RTX 4090=24564MiB; "
                                 "AMD Radeon RX 7900 XTX=24560MiB; AMD GPU 0x73bf=16368MiB");
  }
  vc_test_remove_tree (root);
}

static void
test_system_memory (void)
{
  g_autofree char *root = vc_test_make_tmpdir ("procfs");

  write_file (root, "meminfo", "MemTotal:       65536000 kB\nMemFree:        1000 kB\n");
  g_assert_cmpfloat (vc_local_system_memory (root), ==, 65536000.0 * 1024);
  g_assert_cmpfloat (vc_local_system_memory ("/nonexistent-procfs"), ==, 0);
  vc_test_remove_tree (root);
}

static void
test_flatpak_permission (void)
{
  g_autofree char *root = vc_test_make_tmpdir ("flatpak");
  g_autofree char *with = g_build_filename (root, "with", NULL);
  g_autofree char *without = g_build_filename (root, "without", NULL);
  g_autofree char *nvidia = g_build_filename (root, "all", NULL);
  g_autoptr(GError) error = NULL;

  write_file (root, "with", "[Application]\nname=io.github.vramcalc.VramCalculator\n\n[Context]\nshared=ipc;\ndevices=dri;\n");
  write_file (root, "without", "[Application]\nname=io.github.vramcalc.VramCalculator\n\n[Context]\nshared=ipc;\n");
  write_file (root, "all", "[Context]\ndevices=all;\n");
  /* outside a Flatpak there is nothing to grant */
  g_assert_true (vc_local_gpus_allowed ("/nonexistent/.flatpak-info", &error));
  g_assert_no_error (error);
  g_assert_true (vc_local_gpus_allowed (with, &error));
  g_assert_true (vc_local_gpus_allowed (nvidia, &error));
  g_assert_false (vc_local_gpus_allowed (without, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, "--device=dri"));
  vc_test_remove_tree (root);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_assert_cmpint (argc, >=, 2);
  fake_nvml = argv[1];
  g_test_add_func ("/local-gpus/amd-sysfs", test_amd_sysfs);
  g_test_add_func ("/local-gpus/no-sysfs-no-library", test_no_sysfs_no_library);
  g_test_add_func ("/local-gpus/nvml", test_nvml);
  g_test_add_func ("/local-gpus/system-memory", test_system_memory);
  g_test_add_func ("/local-gpus/flatpak-permission", test_flatpak_permission);
  return g_test_run ();
}
