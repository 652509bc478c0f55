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

/* inference weights: the precisions above and the quantized formats */
const VcChoice vc_weight_precision_choices[] = {
  { VC_PRECISION_FP32, N_("32-bit float (fp32)") },
  { VC_PRECISION_FP16, N_("16-bit float (fp16)") },
  { VC_PRECISION_BF16, N_("16-bit bfloat (bf16)") },
  { VC_PRECISION_FP8, N_("8-bit float (fp8)") },
  { VC_PRECISION_INT8, N_("8-bit integer (int8)") },
  { VC_PRECISION_INT4, N_("4-bit integer (int4)") },
  { VC_PRECISION_Q8_0, N_("GGUF Q8_0") },
  { VC_PRECISION_Q6_K, N_("GGUF Q6_K") },
  { VC_PRECISION_Q5_K_M, N_("GGUF Q5_K_M") },
  { VC_PRECISION_Q4_K_M, N_("GGUF Q4_K_M") },
  { VC_PRECISION_Q3_K_M, N_("GGUF Q3_K_M") },
  { VC_PRECISION_Q2_K, N_("GGUF Q2_K") },
  { VC_PRECISION_IQ4_XS, N_("GGUF IQ4_XS") },
  { VC_PRECISION_GPTQ_INT4, N_("GPTQ 4-bit, group 128") },
  { VC_PRECISION_AWQ_INT4, N_("AWQ 4-bit, group 128") },
  { VC_PRECISION_MXFP4, N_("MXFP4") },
  { VC_PRECISION_NF4, N_("NF4 (bitsandbytes)") },
};
const guint vc_n_weight_precision_choices = G_N_ELEMENTS (vc_weight_precision_choices);

/* training keeps trainable weights in a float type; QLoRA's quantized bases are scenarios */
const VcChoice vc_training_precision_choices[] = {
  { VC_PRECISION_FP32, N_("32-bit float (fp32)") },
  { VC_PRECISION_FP16, N_("16-bit float (fp16)") },
  { VC_PRECISION_BF16, N_("16-bit bfloat (bf16)") },
};
const guint vc_n_training_precision_choices = G_N_ELEMENTS (vc_training_precision_choices);
