/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-quant.c: quantized weights without a file: llama.cpp's GGUF recipes and the 4-bit formats.
 *
 * The tensors are those llama.cpp writes for an architecture (convert_hf_to_gguf.py and
 * llama-arch.cpp names): token_embd, output (untied), output_norm, and per layer attn_q/k/v,
 * attn_output, ffn_gate/up/down (ffn_*_exps for routed experts, ffn_*_shexp for shared ones),
 * the MLA projections, norms and biases. One-dimensional tensors (norms, biases), the router
 * ffn_gate_inp and learned positions stay F32, as the converter writes them and llama-quantize
 * leaves them.
 *
 * llama_tensor_get_type (src/llama-quant.cpp) picks each quantized tensor's type from the
 * file type's base type (Q8_0, Q6_K, Q5_K, Q4_K, Q3_K, Q2_K, IQ4_XS):
 *   output (or token_embd when tied)  Q6_K, or Q8_0 for Q8_0, or Q8_0 when a row is not a
 *                                     whole number of blocks
 *   attn_v    Q2_K: Q4_K when heads/KV heads ≥ 4 else Q3_K; Q3_K_M: Q5_K on the first two
 *             layers, Q4_K after; IQ4_XS: Q5_K when heads/KV heads ≥ 4; Q4_K_M and Q5_K_M:
 *             Q6_K on use_more_bits layers; Llama 2/3 70B (80 layers, grouped KV): Q3_K/Q4_K
 *             raised to Q5_K; 8 experts: Q8_0
 *   attn_k    8 experts: Q8_0
 *   ffn_down  Q2_K: Q3_K; Q3_K_M: Q5_K on the first L/16 layers, Q4_K after; Q4_K_M and Q5_K_M:
 *             Q6_K on use_more_bits layers; IQ4_XS: Q5_K on the first L/8 (no importance
 *             matrix)
 *   attn_output  Q2_K: Q3_K; Q3_K_M: Q4_K; 8 experts: Q5_K for Q2_K, Q3_K_M, Q4_K_M, IQ4_XS
 * with use_more_bits(i, n) = i < n/8 or i ≥ 7n/8 or (i − n/8) mod 3 = 2, and the fallback for
 * rows that are not a whole number of 256-blocks: Q4_K → Q5_0, Q5_K → Q5_1, Q6_K → Q8_0,
 * Q2_K/Q3_K/IQ4_XS → IQ4_NL, then F16 if still not whole. Falcon's own ffn_down rule is not
 * modelled (its layers take the Llama rule).
 *
 * GPTQ and AWQ, 4-bit, group 128 (AutoGPTQ, AutoAWQ): every linear layer in the blocks (not
 * the router) stores its weight packed 8 to an int32 (in × out / 2 bytes), an fp16 scale and a
 * 4-bit zero point per group of 128 inputs and output (in/128 × out × 2 and in/128 × out/8 × 4
 * bytes), GPTQ also g_idx, one int32 per input; the rest stays 16-bit.
 * MXFP4 (OCP microscaling, as gpt-oss stores it): 32 values in 16 bytes with one E8M0 scale byte,
 * 4.25 bits; on the routed experts of an MoE (the rest 16-bit), on every block linear layer of
 * a dense model. NF4 (bitsandbytes, blocksize 64): 4 bits with an fp32 absmax per 64 values and
 * a 16-value fp32 quant_map per layer; no double quantization.
 */
#define G_LOG_DOMAIN "vc-quant"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "vc-error.h"
#include "vc-quant.h"

enum
{
  GGML_F32 = 0, GGML_F16 = 1, GGML_Q5_0 = 6, GGML_Q5_1 = 7, GGML_Q8_0 = 8, GGML_Q2_K = 10,
  GGML_Q3_K = 11, GGML_Q4_K = 12, GGML_Q5_K = 13, GGML_Q6_K = 14, GGML_IQ4_NL = 20,
  GGML_IQ4_XS = 23,
};

/* llama.h enum llama_ftype */
enum
{
  FTYPE_Q8_0 = 7, FTYPE_Q2_K = 10, FTYPE_Q3_K_M = 12, FTYPE_Q4_K_M = 15, FTYPE_Q5_K_M = 17,
  FTYPE_Q6_K = 18, FTYPE_IQ4_XS = 30, FTYPE_MXFP4_MOE = 38,
};

gboolean
vc_precision_is_gguf (VcPrecision p)
{
  return vc_precision_gguf_ftype (p) >= 0;
}

gboolean
vc_precision_is_format (VcPrecision p)
{
  return p >= VC_PRECISION_Q8_0 && p <= VC_PRECISION_NF4;
}

int
vc_precision_gguf_ftype (VcPrecision p)
{
  switch (p)
    {
    case VC_PRECISION_Q8_0: return FTYPE_Q8_0;
    case VC_PRECISION_Q6_K: return FTYPE_Q6_K;
    case VC_PRECISION_Q5_K_M: return FTYPE_Q5_K_M;
    case VC_PRECISION_Q4_K_M: return FTYPE_Q4_K_M;
    case VC_PRECISION_Q3_K_M: return FTYPE_Q3_K_M;
    case VC_PRECISION_Q2_K: return FTYPE_Q2_K;
    case VC_PRECISION_IQ4_XS: return FTYPE_IQ4_XS;
    default: return -1;
    }
}

gboolean
vc_precision_from_gguf_ftype (guint64      ftype,
                              VcPrecision *precision)
{
  for (VcPrecision p = VC_PRECISION_Q8_0; p <= VC_PRECISION_IQ4_XS; p++)
    if (vc_precision_gguf_ftype (p) == (int) ftype)
      {
        *precision = p;
        return TRUE;
      }
  if (ftype == FTYPE_MXFP4_MOE)
    {
      *precision = VC_PRECISION_MXFP4;
      return TRUE;
    }
  return FALSE;
}

static guint32
base_type (VcPrecision p)
{
  switch (p)
    {
    case VC_PRECISION_Q8_0: return GGML_Q8_0;
    case VC_PRECISION_Q6_K: return GGML_Q6_K;
    case VC_PRECISION_Q5_K_M: return GGML_Q5_K;
    case VC_PRECISION_Q4_K_M: return GGML_Q4_K;
    case VC_PRECISION_Q3_K_M: return GGML_Q3_K;
    case VC_PRECISION_Q2_K: return GGML_Q2_K;
    case VC_PRECISION_IQ4_XS: return GGML_IQ4_XS;
    default: return GGML_F16;
    }
}

double
vc_quant_format_bits (VcPrecision p)
{
  if (vc_precision_is_gguf (p))
    return 8.0 * vc_ggml_type_size (base_type (p)) / vc_ggml_type_block (base_type (p));
  switch (p)
    {
    case VC_PRECISION_GPTQ_INT4:
    case VC_PRECISION_AWQ_INT4: return 4.0 + (16.0 + 4.0) / 128.0;
    case VC_PRECISION_MXFP4: return 8.0 * 17.0 / 32.0;
    case VC_PRECISION_NF4: return 4.0 + 32.0 / 64.0;
    default: return 16.0;
    }
}

/* ---- the tensors of an architecture --------------------------------------------------------- */

