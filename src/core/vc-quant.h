/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-quant.h: the bytes of quantized weights, per tensor group, when no file gives them.
 *
 * GGUF formats (Q8_0, Q6_K, Q5_K_M, Q4_K_M, Q3_K_M, Q2_K, IQ4_XS) follow llama.cpp's per-tensor
 * recipe (llama-quant.cpp, llama_tensor_get_type): which tensors keep a higher type (the output
 * head, some attn_v and ffn_down layers, …), over the tensors llama.cpp names for the
 * architecture. GPTQ and AWQ 4-bit with group 128, MXFP4 and NF4 quantize the linear layers
 * with their scales. Plain C over VcArch, no allocation.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "vc-arch.h"
#include "vc-gguf.h"
#include "vc-inventory.h"
#include "vc-types.h"

G_BEGIN_DECLS

typedef struct
{
  double bytes;                           /* every tensor */
  double elements;
  guint n_tensors[VC_GGML_N_TYPES];       /* tensors of each ggml type */
  double type_bytes[VC_GGML_N_TYPES];
} VcGgufRecipe;

/* whether a weight precision is one of the GGUF formats */
gboolean vc_precision_is_gguf        (VcPrecision     precision);
/* whether a precision is a weight format only (GGUF, GPTQ, AWQ, MXFP4, NF4): not a KV cache's */
gboolean vc_precision_is_format      (VcPrecision     precision);
/* llama.cpp's llama_ftype for a GGUF precision, -1 otherwise */
int      vc_precision_gguf_ftype     (VcPrecision     precision);
/* the GGUF precision of a llama_ftype, FALSE when none stands for it */
gboolean vc_precision_from_gguf_ftype (guint64        ftype,
                                       VcPrecision   *precision);
/* Nominal bits a quantized weight takes with its scales: the base type of a GGUF format, the
 * group scales of GPTQ/AWQ, … (the rule of thumb's bits) */
double   vc_quant_format_bits        (VcPrecision     precision);

/* The tensors llama.cpp would write for `arch` at a GGUF precision, and their bytes. */
void     vc_quant_gguf_recipe        (const VcArch   *arch,
                                      VcPrecision     precision,
                                      VcGgufRecipe   *recipe);

/* The same tensors in an inventory, each with its role (vc-inventory.h). */
VcInventory *vc_quant_gguf_inventory (const VcArch   *arch,
                                      VcPrecision     precision);

/* The weights' bytes at a non-GGUF quantized format (GPTQ, AWQ, MXFP4, NF4) for `arch`. */
double   vc_quant_format_weights     (const VcArch   *arch,
                                      VcPrecision     precision);
VcInventory *vc_quant_format_inventory (const VcArch *arch,
                                        VcPrecision   precision);

/* A config.json's quantization_config: whether its method and settings are understood (fp8,
 * fbgemm_fp8, gptq, awq, bitsandbytes, mxfp4, compressed-tensors), else a refusal naming the
 * key. file_name: how messages name the file (NULL: they do not). */
gboolean vc_quant_config_check       (JsonObject     *quantization_config,
                                      const char     *file_name,
                                      GError        **error);
/* The bytes the checkpoint's weights take as quantization_config stores them, for `arch`
 * (16-bit parts at float_bytes each); its precision, and a short label ("gptq 4-bit, group
 * 128"), and each tensor in an inventory (NULL: not wanted). Modules a skip list names that the
 * architecture does not have are refused. model_type (config.json's; NULL: none) gives the
 * checkpoint's module names the skip list is matched against (Mixtral's block_sparse_moe). */
gboolean vc_quant_config_weights     (JsonObject     *quantization_config,
                                      const VcArch   *arch,
                                      const char     *model_type,
                                      double          float_bytes,
                                      const char     *file_name,
                                      double         *bytes,
                                      VcPrecision    *precision,
                                      char          **label,
                                      VcInventory   **inventory,
                                      GError        **error);

G_END_DECLS
