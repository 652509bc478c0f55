/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-mmproj.c: a multimodal projector file (llama.cpp's --mmproj), read from its GGUF header. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "vc-error.h"
#include "vc-gguf.h"
#include "vc-llama-graph.h"
#include "vc-mmproj.h"

/* llama.cpp's tools/mtmd/clip-impl.h (ggml-org/llama.cpp a449251), PROJECTOR_TYPE_NAMES: the
 * projector types clip_projector_type_from_string() knows; any other is PROJECTOR_TYPE_UNKNOWN,
 * which clip_model_loader refuses ("unknown projector type") */
static const char *const projectors[] = {
  "mlp", "ldp", "ldpv2", "resampler", "adapter", "qwen2vl_merger", "qwen2.5vl_merger",
  "qwen3vl_merger", "eagle2vl", "gemma3", "idefics3", "pixtral", "ultravox", "internvl", "llama4",
  "qwen2a", "glma", "qwen2.5o", "voxtral", "lfm2", "kimivl", "lightonocr", "cogvlm", "janus_pro",
  "lfm2a", "glm4v", NULL,
};

void
vc_mmproj_clear (VcMmproj *mmproj)
{
  g_clear_pointer (&mmproj->projector, g_free);
  memset (mmproj, 0, sizeof *mmproj);
}

/* projector: one type, or the vision and audio types of a file of both joined by '+' */
gboolean
vc_mmproj_projector_known (const char *projector)
{
  g_auto(GStrv) parts = NULL;

  if (projector == NULL || *projector == '\0')
    return FALSE;
  parts = g_strsplit (projector, "+", 3);
  if (g_strv_length (parts) > 2)
    return FALSE;
  for (guint i = 0; parts[i] != NULL; i++)
    if (!g_strv_contains (projectors, parts[i]))
      return FALSE;
  return TRUE;
}

static gboolean
get_bool (VcGguf     *g,
          const char *key)
{
  const VcGgufValue *v = vc_gguf_get (g, key);

  return v != NULL && v->kind == VC_GGUF_VALUE_BOOL && v->u != 0;
}

/* clip.projector_type, or for a file of two modalities clip.vision.projector_type and
 * clip.audio.projector_type (clip_model_loader reads the latter when the former is absent) */
static gboolean
read_projector (VcMmproj    *out,
                VcGguf      *g,
                const char  *shown,
                GError     **error)
{
  static const char *const keys[] = { "clip.projector_type", "clip.vision.projector_type",
                                      "clip.audio.projector_type" };
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *type = vc_gguf_get_string (g, keys[i]);

      if (type == NULL)
        continue;
      if (!g_strv_contains (projectors, type))
        {
          g_autofree char *accepted = g_strjoinv (", ", (char **) projectors);

          return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                                   _("%s “%s” is not a projector type llama.cpp knows; accepted: %s"),
                                   keys[i], type, accepted);
        }
      if (names->len > 0)
        g_string_append_c (names, '+');
      g_string_append (names, type);
      if (i == 0)
        break;
    }
  if (names->len == 0)
    return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                             _("the projector file names no projector type (clip.projector_type)"));
  out->projector = g_string_free (g_steal_pointer (&names), FALSE);
  return TRUE;
}

static const VcGgufTensor *
find_tensor (VcGguf     *g,
             const char *name)
{
  for (guint i = 0; i < g->tensors->len; i++)
    {
      const VcGgufTensor *t = g_ptr_array_index (g->tensors, i);

      if (g_str_equal (t->name, name))
        return t;
    }
  return NULL;
}

static gboolean
has_tensor (VcGguf     *g,
            const char *name)
{
  return find_tensor (g, name) != NULL;
}

/* Whether `name` is `prefix`, a layer number, a dot and one of `parts` ("v.blk.7.ln1.weight") */
static gboolean
numbered_part_in (const char        *name,
                  const char        *prefix,
                  const char *const *parts)
{
  const char *rest;

  if (!g_str_has_prefix (name, prefix))
    return FALSE;
  rest = name + strlen (prefix);
  while (g_ascii_isdigit (*rest))
    rest++;
  return *rest == '.' && g_strv_contains (parts, rest + 1);
}