typedef enum
{
  KIND_TOKEN_EMBD,
  KIND_OUTPUT,
  KIND_ATTN_Q,
  KIND_ATTN_K,
  KIND_ATTN_V,
  KIND_ATTN_OUTPUT,
  KIND_FFN_GATE,
  KIND_FFN_UP,
  KIND_FFN_DOWN,
  KIND_LINEAR,                     /* another 2-D weight in a block (MLA projections) */
  KIND_F32,                        /* kept in F32 by the converter: norms, biases, router */
} Kind;

typedef struct
{
  Kind kind;
  guint layer;
  double ne0;                      /* row length: the input size */
  double rows;                     /* output size (× experts) */
  gboolean expert;                 /* a routed expert's weight */
  double modules;                  /* linear modules it holds: the experts, or 1 */
  const char *module;              /* Hugging Face name after model.layers.N. (NULL: none) */
} Tensor;

typedef void (*TensorFunc) (const Tensor *t, gpointer data);

static void
emit_n (TensorFunc  f,
        gpointer    data,
        Kind        kind,
        guint       layer,
        double      ne0,
        double      rows,
        gboolean    expert,
        double      modules,
        const char *module)
{
  Tensor t = { kind, layer, ne0, rows, expert, modules, module };

  if (ne0 > 0 && rows > 0)
    f (&t, data);
}

static void
emit_m (TensorFunc  f,
        gpointer    data,
        Kind        kind,
        guint       layer,
        double      ne0,
        double      rows,
        gboolean    expert,
        const char *module)
{
  emit_n (f, data, kind, layer, ne0, rows, expert, 1, module);
}

static void
emit (TensorFunc f,
      gpointer   data,
      Kind       kind,
      guint      layer,
      double     ne0,
      double     rows,
      gboolean   expert)
{
  emit_n (f, data, kind, layer, ne0, rows, expert, 1, NULL);
}

static void
for_each_tensor (const VcArch *a,
                 TensorFunc    f,
                 gpointer      data)
{
  double h = a->hidden_size, V = a->vocab_size, d = vc_arch_head_dim (a);
  double heads = a->n_heads, kv = a->n_kv_heads;
  double norm = a->norm == VC_NORM_LAYER ? 2.0 : 1.0;
  gboolean moe = vc_arch_is_moe (a);

  emit_m (f, data, KIND_TOKEN_EMBD, 0, h, V, FALSE, "model.embed_tokens");
  if (a->max_positions > 0)
    emit_m (f, data, KIND_F32, 0, h, a->max_positions, FALSE, "@positions");
  if (!a->tied_embeddings)
    emit_m (f, data, KIND_OUTPUT, 0, h, V, FALSE, "lm_head");
  for (guint n = 0; n < norm; n++)
    emit_m (f, data, KIND_F32, 0, h, 1, FALSE, "@output_norm");    /* and its bias */

  for (guint i = 0; i < a->n_layers; i++)
    {
      for (guint n = 0; n < a->norms_per_layer * norm; n++)
        emit (f, data, KIND_F32, i, h, 1, FALSE);
      if (vc_arch_is_mla (a))
        {
          double qk = a->qk_nope_head_dim + a->qk_rope_head_dim;

          if (a->q_lora_rank > 0)
            {
              emit_m (f, data, KIND_LINEAR, i, h, a->q_lora_rank, FALSE, "self_attn.q_a_proj");
              emit_m (f, data, KIND_F32, i, a->q_lora_rank, 1, FALSE, "self_attn.q_a_layernorm");
              emit_m (f, data, KIND_LINEAR, i, a->q_lora_rank, heads * qk, FALSE, "self_attn.q_b_proj");
            }
          else
            emit_m (f, data, KIND_ATTN_Q, i, h, heads * qk, FALSE, "self_attn.q_proj");
          emit_m (f, data, KIND_LINEAR, i, h, a->kv_lora_rank + a->qk_rope_head_dim, FALSE, "self_attn.kv_a_proj_with_mqa");
          emit_m (f, data, KIND_F32, i, a->kv_lora_rank, 1, FALSE, "self_attn.kv_a_layernorm");
          emit_m (f, data, KIND_LINEAR, i, a->kv_lora_rank, heads * (a->qk_nope_head_dim + a->v_head_dim), FALSE, "self_attn.kv_b_proj");
          emit_m (f, data, KIND_ATTN_OUTPUT, i, heads * a->v_head_dim, h, FALSE, "self_attn.o_proj");
        }
      else
        {
          emit_m (f, data, KIND_ATTN_Q, i, h, heads * d, FALSE, "self_attn.q_proj");
          emit_m (f, data, KIND_ATTN_K, i, h, kv * d, FALSE, "self_attn.k_proj");
          emit_m (f, data, KIND_ATTN_V, i, h, kv * d, FALSE, "self_attn.v_proj");
          emit_m (f, data, KIND_ATTN_OUTPUT, i, heads * d, h, FALSE, "self_attn.o_proj");
          if (a->qkv_bias)
            {
              emit_m (f, data, KIND_F32, i, heads * d, 1, FALSE, "self_attn.q_proj.bias");
              emit_m (f, data, KIND_F32, i, kv * d, 1, FALSE, "self_attn.k_proj.bias");
              emit_m (f, data, KIND_F32, i, kv * d, 1, FALSE, "self_attn.v_proj.bias");
            }
          if (a->o_bias)
            emit (f, data, KIND_F32, i, h, 1, FALSE);
          if (a->qk_norm)
            {
              emit (f, data, KIND_F32, i, a->qk_norm_full ? heads * d : d, 1, FALSE);
              emit (f, data, KIND_F32, i, a->qk_norm_full ? kv * d : d, 1, FALSE);
            }
        }

      if (!moe || i < a->dense_layers)
        {
          double I = a->intermediate_size;

          if (a->gated_mlp)
            emit_m (f, data, KIND_FFN_GATE, i, h, I, FALSE, "mlp.gate_proj");
          emit_m (f, data, KIND_FFN_UP, i, h, I, FALSE, "mlp.up_proj");
          emit_m (f, data, KIND_FFN_DOWN, i, I, h, FALSE, "mlp.down_proj");
          if (a->mlp_bias)
            emit_m (f, data, KIND_F32, i, (a->gated_mlp ? 2 * I : I) + h, 1, FALSE, "mlp.bias");
        }
      else
        {
          double E = a->n_experts;
          double Ie = a->expert_intermediate_size ? a->expert_intermediate_size : a->intermediate_size;
          double Is = a->shared_intermediate_size ? a->shared_intermediate_size : a->n_shared_experts * Ie;

          emit_m (f, data, KIND_F32, i, h, E, FALSE, "mlp.gate");
          if (a->router_bias)
            emit_m (f, data, KIND_F32, i, E, 1, FALSE, "mlp.gate.e_score_correction_bias");
          if (a->gated_mlp)
            emit_n (f, data, KIND_FFN_GATE, i, h, Ie * E, TRUE, E, "mlp.experts.gate_proj");
          emit_n (f, data, KIND_FFN_UP, i, h, Ie * E, TRUE, E, "mlp.experts.up_proj");
          emit_n (f, data, KIND_FFN_DOWN, i, Ie, h * E, TRUE, E, "mlp.experts.down_proj");
          if (a->mlp_bias)
            emit (f, data, KIND_F32, i, ((a->gated_mlp ? 2 * Ie : Ie) + h) * E, 1, TRUE);
          if (Is > 0)
            {
              if (a->gated_mlp)
                emit_m (f, data, KIND_FFN_GATE, i, h, Is, FALSE, "mlp.shared_experts.gate_proj");
              emit_m (f, data, KIND_FFN_UP, i, h, Is, FALSE, "mlp.shared_experts.up_proj");
              emit_m (f, data, KIND_FFN_DOWN, i, Is, h, FALSE, "mlp.shared_experts.down_proj");
              if (a->shared_expert_gate)
                emit_m (f, data, KIND_F32, i, h, 1, FALSE, "mlp.shared_expert_gate");
            }
        }
    }
}

