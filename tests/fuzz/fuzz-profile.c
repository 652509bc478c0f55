/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-profile: profile load. What loads saves, and what is saved reopens with the same
 * inputs; what is refused leaves the target untouched. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "vc-profile.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcEstimate) estimate = vc_estimate_new ();
  g_autoptr(VcEstimate) untouched = vc_estimate_new ();
  g_autoptr(VcEstimate) again = NULL;
  g_autofree char *name = NULL, *notes = NULL, *saved = NULL;

  if (!vc_profile_parse ((const char *) data, size, estimate, &name, &notes, NULL, &error))
    {
      g_assert_nonnull (error);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      g_assert_true (vc_estimate_inputs_equal (estimate, untouched));
      return 0;
    }
  g_assert_true (g_utf8_validate (name, -1, NULL));
  g_assert_true (g_utf8_validate (notes, -1, NULL));
  saved = vc_profile_serialize (estimate, name, notes, VC_UNIT_GB, NULL);
  again = vc_estimate_new ();
  if (!vc_profile_parse (saved, strlen (saved), again, NULL, NULL, NULL, &error))
    {
      g_printerr ("a saved profile does not reopen: %s\n%s\n", error->message, saved);
      abort ();
    }
  g_assert_true (vc_estimate_inputs_equal (estimate, again));
  vc_estimate_get_result (estimate);
  return 0;
}
