/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-config: config.json import. A config either loads into an estimate that computes
 * finite, non-negative figures and UTF-8 reports, or is refused with a UTF-8 message. */
#include "config.h"

#include <math.h>

#include "vc-hf-config.h"
#include "vc-report.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = vc_hf_config_new_from_data ((const char *) data, size, "config.json",
                                                             NULL, &error);
  g_autoptr(VcEstimate) estimate = NULL;
  g_autofree char *json = NULL;
  g_autofree char *table = NULL;
  const VcResult *result;

  if (config == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return 0;
    }
  g_assert_true (g_utf8_validate (vc_hf_config_get_name (config), -1, NULL));
  estimate = vc_estimate_new ();
  vc_hf_config_apply (config, estimate);
  result = vc_estimate_get_result (estimate);
  g_assert_true (isfinite (result->parameters) && result->parameters >= 0);
  json = vc_report_json (estimate);
  g_assert_true (g_utf8_validate (json, -1, NULL));
  table = vc_report_table (estimate, TRUE, VC_UNIT_GB);
  g_assert_true (g_utf8_validate (table, -1, NULL));
  return 0;
}