/* The inventory's role of an enumerated tensor (vc-inventory.h). */
static VcTensorRole
tensor_role (const Tensor *t)
{
  const char *m = t->module ? t->module : "";

  switch (t->kind)
    {
    case KIND_TOKEN_EMBD: return VC_TENSOR_EMBEDDING;
    case KIND_OUTPUT: return VC_TENSOR_HEAD;
    case KIND_ATTN_Q:
    case KIND_ATTN_OUTPUT: return VC_TENSOR_ATTENTION;
    case KIND_ATTN_K:
    case KIND_ATTN_V: return VC_TENSOR_ATTENTION_KV;
    case KIND_FFN_GATE:
    case KIND_FFN_UP:
    case KIND_FFN_DOWN: return t->expert ? VC_TENSOR_EXPERTS : VC_TENSOR_MLP;
    case KIND_LINEAR:
      return strstr (m, "_a_proj") ? VC_TENSOR_LATENT : VC_TENSOR_ATTENTION;
    case KIND_F32:
    default:
      if (t->expert)
        return VC_TENSOR_EXPERTS;
      if (g_str_equal (m, "@positions"))
        return VC_TENSOR_POSITIONS;
      if (g_str_equal (m, "@output_norm"))
        return VC_TENSOR_OUTPUT_NORM;
      if (g_str_has_suffix (m, "_a_layernorm"))
        return VC_TENSOR_LATENT;
      if (g_str_equal (m, "self_attn.q_proj.bias"))
        return VC_TENSOR_ATTENTION;
      if (g_str_has_prefix (m, "self_attn.k_proj") || g_str_has_prefix (m, "self_attn.v_proj"))
        return VC_TENSOR_ATTENTION_KV;
      if (g_str_has_prefix (m, "mlp.gate") || g_str_equal (m, "mlp.shared_expert_gate"))
        return VC_TENSOR_ROUTER;
      if (g_str_equal (m, "mlp.bias"))
        return VC_TENSOR_MLP;
      return VC_TENSOR_NORM;
    }
}

static void
inventory_add (VcInventory  *inv,
               const Tensor *t,
               double        bytes)
{
  if (inv != NULL)
    vc_inventory_add (inv, tensor_role (t), (int) t->layer, t->ne0 * t->rows, bytes);
}

/* ---- GGUF ---------------------------------------------------------------------------------------- */

typedef struct
{
  const VcArch *arch;
  int ftype;
  guint32 base;
  int n_layers;
  double gqa;
  guint n_expert;
  gboolean is_70b;
  VcGgufRecipe *recipe;
  VcInventory *inv;                /* NULL: totals only */
} Recipe;

