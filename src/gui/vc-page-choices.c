/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-page-choices.c: see vc-page-choices.h. */
#include "config.h"

#include <glib/gi18n.h>

#include "vc-page-choices.h"

const VcChoice vc_precision_choices[] = {
  { VC_PRECISION_FP32, N_("32-bit float (fp32)") },
  { VC_PRECISION_FP16, N_("16-bit float (fp16)") },
  { VC_PRECISION_BF16, N_("16-bit bfloat (bf16)") },
  { VC_PRECISION_FP8, N_("8-bit float (fp8)") },
  { VC_PRECISION_INT8, N_("8-bit integer (int8)") },
  { VC_PRECISION_INT4, N_("4-bit integer (int4)") },
};
const guint vc_n_precision_choices = G_N_ELEMENTS (vc_precision_choices);

/* training keeps trainable weights in a float type; QLoRA's quantized bases are scenarios */
const VcChoice vc_training_precision_choices[] = {
  { VC_PRECISION_FP32, N_("32-bit float (fp32)") },
  { VC_PRECISION_FP16, N_("16-bit float (fp16)") },
  { VC_PRECISION_BF16, N_("16-bit bfloat (bf16)") },
};
const guint vc_n_training_precision_choices = G_N_ELEMENTS (vc_training_precision_choices);
