/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-gguf: libFuzzer target for the GGUF header reader.
 *
 * The input is a whole file; vc_gguf_parse() must accept it or refuse it with a message, never
 * crash, hang or read outside it.
 * Built and run by build-aux/fuzz (tests/fuzz/meson.build); seeds in tests/fuzz/corpus. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "vc-gguf.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_auto(VcGguf) gguf = { 0 };
  g_autoptr(GError) error = NULL;
  gboolean ok;

  vc_gguf_init (&gguf);
  ok = vc_gguf_parse (&gguf, data, size, "fuzz.gguf", &error);
  /* exactly one of a result and an error */
  g_assert (ok == (error == NULL));
  if (ok)
    g_assert (gguf.tensor_bytes <= size);
  return 0;
}