static gboolean
use_more_bits (int i,
               int n)
{
  return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

static guint32
fallback (guint32 t,
          double  ne0)
{
  if (fmod (ne0, vc_ggml_type_block (t)) == 0)
    return t;
  switch (t)
    {
    case GGML_Q2_K:
    case GGML_Q3_K:
    case GGML_IQ4_XS: t = GGML_IQ4_NL; break;
    case GGML_Q4_K: t = GGML_Q5_0; break;
    case GGML_Q5_K: t = GGML_Q5_1; break;
    case GGML_Q6_K: t = GGML_Q8_0; break;
    default: break;
    }
  return fmod (ne0, vc_ggml_type_block (t)) == 0 ? t : GGML_F16;
}

static guint32
recipe_type (const Recipe *r,
             const Tensor *t)
{
  guint32 type = r->base;
  int i = (int) t->layer, L = r->n_layers;
  int ft = r->ftype;

  if (t->kind == KIND_OUTPUT || (t->kind == KIND_TOKEN_EMBD && r->arch->tied_embeddings))
    {
      if (fmod (t->ne0, vc_ggml_type_block (type)) != 0)
        type = GGML_Q8_0;
      else if (type != GGML_Q8_0)
        type = GGML_Q6_K;
      return type;
    }
  switch (t->kind)
    {
    case KIND_ATTN_V:
      if (ft == FTYPE_Q2_K)
        type = r->gqa >= 4 ? GGML_Q4_K : GGML_Q3_K;
      else if (ft == FTYPE_Q3_K_M)
        type = i < 2 ? GGML_Q5_K : GGML_Q4_K;
      else if (ft == FTYPE_IQ4_XS && r->gqa >= 4)
        type = GGML_Q5_K;
      else if ((ft == FTYPE_Q4_K_M || ft == FTYPE_Q5_K_M) && use_more_bits (i, L))
        type = GGML_Q6_K;
      if (r->is_70b && (type == GGML_Q3_K || type == GGML_Q4_K))
        type = GGML_Q5_K;
      if (r->n_expert == 8)
        type = GGML_Q8_0;
      break;
    case KIND_ATTN_K:
      if (r->n_expert == 8)
        type = GGML_Q8_0;
      break;
    case KIND_FFN_DOWN:
      if (ft == FTYPE_Q2_K)
        type = GGML_Q3_K;
      else if (ft == FTYPE_Q3_K_M)
        type = i < L / 16 ? GGML_Q5_K : GGML_Q4_K;
      else if (ft == FTYPE_Q4_K_M)
        {
          if (use_more_bits (i, L))
            type = GGML_Q6_K;
        }
      else if (i < L / 8 && ft == FTYPE_IQ4_XS)
        type = GGML_Q5_K;
      else if (ft == FTYPE_Q5_K_M && use_more_bits (i, L))
        type = GGML_Q6_K;
      break;
    case KIND_ATTN_OUTPUT:
      if (r->n_expert == 8)
        {
          if (ft == FTYPE_Q2_K || ft == FTYPE_Q3_K_M || ft == FTYPE_Q4_K_M || ft == FTYPE_IQ4_XS)
            type = GGML_Q5_K;
        }
      else if (ft == FTYPE_Q2_K)
        type = GGML_Q3_K;
      else if (ft == FTYPE_Q3_K_M)
        type = GGML_Q4_K;
      break;
    default:
      break;
    }
  return fallback (type, t->ne0);
}

static void
recipe_tensor (const Tensor *t,
               gpointer      data)
{
  Recipe *r = data;
  guint32 type = t->kind == KIND_F32 ? GGML_F32 : recipe_type (r, t);
  double bytes = t->ne0 / vc_ggml_type_block (type) * vc_ggml_type_size (type) * t->rows;

  r->recipe->n_tensors[type]++;
  r->recipe->type_bytes[type] += bytes;
  r->recipe->bytes += bytes;
  r->recipe->elements += t->ne0 * t->rows;
  inventory_add (r->inv, t, bytes);
}

static void
gguf_recipe (const VcArch *arch,
             VcPrecision   precision,
             VcGgufRecipe *recipe,
             VcInventory  *inv)
{
  Recipe r = {
    .arch = arch,
    .ftype = vc_precision_gguf_ftype (precision),
    .base = base_type (precision),
    .n_layers = (int) arch->n_layers,
    .gqa = arch->n_kv_heads ? (double) arch->n_heads / arch->n_kv_heads : 1,
    .n_expert = arch->n_experts,
    /* llama-model.cpp: LLM_TYPE_70B is the 80-layer Llama with grouped KV heads */
    .is_70b = arch->n_layers == 80 && arch->hidden_size == 8192 && arch->n_kv_heads < arch->n_heads,
    .recipe = recipe,
    .inv = inv,
  };

  memset (recipe, 0, sizeof *recipe);
  g_return_if_fail (vc_precision_is_gguf (precision));
  for_each_tensor (arch, recipe_tensor, &r);
}

void
vc_quant_gguf_recipe (const VcArch *arch,
                      VcPrecision   precision,
                      VcGgufRecipe *recipe)
{
  gguf_recipe (arch, precision, recipe, NULL);
}

VcInventory *
vc_quant_gguf_inventory (const VcArch *arch,
                         VcPrecision   precision)
{
  VcGgufRecipe recipe;
  VcInventory *inv = vc_inventory_new (arch);

  gguf_recipe (arch, precision, &recipe, inv);
  return inv;
}

/* ---- GPTQ, AWQ, MXFP4, NF4 ------------------------------------------------------------------- */

typedef struct
{
  VcPrecision precision;
  gboolean moe;
  double bytes;
  VcInventory *inv;
} Format;

static void format_bytes (const Tensor *t,
                          Format       *f);

static void
format_tensor (const Tensor *t,
               gpointer      data)
{
  Format *f = data;
  double before = f->bytes;

  format_bytes (t, f);
  inventory_add (f->inv, t, f->bytes - before);
}

static void
format_bytes (const Tensor *t,
              Format       *f)
{
  double n = t->ne0 * t->rows;
  gboolean linear = t->kind >= KIND_ATTN_Q && t->kind <= KIND_LINEAR;

  if (!linear || (f->precision == VC_PRECISION_MXFP4 && f->moe && !t->expert))
    {
      f->bytes += 2.0 * n;        /* 16-bit */
      return;
    }
  switch (f->precision)
    {
    case VC_PRECISION_GPTQ_INT4:
    case VC_PRECISION_AWQ_INT4:
      {
        double groups = ceil (t->ne0 / 128.0);

        f->bytes += n / 2.0 + groups * t->rows * 2.0 + groups * t->rows / 2.0;
        if (f->precision == VC_PRECISION_GPTQ_INT4)
          f->bytes += t->modules * t->ne0 * 4.0;     /* g_idx */
      }
      break;
    case VC_PRECISION_MXFP4:
      f->bytes += n * 17.0 / 32.0;
      break;
    case VC_PRECISION_NF4:
      f->bytes += n / 2.0 + n / 64.0 * 4.0 + t->modules * 16 * 4.0;
      break;
    default:
      f->bytes += 2.0 * n;
      break;
    }
}

double
vc_quant_format_weights (const VcArch *arch,
                         VcPrecision   precision)
{
  Format f = { precision, vc_arch_is_moe (arch), 0, NULL };

  g_return_val_if_fail (vc_precision_is_format (precision) && !vc_precision_is_gguf (precision), 0);
  for_each_tensor (arch, format_tensor, &f);
  return f.bytes;
}

VcInventory *
vc_quant_format_inventory (const VcArch *arch,
                           VcPrecision   precision)
{
  Format f = { precision, vc_arch_is_moe (arch), 0, vc_inventory_new (arch) };

  g_return_val_if_fail (vc_precision_is_format (precision) && !vc_precision_is_gguf (precision), NULL);
  for_each_tensor (arch, format_tensor, &f);
  return f.inv;
}

/* ---- quantization_config ---------------------------------------------------------------------- */

typedef enum
{
  QM_FP8,                          /* transformers FP8: per-tensor or block scales (weight_block_size) */
  QM_FBGEMM_FP8,                   /* per output channel fp32 scales (Meta's Llama 3.1 405B FP8) */
  QM_GPTQ,
  QM_AWQ,
  QM_BNB_4BIT,
  QM_BNB_8BIT,
  QM_MXFP4,
  QM_COMPRESSED,
} QuantMethod;

typedef struct
{
  QuantMethod method;
  guint bits;
  double group;                    /* inputs per group; 0: one group a row */
  gboolean zero_point;
  gboolean double_quant;
  gboolean nf4;
  gboolean static_activations;     /* fp8 "static": an input_scale per module */
  double block_out, block_in;      /* fp8 and compressed-tensors block scales; 0: none */
  gboolean float_weights;          /* compressed-tensors "float" */
  int strategy;                    /* compressed-tensors: 0 tensor, 1 channel, 2 group, 3 block */
  gboolean packed;                 /* compressed-tensors pack-quantized: weight_shape per module */
  GPtrArray *skip;                 /* module name parts not converted */
  GPtrArray *only;                 /* gptq modules_in_block_to_quantize, flattened; NULL: all */
  GHashTable *used;                /* skip entries that matched a module */
  GPtrArray *skip_match;           /* per skip entry: its GRegex, compiled once; NULL: a substring */
  GError *match_error;             /* the first match that ran out of steps */
  gboolean block_sparse_moe;       /* the checkpoint names its experts Mixtral's way */
} QuantConfig;

static void
quant_config_clear (QuantConfig *q)
{
  g_clear_pointer (&q->skip, g_ptr_array_unref);
  g_clear_pointer (&q->only, g_ptr_array_unref);
  g_clear_pointer (&q->used, g_hash_table_unref);
  g_clear_pointer (&q->skip_match, g_ptr_array_unref);
  g_clear_error (&q->match_error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (QuantConfig, quant_config_clear)

#define qfail(error, file_name, ...) vc_error_in_file ((error), VC_ERROR_INVALID_VALUE, (file_name), __VA_ARGS__)

static JsonNode *
member (JsonObject *o,
        const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  return n && !JSON_NODE_HOLDS_NULL (n) ? n : NULL;
}

static gboolean
get_int (JsonObject *o,
         const char *key,
         gint64     *value)
{
  JsonNode *n = member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    return FALSE;
  *value = json_node_get_int (n);
  return TRUE;
}

static gboolean
get_bool (JsonObject *o,
          const char *key,
          gboolean    fallback)
{
  JsonNode *n = member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    return fallback;
  return json_node_get_boolean (n);
}

static const char *
get_string (JsonObject *o,
            const char *key)
{
  JsonNode *n = member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

/* A list of strings (nested lists flattened), or NULL when absent; FALSE when not a list of
 * strings. */
static gboolean
get_strings (JsonObject *o,
             const char *key,
             GPtrArray **out)
{
  JsonNode *n = member (o, key);
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GQueue) todo = g_queue_new ();

  *out = NULL;
  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (n))
    return FALSE;
  list = g_ptr_array_new_with_free_func (g_free);
  g_queue_push_tail (todo, json_node_get_array (n));
  while (!g_queue_is_empty (todo))
    {
      JsonArray *a = g_queue_pop_head (todo);

      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonNode *e = json_array_get_element (a, i);

          if (JSON_NODE_HOLDS_ARRAY (e))
            g_queue_push_tail (todo, json_node_get_array (e));
          else if (JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING)
            g_ptr_array_add (list, g_strdup (json_node_get_string (e)));
          else
            return FALSE;
        }
    }
  *out = g_steal_pointer (&list);
  return TRUE;
}

/* A block of scales: two positive sizes, outputs then inputs. FALSE when `node` is not. */
static gboolean
get_block (JsonNode    *node,
           QuantConfig *q)
{
  JsonArray *a = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  gint64 size[2];

  if (a == NULL || json_array_get_length (a) != 2)
    return FALSE;
  for (guint i = 0; i < 2; i++)
    {
      JsonNode *e = json_array_get_element (a, i);

      /* whole numbers only: json-glib warns when asked for the integer of anything else */
      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64 ||
          (size[i] = json_node_get_int (e)) <= 0 || size[i] > G_MAXINT32)
        return FALSE;
    }
  q->block_out = size[0];
  q->block_in = size[1];
  return TRUE;
}

