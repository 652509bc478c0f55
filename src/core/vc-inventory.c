/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-inventory.c: one list of tensors for every model source, and its partition over GPUs.
 *
 * The split of each role follows vLLM's parallel layers (vllm/model_executor/layers/linear.py:
 * QKVParallelLinear keeps whole KV heads, replicating them past one per GPU; Column- and
 * RowParallelLinear divide by TP; vocab_parallel_embedding.py pads the vocabulary to whole
 * shards; fused_moe/layer.py gives each EP rank E / EP whole experts, else splits every expert
 * by TP) and Megatron's. llama.cpp's placement (src/llama-model.cpp, load_tensors) keeps the
 * input layer on the CPU and treats the output as layer n_layer: see vc-layout.c.
 */
#define G_LOG_DOMAIN "vc-inventory"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vc-inventory.h"

struct _VcInventory
{
  gatomicrefcount ref_count;
  GArray *groups;                 /* VcTensorGroup */
  guint n_layers;
  guint vocab_size;
  guint kv_heads;                 /* 0: multi-head latent attention (no KV heads to keep whole) */
  double bytes;
  double elements;
};

VcInventory *
vc_inventory_new (const VcArch *arch)
{
  VcInventory *inv = g_new0 (VcInventory, 1);

  g_return_val_if_fail (arch != NULL, NULL);
  g_atomic_ref_count_init (&inv->ref_count);
  inv->groups = g_array_new (FALSE, FALSE, sizeof (VcTensorGroup));
  inv->n_layers = arch->n_layers;
  inv->vocab_size = MAX (1u, arch->vocab_size);
  inv->kv_heads = vc_arch_is_mla (arch) ? 0 : MAX (1u, arch->n_kv_heads);
  return inv;
}

VcInventory *
vc_inventory_ref (VcInventory *inv)
{
  g_return_val_if_fail (inv != NULL, NULL);
  g_atomic_ref_count_inc (&inv->ref_count);
  return inv;
}

void
vc_inventory_unref (VcInventory *inv)
{
  g_return_if_fail (inv != NULL);
  if (!g_atomic_ref_count_dec (&inv->ref_count))
    return;
  g_array_unref (inv->groups);
  g_free (inv);
}

static gboolean
role_in_layers (VcTensorRole role)
{
  return role != VC_TENSOR_EMBEDDING && role != VC_TENSOR_POSITIONS && role != VC_TENSOR_ENCODER &&
         role != VC_TENSOR_OTHER && role != VC_TENSOR_OUTPUT_NORM && role != VC_TENSOR_HEAD;
}

void
vc_inventory_add_layers (VcInventory  *inv,
                         VcTensorRole  role,
                         guint         first_layer,
                         guint         n_layers,
                         double        elements,
                         double        bytes)
{
  VcTensorGroup g = { role, first_layer, n_layers, elements, bytes };
  double count = MAX (1u, n_layers);

  g_return_if_fail (inv != NULL && role < VC_N_TENSOR_ROLES);
  if (elements <= 0 && bytes <= 0)
    return;
  if (!role_in_layers (role))
    {
      g.first_layer = first_layer = 0;
      g.n_layers = n_layers = 0;
      count = 1;
    }
  if (inv->groups->len > 0 && n_layers > 0)
    {
      /* a run of identical tensors over consecutive layers is one group */
      VcTensorGroup *last = &g_array_index (inv->groups, VcTensorGroup, inv->groups->len - 1);

      if (last->role == role && last->n_layers > 0 && last->first_layer + last->n_layers == first_layer &&
          last->elements == elements && last->bytes == bytes)
        {
          last->n_layers += n_layers;
          inv->bytes += count * bytes;
          inv->elements += count * elements;
          return;
        }
    }
  g_array_append_val (inv->groups, g);
  inv->bytes += count * bytes;
  inv->elements += count * elements;
}