/* every tensor is one the SigLIP graph below uses: v.blk.N's separate q, k, v, output, the two
 * LayerNorms and the GELU feed-forward block; the patch kernel, positions, pre- and post-norm;
 * the projector's own (`mm`). Any other (a fused qkv, q/k norms, a gate, layer scales, a second
 * patch kernel, a projector tensor its type does not load) is a graph not followed. */
static gboolean
siglip_tensors_only (VcGguf            *g,
                     const char *const *mm)
{
  static const char *const top[] = {
    "v.patch_embd.weight", "v.patch_embd.bias", "v.position_embd.weight", "v.pre_ln.weight",
    "v.pre_ln.bias", "v.post_ln.weight", "v.post_ln.bias", NULL,
  };
  static const char *const block[] = {
    "attn_q.weight", "attn_q.bias", "attn_k.weight", "attn_k.bias", "attn_v.weight", "attn_v.bias",
    "attn_out.weight", "attn_out.bias", "ln1.weight", "ln1.bias", "ln2.weight", "ln2.bias",
    "ffn_up.weight", "ffn_up.bias", "ffn_down.weight", "ffn_down.bias", NULL,
  };

  for (guint i = 0; i < g->tensors->len; i++)
    {
      const char *name = ((const VcGgufTensor *) g_ptr_array_index (g->tensors, i))->name;

      if (g_strv_contains (top, name) || g_strv_contains (mm, name))
        continue;
      if (!numbered_part_in (name, "v.blk.", block))
        return FALSE;
    }
  return TRUE;
}

static guint
get_u32 (VcGguf     *g,
         const char *key,
         guint       fallback)
{
  guint64 v;

  return vc_gguf_get_uint (g, key, &v) && v <= G_MAXUINT ? (guint) v : fallback;
}

/* a 2-D projector matrix of ne [in, out] (a known in, or any when in is 0); its out */
static guint
matrix_out (VcGguf     *g,
            const char *name,
            guint       in)
{
  const VcGgufTensor *t = find_tensor (g, name);

  if (t == NULL || t->n_dims != 2 || (in != 0 && t->dims[0] != in) || t->dims[1] > G_MAXUINT)
    return 0;
  return (guint) t->dims[1];
}

/* the learned positions resized to the warm-up image's grid (resize_position_embeddings:
 * unchanged when the table's side, the square root of its rows, is the grid's; ggml_interpolate
 * takes f32 only) */
static gboolean
resize_positions (VcGguf      *g,
                  VcClipGraph *p)
{
  const VcGgufTensor *pos = find_tensor (g, "v.position_embd.weight");
  guint side = p->image_size / p->patch_size, n = 0;

  if (pos == NULL || pos->n_dims != 2 || pos->dims[0] != p->n_embd || pos->dims[1] > G_MAXUINT)
    return FALSE;
  while ((guint64) (n + 1) * (n + 1) <= pos->dims[1])
    n++;
  if ((guint64) n * n != pos->dims[1])
    return FALSE;
  if (n != side)
    p->pos_side = n;
  return n == side || pos->type == 0;
}

/* lfm2 (tools/mtmd/models/siglip.cpp): mm.input_norm weight and bias optional, mm.1 and mm.2
 * with their biases; n_merge clip.vision.projector.scale_factor, above 1
 * (build_patch_merge_permute asserts it); load_hparams' set_limit_image_tokens (64, 256) makes
 * the warm-up image sqrt (256 · patch² · n_merge²) = 16 · patch · n_merge a side; the positions
 * resized to its grid */
static gboolean
lfm2_projector (VcGguf      *g,
                VcClipGraph *p)
{
  static const char *const lfm2[] = { "mm.input_norm.weight", "mm.input_norm.bias", "mm.1.weight", "mm.1.bias",
                                      "mm.2.weight", "mm.2.bias", NULL };

  p->projector = VC_CLIP_LFM2;
  p->n_merge = get_u32 (g, "clip.vision.projector.scale_factor", 1);
  if (p->n_merge < 2 || p->n_merge > 64 || p->patch_size == 0 || p->patch_size > 4096)
    return FALSE;
  p->image_size = 16 * p->patch_size * p->n_merge;
  p->in_norm = has_tensor (g, "mm.input_norm.weight");
  p->in_norm_bias = has_tensor (g, "mm.input_norm.bias");
  p->proj_hidden = matrix_out (g, "mm.1.weight", p->n_embd * p->n_merge * p->n_merge);
  p->proj_dim = matrix_out (g, "mm.2.weight", p->proj_hidden);
  return p->proj_hidden != 0 && p->proj_dim != 0 && has_tensor (g, "mm.1.bias") && has_tensor (g, "mm.2.bias") &&
         resize_positions (g, p) && siglip_tensors_only (g, lfm2);
}

