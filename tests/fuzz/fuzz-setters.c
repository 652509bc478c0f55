/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-setters: every text input setter. The first byte picks the input (or the custom GPU
 * list), the rest is the text. A value that is taken reads back as text that is taken again
 * unchanged, the estimate computes finite, non-negative figures (fuzz-figures.h), and its
 * profile reopens. fuzz-setters-report is this target with the JSON and table reports, GPU
 * table and solver included. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "vc-profile.h"

#include "fuzz-figures.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static GParamSpec **inputs;
  static guint n_inputs;
  g_autoptr(VcEstimate) estimate = NULL;
  g_autoptr(VcEstimate) copy = NULL;
  g_autoptr(VcEstimate) reopened = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL, *shown = NULL, *saved = NULL;
  const char *property;

  if (inputs == NULL)
    inputs = vc_estimate_list_inputs (&n_inputs);
  if (size < 1)
    return 0;
  property = data[0] % (n_inputs + 1) == n_inputs ? "custom-gpus" : inputs[data[0] % (n_inputs + 1)]->name;
  text = g_strndup ((const char *) data + 1, size - 1);
  estimate = vc_estimate_new ();
  if (!vc_estimate_set_from_string (estimate, property, text, &error))
    {
      g_assert_nonnull (error);
      return 0;
    }
  shown = vc_estimate_dup_input_string (estimate, property);
  g_assert_true (g_utf8_validate (shown, -1, NULL));
  copy = vc_estimate_new ();
  vc_estimate_copy_inputs (copy, estimate);
  if (!vc_estimate_set_from_string (copy, property, shown, &error))
    {
      /* abort (), not g_error (): libFuzzer keeps the input of an abort, not of a SIGTRAP */
      g_printerr ("%s: “%s” was taken but its text form “%s” is not: %s\n", property, text, shown, error->message);
      abort ();
    }
  g_assert_true (vc_estimate_inputs_equal (copy, estimate));

  fuzz_check_figures (estimate);
  fuzz_check_reports (estimate);
  saved = vc_profile_serialize (estimate, NULL, NULL, VC_UNIT_GB, NULL);
  reopened = vc_estimate_new ();
  if (!vc_profile_parse (saved, strlen (saved), reopened, NULL, NULL, NULL, &error))
    {
      g_printerr ("a saved profile does not reopen: %s\n%s\n", error->message, saved);
      abort ();
    }
  return 0;
}
