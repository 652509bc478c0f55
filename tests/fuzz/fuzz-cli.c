/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-cli: the command-line parser, the real vramcalc.c with its main() renamed. The input
 * is the arguments, separated by NUL bytes. Options that only print and exit (help,
 * version, --generate), write files (--save-profile) or read standard input ("-") are left
 * out; libFuzzer's -close_fd_mask=3 keeps the program's output off the terminal. The Hub is
 * read offline (HF_HUB_OFFLINE=1). */
#include "config.h"

#include <glib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);
int vramcalc_main (int argc, char *argv[]);

static gboolean
left_out (const char *arg)
{
  return g_str_has_prefix (arg, "--save-profile") || g_str_has_prefix (arg, "--help") ||
         g_str_equal (arg, "-h") || g_str_equal (arg, "-?") || g_str_has_prefix (arg, "--version") ||
         g_str_has_prefix (arg, "--generate") || g_str_equal (arg, "-") || g_str_has_suffix (arg, "=-");
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = g_malloc (size + 1);
  const char *p, *end;

  /* --model hf:… reads the Hub's cache only: a fuzzer never uses the network */
  g_setenv ("HF_HUB_OFFLINE", "1", TRUE);
  memcpy (text, data, size);
  text[size] = '\0';
  g_ptr_array_add (argv, g_strdup ("vramcalc"));
  for (p = text, end = text + size; p <= end && argv->len < 32; p += strlen (p) + 1)
    {
      if (left_out (p))
        return 0;
      g_ptr_array_add (argv, g_strdup (p));
    }
  g_ptr_array_add (argv, NULL);
  {
    /* as for a real main(): the strings are not main's to free, the array may be reordered */
    g_autofree char **shallow = g_memdup2 (argv->pdata, sizeof (char *) * argv->len);
    vramcalc_main (argv->len - 1, shallow);
  }
  return 0;
}