void
vc_inventory_add (VcInventory  *inv,
                  VcTensorRole  role,
                  int           layer,
                  double        elements,
                  double        bytes)
{
  if (layer < 0)
    vc_inventory_add_layers (inv, role, 0, 0, elements, bytes);
  else
    vc_inventory_add_layers (inv, role, (guint) layer, 1, elements, bytes);
}

static int
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const VcTensorGroup *x = a, *y = b;

  if (x->role != y->role)
    return x->role < y->role ? -1 : 1;
  if (x->first_layer != y->first_layer)
    return x->first_layer < y->first_layer ? -1 : 1;
  if (x->n_layers != y->n_layers)
    return x->n_layers < y->n_layers ? -1 : 1;
  return 0;
}

/* A file's tensors come in any order: one group per role and layer, then runs merged. */
void
vc_inventory_seal (VcInventory *inv)
{
  g_autoptr(GArray) old = NULL;

  g_return_if_fail (inv != NULL);
  g_array_sort (inv->groups, compare_groups);
  old = inv->groups;
  inv->groups = g_array_sized_new (FALSE, FALSE, sizeof (VcTensorGroup), old->len);
  inv->bytes = inv->elements = 0;
  for (guint i = 0; i < old->len;)
    {
      VcTensorGroup g = g_array_index (old, VcTensorGroup, i++);

      /* the tensors of one role in one layer (or outside the layers) add up */
      while (i < old->len && g.n_layers <= 1)
        {
          const VcTensorGroup *n = &g_array_index (old, VcTensorGroup, i);

          if (n->role != g.role || n->first_layer != g.first_layer || n->n_layers != g.n_layers)
            break;
          g.elements += n->elements;
          g.bytes += n->bytes;
          i++;
        }
      vc_inventory_add_layers (inv, g.role, g.first_layer, g.n_layers, g.elements, g.bytes);
    }
}

guint
vc_inventory_get_n_groups (const VcInventory *inv)
{
  return inv->groups->len;
}

const VcTensorGroup *
vc_inventory_get_group (const VcInventory *inv,
                        guint              i)
{
  g_return_val_if_fail (i < inv->groups->len, NULL);
  return &g_array_index (inv->groups, VcTensorGroup, i);
}

guint
vc_inventory_get_n_layers (const VcInventory *inv)
{
  return inv->n_layers;
}

double
vc_inventory_bytes (const VcInventory *inv)
{
  return inv->bytes;
}

double
vc_inventory_elements (const VcInventory *inv)
{
  return inv->elements;
}

double
vc_inventory_role_bytes (const VcInventory *inv,
                         VcTensorRole       role)
{
  double bytes = 0;

  for (guint i = 0; i < inv->groups->len; i++)
    {
      const VcTensorGroup *g = &g_array_index (inv->groups, VcTensorGroup, i);

      if (g->role == role)
        bytes += MAX (1u, g->n_layers) * g->bytes;
    }
  return bytes;
}

VcTensorSplit
vc_tensor_role_split (VcTensorRole role)
{
  switch (role)
    {
    case VC_TENSOR_EMBEDDING:
    case VC_TENSOR_HEAD:
      return VC_SPLIT_VOCAB;
    case VC_TENSOR_ATTENTION:
    case VC_TENSOR_MLP:
    case VC_TENSOR_RECURRENT:
      return VC_SPLIT_TP;
    case VC_TENSOR_ATTENTION_KV:
      return VC_SPLIT_KV_HEADS;
    case VC_TENSOR_EXPERTS:
      return VC_SPLIT_EXPERTS;
    case VC_TENSOR_POSITIONS:
    case VC_TENSOR_ENCODER:
    case VC_TENSOR_LATENT:
    case VC_TENSOR_ROUTER:
    case VC_TENSOR_NORM:
    case VC_TENSOR_OUTPUT_NORM:
    case VC_TENSOR_MTP:
    case VC_TENSOR_OTHER:
    default:
      return VC_SPLIT_REPLICATED;
    }
}