/* transformers FP8: block scales when weight_block_size is given, an input scale per module
 * when the activations are static. */
static gboolean
parse_fp8 (JsonObject  *qc,
           const char  *method,
           const char  *file_name,
           QuantConfig *q,
           GError     **error)
{
  JsonNode *block = member (qc, "weight_block_size");
  const char *scheme = get_string (qc, "activation_scheme");

  if (block && !get_block (block, q))
    return qfail (error, file_name, _("quantization_config.weight_block_size is not two positive sizes"));
  if (scheme && !g_str_equal (scheme, "dynamic") && !g_str_equal (scheme, "static"))
    return qfail (error, file_name, _("quantization_config.activation_scheme “%s” is not understood; known: dynamic, static"), scheme);
  q->static_activations = scheme && g_str_equal (scheme, "static");
  return TRUE;
}

/* GPTQ and AWQ: the bits and the group size (AutoAWQ's w_bit and q_group_size too). */
static gboolean
parse_int_groups (JsonObject  *qc,
                  const char  *method,
                  const char  *file_name,
                  gboolean     gptq,
                  QuantConfig *q,
                  GError     **error)
{
  gint64 v;

  if (!get_int (qc, "bits", &v) && !get_int (qc, "w_bit", &v))
    return qfail (error, file_name, _("quantization_config (%s) has no bits"), method);
  if (!(v == 2 || v == 3 || v == 4 || v == 8) || (!gptq && v != 4))
    return qfail (error, file_name, _("quantization_config.bits is %lld; %s checkpoints of 2, 3, 4 or 8 bits (AWQ: 4) are sized"),
                  (long long) v, method);
  q->bits = (guint) v;
  if (!get_int (qc, "group_size", &v) && !get_int (qc, "q_group_size", &v))
    v = 128;
  if (v == 0 || v < -1)
    return qfail (error, file_name, _("quantization_config.group_size is %lld; -1 or a positive size is understood"), (long long) v);
  q->group = v == -1 ? 0 : (double) v;
  return TRUE;
}

static gboolean
parse_gptq (JsonObject  *qc,
            const char  *method,
            const char  *file_name,
            QuantConfig *q,
            GError     **error)
{
  const char *format = get_string (qc, "checkpoint_format");

  if (!parse_int_groups (qc, method, file_name, TRUE, q, error))
    return FALSE;
  q->zero_point = TRUE;
  if (format && !g_str_equal (format, "gptq") && !g_str_equal (format, "gptq_v2"))
    return qfail (error, file_name, _("quantization_config.checkpoint_format “%s” is not understood; known: gptq, gptq_v2"), format);
  if (get_bool (qc, "lm_head", FALSE))
    return qfail (error, file_name, _("quantization_config.lm_head: a quantized output head is not sized"));
  if (!get_strings (qc, "modules_in_block_to_quantize", &q->only))
    return qfail (error, file_name, _("quantization_config.modules_in_block_to_quantize is not a list of module names"));
  return TRUE;
}

static gboolean
parse_awq (JsonObject  *qc,
           const char  *method,
           const char  *file_name,
           QuantConfig *q,
           GError     **error)
{
  const char *version = get_string (qc, "version");

  if (!parse_int_groups (qc, method, file_name, FALSE, q, error))
    return FALSE;
  q->zero_point = get_bool (qc, "zero_point", TRUE);
  if (version && g_ascii_strcasecmp (version, "gemm") != 0 && g_ascii_strcasecmp (version, "gemv") != 0)
    return qfail (error, file_name, _("quantization_config.version “%s” is not understood; known: gemm, gemv"), version);
  return TRUE;
}

/* bitsandbytes: 4-bit (nf4 or fp4, nested absmax or not) or 8-bit. */
static gboolean
parse_bitsandbytes (JsonObject  *qc,
                    const char  *method,
                    const char  *file_name,
                    QuantConfig *q,
                    GError     **error)
{
  gboolean four = get_bool (qc, "load_in_4bit", FALSE), eight = get_bool (qc, "load_in_8bit", FALSE);
  const char *type = get_string (qc, "bnb_4bit_quant_type");

  if (four == eight)
    return qfail (error, file_name, _("quantization_config (bitsandbytes) says neither load_in_4bit nor load_in_8bit"));
  q->method = four ? QM_BNB_4BIT : QM_BNB_8BIT;
  q->bits = four ? 4 : 8;
  if (four && type && !g_str_equal (type, "nf4") && !g_str_equal (type, "fp4"))
    return qfail (error, file_name, _("quantization_config.bnb_4bit_quant_type “%s” is not understood; known: nf4, fp4"), type);
  q->nf4 = type == NULL || g_str_equal (type, "nf4");
  q->double_quant = get_bool (qc, "bnb_4bit_use_double_quant", FALSE);
  return TRUE;
}

/* compressed-tensors: the weights of its one config group, which targets Linear layers. */
static gboolean
compressed_weights (JsonObject  *qc,
                    const char  *file_name,
                    JsonObject **weights,
                    GError     **error)
{
  JsonNode *groups = member (qc, "config_groups");
  g_autoptr(GList) names = NULL;

  *weights = NULL;
  if (groups == NULL || !JSON_NODE_HOLDS_OBJECT (groups) ||
      (names = json_object_get_members (json_node_get_object (groups))) == NULL)
    return qfail (error, file_name, _("quantization_config.config_groups is missing"));
  for (GList *l = names; l; l = l->next)
    {
      JsonNode *g = json_object_get_member (json_node_get_object (groups), l->data);
      g_autoptr(GPtrArray) targets = NULL;
      JsonNode *wn;

      if (!JSON_NODE_HOLDS_OBJECT (g) ||
          !get_strings (json_node_get_object (g), "targets", &targets) || targets == NULL ||
          targets->len != 1 || !g_str_equal (targets->pdata[0], "Linear"))
        return qfail (error, file_name, _("quantization_config.config_groups.%s targets something else than Linear layers"),
                      (char *) l->data);
      if (*weights != NULL)
        return qfail (error, file_name, _("quantization_config.config_groups holds several groups; one is sized"));
      wn = member (json_node_get_object (g), "weights");
      if (wn == NULL || !JSON_NODE_HOLDS_OBJECT (wn))
        return qfail (error, file_name, _("quantization_config.config_groups.%s has no weights"), (char *) l->data);
      *weights = json_node_get_object (wn);
    }
  return TRUE;
}