/* siglip.cpp's projectors (the tensors clip_model_loader::load_tensors requires for each):
 * gemma3 mm.input_projection.weight (F32/F16/BF16: its transpose is copied in its own type) and
 * mm.soft_emb_norm.weight, n_merge 4 unless clip.vision.projector.scale_factor; idefics3
 * mm.model.fc.weight of n_embd · n_merge² inputs, n_merge clip.vision.projector.scale_factor (1
 * unless given: build_patch_merge_permute asserts it above 1), the patch grid divisible by it (no
 * ggml_pad); janus_pro mm.0 and mm.1 with their biases; lfm2 above */
static gboolean
siglip_projector (VcGguf      *g,
                  const char  *projector,
                  VcClipGraph *p)
{
  static const char *const gemma3[] = { "mm.soft_emb_norm.weight", "mm.input_projection.weight", NULL };
  static const char *const idefics3[] = { "mm.model.fc.weight", NULL };
  static const char *const janus[] = { "mm.0.weight", "mm.0.bias", "mm.1.weight", "mm.1.bias", NULL };
  const VcGgufTensor *proj = find_tensor (g, "mm.input_projection.weight");
  guint side = p->patch_size != 0 ? p->image_size / p->patch_size : 0;

  if (g_str_equal (projector, "gemma3"))
    {
      p->projector = VC_CLIP_GEMMA3;
      p->n_merge = get_u32 (g, "clip.vision.projector.scale_factor", 4);
      if (proj == NULL || proj->n_dims != 2 || proj->dims[1] != p->n_embd || proj->dims[0] > G_MAXUINT ||
          !has_tensor (g, "mm.soft_emb_norm.weight") ||
          (proj->type != 0 && proj->type != 1 && proj->type != 30))   /* F32, F16, BF16 */
        return FALSE;
      p->proj_dim = (guint) proj->dims[0];
      p->proj_f32 = proj->type == 0;
      return siglip_tensors_only (g, gemma3);
    }
  if (g_str_equal (projector, "idefics3"))
    {
      p->projector = VC_CLIP_IDEFICS3;
      p->n_merge = get_u32 (g, "clip.vision.projector.scale_factor", 1);
      if (p->n_merge < 2 || side % p->n_merge != 0)
        return FALSE;
      p->proj_dim = matrix_out (g, "mm.model.fc.weight", p->n_embd * p->n_merge * p->n_merge);
      return p->proj_dim != 0 && siglip_tensors_only (g, idefics3);
    }
  if (g_str_equal (projector, "janus_pro"))
    {
      p->projector = VC_CLIP_JANUS_PRO;
      p->n_merge = 1;
      p->proj_hidden = matrix_out (g, "mm.0.weight", p->n_embd);
      p->proj_dim = matrix_out (g, "mm.1.weight", p->proj_hidden);
      return p->proj_hidden != 0 && p->proj_dim != 0 && has_tensor (g, "mm.0.bias") &&
             has_tensor (g, "mm.1.bias") && siglip_tensors_only (g, janus);
    }
  if (g_str_equal (projector, "lfm2"))
    return lfm2_projector (g, p);
  return FALSE;
}

/* The tower's sizes every graph reads (clip_model_loader::load_hparams) */
static void
tower_sizes (VcGguf      *g,
             VcClipGraph *p)
{
  p->patch_size = get_u32 (g, "clip.vision.patch_size", 0);
  p->n_embd = get_u32 (g, "clip.vision.embedding_length", 0);
  p->n_head = get_u32 (g, "clip.vision.attention.head_count", 0);
  p->n_ff = get_u32 (g, "clip.vision.feed_forward_length", 0);
  p->n_layer = get_u32 (g, "clip.vision.block_count", 0);
}