const char *
vc_tensor_role_id (VcTensorRole role)
{
  static const char *ids[] = {
    "embedding", "positions", "encoder", "attention", "attention-kv", "latent", "mlp", "experts",
    "router", "norm", "recurrent", "output-norm", "head", "mtp", "other",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (ids) == VC_N_TENSOR_ROLES);
  g_return_val_if_fail (role < VC_N_TENSOR_ROLES, "other");
  return ids[role];
}

/* ---- an architecture's tensors ------------------------------------------------------------ */

typedef struct
{
  VcInventory *inv;               /* NULL: the total alone */
  double lb, ob;                  /* bytes of a linear weight, of anything else */
  double bytes;
} ArchBuild;

static void
add_run (ArchBuild    *b,
         VcTensorRole  role,
         guint         first,
         guint         n,
         double        linear,
         double        other)
{
  if (n == 0 || linear + other <= 0)
    return;
  b->bytes += n * (linear * b->lb + other * b->ob);
  if (b->inv)
    vc_inventory_add_layers (b->inv, role, first, n, linear + other, linear * b->lb + other * b->ob);
}

static void
add_outside (ArchBuild    *b,
             VcTensorRole  role,
             double        linear,
             double        other)
{
  if (linear + other <= 0)
    return;
  b->bytes += linear * b->lb + other * b->ob;
  if (b->inv)
    vc_inventory_add (b->inv, role, -1, linear + other, linear * b->lb + other * b->ob);
}

static double
norm_width (const VcArch *a,
            double        width)
{
  return a->norm == VC_NORM_LAYER ? 2.0 * width : width;
}

static void
add_attention (ArchBuild    *b,
               const VcArch *a,
               guint         first,
               guint         n)
{
  double h = a->hidden_size, heads = a->n_heads, kv = a->n_kv_heads, d = vc_arch_head_dim (a);

  if (vc_arch_is_mla (a))
    {
      double qk = (double) a->qk_nope_head_dim + a->qk_rope_head_dim;
      double latent = h * ((double) a->kv_lora_rank + a->qk_rope_head_dim);
      double latent_norms = a->kv_lora_rank;
      double up = (double) a->kv_lora_rank * heads * ((double) a->qk_nope_head_dim + a->v_head_dim) +
                  heads * a->v_head_dim * h;

      if (a->q_lora_rank > 0)
        {
          latent += h * a->q_lora_rank;
          latent_norms += a->q_lora_rank;
          up += (double) a->q_lora_rank * heads * qk;
        }
      else
        up += h * heads * qk;
      add_run (b, VC_TENSOR_LATENT, first, n, latent, latent_norms);
      add_run (b, VC_TENSOR_ATTENTION, first, n, up, 0);
      return;
    }
  add_run (b, VC_TENSOR_ATTENTION, first, n,
           2.0 * h * heads * d + (a->gated_attention ? h * heads * d : 0),
           (a->qkv_bias ? heads * d : 0) + (a->attention_sinks ? heads : 0));
  add_run (b, VC_TENSOR_ATTENTION_KV, first, n, 2.0 * h * kv * d, a->qkv_bias ? 2.0 * kv * d : 0);
  add_run (b, VC_TENSOR_NORM, first, n, 0, (a->o_bias ? h : 0) + (a->qk_norm ? (a->qk_norm_full ? (heads + kv) * d : 2.0 * d) : 0));
}

/* The attention and the recurrent mixers of @a's layers: where only some layers hold a mixer
 * and the attention-layer pattern says which (vc_arch_stage_kinds()), at their places; where it
 * is not known, attention in the first layers and the mixers in the last (the same
 * busiest-first convention as the sliding-window layers' in vc-layout.c) */
