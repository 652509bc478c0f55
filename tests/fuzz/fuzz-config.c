/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-config: config.json import. A config either loads into an estimate that computes
 * finite, non-negative figures (fuzz-figures.h), or is refused with a UTF-8 message.
 * fuzz-config-report is this target with the JSON and table reports, GPU table and solver
 * included. */
#include "config.h"

#include "vc-hf-config.h"

#include "fuzz-figures.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = vc_hf_config_new_from_data ((const char *) data, size, "config.json",
                                                             NULL, &error);
  g_autoptr(VcEstimate) estimate = NULL;

  if (config == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return 0;
    }
  g_assert_true (g_utf8_validate (vc_hf_config_get_name (config), -1, NULL));
  estimate = vc_estimate_new ();
  vc_hf_config_apply (config, estimate);
  fuzz_check_figures (estimate);
  fuzz_check_reports (estimate);
  return 0;
}