/* Which of the optional pre- and post-norms and first block's biases the file holds
 * (clip_model_loader::load_tensors takes each as optional; the graphs add the ones present) */
static void
tower_norms_and_biases (VcGguf      *g,
                        VcClipGraph *p)
{
  p->pre_ln = has_tensor (g, "v.pre_ln.weight");
  p->pre_ln_bias = has_tensor (g, "v.pre_ln.bias");
  p->post_ln = has_tensor (g, "v.post_ln.weight");
  p->post_ln_bias = has_tensor (g, "v.post_ln.bias");
  p->q_bias = has_tensor (g, "v.blk.0.attn_q.bias");
  p->k_bias = has_tensor (g, "v.blk.0.attn_k.bias");
  p->v_bias = has_tensor (g, "v.blk.0.attn_v.bias");
  p->o_bias = has_tensor (g, "v.blk.0.attn_out.bias");
  p->ln1_bias = has_tensor (g, "v.blk.0.ln1.bias");
  p->ln2_bias = has_tensor (g, "v.blk.0.ln2.bias");
  p->up_bias = has_tensor (g, "v.blk.0.ffn_up.bias");
}

/* The graph clip.cpp builds for a projector on SigLIP (clip_get_graph_builder:
 * clip_graph_siglip; its phi4, which the projector types read here do not include, is not) from the
 * file's clip.vision.* keys and tensors, as clip_model_loader reads them (load_hparams: n_head_kv
 * defaults to n_head, head_dim to n_embd / n_head, the warm-up image to image_size); FALSE when
 * the file is not that graph. */
static gboolean
siglip_graph (VcGguf      *g,
              const char  *projector,
              VcClipGraph *p)
{
  const VcGgufTensor *patch = find_tensor (g, "v.patch_embd.weight");

  memset (p, 0, sizeof *p);
  p->image_size = get_u32 (g, "clip.vision.image_size", 0);
  tower_sizes (g, p);
  if (patch == NULL || !siglip_projector (g, projector, p) || p->n_head == 0 ||
      get_u32 (g, "clip.vision.attention.head_count_kv", p->n_head) != p->n_head)
    return FALSE;
  p->head_dim = get_u32 (g, "clip.vision.attention.head_dim", p->n_embd / p->n_head);
  p->patch_f32 = patch->type == 30;
  p->patch_bias = has_tensor (g, "v.patch_embd.bias");
  p->pos_embd = has_tensor (g, "v.position_embd.weight");
  tower_norms_and_biases (g, p);
  p->down_bias = has_tensor (g, "v.blk.0.ffn_down.bias");
  p->alignment = 32;
  return p->head_dim * p->n_head == p->n_embd;
}

/* every tensor is one clip_graph_qwen2vl uses (qwen2vl.cpp; clip_model_loader::load_tensors:
 * the two patch kernels, the optional pre- and post-norm, v.blk.N's separate q, k, v (the
 * converter splits the fused qkv: conversion/qwenvl.py) with their biases, the output, the two
 * norms, up, gate and down; mm.0 and mm.2 with their biases) */
static gboolean
qwen2vl_tensors_only (VcGguf   *g,
                      gboolean  qwen3)
{
  static const char *const top[] = {
    "v.patch_embd.weight", "v.patch_embd.weight.1", "v.pre_ln.weight", "v.pre_ln.bias", "v.post_ln.weight",
    "v.post_ln.bias", "mm.0.weight", "mm.0.bias", "mm.2.weight", "mm.2.bias", NULL,
  };
  /* qwen3vl.cpp: the patch bias, the positions, a fused qkv, the deepstack mergers */
  static const char *const top3[] = { "v.patch_embd.bias", "v.position_embd.weight", NULL };
  static const char *const block[] = {
    "attn_q.weight", "attn_q.bias", "attn_k.weight", "attn_k.bias", "attn_v.weight", "attn_v.bias",
    "attn_out.weight", "attn_out.bias", "ln1.weight", "ln1.bias", "ln2.weight", "ln2.bias",
    "ffn_up.weight", "ffn_up.bias", "ffn_gate.weight", "ffn_gate.bias", "ffn_down.weight", "ffn_down.bias", NULL,
  };
  static const char *const block3[] = {
    "attn_qkv.weight", "attn_qkv.bias", "attn_out.weight", "attn_out.bias", "ln1.weight", "ln1.bias", "ln2.weight",
    "ln2.bias", "ffn_up.weight", "ffn_up.bias", "ffn_down.weight", "ffn_down.bias", NULL,
  };
  static const char *const deepstack[] = {
    "norm.weight", "norm.bias", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", NULL,
  };

  for (guint i = 0; i < g->tensors->len; i++)
    {
      const char *name = ((const VcGgufTensor *) g_ptr_array_index (g->tensors, i))->name;
      const char *prefix = g_str_has_prefix (name, "v.blk.") ? "v.blk." : "v.deepstack.";
      const char *const *names = g_str_has_prefix (name, "v.blk.") ? (qwen3 ? block3 : block) : deepstack;

      if (g_strv_contains (top, name) || (qwen3 && g_strv_contains (top3, name)))
        continue;
      if ((!qwen3 && names == deepstack) || !numbered_part_in (name, prefix, names))
        return FALSE;
    }
  return TRUE;
}