static void
add_mixer_layers (ArchBuild    *b,
                  const VcArch *a,
                  guint         L_attn,
                  guint         L_rec)
{
  guint L = a->n_layers, p = a->attention_layer_period, next = 0;
  double attention, mixers;

  if (L_rec == 0 || L_attn + L_rec > L || !vc_arch_stage_kinds (a, 0, L, &attention, &mixers))
    {
      add_attention (b, a, 0, L_attn);
      add_run (b, VC_TENSOR_RECURRENT, L - L_rec, L_rec, a->recurrent_params, 0);
      return;
    }
  /* layers next … at - 1 hold a mixer, layer at attention */
  for (guint at = a->attention_layer_offset; at < L; at += p)
    {
      add_run (b, VC_TENSOR_RECURRENT, next, at - next, a->recurrent_params, 0);
      add_attention (b, a, at, 1);
      next = at + 1;
    }
  add_run (b, VC_TENSOR_RECURRENT, next, L - next, a->recurrent_params, 0);
}

static void
build_arch (ArchBuild    *b0,
            const VcArch *a)
{
  ArchBuild *b = b0;
  double h = a->hidden_size, V = a->vocab_size;
  guint L = a->n_layers;
  guint L_attn = vc_arch_attention_layers (a);
  guint L_rec = MIN (a->recurrent_layers, L);
  gboolean moe = vc_arch_is_moe (a);
  guint n_dense = moe ? MIN (a->dense_layers, L) : L;
  double gate = a->gated_mlp ? 3.0 : 2.0;

  add_outside (b, VC_TENSOR_EMBEDDING, 0, V * h);
  add_outside (b, VC_TENSOR_POSITIONS, 0, (double) a->max_positions * h);
  add_outside (b, VC_TENSOR_ENCODER, 0, a->encoder_params);

  add_mixer_layers (b, a, L_attn, L_rec);
  add_run (b, VC_TENSOR_NORM, 0, L, 0, a->norms_per_layer * norm_width (a, h));

  if (n_dense > 0)
    {
      double I = a->intermediate_size;

      add_run (b, VC_TENSOR_MLP, 0, n_dense, gate * h * I, a->mlp_bias ? (a->gated_mlp ? 2.0 : 1.0) * I : 0);
      add_run (b, VC_TENSOR_NORM, 0, n_dense, 0, a->mlp_bias ? h : 0);
    }
  if (L > n_dense)
    {
      double E = a->n_experts;
      double e = a->expert_intermediate_size ? a->expert_intermediate_size : a->intermediate_size;
      double s = a->shared_intermediate_size ? a->shared_intermediate_size : a->n_shared_experts * e;
      double e_bias = a->mlp_bias ? (a->gated_mlp ? 2.0 : 1.0) * e + h : 0;
      guint n_moe = L - n_dense;

      add_run (b, VC_TENSOR_EXPERTS, n_dense, n_moe, E * gate * h * e, E * e_bias);
      add_run (b, VC_TENSOR_ROUTER, n_dense, n_moe, h * E + (a->shared_expert_gate && s > 0 ? h : 0),
               a->router_bias ? E : 0);
      if (s > 0)
        {
          add_run (b, VC_TENSOR_MLP, n_dense, n_moe, gate * h * s, a->mlp_bias ? (a->gated_mlp ? 2.0 : 1.0) * s : 0);
          add_run (b, VC_TENSOR_NORM, n_dense, n_moe, 0, a->mlp_bias ? h : 0);
        }
    }

  add_outside (b, VC_TENSOR_OUTPUT_NORM, 0, norm_width (a, h));
  if (!a->tied_embeddings)
    add_outside (b, VC_TENSOR_HEAD, 0, V * h);
}

VcInventory *
vc_inventory_new_for_arch (const VcArch *a,
                           double        linear_bytes,
                           double        other_bytes)
{
  ArchBuild b = { vc_inventory_new (a), linear_bytes, other_bytes, 0 };

  build_arch (&b, a);
  return b.inv;
}

/* vc_inventory_new_for_arch()'s total, without building it */
double
vc_inventory_arch_bytes (const VcArch *a,
                         double        linear_bytes,
                         double        other_bytes)
{
  ArchBuild b = { NULL, linear_bytes, other_bytes, 0 };

  build_arch (&b, a);
  return b.bytes;
}

