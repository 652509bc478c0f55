/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-safetensors: libFuzzer target for the safetensors header reader.
 *
 * The input is the beginning of a file: its 8-byte length and header. The file's size is the
 * input's size, or, when the input is long enough, its last 8 bytes read as a size (so that
 * tensors past the input, in a file that would be larger, are explored too).
 * Built and run by build-aux/fuzz (tests/fuzz/meson.build); seeds in tests/fuzz/corpus. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "vc-safetensors.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_auto(VcSafetensors) st = { 0 };
  g_autoptr(GError) error = NULL;
  guint64 file_size = size;
  gboolean ok;

  if (size >= 16 && data[size - 9] == 0xff)
    {
      file_size = 0;
      for (int i = 1; i <= 8; i++)
        file_size = (file_size << 8) | data[size - i];
      size -= 9;
      file_size = MAX (file_size, (guint64) size);
    }
  vc_safetensors_init (&st);
  ok = vc_safetensors_parse (&st, data, size, file_size, "fuzz.safetensors", &error);
  g_assert (ok == (error == NULL));
  if (ok)
    g_assert (st.tensor_bytes <= file_size);
  return 0;
}