/* qwen3vl (qwen3vl.cpp): the patch bias and the positions are required (GGML_ASSERT), the
 * positions resized when their side is not the grid's (f32 only: ggml_interpolate); q, k and v
 * one fused qkv with its bias; a deepstack merger after block N when the file has
 * v.deepstack.N.fc1.weight (clip_layer::has_deepstack), with its LayerNorm's weight and bias and
 * fc1 and fc2 with their biases, of the main merger's shapes */
static gboolean
qwen3vl_parts (VcGguf      *g,
               VcClipGraph *p)
{
  guint side = p->image_size / p->patch_size;

  p->fused_qkv = TRUE;
  p->q_bias = has_tensor (g, "v.blk.0.attn_qkv.bias");
  p->patch_bias = has_tensor (g, "v.patch_embd.bias");
  if (!p->q_bias || !p->patch_bias || matrix_out (g, "v.blk.0.attn_qkv.weight", p->n_embd) != 3 * p->n_embd ||
      !resize_positions (g, p) || side % 2 != 0 || p->n_layer > 64)
    return FALSE;
  for (guint il = 0; il < p->n_layer; il++)
    {
      g_autofree char *fc1 = g_strdup_printf ("v.deepstack.%u.fc1.weight", il);
      g_autofree char *fc2 = g_strdup_printf ("v.deepstack.%u.fc2.weight", il);
      static const char *const parts[] = { "norm.weight", "norm.bias", "fc1.bias", "fc2.bias" };

      if (!has_tensor (g, fc1))
        continue;
      if (matrix_out (g, fc1, 4 * p->n_embd) != p->proj_hidden || matrix_out (g, fc2, p->proj_hidden) != p->proj_dim)
        return FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
        {
          g_autofree char *name = g_strdup_printf ("v.deepstack.%u.%s", il, parts[i]);

          if (!has_tensor (g, name))
            return FALSE;
        }
      p->deepstack |= G_GUINT64_CONSTANT (1) << il;
    }
  return TRUE;
}

/* qwen2vl_merger and qwen2.5vl_merger (clip_get_graph_builder: clip_graph_qwen2vl) as
 * clip_model_loader reads them (tools/mtmd/clip.cpp, load_hparams): n_merge
 * clip.vision.spatial_merge_size, 2 unless given (the graph groups 2 × 2 patches: any other is not
 * followed); clip.vision.n_wa_pattern (required for qwen2.5vl); set_warmup_n_tokens (46 · 46),
 * so the warm-up image is 46 · patch · n_merge a side; RMSNorm for qwen2.5vl, LayerNorm for
 * qwen2vl; the build asserts there is no patch bias (GGML_ASSERT (model.patch_bias == nullptr)),
 * and ggml_add takes the q, k, v biases and the merger's */