VcInventory *
vc_inventory_new_scaled (const VcInventory *inv,
                         double             factor)
{
  VcInventory *out = g_new0 (VcInventory, 1);

  *out = *inv;
  g_atomic_ref_count_init (&out->ref_count);
  out->groups = g_array_copy (inv->groups);
  out->bytes = 0;
  for (guint i = 0; i < out->groups->len; i++)
    {
      VcTensorGroup *g = &g_array_index (out->groups, VcTensorGroup, i);

      g->bytes *= factor;
      out->bytes += MAX (1u, g->n_layers) * g->bytes;
    }
  return out;
}

/* ---- tensors by name ---------------------------------------------------------------------- */

/* "blk.12.attn_q.weight" → 12 and "attn_q.weight"; -1 when the name has no layer prefix */
static int
split_layer (const char  *name,
             const char  *prefix,
             const char **rest)
{
  const char *p = strstr (name, prefix);
  char *end;
  guint64 layer;

  if (p == NULL)
    return -1;
  p += strlen (prefix);
  if (!g_ascii_isdigit (*p))
    return -1;
  layer = g_ascii_strtoull (p, &end, 10);
  if (*end != '.' || layer > G_MAXINT)
    return -1;
  *rest = end + 1;
  return (int) layer;
}

static gboolean
has (const char *s,
     const char *part)
{
  return strstr (s, part) != NULL;
}

VcTensorRole
vc_tensor_role_for_gguf_name (const char *name,
                              guint       n_layers,
                              int        *layer)
{
  const char *t = NULL;

  *layer = split_layer (name, "blk.", &t);
  if (*layer < 0)
    {
      if (g_str_has_prefix (name, "token_embd.") || g_str_has_prefix (name, "per_layer_token_embd."))
        return VC_TENSOR_EMBEDDING;
      if (g_str_has_prefix (name, "position_embd.") || g_str_has_prefix (name, "token_types."))
        return VC_TENSOR_POSITIONS;
      if (g_str_has_prefix (name, "output_norm."))
        return VC_TENSOR_OUTPUT_NORM;
      if (g_str_has_prefix (name, "output."))
        return VC_TENSOR_HEAD;
      if (g_str_has_prefix (name, "v.") || g_str_has_prefix (name, "mm.") || g_str_has_prefix (name, "a."))
        return VC_TENSOR_ENCODER;
      return VC_TENSOR_OTHER;
    }
  if ((guint) *layer >= n_layers || has (t, "nextn."))
    return VC_TENSOR_MTP;
  /* llama-arch.cpp's names */
  if (has (t, "_exps."))
    return VC_TENSOR_EXPERTS;
  if (has (t, "ffn_gate_inp") || has (t, "exp_probs_b"))
    return VC_TENSOR_ROUTER;
  if (has (t, "_norm.") || g_str_has_prefix (t, "layer_output_scale"))
    return VC_TENSOR_NORM;
  if (g_str_has_prefix (t, "attn_q_a.") || g_str_has_prefix (t, "attn_kv_a_mqa."))
    return VC_TENSOR_LATENT;
  if (g_str_has_prefix (t, "attn_k.") || g_str_has_prefix (t, "attn_v."))
    return VC_TENSOR_ATTENTION_KV;
  if (g_str_has_prefix (t, "attn_output.bias") || g_str_has_prefix (t, "ffn_down.bias") ||
      g_str_has_prefix (t, "ffn_down_shexp.bias"))
    return VC_TENSOR_NORM;
  if (g_str_has_prefix (t, "attn_"))
    return VC_TENSOR_ATTENTION;
  if (g_str_has_prefix (t, "ffn_"))
    return VC_TENSOR_MLP;
  if (g_str_has_prefix (t, "ssm_") || g_str_has_prefix (t, "time_mix_") || g_str_has_prefix (t, "channel_mix_") ||
      g_str_has_prefix (t, "shortconv"))
    return VC_TENSOR_RECURRENT;
  return VC_TENSOR_NORM;
}