/* compressed-tensors weights: their bits, type and scale strategy (tensor, channel, group or
 * block). */
static gboolean
parse_compressed_weights (JsonObject  *w,
                          const char  *file_name,
                          QuantConfig *q,
                          GError     **error)
{
  const char *type = get_string (w, "type");
  const char *strategy = get_string (w, "strategy");
  gint64 v;

  if (!get_int (w, "num_bits", &v) || !(v == 4 || v == 8))
    return qfail (error, file_name, _("quantization_config weights.num_bits is not 4 or 8"));
  q->bits = (guint) v;
  q->float_weights = type && g_str_equal (type, "float");
  if (!get_bool (w, "symmetric", TRUE))
    return qfail (error, file_name, _("quantization_config weights.symmetric is false: zero points are not sized"));
  if (strategy == NULL || g_str_equal (strategy, "tensor"))
    q->strategy = 0;
  else if (g_str_equal (strategy, "channel"))
    q->strategy = 1;
  else if (g_str_equal (strategy, "group"))
    {
      q->strategy = 2;
      if (!get_int (w, "group_size", &v) || v <= 0)
        return qfail (error, file_name, _("quantization_config weights.group_size is missing"));
      q->group = (double) v;
    }
  else if (g_str_equal (strategy, "block"))
    {
      q->strategy = 3;
      if (!get_block (member (w, "block_structure"), q))
        return qfail (error, file_name, _("quantization_config weights.block_structure is not two sizes"));
    }
  else
    return qfail (error, file_name, _("quantization_config weights.strategy “%s” is not understood; known: tensor, channel, group, block"), strategy);
  return TRUE;
}

static gboolean
parse_compressed (JsonObject  *qc,
                  const char  *method,
                  const char  *file_name,
                  QuantConfig *q,
                  GError     **error)
{
  const char *format = get_string (qc, "format");
  JsonObject *w;

  if (!compressed_weights (qc, file_name, &w, error) ||
      !parse_compressed_weights (w, file_name, q, error))
    return FALSE;
  if (format && !g_str_equal (format, "pack-quantized") && !g_str_equal (format, "float-quantized") &&
      !g_str_equal (format, "int-quantized") && !g_str_equal (format, "naive-quantized"))
    return qfail (error, file_name, _("quantization_config.format “%s” is not understood; known: pack-quantized, float-quantized, int-quantized, naive-quantized"), format);
  q->packed = format && g_str_equal (format, "pack-quantized");
  if (q->bits == 4 && !q->packed)
    return qfail (error, file_name, _("4-bit compressed-tensors weights are sized in the pack-quantized format only"));
  return TRUE;
}

/* Work bounds for the skip lists: a pattern is compiled once, each match may take at most
 * SKIP_MATCH_STEPS backtracking steps from each starting point (PCRE2's match limit, lowered
 * through its "(*LIMIT_MATCH=)" pattern start), and the entries × module names checked are
 * capped, so that a hostile config is refused in well under a second rather than run. */
#define SKIP_MATCH_STEPS 200
#define MAX_SKIP_CHECKS 4000000
#define MAX_SKIP_REGEX_CHECKS 5000

static void
regex_free (gpointer re)
{
  if (re != NULL)
    g_regex_unref (re);
}

/* Each skip entry's matcher: transformers tests `entry in name` (a substring);
 * compressed-tensors' "re:" entries are regular expressions, and '*' matches any part. */
static gboolean
compile_skip (QuantConfig  *q,
              const char   *file_name,
              GError      **error)
{
  q->skip_match = g_ptr_array_new_with_free_func (regex_free);
  for (guint i = 0; q->skip && i < q->skip->len; i++)
    {
      const char *entry = q->skip->pdata[i];
      g_autofree char *pattern = NULL;
      g_autoptr(GError) local = NULL;
      GRegex *re;

      if (g_str_has_prefix (entry, "re:"))
        {
          /* a pattern's own start options could raise the step limit again */
          if (g_str_has_prefix (entry + 3, "(*"))
            return qfail (error, file_name, _("quantization_config: the pattern “%s” sets matching options, which are not accepted"),
                          entry);
          pattern = g_strdup_printf ("(*LIMIT_MATCH=%u)%s", SKIP_MATCH_STEPS, entry + 3);
        }
      else if (strchr (entry, '*'))
        {
          g_autofree char *escaped = g_regex_escape_string (entry, -1);
          g_auto(GStrv) parts = g_strsplit (escaped, "\\*", -1);
          g_autofree char *joined = g_strjoinv ("[^.]*", parts);

          pattern = g_strdup_printf ("(*LIMIT_MATCH=%u)%s", SKIP_MATCH_STEPS, joined);
        }
      if (pattern == NULL)
        {
          g_ptr_array_add (q->skip_match, NULL);
          continue;
        }
      re = g_regex_new (pattern, G_REGEX_OPTIMIZE, 0, &local);
      if (re == NULL)
        return qfail (error, file_name, _("quantization_config: “%s” is not a regular expression: %s"), entry, local->message);
      g_ptr_array_add (q->skip_match, re);
    }
  return TRUE;
}

/* Whether skip entry i names a module; a match that runs out of steps is kept as the error. */
static gboolean
entry_matches (QuantConfig *q,
               guint        i,
               const char  *name)
{
  GRegex *re = q->skip_match->pdata[i];
  g_autoptr(GError) local = NULL;

  if (re == NULL)
    return strstr (name, q->skip->pdata[i]) != NULL;
  if (q->match_error != NULL)
    return FALSE;
  if (g_regex_match_full (re, name, -1, 0, 0, NULL, &local))
    return TRUE;
  if (local != NULL)
    q->match_error = g_error_new (VC_ERROR, VC_ERROR_INVALID_VALUE,
                                  _("quantization_config: the pattern “%s” takes more than %u steps to match “%s”; simpler patterns are accepted"),
                                  (const char *) q->skip->pdata[i], SKIP_MATCH_STEPS, name);
  return FALSE;
}

typedef gboolean (*ParseMethod) (JsonObject  *qc,
                                 const char  *method,
                                 const char  *file_name,
                                 QuantConfig *q,
                                 GError     **error);

/* The quant_method values understood: the method and its bits (refined by `parse`, when there
 * is more to read), and the key listing the modules left unquantized. */
