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
} Tensor;

typedef void (*TensorFunc) (const Tensor *t, gpointer data);

static void
emit_n (TensorFunc f,
        gpointer   data,
        Kind       kind,
        guint      layer,
        double     ne0,
        double     rows,
        gboolean   expert,
        double     modules)
{
  Tensor t = { kind, layer, ne0, rows, expert, modules };

  if (ne0 > 0 && rows > 0)
    f (&t, data);
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
  Tensor t = { kind, layer, ne0, rows, expert, 1 };

  if (ne0 > 0 && rows > 0)
    f (&t, data);
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

  emit (f, data, KIND_TOKEN_EMBD, 0, h, V, FALSE);
  if (a->max_positions > 0)
    emit (f, data, KIND_F32, 0, h, a->max_positions, FALSE);
  if (!a->tied_embeddings)
    emit (f, data, KIND_OUTPUT, 0, h, V, FALSE);
  for (guint n = 0; n < norm; n++)
    emit (f, data, KIND_F32, 0, h, 1, FALSE);              /* output_norm (and its bias) */

  for (guint i = 0; i < a->n_layers; i++)
    {
      for (guint n = 0; n < a->norms_per_layer * norm; n++)
        emit (f, data, KIND_F32, i, h, 1, FALSE);
      if (vc_arch_is_mla (a))
        {
          double qk = a->qk_nope_head_dim + a->qk_rope_head_dim;

          if (a->q_lora_rank > 0)
            {
              emit (f, data, KIND_LINEAR, i, h, a->q_lora_rank, FALSE);
              emit (f, data, KIND_F32, i, a->q_lora_rank, 1, FALSE);
              emit (f, data, KIND_LINEAR, i, a->q_lora_rank, heads * qk, FALSE);
            }
          else
            emit (f, data, KIND_ATTN_Q, i, h, heads * qk, FALSE);
          emit (f, data, KIND_LINEAR, i, h, a->kv_lora_rank + a->qk_rope_head_dim, FALSE);
          emit (f, data, KIND_F32, i, a->kv_lora_rank, 1, FALSE);
          emit (f, data, KIND_LINEAR, i, a->kv_lora_rank, heads * (a->qk_nope_head_dim + a->v_head_dim), FALSE);
          emit (f, data, KIND_ATTN_OUTPUT, i, heads * a->v_head_dim, h, FALSE);
        }
      else
        {
          emit (f, data, KIND_ATTN_Q, i, h, heads * d, FALSE);
          emit (f, data, KIND_ATTN_K, i, h, kv * d, FALSE);
          emit (f, data, KIND_ATTN_V, i, h, kv * d, FALSE);
          emit (f, data, KIND_ATTN_OUTPUT, i, heads * d, h, FALSE);
          if (a->qkv_bias)
            {
              emit (f, data, KIND_F32, i, heads * d, 1, FALSE);
              emit (f, data, KIND_F32, i, kv * d, 1, FALSE);
              emit (f, data, KIND_F32, i, kv * d, 1, FALSE);
            }
          if (a->o_bias)
            emit (f, data, KIND_F32, i, h, 1, FALSE);
          if (a->qk_norm)
            {
              emit (f, data, KIND_F32, i, d, 1, FALSE);
              emit (f, data, KIND_F32, i, d, 1, FALSE);
            }
        }

      if (!moe || i < a->dense_layers)
        {
          double I = a->intermediate_size;

          if (a->gated_mlp)
            emit (f, data, KIND_FFN_GATE, i, h, I, FALSE);
          emit (f, data, KIND_FFN_UP, i, h, I, FALSE);
          emit (f, data, KIND_FFN_DOWN, i, I, h, FALSE);
          if (a->mlp_bias)
            emit (f, data, KIND_F32, i, (a->gated_mlp ? 2 * I : I) + h, 1, FALSE);
        }
      else
        {
          double E = a->n_experts;
          double Ie = a->expert_intermediate_size ? a->expert_intermediate_size : a->intermediate_size;
          double Is = a->shared_intermediate_size ? a->shared_intermediate_size : a->n_shared_experts * Ie;

          emit (f, data, KIND_F32, i, h, E, FALSE);                 /* router */
          if (a->router_bias)
            emit (f, data, KIND_F32, i, E, 1, FALSE);
          if (a->gated_mlp)
            emit_n (f, data, KIND_FFN_GATE, i, h, Ie * E, TRUE, E);
          emit_n (f, data, KIND_FFN_UP, i, h, Ie * E, TRUE, E);
          emit_n (f, data, KIND_FFN_DOWN, i, Ie, h * E, TRUE, E);
          if (a->mlp_bias)
            emit (f, data, KIND_F32, i, ((a->gated_mlp ? 2 * Ie : Ie) + h) * E, 1, TRUE);
          if (Is > 0)
            {
              if (a->gated_mlp)
                emit (f, data, KIND_FFN_GATE, i, h, Is, FALSE);
              emit (f, data, KIND_FFN_UP, i, h, Is, FALSE);
              emit (f, data, KIND_FFN_DOWN, i, Is, h, FALSE);
              if (a->shared_expert_gate)
                emit (f, data, KIND_F32, i, h, 1, FALSE);
            }
        }
    }
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
}

void
vc_quant_gguf_recipe (const VcArch *arch,
                      VcPrecision   precision,
                      VcGgufRecipe *recipe)
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
  };

  memset (recipe, 0, sizeof *recipe);
  g_return_if_fail (vc_precision_is_gguf (precision));
  for_each_tensor (arch, recipe_tensor, &r);
}

/* ---- GPTQ, AWQ, MXFP4, NF4 ------------------------------------------------------------------- */

typedef struct
{
  VcPrecision precision;
  gboolean moe;
  double bytes;
} Format;

static void
format_tensor (const Tensor *t,
               gpointer      data)
{
  Format *f = data;
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
  Format f = { precision, vc_arch_is_moe (arch), 0 };

  g_return_val_if_fail (vc_precision_is_format (precision) && !vc_precision_is_gguf (precision), 0);
  for_each_tensor (arch, format_tensor, &f);
  return f.bytes;
}