VcTensorRole
vc_tensor_role_for_hf_name (const char *name,
                            guint       n_layers,
                            int        *layer)
{
  static const char *layer_prefixes[] = { ".layers.", ".h.", ".blocks.", ".layer.", NULL };
  static const char *encoders[] = { "vision_tower", "vision_model", "visual.", "multi_modal_projector",
                                    "mm_projector", "audio_tower", "vision_encoder", "image_newline",
                                    "vision_embed", "embed_vision", "embed_audio", "audio_model", NULL };
  const char *t = NULL;

  for (guint i = 0; encoders[i]; i++)
    if (has (name, encoders[i]))
      {
        *layer = -1;
        return VC_TENSOR_ENCODER;
      }
  *layer = -1;
  for (guint i = 0; layer_prefixes[i] && *layer < 0; i++)
    *layer = split_layer (name, layer_prefixes[i], &t);
  if (*layer < 0)
    {
      if (has (name, "embed_tokens") || has (name, ".wte.") || has (name, "tok_embeddings") ||
          has (name, "word_embeddings") || has (name, "embedding.weight"))
        return VC_TENSOR_EMBEDDING;
      if (has (name, ".wpe.") || has (name, "position_embeddings"))
        return VC_TENSOR_POSITIONS;
      if (g_str_has_prefix (name, "lm_head") || has (name, "embed_out") || g_str_has_prefix (name, "output."))
        return VC_TENSOR_HEAD;
      if (has (name, "mtp"))
        return VC_TENSOR_MTP;
      if (has (name, "norm") || has (name, "ln_f"))
        return VC_TENSOR_OUTPUT_NORM;
      return VC_TENSOR_OTHER;
    }
  if ((guint) *layer >= n_layers)
    return VC_TENSOR_MTP;
  if ((has (t, "experts.") || has (t, "experts_")) && !has (t, "shared_expert"))
    return VC_TENSOR_EXPERTS;
  if (has (t, ".gate.weight") || has (t, ".gate.bias") || has (t, ".router.") || has (t, "e_score_correction_bias") ||
      has (t, "shared_expert_gate") || g_str_has_suffix (t, ".gate.e_score_correction_bias"))
    return VC_TENSOR_ROUTER;
  if (has (t, "q_a_proj") || has (t, "kv_a_proj") || has (t, "q_a_layernorm") || has (t, "kv_a_layernorm"))
    return VC_TENSOR_LATENT;
  if (has (t, "norm") || has (t, "ln_"))
    return VC_TENSOR_NORM;
  if (has (t, "mixer.") || has (t, "linear_attn.") || has (t, "mamba.") || has (t, "ssm."))
    return VC_TENSOR_RECURRENT;
  if (has (t, "k_proj.") || has (t, "v_proj."))
    return VC_TENSOR_ATTENTION_KV;
  if ((has (t, "o_proj.bias") || has (t, "dense.bias") || has (t, "down_proj.bias") || has (t, "c_proj.bias")))
    return VC_TENSOR_NORM;
  if (has (t, "attn") || has (t, "attention") || has (t, "sinks"))
    return VC_TENSOR_ATTENTION;
  if (has (t, "mlp") || has (t, "feed_forward") || has (t, "ffn") || has (t, "shared_expert"))
    return VC_TENSOR_MLP;
  return VC_TENSOR_NORM;
}

/* ---- partition ---------------------------------------------------------------------------- */