static const struct
{
  const char *name;
  QuantMethod method;
  guint bits;
  ParseMethod parse;
  const char *skip_key;
} quant_methods[] = {
  { "fp8", QM_FP8, 8, parse_fp8, "modules_to_not_convert" },
  { "fbgemm_fp8", QM_FBGEMM_FP8, 8, NULL, "modules_to_not_convert" },
  { "gptq", QM_GPTQ, 0, parse_gptq, "modules_to_not_convert" },
  { "awq", QM_AWQ, 0, parse_awq, "modules_to_not_convert" },
  { "bitsandbytes", QM_BNB_4BIT, 4, parse_bitsandbytes, "llm_int8_skip_modules" },
  { "mxfp4", QM_MXFP4, 4, NULL, "modules_to_not_convert" },
  { "compressed-tensors", QM_COMPRESSED, 0, parse_compressed, "ignore" },
};

static gboolean
parse_quant_config (JsonObject  *qc,
                    const char  *file_name,
                    QuantConfig *q,
                    GError     **error)
{
  const char *method = get_string (qc, "quant_method");

  memset (q, 0, sizeof *q);
  q->used = g_hash_table_new (g_str_hash, g_str_equal);
  if (method == NULL)
    return qfail (error, file_name, _("quantization_config has no quant_method"));
  for (guint i = 0; i < G_N_ELEMENTS (quant_methods); i++)
    {
      const char *skip_key = quant_methods[i].skip_key;

      if (!g_str_equal (method, quant_methods[i].name))
        continue;
      q->method = quant_methods[i].method;
      q->bits = quant_methods[i].bits;
      if (quant_methods[i].parse && !quant_methods[i].parse (qc, method, file_name, q, error))
        return FALSE;
      if (!get_strings (qc, skip_key, &q->skip))
        return qfail (error, file_name, _("quantization_config.%s is not a list of module names"), skip_key);
      return compile_skip (q, file_name, error);
    }
  return qfail (error, file_name, _("quantization_config.quant_method “%s” is not understood; known: fp8, fbgemm_fp8, gptq, awq, bitsandbytes, mxfp4, compressed-tensors"),
                method);
}

gboolean
vc_quant_config_check (JsonObject  *qc,
                       const char  *file_name,
                       GError     **error)
{
  g_auto(QuantConfig) q = { 0 };

  g_return_val_if_fail (qc != NULL, FALSE);
  return parse_quant_config (qc, file_name, &q, error);
}

/* Modules an architecture has but never quantizes here: a skip entry naming them is known. */
static gboolean
entry_is_kept_anyway (const char *entry)
{
  static const char *const kept[] = {
    "lm_head", "embed_tokens", "norm", "gate", "router", "mlp.gate", "block_sparse_moe.gate",
    "shared_expert_gate", "e_score_correction_bias",
  };

  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    if (g_str_has_suffix (entry, kept[i]) || g_str_equal (entry, kept[i]) ||
        (g_str_has_prefix (entry, "re:") && strstr (entry, kept[i])))
      return TRUE;
  return FALSE;
}

typedef struct
{
  QuantConfig *q;
  double float_bytes;
  double bytes;
  VcInventory *inv;
} ConfigSize;

/* The module's name in the checkpoint, which the skip lists name. The tensors are enumerated
 * under Qwen's and DeepSeek's names (mlp.gate, mlp.experts.N.gate_proj, up_proj, down_proj);
 * Mixtral's and MiniMax-M2's checkpoints name the router block_sparse_moe.gate (beside it
 * MiniMax-M2's e_score_correction_bias) and the experts block_sparse_moe.experts.N.w1 (gate),
 * w3 (up) and w2 (down) (transformers' modeling_mixtral.py, MixtralSparseMoeBlock and
 * MixtralBlockSparseTop2MLP; ModelCloud/GPTQModel, gptqmodel/models/definitions/minimax_m2.py,
 * module_tree). transformers matches a skip entry as a substring of the name (`key in
 * current_key_name_str`, integrations/finegrained_fp8.py): MiniMax-M2's "gate" names its router
 * alone, not its experts' w1. */
static const char *
checkpoint_module (const QuantConfig *q,
                   const char        *module)
{
  static const char *const mixtral[][2] = {
    { "mlp.gate", "block_sparse_moe.gate" },
    { "mlp.gate.e_score_correction_bias", "block_sparse_moe.e_score_correction_bias" },
    { "mlp.experts.gate_proj", "block_sparse_moe.experts.w1" },
    { "mlp.experts.up_proj", "block_sparse_moe.experts.w3" },
    { "mlp.experts.down_proj", "block_sparse_moe.experts.w2" },
  };

  if (q->block_sparse_moe && module != NULL)
    for (guint i = 0; i < G_N_ELEMENTS (mixtral); i++)
      if (g_str_equal (module, mixtral[i][0]))
        return mixtral[i][1];
  return module;
}

static gboolean
module_skipped (QuantConfig  *q,
                const Tensor *t)
{
  gboolean skipped = FALSE;
  const char *module = checkpoint_module (q, t->module);

  if (q->only && module)
    {
      gboolean listed = FALSE;

      for (guint i = 0; i < q->only->len && !listed; i++)
        listed = g_str_has_suffix (module, q->only->pdata[i]) || strstr (module, q->only->pdata[i]);
      if (!listed)
        return TRUE;
    }
  for (guint i = 0; q->skip && i < q->skip->len; i++)
    {
      const char *entry = q->skip->pdata[i];
      g_autofree char *name = NULL;

      if (module == NULL)
        continue;
      if (t->expert)
        {
          /* each expert has its own name: an entry naming one expert is not sized */
          g_autofree char *first = NULL;
          const char *dot = strrchr (module, '.');

          first = g_strdup_printf ("model.layers.%u.%.*s.0%s", t->layer, (int) (dot - module), module, dot);
          name = g_strdup_printf ("model.layers.%u.%s", t->layer, module);
          if (entry_matches (q, i, first) || entry_matches (q, i, name))
            {
              g_hash_table_add (q->used, (gpointer) entry);
              skipped = TRUE;
            }
          continue;
        }
      name = g_str_has_prefix (module, "model.") || g_str_equal (module, "lm_head")
             ? g_strdup (module) : g_strdup_printf ("model.layers.%u.%s", t->layer, module);
      if (entry_matches (q, i, name))
        {
          g_hash_table_add (q->used, (gpointer) entry);
          skipped = TRUE;
        }
    }
  return skipped;
}

/* The module names a skip list is checked against: two for routed experts (the first expert's
 * name and the layer's), one for other modules. */
static void
count_names (const Tensor *t,
             gpointer      data)
{
  guint64 *n = data;

  if (t->module)
    *n += t->expert ? 2 : 1;
}

static void config_bytes (const Tensor *t,
                          ConfigSize   *c);

static void
config_tensor (const Tensor *t,
               gpointer      data)
{
  ConfigSize *c = data;
  double before = c->bytes;

  config_bytes (t, c);
  inventory_add (c->inv, t, c->bytes - before);
}