static gboolean
qwen2vl_graph (VcGguf      *g,
               const char  *projector,
               VcClipGraph *p)
{
  const VcGgufTensor *patch = find_tensor (g, "v.patch_embd.weight");
  const VcGgufTensor *patch1 = find_tensor (g, "v.patch_embd.weight.1");
  gboolean v25 = g_str_equal (projector, "qwen2.5vl_merger"), v3 = g_str_equal (projector, "qwen3vl_merger");

  memset (p, 0, sizeof *p);
  if (!v25 && !v3 && !g_str_equal (projector, "qwen2vl_merger"))
    return FALSE;
  p->projector = v3 ? VC_CLIP_QWEN3VL : VC_CLIP_QWEN2VL;
  p->rms_norm = v25;
  tower_sizes (g, p);
  p->n_merge = get_u32 (g, "clip.vision.spatial_merge_size", 2);
  p->n_wa_pattern = get_u32 (g, "clip.vision.n_wa_pattern", 0);
  if (patch == NULL || patch1 == NULL || patch1->type != patch->type || p->n_merge != 2 || p->n_head == 0 ||
      p->patch_size == 0 || p->patch_size > 4096 || (v25 && vc_gguf_get (g, "clip.vision.n_wa_pattern") == NULL) ||
      get_u32 (g, "clip.vision.attention.head_count_kv", p->n_head) != p->n_head ||
      (!v3 && has_tensor (g, "v.patch_embd.bias")) || !qwen2vl_tensors_only (g, v3))
    return FALSE;
  p->image_size = 46 * p->patch_size * p->n_merge;
  p->head_dim = get_u32 (g, "clip.vision.attention.head_dim", p->n_embd / p->n_head);
  p->patch_f32 = patch->type == 30;
  tower_norms_and_biases (g, p);
  p->ffn_gate = has_tensor (g, "v.blk.0.ffn_gate.weight");
  p->gate_bias = has_tensor (g, "v.blk.0.ffn_gate.bias");
  p->down_bias = has_tensor (g, "v.blk.0.ffn_down.bias");
  p->proj_hidden = matrix_out (g, "mm.0.weight", 4 * p->n_embd);
  p->proj_dim = matrix_out (g, "mm.2.weight", p->proj_hidden);
  p->alignment = 32;
  if (v3)
    return p->proj_hidden != 0 && p->proj_dim != 0 && has_tensor (g, "mm.0.bias") && has_tensor (g, "mm.2.bias") &&
           p->head_dim * p->n_head == p->n_embd && qwen3vl_parts (g, p);
  return p->q_bias && p->k_bias && p->v_bias && p->proj_hidden != 0 && p->proj_dim != 0 &&
         has_tensor (g, "mm.0.bias") && has_tensor (g, "mm.2.bias") && p->head_dim * p->n_head == p->n_embd;
}

/* pixtral (clip_graph_pixtral, tools/mtmd/models/pixtral.cpp) as clip_model_loader reads it:
 * n_merge clip.vision.spatial_merge_size, 1 unless given; set_warmup_n_tokens (256): the warm-up
 * image is 16 · patch · n_merge a side; v.token_embd.img_break required; mm.1 and mm.2 with
 * optional biases; Mistral 3's mm.input_norm and mm.patch_merger when present (both, and
 * n_merge above 1, or neither); the blocks RMSNorm, separate q, k, v, a gated feed-forward block */