static double
split_share (const VcInventory *inv,
             VcTensorRole       role,
             const VcShard     *s)
{
  double tp = MAX (1u, s->tp);

  switch (vc_tensor_role_split (role))
    {
    case VC_SPLIT_TP:
      return 1.0 / tp;
    case VC_SPLIT_KV_HEADS:
      return inv->kv_heads > 0 ? 1.0 / MIN (tp, (double) inv->kv_heads) : 1.0 / tp;
    case VC_SPLIT_VOCAB:
      return ceil (inv->vocab_size / tp) / inv->vocab_size;
    case VC_SPLIT_EXPERTS:
      return s->ep > 1 ? 1.0 / s->ep : 1.0 / tp;
    case VC_SPLIT_REPLICATED:
    default:
      /* an engine that builds the encoder tensor-parallel divides that share of it */
      if (role == VC_TENSOR_ENCODER && s->encoder_split > 0)
        return 1.0 - s->encoder_split + s->encoder_split / tp;
      return 1.0;
    }
}

static gboolean
role_counted (const VcShard *s,
              VcTensorRole   role)
{
  return s->roles == 0 || (s->roles & VC_TENSOR_ROLE_BIT (role)) != 0;
}

/* Group `g`'s bytes on shard `s` (its roles aside); FALSE when none of its tensors are there */
static inline gboolean
group_shard_bytes (const VcInventory   *inv,
                   const VcTensorGroup *g,
                   const VcShard       *s,
                   double              *bytes)
{
  guint last = s->first_layer + s->n_layers;
  double count;

  if (g->role == VC_TENSOR_MTP)
    count = s->output ? MAX (1u, g->n_layers) : 0;
  else if (role_in_layers (g->role) && g->n_layers > 0)
    {
      guint lo = MAX (g->first_layer, s->first_layer);
      guint hi = MIN (g->first_layer + g->n_layers, last);

      count = hi > lo ? hi - lo : 0;
    }
  else if (g->role == VC_TENSOR_OUTPUT_NORM || g->role == VC_TENSOR_HEAD)
    count = s->output ? 1 : 0;
  else
    count = s->input ? 1 : 0;
  if (count <= 0)
    return FALSE;
  *bytes = count * g->bytes * split_share (inv, g->role, s);
  return TRUE;
}

double
vc_inventory_shard_bytes (const VcInventory *inv,
                          const VcShard     *s)
{
  double bytes = 0, b;

  g_return_val_if_fail (inv != NULL && s != NULL, 0);
  for (guint i = 0; i < inv->groups->len; i++)
    {
      const VcTensorGroup *g = &g_array_index (inv->groups, VcTensorGroup, i);

      if (role_counted (s, g->role) && group_shard_bytes (inv, g, s, &b))
        bytes += b;
    }
  if (s->embedding_copy && role_counted (s, VC_TENSOR_HEAD))
    bytes += vc_inventory_role_bytes (inv, VC_TENSOR_EMBEDDING) * split_share (inv, VC_TENSOR_HEAD, s);
  return bytes;
}

/**
 * vc_inventory_shard_bytes_experts:
 * @experts: (out): what vc_inventory_shard_bytes() gives @shard with its roles the routed
 *   experts alone (and no embedding copy)
 *
 * vc_inventory_shard_bytes() of @shard, and of its routed experts, in one pass over the
 * tensors: the same sums, added in the same order. A layout's stage asks for both.
 */
double
vc_inventory_shard_bytes_experts (const VcInventory *inv,
                                  const VcShard     *s,
                                  double            *experts)
{
  double bytes = 0, b;

  g_return_val_if_fail (inv != NULL && s != NULL && experts != NULL, 0);
  *experts = 0;
  for (guint i = 0; i < inv->groups->len; i++)
    {
      const VcTensorGroup *g = &g_array_index (inv->groups, VcTensorGroup, i);
      gboolean counted = role_counted (s, g->role);

      if ((counted || g->role == VC_TENSOR_EXPERTS) && group_shard_bytes (inv, g, s, &b))
        {
          if (counted)
            bytes += b;
          if (g->role == VC_TENSOR_EXPERTS)
            *experts += b;
        }
    }
  if (s->embedding_copy && role_counted (s, VC_TENSOR_HEAD))
    bytes += vc_inventory_role_bytes (inv, VC_TENSOR_EMBEDDING) * split_share (inv, VC_TENSOR_HEAD, s);
  return bytes;
}