static void
config_bytes (const Tensor *t,
              ConfigSize   *c)
{
  QuantConfig *q = c->q;
  double n = t->ne0 * t->rows;
  double in = t->ne0, out_rows = t->rows, m = t->modules;
  gboolean linear = t->kind >= KIND_ATTN_Q && t->kind <= KIND_LINEAR;
  gboolean head = t->kind == KIND_OUTPUT;
  gboolean quantized;
  double groups;

  if (t->kind == KIND_F32)
    {
      /* norms and biases: stored at the checkpoint's float type */
      c->bytes += n * c->float_bytes;
      return;
    }
  /* compressed-tensors quantizes every Linear its ignore list leaves, lm_head included */
  quantized = (linear || (head && q->method == QM_COMPRESSED)) && !module_skipped (q, t);
  if (q->method == QM_MXFP4)
    quantized = t->expert;
  if (!quantized)
    {
      c->bytes += n * c->float_bytes;
      return;
    }

  groups = q->group > 0 ? ceil (in / q->group) : 1;
  switch (q->method)
    {
    case QM_FP8:
      c->bytes += n;
      if (q->block_out > 0)
        c->bytes += m * ceil (out_rows / m / q->block_out) * ceil (in / q->block_in) * 4.0;
      else
        c->bytes += m * 4.0;
      if (q->static_activations)
        c->bytes += m * 4.0;
      break;
    case QM_FBGEMM_FP8:
      /* fp8 weights with one fp32 scale per output channel */
      c->bytes += n + out_rows * 4.0;
      break;
    case QM_GPTQ:
      c->bytes += n * q->bits / 8.0 + groups * out_rows * q->bits / 8.0 + groups * out_rows * 2.0 + m * in * 4.0;
      break;
    case QM_AWQ:
      c->bytes += n * q->bits / 8.0 + groups * out_rows * 2.0 + (q->zero_point ? groups * out_rows * q->bits / 8.0 : 0);
      break;
    case QM_BNB_4BIT:
      if (q->double_quant)
        c->bytes += n / 2.0 + ceil (n / 64.0) + ceil (n / 64.0 / 256.0) * 4.0 + m * (16 * 4.0 + 256 * 4.0 + 4.0);
      else
        c->bytes += n / 2.0 + ceil (n / 64.0) * 4.0 + m * 16 * 4.0;
      break;
    case QM_BNB_8BIT:
      c->bytes += n + out_rows * 4.0;
      break;
    case QM_MXFP4:
      c->bytes += n * 17.0 / 32.0;
      break;
    case QM_COMPRESSED:
      {
        double scales = q->strategy == 0 ? m
                        : q->strategy == 1 ? out_rows
                        : q->strategy == 2 ? out_rows * ceil (in / q->group)
                        : m * ceil (out_rows / m / q->block_out) * ceil (in / q->block_in);

        c->bytes += n * q->bits / 8.0 + scales * (q->strategy == 0 ? 4.0 : c->float_bytes);
        if (q->packed)
          c->bytes += m * 2 * 8.0;                 /* weight_shape: two int64 */
      }
      break;
    default:
      c->bytes += n * c->float_bytes;
      break;
    }
}

gboolean
vc_quant_config_weights (JsonObject    *qc,
                         const VcArch  *arch,
                         const char    *model_type,
                         double         float_bytes,
                         const char    *file_name,
                         double        *bytes,
                         VcPrecision   *precision,
                         char         **label,
                         VcInventory  **inventory,
                         GError       **error)
{
  g_auto(QuantConfig) q = { 0 };
  g_autoptr(VcInventory) inv = vc_inventory_new (arch);
  ConfigSize c = { &q, float_bytes, 0, inv };
  const char *method;

  g_return_val_if_fail (qc != NULL && arch != NULL, FALSE);
  if (!parse_quant_config (qc, file_name, &q, error))
    return FALSE;
  q.block_sparse_moe = g_strcmp0 (model_type, "mixtral") == 0 || g_strcmp0 (model_type, "minimax_m2") == 0;
  if (q.method == QM_MXFP4 && !vc_arch_is_moe (arch))
    return qfail (error, file_name, _("quantization_config (mxfp4) quantizes routed experts, and this model has none"));

  if ((q.skip && q.skip->len > 0) || (q.only && q.only->len > 0))
    {
      guint64 names = 0, entries = (q.skip ? q.skip->len : 0) + (q.only ? q.only->len : 0), patterns = 0;

      for (guint i = 0; q.skip && i < q.skip->len; i++)
        patterns += q.skip_match->pdata[i] != NULL;
      for_each_tensor (arch, count_names, &names);
      if (entries * names > MAX_SKIP_CHECKS || patterns * names > MAX_SKIP_REGEX_CHECKS)
        return qfail (error, file_name,
                      _("quantization_config lists %llu modules (%llu of them patterns) to check against %llu module names; accepted: at most %u checks, %u of them patterns"),
                      (unsigned long long) entries, (unsigned long long) patterns, (unsigned long long) names,
                      (guint) MAX_SKIP_CHECKS, (guint) MAX_SKIP_REGEX_CHECKS);
    }
  for_each_tensor (arch, config_tensor, &c);
  if (q.match_error != NULL)
    return qfail (error, file_name, "%s", q.match_error->message);
  for (guint i = 0; q.skip && i < q.skip->len; i++)
    if (!g_hash_table_contains (q.used, q.skip->pdata[i]) && !entry_is_kept_anyway (q.skip->pdata[i]) &&
        q.method != QM_MXFP4)
      return qfail (error, file_name, _("quantization_config names the module “%s”, which is not one this architecture has"),
                    (char *) q.skip->pdata[i]);

  method = get_string (qc, "quant_method");
  switch (q.method)
    {
    case QM_FP8:
    case QM_FBGEMM_FP8: *precision = VC_PRECISION_FP8; break;
    case QM_GPTQ: *precision = q.bits == 4 && q.group == 128 ? VC_PRECISION_GPTQ_INT4 : q.bits <= 4 ? VC_PRECISION_INT4 : VC_PRECISION_INT8; break;
    case QM_AWQ: *precision = q.group == 128 ? VC_PRECISION_AWQ_INT4 : VC_PRECISION_INT4; break;
    case QM_BNB_4BIT: *precision = q.nf4 ? VC_PRECISION_NF4 : VC_PRECISION_INT4; break;
    case QM_BNB_8BIT: *precision = VC_PRECISION_INT8; break;
    case QM_MXFP4: *precision = VC_PRECISION_MXFP4; break;
    case QM_COMPRESSED:
    default:
      *precision = q.float_weights && q.bits == 8 ? VC_PRECISION_FP8 : q.bits == 8 ? VC_PRECISION_INT8 : VC_PRECISION_INT4;
      break;
    }
  if (label)
    {
      if (q.method == QM_GPTQ || q.method == QM_AWQ)
        *label = q.group > 0 ? g_strdup_printf ("%s %u-bit g%.0f", method, q.bits, q.group)
                             : g_strdup_printf ("%s %u-bit", method, q.bits);
      else if (q.method == QM_FP8 && q.block_out > 0)
        *label = g_strdup_printf ("fp8 %.0f×%.0f blocks", q.block_out, q.block_in);
      else if (q.method == QM_BNB_4BIT)
        *label = g_strdup_printf ("bitsandbytes %s", q.nf4 ? "nf4" : "fp4");
      else if (q.method == QM_BNB_8BIT)
        *label = g_strdup ("bitsandbytes int8");
      else
        *label = g_strdup (method);
    }
  *bytes = c.bytes;
  if (inventory)
    *inventory = g_steal_pointer (&inv);
  return TRUE;
}
