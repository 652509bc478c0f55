/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-llama-graph.h: llama.cpp's compute buffer as its graph allocator places it. The worst-case
 * graph llama_context::sched_reserve builds (src/llama-context.cpp, graph_reserve) is rebuilt
 * node by node in the order ggml_build_forward_expand visits it (ggml/src/ggml.c,
 * ggml_visit_parents_graph), and ggml_gallocr's placement is replayed over it
 * (ggml/src/ggml-alloc.c: leafs and inputs first, in-place reuse of a parent, best-fit free
 * blocks, frees when the last child has run): the buffer is the allocator's high-water mark. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  /* the model, as llama.cpp's hparams name them */
  guint n_embd;
  guint n_head;
  guint n_head_kv;
  guint head_dim;
  guint n_ff;                     /* dense layers' feed-forward width */
  guint n_layer;
  guint n_vocab;
  guint n_expert;                 /* 0: dense */
  guint n_expert_used;
  guint n_ff_exp;
  gboolean qkv_bias;
  gboolean o_bias;
  gboolean qk_norm;
  gboolean swa;                   /* a sliding-window cache beside the full one (llama_kv_cache_iswa) */
  guint n_swa_pattern;            /* every n-th layer is a full-attention one (gemma2: 2) */
  /* the context */
  guint n_tokens;                 /* the micro-batch, a multiple of the sequences */
  guint n_stream;                 /* KV streams (1 with --kv-unified) */
  guint n_outputs;
  double n_kv;                    /* cells of one stream of the full cache */
  double n_kv_swa;                /* cells of one stream of the sliding-window cache */
  gboolean flash_attn;
  gboolean k_rot;                 /* quantized K: Hadamard rotation of q and k */
  gboolean v_rot;                 /* quantized V: of v and the attention output */
  guint alignment;                /* the buffer type's (ggml-cpu: TENSOR_ALIGNMENT 32, CUDA 128) */
} VcLlamaGraph;

/* the projectors clip_graph_siglip builds after the encoder (tools/mtmd/models/siglip.cpp) */
typedef enum
{
  VC_CLIP_GEMMA3,                 /* average pooling, RMSNorm, the input projection */
  VC_CLIP_IDEFICS3,               /* the pixel shuffle, then one matrix (mm.model.fc) */
  VC_CLIP_JANUS_PRO,              /* a two-layer feed-forward block (mm.0, mm.1) with biases */
  VC_CLIP_LFM2,                   /* the pixel shuffle, an optional LayerNorm, mm.1 and mm.2 */
  VC_CLIP_QWEN2VL,                /* tools/mtmd/models/qwen2vl.cpp: qwen2vl_merger and qwen2.5vl_merger */
  VC_CLIP_QWEN3VL,                /* tools/mtmd/models/qwen3vl.cpp: qwen3vl_merger */
  VC_CLIP_PIXTRAL,                /* tools/mtmd/models/pixtral.cpp: pixtral (Pixtral, Mistral 3) */
} VcClipProjector;

/* A vision encoder's graph as llama.cpp's clip.cpp builds it for the warm-up image
 * (tools/mtmd/clip.cpp, clip_graph::build_inp and build_vit; tools/mtmd/models/siglip.cpp): a
 * patch convolution, pre-norm LayerNorm blocks with separate q, k and v, a GELU feed-forward
 * block, then the projector. */
typedef struct
{
  VcClipProjector projector;
  guint image_size;               /* the warm-up image's side (hparams.warmup_image_size) */
  guint patch_size;
  guint n_embd;
  guint n_head;
  guint head_dim;
  guint n_ff;
  guint n_layer;
  guint n_merge;                  /* the pooling kernel (gemma3: 4), the shuffle's (idefics3); 1 */
  guint proj_hidden;              /* the projector's first matrix's output width (janus_pro, lfm2) */
  guint pos_side;                 /* the learned positions' grid side when they are resized to the image's, else 0 */
  gboolean in_norm, in_norm_bias; /* lfm2's mm.input_norm weight and bias */
  guint proj_dim;                 /* the projection's output width (the text model's) */
  gboolean patch_f32;             /* im2col in F32 (a BF16 patch kernel), else F16 */
  gboolean proj_f32;              /* the input projection's type is F32, else 2 bytes */
  gboolean patch_bias, pos_embd, pre_ln, pre_ln_bias, post_ln, post_ln_bias;
  gboolean q_bias, k_bias, v_bias, o_bias, ln1_bias, ln2_bias, up_bias, down_bias;
  gboolean flash_attn;
  guint alignment;
  /* qwen2vl.cpp: two patch kernels summed, M-RoPE, RMSNorm (qwen2.5vl) or LayerNorm, a gated
   * feed-forward block when the file has ffn_gate, window attention every layer but each
   * n_wa_pattern-th (0: none) */
  gboolean rms_norm, ffn_gate, gate_bias;
  guint n_wa_pattern;
  /* qwen3vl.cpp: a fused qkv (one product and its bias, three views), and the blocks whose output
   * a deepstack merger also takes (bit i: block i; at most 64 blocks) */
  gboolean fused_qkv;
  guint64 deepstack;
  /* pixtral.cpp: 2-D RoPE, Mistral 3's patch merger (mm.input_norm, mm.patch_merger), the
   * optional biases of mm.1 and mm.2 */
  gboolean patch_merger, mm1_bias, mm2_bias;
} VcClipGraph;

/* the high-water mark of ggml-alloc over the graph, in bytes; 0 when the graph has no node */
double vc_llama_graph_compute_bytes (const VcLlamaGraph *g);
/* the same for a vision encoder's graph (VcClipGraph) */
double vc_llama_graph_clip_bytes    (const VcClipGraph  *g);
/* forgets the graphs remembered (the tests compare a remembered graph with a fresh one) */
void   vc_llama_graph_forget        (void);

G_END_DECLS