static gboolean
pixtral_graph (VcGguf      *g,
               const char  *projector,
               VcClipGraph *p)
{
  static const char *const top[] = {
    "v.patch_embd.weight", "v.pre_ln.weight", "v.post_ln.weight", "v.token_embd.img_break", "mm.1.weight",
    "mm.1.bias", "mm.2.weight", "mm.2.bias", "mm.input_norm.weight", "mm.patch_merger.weight", NULL,
  };
  static const char *const block[] = {
    "attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_out.weight", "ln1.weight", "ln2.weight",
    "ffn_gate.weight", "ffn_up.weight", "ffn_down.weight", NULL,
  };
  const VcGgufTensor *patch = find_tensor (g, "v.patch_embd.weight");

  memset (p, 0, sizeof *p);
  if (!g_str_equal (projector, "pixtral") || patch == NULL)
    return FALSE;
  for (guint i = 0; i < g->tensors->len; i++)
    {
      const char *name = ((const VcGgufTensor *) g_ptr_array_index (g->tensors, i))->name;

      if (g_strv_contains (top, name))
        continue;
      if (!numbered_part_in (name, "v.blk.", block))
        return FALSE;
    }
  p->projector = VC_CLIP_PIXTRAL;
  p->rms_norm = TRUE;
  p->ffn_gate = TRUE;
  tower_sizes (g, p);
  p->n_merge = get_u32 (g, "clip.vision.spatial_merge_size", 1);
  p->patch_merger = has_tensor (g, "mm.patch_merger.weight");
  if (p->n_head == 0 || p->patch_size == 0 || p->patch_size > 4096 || p->n_merge == 0 || p->n_merge > 64 ||
      get_u32 (g, "clip.vision.attention.head_count_kv", p->n_head) != p->n_head ||
      p->patch_merger != has_tensor (g, "mm.input_norm.weight") || p->patch_merger != (p->n_merge > 1) ||
      !has_tensor (g, "v.token_embd.img_break") || !has_tensor (g, "v.blk.0.ffn_gate.weight") ||
      (p->patch_merger && matrix_out (g, "mm.patch_merger.weight", p->n_embd * p->n_merge * p->n_merge) != p->n_embd))
    return FALSE;
  p->image_size = 16 * p->patch_size * p->n_merge;
  p->head_dim = get_u32 (g, "clip.vision.attention.head_dim", p->n_embd / p->n_head);
  p->patch_f32 = patch->type == 30;
  p->pre_ln = has_tensor (g, "v.pre_ln.weight");
  p->post_ln = has_tensor (g, "v.post_ln.weight");
  p->mm1_bias = has_tensor (g, "mm.1.bias");
  p->mm2_bias = has_tensor (g, "mm.2.bias");
  p->proj_hidden = matrix_out (g, "mm.1.weight", p->n_embd);
  p->proj_dim = matrix_out (g, "mm.2.weight", p->proj_hidden);
  p->alignment = 32;
  return p->proj_hidden != 0 && p->proj_dim != 0 && p->head_dim * p->n_head == p->n_embd;
}

static void
read_compute (VcMmproj *out,
              VcGguf   *g)
{
  VcClipGraph p;

  if (!out->vision || out->audio || (!siglip_graph (g, out->projector, &p) && !qwen2vl_graph (g, out->projector, &p) &&
                                           !pixtral_graph (g, out->projector, &p)))
    return;
  out->compute_bytes = (guint64) vc_llama_graph_clip_bytes (&p);
  p.flash_attn = TRUE;
  out->compute_bytes_fa = (guint64) vc_llama_graph_clip_bytes (&p);
}

gboolean
vc_mmproj_read (VcMmproj      *out,
                GFile         *file,
                GCancellable  *cancellable,
                GError       **error)
{
  g_auto(VcGguf) g = { 0 };
  g_autofree char *shown = g_file_get_parse_name (file);
  const char *arch, *type;

  memset (out, 0, sizeof *out);
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable) == G_FILE_TYPE_DIRECTORY)
    return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                             _("this is a folder; a projector is one .gguf file (mmproj-….gguf)"));
  vc_gguf_init (&g);
  if (!vc_gguf_read (&g, file, cancellable, error))
    return FALSE;
  /* the converter's MmprojModel writes general.type "mmproj" and general.architecture "clip"
   * (convert_hf_to_gguf.py; gguf-py GGUFType.MMPROJ) */
  arch = vc_gguf_get_string (&g, "general.architecture");
  type = vc_gguf_get_string (&g, "general.type");
  if ((type != NULL && !g_str_equal (type, "mmproj")) || arch == NULL || !g_str_equal (arch, "clip"))
    return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                             _("this is not a multimodal projector (general.type “%s”, general.architecture “%s”): "
                               "a projector file has general.type mmproj, general.architecture clip and clip.* keys"),
                             type ? type : "", arch ? arch : "");
  if (!read_projector (out, &g, shown, error))
    return FALSE;
  out->vision = get_bool (&g, "clip.has_vision_encoder");
  out->audio = get_bool (&g, "clip.has_audio_encoder");
  if (!out->vision && !out->audio)
    {
      vc_mmproj_clear (out);
      return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                               _("the projector file has neither a vision nor an audio encoder "
                                 "(clip.has_vision_encoder, clip.has_audio_encoder)"));
    }
  out->bytes = g.tensor_bytes;
  out->elements = g.elements;
  out->n_tensors = g.n_tensors;
  read_compute (out, &g);
  return TRUE;
}
