/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-llama-graph.c: llama.cpp's worst-case graph and ggml-alloc's placement of it. Sources (the
 * llama.cpp that node-llama-cpp 3.21.1 builds): src/models/llama.cpp, qwen2.cpp, gemma2.cpp
 * (the layers), src/llama-graph.cpp (build_inp_embd, build_norm, build_qkv, build_attn,
 * build_attn_mha, build_ffn, build_moe_ffn, build_inp_out_ids, set_outputs),
 * src/llama-kv-cache.cpp (cpy_k, cpy_v, get_k, get_v, the index and rotation inputs),
 * src/llama-impl.h (llama_mul_mat_hadamard), ggml/src/ggml.c (ggml_visit_parents_graph, the
 * shapes of each op) and ggml/src/ggml-alloc.c (ggml_gallocr_alloc_graph_impl,
 * ggml_gallocr_allocate_node, ggml_dyn_tallocr_alloc and _free_bytes). Ops whose only effect is
 * in place on a tensor of one child (the scalings and soft-caps of Gemma 2) are left out: they
 * place nothing. */
#define G_LOG_DOMAIN "vc-llama-graph"

#include "config.h"

#include <string.h>

#include "vc-llama-graph.h"

enum { T_F32, T_F16, T_I32, T_I64, T_CACHE };
enum { OP_NONE, OP_VIEW, OP_INPLACE, OP_NEW };
enum { F_INPUT = 1, F_OUTPUT = 2, F_EXTERNAL = 4 };

#define MAX_SRC 4
#define NO_T (-1)

typedef struct
{
  int type, op, flags;
  gint64 ne[4], nb[4];
  int src[MAX_SRC];
  int view_src;
  gint64 view_offs;
  /* the graph and the allocator's hash node */
  gboolean visited, allocated;
  int n_children, n_views;
  guint64 offset;
} Tensor;

typedef struct
{
  guint64 offset, size;
} Block;

typedef struct
{
  GArray *t;             /* Tensor */
  GArray *nodes, *leafs; /* int */
  GArray *blocks;        /* Block, sorted by offset; the last one endless */
  guint64 alignment, max_size;
} Graph;

static Tensor *
T (Graph *g, int i)
{
  return &g_array_index (g->t, Tensor, i);
}

static gint64
type_size (int type)
{
  switch (type)
    {
    case T_F16: return 2;
    case T_I64: return 8;
    default: return 4;
    }
}

static guint64
nbytes (Graph *g, int i)
{
  Tensor *t = T (g, i);

  return (guint64) (t->ne[0] * t->ne[1] * t->ne[2] * t->ne[3] * type_size (t->type));
}

static int
add (Graph *g, int type, int op, int flags, gint64 ne0, gint64 ne1, gint64 ne2, gint64 ne3, int s0, int s1, int s2, int s3)
{
  Tensor t = { .type = type, .op = op, .flags = flags, .ne = { ne0, ne1, ne2, ne3 },
               .src = { s0, s1, s2, s3 }, .view_src = NO_T };

  t.nb[0] = type_size (type);
  for (int i = 1; i < 4; i++)
    t.nb[i] = t.nb[i - 1] * t.ne[i - 1];
  g_array_append_val (g->t, t);
  return g->t->len - 1;
}

/* an input (ggml_set_input), a weight or a cache (allocated elsewhere) */
static int
leaf (Graph *g, int type, int flags, gint64 ne0, gint64 ne1, gint64 ne2, gint64 ne3)
{
  return add (g, type, OP_NONE, flags, ne0, ne1, ne2, ne3, NO_T, NO_T, NO_T, NO_T);
}

static int
weight (Graph *g, gint64 in, gint64 out, gint64 n)
{
  return leaf (g, T_F16, F_EXTERNAL, in, out, n, 1);
}

/* a new f32 result of an op that reuses no parent, or of one ggml_op_can_inplace() allows to */
static int
op (Graph *g, gboolean inplace, gint64 ne0, gint64 ne1, gint64 ne2, gint64 ne3, int s0, int s1, int s2, int s3)
{
  return add (g, T_F32, inplace ? OP_INPLACE : OP_NEW, 0, ne0, ne1, ne2, ne3, s0, s1, s2, s3);
}

/* same shape as a, in place where ggml-alloc can */
static int
unary (Graph *g, int a, int b)
{
  Tensor *t = T (g, a);

  return op (g, TRUE, t->ne[0], t->ne[1], t->ne[2], t->ne[3], a, b, NO_T, NO_T);
}

/* ggml_mul_mat: {a.ne1, b.ne1, b.ne2, b.ne3} */
static int
mul_mat (Graph *g, int a, int b)
{
  return op (g, FALSE, T (g, a)->ne[1], T (g, b)->ne[1], T (g, b)->ne[2], T (g, b)->ne[3], a, b, NO_T, NO_T);
}

/* a view of `src` (ggml_view_impl: the source of a view of a view is the first one's) */
static int
view (Graph *g, int src, gint64 ne0, gint64 ne1, gint64 ne2, gint64 ne3, const gint64 *nb, gint64 offs)
{
  Tensor *s = T (g, src);
  int root = s->view_src != NO_T ? s->view_src : src;
  gint64 base = s->view_src != NO_T ? s->view_offs : 0;
  int type = s->type;
  int v = add (g, type, OP_VIEW, 0, ne0, ne1, ne2, ne3, src, NO_T, NO_T, NO_T);

  if (nb != NULL)
    memcpy (T (g, v)->nb, nb, sizeof T (g, v)->nb);
  T (g, v)->view_src = root;
  T (g, v)->view_offs = base + offs;
  return v;
}

static int
reshape (Graph *g, int src, gint64 ne0, gint64 ne1, gint64 ne2, gint64 ne3)
{
  return view (g, src, ne0, ne1, ne2, ne3, NULL, 0);
}

/* ggml_permute (a, 0, 2, 1, 3) */
static int
permute_0213 (Graph *g, int src)
{
  Tensor *s = T (g, src);
  gint64 nb[4] = { s->nb[0], s->nb[2], s->nb[1], s->nb[3] };

  return view (g, src, s->ne[0], s->ne[2], s->ne[1], s->ne[3], nb, 0);
}

/* ggml_visit_parents_graph: sources first, in order; an op-less tensor is a leaf */
static void
expand (Graph *g, int i)
{
  Tensor *t = T (g, i);

  if (t->visited)
    return;
  t->visited = TRUE;
  for (int s = 0; s < MAX_SRC; s++)
    if (T (g, i)->src[s] != NO_T)
      expand (g, T (g, i)->src[s]);
  g_array_append_val (T (g, i)->op == OP_NONE ? g->leafs : g->nodes, i);
}

static guint64
aligned (Graph *g, guint64 size)
{
  return (size + g->alignment - 1) / g->alignment * g->alignment;
}

/* ggml_dyn_tallocr_alloc: the best-fitting free block but the last, else the last */
static guint64
block_alloc (Graph *g, guint64 size)
{
  guint best = G_MAXUINT;
  guint64 best_size = G_MAXUINT64, offset;
  Block *b;

  size = aligned (g, size);
  for (guint i = 0; i + 1 < g->blocks->len; i++)
    {
      b = &g_array_index (g->blocks, Block, i);
      if (b->size >= size && b->size <= best_size)
        best = i, best_size = b->size;
    }
  if (best == G_MAXUINT)
    best = g->blocks->len - 1;
  b = &g_array_index (g->blocks, Block, best);
  offset = b->offset;
  b->offset += size;
  b->size -= size;
  if (b->size == 0)
    g_array_remove_index (g->blocks, best);
  g->max_size = MAX (g->max_size, offset + size);
  return offset;
}

/* ggml_dyn_tallocr_free_bytes: merged with the block before or after it */
static void
block_free (Graph *g, guint64 offset, guint64 size)
{
  Block nb;
  guint pos = 0;

  size = aligned (g, size);
  for (guint i = 0; i < g->blocks->len; i++)
    {
      Block *b = &g_array_index (g->blocks, Block, i);

      if (b->offset + b->size == offset)
        {
          b->size += size;
          if (i + 1 < g->blocks->len)
            {
              Block *next = &g_array_index (g->blocks, Block, i + 1);

              if (b->offset + b->size == next->offset)
                {
                  b->size += next->size;
                  g_array_remove_index (g->blocks, i + 1);
                }
            }
          return;
        }
      if (offset + size == b->offset)
        {
          b->offset = offset;
          b->size += size;
          if (i > 0)
            {
              Block *prev = &g_array_index (g->blocks, Block, i - 1);

              if (prev->offset + prev->size == b->offset)
                {
                  prev->size += b->size;
                  g_array_remove_index (g->blocks, i);
                }
            }
          return;
        }
    }
  while (pos < g->blocks->len && g_array_index (g->blocks, Block, pos).offset < offset)
    pos++;
  nb = (Block) { offset, size };
  g_array_insert_val (g->blocks, pos, nb);
}

static gboolean
same_layout (Tensor *a, Tensor *b)
{
  return a->type == b->type && memcmp (a->ne, b->ne, sizeof a->ne) == 0 && memcmp (a->nb, b->nb, sizeof a->nb) == 0;
}

/* ggml_gallocr_allocate_node */
static void
allocate (Graph *g, int i)
{
  Tensor *t = T (g, i);

  if (t->allocated || (t->flags & F_EXTERNAL) || t->view_src != NO_T)
    return;
  t->allocated = TRUE;
  if (t->op == OP_INPLACE)
    for (int s = 0; s < MAX_SRC; s++)
      {
        Tensor *p;

        if (t->src[s] == NO_T)
          continue;
        p = T (g, t->src[s]);
        /* a view is never the allocator's own: only a parent it placed is reused */
        if (!p->allocated || (p->flags & F_OUTPUT) || !same_layout (t, p) || p->n_children != 1 || p->n_views != 0)
          continue;
        t->offset = p->offset;
        p->allocated = FALSE;
        if (aligned (g, nbytes (g, t->src[s])) > aligned (g, nbytes (g, i)))
          block_free (g, p->offset + aligned (g, nbytes (g, i)), aligned (g, nbytes (g, t->src[s])) - aligned (g, nbytes (g, i)));
        return;
      }
  t->offset = block_alloc (g, nbytes (g, i));
}

static void
release (Graph *g, int i)
{
  Tensor *t = T (g, i);

  if (t->flags & F_OUTPUT)
    return;
  block_free (g, t->offset, nbytes (g, i));
  t->allocated = FALSE;
}

/* ggml_gallocr_alloc_graph_impl */
static guint64
place (Graph *g)
{
  Block endless = { 0, G_MAXUINT64 / 2 };

  g_array_append_val (g->blocks, endless);
  for (guint i = 0; i < g->leafs->len; i++)
    allocate (g, g_array_index (g->leafs, int, i));
  for (guint i = 0; i < g->nodes->len; i++)
    {
      Tensor *t = T (g, g_array_index (g->nodes, int, i));

      if (t->view_src != NO_T)
        T (g, t->view_src)->n_views++;
      for (int s = 0; s < MAX_SRC; s++)
        if (t->src[s] != NO_T)
          T (g, t->src[s])->n_children++;
    }
  for (guint i = 0; i < g->nodes->len; i++)
    {
      int n = g_array_index (g->nodes, int, i);

      allocate (g, n);
      for (int s = 0; s < MAX_SRC; s++)
        {
          int ps = T (g, n)->src[s];
          Tensor *p;

          if (ps == NO_T)
            continue;
          p = T (g, ps);
          if (--p->n_children != 0 || p->n_views != 0)
            continue;
          if (p->view_src != NO_T)
            {
              Tensor *v = T (g, p->view_src);

              if (--v->n_views == 0 && v->n_children == 0 && v->allocated)
                release (g, p->view_src);
            }
          else if (p->allocated)
            release (g, ps);
        }
    }
  return g->max_size;
}

/* llama_mul_mat_hadamard: x as rows of n, rotated by the n × n matrix, back to x's shape */
static int
hadamard (Graph *g, int x, int rot)
{
  Tensor *t = T (g, x);
  gint64 ne[4] = { t->ne[0], t->ne[1], t->ne[2], t->ne[3] };
  gint64 n = T (g, rot)->ne[0];
  int r = reshape (g, x, n, ne[0] * ne[1] * ne[2] * ne[3] / n, 1, 1);

  r = mul_mat (g, rot, r);
  return reshape (g, r, ne[0], ne[1], ne[2], ne[3]);
}

typedef struct
{
  int k_idxs, v_idxs, mask, k_rot, v_rot;
  double n_kv;
} Cache;

static void
cache_inputs (Graph *g, const VcLlamaGraph *p, Cache *c, double n_kv, gint64 n_rot)
{
  gint64 T_ = p->n_tokens, ns = p->n_stream;

  c->n_kv = n_kv;
  c->k_idxs = leaf (g, T_I64, F_INPUT, T_, 1, 1, 1);
  c->v_idxs = leaf (g, T_I64, F_INPUT, p->flash_attn ? T_ : T_ * p->n_head_kv * p->head_dim, 1, 1, 1);
  c->mask = leaf (g, p->flash_attn ? T_F16 : T_F32, F_INPUT, (gint64) n_kv, T_ / ns, 1, ns);
  c->k_rot = p->k_rot ? leaf (g, T_F32, F_INPUT, n_rot, n_rot, 1, 1) : NO_T;
  c->v_rot = p->v_rot ? leaf (g, T_F32, F_INPUT, 64, 64, 1, 1) : NO_T;
}

/* llm_graph_context::build_attn with a KV cache (llama_kv_cache or its iSWA pair), then the
 * output projection */
static int
attention (Graph *g, const VcLlamaGraph *p, const Cache *c, gboolean iswa, int cur, int pos)
{
  gint64 hd = p->head_dim, T_ = p->n_tokens, ns = p->n_stream, nkv = (gint64) c->n_kv;
  gint64 q_dim = hd * p->n_head, kv_dim = hd * p->n_head_kv;
  int q, k, v, kc, vc, kv, mask = c->mask;

  q = mul_mat (g, weight (g, p->n_embd, q_dim, 1), cur);
  if (p->qkv_bias)
    q = unary (g, q, weight (g, q_dim, 1, 1));
  k = mul_mat (g, weight (g, p->n_embd, kv_dim, 1), cur);
  if (p->qkv_bias)
    k = unary (g, k, weight (g, kv_dim, 1, 1));
  v = mul_mat (g, weight (g, p->n_embd, kv_dim, 1), cur);
  if (p->qkv_bias)
    v = unary (g, v, weight (g, kv_dim, 1, 1));
  q = reshape (g, q, hd, p->n_head, T_, 1);
  k = reshape (g, k, hd, p->n_head_kv, T_, 1);
  v = reshape (g, v, hd, p->n_head_kv, T_, 1);
  if (p->qk_norm)
    {
      q = unary (g, unary (g, q, NO_T), weight (g, hd, 1, 1));
      k = unary (g, unary (g, k, NO_T), weight (g, hd, 1, 1));
    }
  q = unary (g, q, pos);   /* rope */
  k = unary (g, k, pos);
  if (c->k_rot != NO_T)
    {
      q = hadamard (g, q, c->k_rot);
      k = hadamard (g, k, c->k_rot);
    }
  if (c->v_rot != NO_T)
    v = hadamard (g, v, c->v_rot);
  expand (g, q);
  expand (g, iswa ? k : v);
  expand (g, iswa ? v : k);

  /* cpy_k, cpy_v: set_rows into the cache, a view of it */
  kc = leaf (g, T_CACHE, F_EXTERNAL, kv_dim, (gint64) (nkv * ns), 1, 1);
  vc = leaf (g, T_CACHE, F_EXTERNAL, kv_dim, (gint64) (nkv * ns), 1, 1);
  kv = view (g, k, kv_dim, T_, 1, 1, NULL, 0);
  {
    int sr = view (g, kc, kv_dim, (gint64) (nkv * ns), 1, 1, NULL, 0);

    T (g, sr)->src[0] = kv;
    T (g, sr)->src[1] = c->k_idxs;
    T (g, sr)->src[2] = ns > 1 ? reshape (g, kc, kv_dim, nkv * ns, 1, 1) : kc;
    expand (g, sr);
  }
  {
    int vcur = p->flash_attn ? view (g, v, kv_dim, T_, 1, 1, NULL, 0)
                             : reshape (g, reshape (g, v, kv_dim, T_, 1, 1), 1, kv_dim * T_, 1, 1);
    int sr = view (g, vc, kv_dim, (gint64) (nkv * ns), 1, 1, NULL, 0);

    T (g, sr)->src[0] = vcur;
    T (g, sr)->src[1] = c->v_idxs;
    T (g, sr)->src[2] = p->flash_attn ? (ns > 1 ? reshape (g, vc, kv_dim, nkv * ns, 1, 1) : vc)
                                      : reshape (g, vc, 1, kv_dim * nkv * ns, 1, 1);
    expand (g, sr);
  }

  /* build_attn_mha */
  {
    gint64 knb[4] = { 2, 2 * hd, 2 * kv_dim, 2 * kv_dim * nkv };
    gint64 vnb[4] = { 2, 2 * nkv * hd, 2 * nkv, 2 * kv_dim * nkv };
    int qv, kk, vv, cur2;

    kk = permute_0213 (g, view (g, kc, hd, p->n_head_kv, nkv, ns, knb, 0));
    vv = p->flash_attn ? permute_0213 (g, view (g, vc, hd, p->n_head_kv, nkv, ns, knb, 0))
                       : permute_0213 (g, view (g, vc, nkv, p->n_head_kv, hd, ns, vnb, 0));
    qv = permute_0213 (g, reshape (g, q, hd, p->n_head, T_ / ns, ns));
    if (p->flash_attn)
      {
        cur2 = op (g, FALSE, hd, p->n_head, T_ / ns, ns, qv, kk, vv, mask);
        cur2 = reshape (g, cur2, q_dim, T_, 1, 1);
      }
    else
      {
        int kq = mul_mat (g, kk, qv);

        kq = unary (g, kq, mask);      /* soft_max_ext */
        kq = mul_mat (g, vv, kq);      /* kqv */
        kq = permute_0213 (g, kq);
        cur2 = op (g, FALSE, q_dim, T_, 1, 1, kq, NO_T, NO_T, NO_T);  /* cont_2d */
      }
    expand (g, cur2);
    cur = cur2;
  }
  if (c->v_rot != NO_T)
    cur = hadamard (g, cur, c->v_rot);
  cur = mul_mat (g, weight (g, q_dim, p->n_embd, 1), cur);
  if (p->o_bias)
    cur = unary (g, cur, weight (g, p->n_embd, 1, 1));
  return cur;
}

/* build_ffn (gated, parallel) or build_moe_ffn (softmax gating, weights normalized) */
static int
feed_forward (Graph *g, const VcLlamaGraph *p, int cur)
{
  gint64 E = p->n_embd;

  if (p->n_expert == 0)
    {
      int up = mul_mat (g, weight (g, E, p->n_ff, 1), cur);
      int gate = mul_mat (g, weight (g, E, p->n_ff, 1), cur);
      int act = op (g, FALSE, p->n_ff, T (g, cur)->ne[1], 1, 1, gate, up, NO_T, NO_T);  /* swiglu_split */

      return mul_mat (g, weight (g, p->n_ff, E, 1), act);
    }
  {
    gint64 n = T (g, cur)->ne[1], ne = p->n_expert, nu = p->n_expert_used, ff = p->n_ff_exp;
    int logits = mul_mat (g, weight (g, E, ne, 1), cur);
    int probs = unary (g, logits, NO_T);                                        /* soft_max */
    int sorted = add (g, T_I32, OP_NEW, 0, ne, n, 1, 1, probs, NO_T, NO_T, NO_T); /* argsort */
    gint64 snb[4] = { 4, 4 * ne, 4 * ne * n, 4 * ne * n };
    int selected = view (g, sorted, nu, n, 1, 1, snb, 0);
    int w = op (g, FALSE, 1, nu, n, 1, reshape (g, probs, 1, ne, n, 1), selected, NO_T, NO_T);  /* get_rows */
    int sum, x, up, gate, act, experts, out;

    w = reshape (g, w, nu, n, 1, 1);
    sum = op (g, FALSE, 1, n, 1, 1, w, NO_T, NO_T, NO_T);   /* sum_rows */
    sum = unary (g, sum, NO_T);                             /* clamp */
    w = unary (g, w, sum);                                  /* div */
    w = reshape (g, w, 1, nu, n, 1);
    expand (g, w);
    x = reshape (g, cur, E, 1, n, 1);
    up = op (g, FALSE, ff, nu, n, 1, weight (g, E, ff, ne), x, selected, NO_T);      /* mul_mat_id */
    gate = op (g, FALSE, ff, nu, n, 1, weight (g, E, ff, ne), x, selected, NO_T);
    act = op (g, FALSE, ff, nu, n, 1, gate, up, NO_T, NO_T);                          /* swiglu_split */
    experts = op (g, FALSE, E, nu, n, 1, weight (g, ff, E, ne), act, selected, NO_T);
    experts = unary (g, experts, w);                                                  /* mul */
    expand (g, experts);
    out = NO_T;
    for (gint64 i = 0; i < nu; i++)
      {
        gint64 nb[4] = { 4, 4 * E * nu, 4 * E * nu * n, 4 * E * nu * n };
        int e = view (g, experts, E, n, 1, 1, nb, i * 4 * E);

        expand (g, e);
        out = out == NO_T ? e : op (g, TRUE, E, n, 1, 1, out, e, NO_T, NO_T);
        if (i > 0)
          expand (g, out);
      }
    if (nu == 1)
      out = op (g, FALSE, E, n, 1, 1, out, NO_T, NO_T, NO_T);  /* cont */
    return out;
  }
}

static gboolean
same_graph (const VcLlamaGraph *a,
            const VcLlamaGraph *b)
{
  return a->n_embd == b->n_embd && a->n_head == b->n_head && a->n_head_kv == b->n_head_kv &&
         a->head_dim == b->head_dim && a->n_ff == b->n_ff && a->n_layer == b->n_layer &&
         a->n_vocab == b->n_vocab && a->n_expert == b->n_expert && a->n_expert_used == b->n_expert_used &&
         a->n_ff_exp == b->n_ff_exp && !a->qkv_bias == !b->qkv_bias && !a->o_bias == !b->o_bias &&
         !a->qk_norm == !b->qk_norm && !a->swa == !b->swa && a->n_swa_pattern == b->n_swa_pattern &&
         a->n_tokens == b->n_tokens && a->n_stream == b->n_stream && a->n_outputs == b->n_outputs &&
         a->n_kv == b->n_kv && a->n_kv_swa == b->n_kv_swa && !a->flash_attn == !b->flash_attn &&
         !a->k_rot == !b->k_rot && !a->v_rot == !b->v_rot && a->alignment == b->alignment;
}

static double place_graph (const VcLlamaGraph *p);

/* The estimate asks for the same graph many times over (each GPU of the catalog, each count
 * the solver tries): the last graphs placed are remembered. */
#define N_REMEMBERED 64

/* Layers past the eighth are placed as the ones before them: the allocator's free blocks repeat
 * from layer to layer, and the high-water mark of a stack is the same from its fourth layer on
 * (checked over dense, sliding-window, q/k-norm and MoE shapes of 512 and 2048 tokens, 1 and 4
 * streams, 512 to 32768 cells, with and without flash attention: 8 to 12, 40 and 97 layers
 * give the same bytes). A sliding-window stack keeps its last layer's kind. */
#define MAX_PLACED_LAYERS 8

static GMutex lock;
static struct { VcLlamaGraph g; double bytes; } seen[N_REMEMBERED];
static guint n_seen, next;

void
vc_llama_graph_forget (void)
{
  g_mutex_lock (&lock);
  n_seen = next = 0;
  g_mutex_unlock (&lock);
}

double
vc_llama_graph_compute_bytes (const VcLlamaGraph *graph)
{
  VcLlamaGraph placed = *graph, *p = &placed;
  double bytes;

  if (p->n_layer > MAX_PLACED_LAYERS)
    p->n_layer = MAX_PLACED_LAYERS + (p->swa && p->n_swa_pattern > 1 ? (p->n_layer - MAX_PLACED_LAYERS) % p->n_swa_pattern : 0);

  g_mutex_lock (&lock);
  for (guint i = 0; i < n_seen; i++)
    if (same_graph (&seen[i].g, p))
      {
        bytes = seen[i].bytes;
        g_mutex_unlock (&lock);
        return bytes;
      }
  g_mutex_unlock (&lock);
  bytes = place_graph (p);
  g_mutex_lock (&lock);
  seen[next].g = *p;
  seen[next].bytes = bytes;
  next = (next + 1) % N_REMEMBERED;
  n_seen = MIN (n_seen + 1, N_REMEMBERED);
  g_mutex_unlock (&lock);
  return bytes;
}

static double
place_graph (const VcLlamaGraph *p)
{
  Graph g = { 0 };
  gint64 E = p->n_embd, T_ = p->n_tokens, n_rot = 64;
  int tokens, embd, cur, inpL, pos, out_ids, logits;
  Cache base, swa;
  double size;

  if (p->n_tokens == 0 || p->n_layer == 0 || p->n_stream == 0 || p->n_tokens % p->n_stream != 0)
    return 0;
  g.t = g_array_sized_new (FALSE, FALSE, sizeof (Tensor), 64 + 96 * p->n_layer);
  g.nodes = g_array_sized_new (FALSE, FALSE, sizeof (int), 64 + 64 * p->n_layer);
  g.leafs = g_array_sized_new (FALSE, FALSE, sizeof (int), 64 + 32 * p->n_layer);
  g.blocks = g_array_sized_new (FALSE, FALSE, sizeof (Block), 64);
  g.alignment = MAX (1u, p->alignment);

  /* the largest power of two from 64 dividing the head size (build_input_k_rot) */
  while (p->head_dim % (n_rot * 2) == 0)
    n_rot *= 2;

  /* build_inp_embd: both inputs in the graph, the selected path computed */
  tokens = leaf (&g, T_I32, F_INPUT, T_, 1, 1, 1);
  embd = leaf (&g, T_F32, F_INPUT, E, T_, 1, 1);
  cur = op (&g, FALSE, E, T_, 1, 1, weight (&g, E, p->n_vocab, 1), tokens, NO_T, NO_T);  /* get_rows */
  expand (&g, cur);
  expand (&g, embd);
  inpL = cur;
  pos = leaf (&g, T_I32, F_INPUT, T_, 1, 1, 1);
  cache_inputs (&g, p, &base, p->n_kv, n_rot);
  if (p->swa)
    cache_inputs (&g, p, &swa, p->n_kv_swa, n_rot);
  out_ids = leaf (&g, T_I32, F_INPUT, p->n_outputs, 1, 1, 1);

  for (guint il = 0; il < p->n_layer; il++)
    {
      gboolean is_swa = p->swa && (p->n_swa_pattern == 0 || il % p->n_swa_pattern < p->n_swa_pattern - 1);
      int inpSA = inpL, ffn_inp;

      cur = unary (&g, unary (&g, inpL, NO_T), weight (&g, E, 1, 1));   /* attn_norm */
      cur = attention (&g, p, is_swa ? &swa : &base, p->swa, cur, pos);
      if (il == p->n_layer - 1)
        {
          cur = op (&g, FALSE, E, p->n_outputs, 1, 1, cur, out_ids, NO_T, NO_T);
          inpSA = op (&g, FALSE, E, p->n_outputs, 1, 1, inpSA, out_ids, NO_T, NO_T);
        }
      ffn_inp = unary (&g, cur, inpSA);
      cur = unary (&g, unary (&g, ffn_inp, NO_T), weight (&g, E, 1, 1));  /* ffn_norm */
      cur = feed_forward (&g, p, cur);
      inpL = unary (&g, cur, ffn_inp);
    }
  cur = unary (&g, unary (&g, inpL, NO_T), weight (&g, E, 1, 1));  /* result_norm, t_embd */
  T (&g, cur)->flags |= F_OUTPUT;
  logits = mul_mat (&g, weight (&g, E, p->n_vocab, 1), cur);
  T (&g, logits)->flags |= F_OUTPUT;
  expand (&g, logits);

  size = (double) place (&g);
  g_array_unref (g.t);
  g_array_unref (g.nodes);
  g_array_unref (g.leafs);
  g_array_unref (g.blocks);
  return size;
}

/* ---- the vision encoder (llama.cpp's tools/mtmd) ------------------------------------------ */

/* a vector beside a node when the model has it (the biases, the norms' weights) */
static int
with (Graph *g, int cur, gboolean has, gint64 n)
{
  return has ? unary (g, cur, weight (g, n, 1, 1)) : cur;
}

/* clip_graph::build_norm, NORM_TYPE_NORMAL: ggml_norm (never in place), its weight, its bias */
static int
layer_norm (Graph *g, int cur, gboolean bias)
{
  gint64 ne[4];
  int n;

  memcpy (ne, T (g, cur)->ne, sizeof ne);
  n = op (g, FALSE, ne[0], ne[1], ne[2], ne[3], cur, NO_T, NO_T, NO_T);
  return with (g, unary (g, n, weight (g, ne[0], 1, 1)), bias, ne[0]);
}

/* a transposed view of a 2-D tensor (ggml_transpose) */
static int
transpose (Graph *g, int src)
{
  Tensor *s = T (g, src);
  gint64 nb[4] = { s->nb[1], s->nb[0], s->nb[2], s->nb[3] };

  return view (g, src, s->ne[1], s->ne[0], s->ne[2], s->ne[3], nb, 0);
}

/* ggml_conv_2d of the raw image with one patch kernel, no padding (ggml/src/ggml.c): im2col
 * (F16, F32 for a BF16 kernel), its product with the kernel and the permuted copy:
 * [side, side, n_embd, 1] */
static int
patch_conv (Graph *g, const VcClipGraph *p, int raw)
{
  gint64 E = p->n_embd, k = p->patch_size, side = p->image_size / p->patch_size, N = side * side;
  int kernel = leaf (g, T_F16, F_EXTERNAL, k, k, 3, E);
  int im2col = add (g, p->patch_f32 ? T_F32 : T_F16, OP_NEW, 0, 3 * k * k, side, side, 1, kernel, raw, NO_T, NO_T);
  int cur = mul_mat (g, reshape (g, im2col, 3 * k * k, N, 1, 1), reshape (g, kernel, 3 * k * k, E, 1, 1));
  gint64 nb[4];

  cur = reshape (g, cur, side, side, 1, E);
  memcpy (nb, T (g, cur)->nb, sizeof nb);
  {
    gint64 pnb[4] = { nb[0], nb[1], nb[3], nb[2] };   /* ggml_permute (0, 1, 3, 2) */

    cur = view (g, cur, side, side, E, 1, pnb, 0);
  }
  return op (g, FALSE, side, side, E, 1, cur, NO_T, NO_T, NO_T);              /* cont */
}

/* clip_graph::build_inp: the convolution, the patches transposed to [n_embd, n_patches] and the
 * patch bias */
static int
clip_input (Graph *g, const VcClipGraph *p)
{
  gint64 E = p->n_embd, side = p->image_size / p->patch_size, N = side * side;
  int raw = leaf (g, T_F32, F_INPUT, p->image_size, p->image_size, 3, 1);
  int cur = patch_conv (g, p, raw);

  cur = transpose (g, reshape (g, cur, N, E, 1, 1));
  cur = op (g, FALSE, E, N, 1, 1, cur, NO_T, NO_T, NO_T);                   /* cont */
  return with (g, cur, p->patch_bias, E);
}

/* clip_graph::build_attn: q, k and v ordered into the graph (after the rotation of q and k by
 * `pos` when there is one), then flash attention on f16 copies of k, v and of the mask when there
 * is one, or the f32 scores softmaxed in place with the mask; the output projection */
static int
clip_attention (Graph *g, const VcClipGraph *p, int cur, int pos, int pos2, int mask)
{
  gint64 E = p->n_embd, d = p->head_dim, h = p->n_head, N = T (g, cur)->ne[1], qd = d * h;
  int q, k, v, out;

  if (p->fused_qkv)
    {
      /* qwen3vl.cpp: the qkv product and its bias, q, k and v as views of it */
      int qkv = with (g, mul_mat (g, weight (g, E, 3 * qd, 1), cur), p->q_bias, 3 * qd);
      gint64 nb[4] = { 4, 4 * d, T (g, qkv)->nb[1], T (g, qkv)->nb[1] * N };

      q = view (g, qkv, d, h, N, 1, nb, 0);
      k = view (g, qkv, d, h, N, 1, nb, 4 * qd);
      v = view (g, qkv, d, h, N, 1, nb, 8 * qd);
    }
  else
    {
      q = reshape (g, with (g, mul_mat (g, weight (g, E, qd, 1), cur), p->q_bias, qd), d, h, N, 1);
      k = reshape (g, with (g, mul_mat (g, weight (g, E, qd, 1), cur), p->k_bias, qd), d, h, N, 1);
      v = reshape (g, with (g, mul_mat (g, weight (g, E, qd, 1), cur), p->v_bias, qd), d, h, N, 1);
    }
  if (pos != NO_T)
    {
      q = unary (g, q, pos);                                                                     /* rope_multi */
      k = unary (g, k, pos);
    }
  if (pos2 != NO_T)
    {
      q = unary (g, q, pos2);                  /* build_rope_2d: the second half, in place on the first */
      k = unary (g, k, pos2);
    }
  expand (g, q);
  expand (g, k);
  expand (g, v);
  q = permute_0213 (g, q);
  k = permute_0213 (g, k);
  if (p->flash_attn)
    {
      int k16 = add (g, T_F16, OP_NEW, 0, d, N, h, 1, k, NO_T, NO_T, NO_T);                    /* cast */
      int v16 = add (g, T_F16, OP_NEW, 0, d, N, h, 1, permute_0213 (g, v), NO_T, NO_T, NO_T);
      int m16 = mask == NO_T ? NO_T : add (g, T_F16, OP_NEW, 0, N, N, 1, 1, mask, NO_T, NO_T, NO_T);

      out = op (g, FALSE, d, h, N, 1, q, k16, v16, m16);                                         /* flash_attn_ext */
      out = reshape (g, out, qd, N, 1, 1);
    }
  else
    {
      Tensor *vt = T (g, v);
      gint64 nb[4] = { vt->nb[2], vt->nb[0], vt->nb[1], vt->nb[3] };                           /* permute (1, 2, 0, 3) */
      int vc = op (g, FALSE, N, d, h, 1, view (g, v, N, d, h, 1, nb, 0), NO_T, NO_T, NO_T);     /* cont */
      int kq = unary (g, mul_mat (g, k, q), mask);                                               /* soft_max_ext */

      out = permute_0213 (g, mul_mat (g, vc, kq));
      out = op (g, FALSE, qd, N, 1, 1, out, NO_T, NO_T, NO_T);                                   /* cont_2d */
    }
  return with (g, mul_mat (g, weight (g, qd, E, 1), out), p->o_bias, E);
}

/* clip_graph::resize_position_embeddings (lfm2): the f32 table of pos_side² positions
 * reshaped to its grid, permuted (2, 0, 1, 3), interpolated to the image's grid, permuted
 * (1, 2, 0, 3) and copied as [n_embd, patches] */
static int
resized_positions (Graph *g, const VcClipGraph *p)
{
  gint64 E = p->n_embd, n = p->pos_side, side = p->image_size / p->patch_size;
  int cur = reshape (g, leaf (g, T_F32, F_EXTERNAL, E, n * n, 1, 1), E, n, n, 1);
  Tensor *t = T (g, cur);
  gint64 a[4] = { t->nb[1], t->nb[2], t->nb[0], t->nb[3] };
  gint64 b[4];

  cur = view (g, cur, n, n, E, 1, a, 0);
  cur = op (g, FALSE, side, side, E, 1, cur, NO_T, NO_T, NO_T);                  /* interpolate */
  t = T (g, cur);
  b[0] = t->nb[2];
  b[1] = t->nb[0];
  b[2] = t->nb[1];
  b[3] = t->nb[3];
  cur = view (g, cur, E, side, side, 1, b, 0);
  return op (g, FALSE, E, side * side, 1, 1, cur, NO_T, NO_T, NO_T);             /* cont_2d */
}

/* clip_graph::build_vit: the learned positions, the pre-norm, the blocks, the post-norm */
static int
clip_encoder (Graph *g, const VcClipGraph *p, int inp)
{
  gint64 E = p->n_embd;
  int inpL = p->pos_side != 0 ? unary (g, inp, resized_positions (g, p)) : with (g, inp, p->pos_embd, E);

  if (p->pre_ln)
    inpL = layer_norm (g, inpL, p->pre_ln_bias);
  for (guint il = 0; il < p->n_layer; il++)
    {
      int cur = clip_attention (g, p, layer_norm (g, inpL, p->ln1_bias), NO_T, NO_T, NO_T);

      inpL = unary (g, cur, inpL);                                               /* residual */
      cur = layer_norm (g, inpL, p->ln2_bias);
      cur = with (g, mul_mat (g, weight (g, E, p->n_ff, 1), cur), p->up_bias, p->n_ff);
      cur = unary (g, cur, NO_T);                                                /* gelu */
      cur = with (g, mul_mat (g, weight (g, p->n_ff, E, 1), cur), p->down_bias, E);
      inpL = unary (g, inpL, cur);                                               /* residual */
    }
  if (p->post_ln)
    inpL = layer_norm (g, inpL, p->post_ln_bias);
  return inpL;
}

/* tools/mtmd/models/siglip.cpp, PROJECTOR_TYPE_GEMMA3: the patches pooled n_merge × n_merge,
 * RMSNorm and its weight, then the input projection, a contiguous copy of its transpose */
static int
gemma3_projector (Graph *g, const VcClipGraph *p, int cur)
{
  gint64 E = p->n_embd, side = p->image_size / p->patch_size, m = side / p->n_merge;
  int w = leaf (g, p->proj_f32 ? T_F32 : T_F16, F_EXTERNAL, p->proj_dim, E, 1, 1);
  int type = T (g, w)->type, wt;

  cur = op (g, FALSE, side, side, E, 1, transpose (g, cur), NO_T, NO_T, NO_T);  /* cont_4d */
  cur = op (g, FALSE, m, m, E, 1, cur, NO_T, NO_T, NO_T);                        /* pool_2d */
  cur = transpose (g, reshape (g, cur, m * m, E, 1, 1));
  cur = op (g, FALSE, E, m * m, 1, 1, cur, NO_T, NO_T, NO_T);                    /* cont */
  cur = unary (g, unary (g, cur, NO_T), weight (g, E, 1, 1));                    /* rms_norm, mul */
  wt = add (g, type, OP_NEW, 0, E, p->proj_dim, 1, 1, transpose (g, w), NO_T, NO_T, NO_T);
  return mul_mat (g, wt, cur);
}

/* clip_graph::build_patch_merge_permute (the pixel shuffle of idefics3 and lfm2, the side
 * divisible by the factor: no ggml_pad) */
static int
pixel_shuffle (Graph *g, const VcClipGraph *p, int cur)
{
  gint64 E = p->n_embd, s = p->n_merge, side = p->image_size / p->patch_size, m = side / s;

  cur = reshape (g, cur, E, side, side, 1);
  cur = reshape (g, cur, E * s, m, side, 1);
  cur = permute_0213 (g, cur);
  cur = op (g, FALSE, E * s * s, m, m, 1, cur, NO_T, NO_T, NO_T);               /* cont_3d */
  cur = permute_0213 (g, cur);
  return op (g, FALSE, E * s * s, m * m, 1, 1, cur, NO_T, NO_T, NO_T);         /* cont_2d */
}

/* idefics3: the pixel shuffle, then build_mm with mm.model.fc.weight */
static int
idefics3_projector (Graph *g, const VcClipGraph *p, int cur)
{
  gint64 w = (gint64) p->n_merge * p->n_merge * p->n_embd;

  return mul_mat (g, weight (g, w, p->proj_dim, 1), pixel_shuffle (g, p, cur));
}

/* janus_pro: build_ffn (mm.0 and its bias, the encoder's activation in place, mm.1 and its bias) */
static int
janus_pro_projector (Graph *g, const VcClipGraph *p, int cur)
{
  gint64 E = p->n_embd;

  cur = with (g, mul_mat (g, weight (g, E, p->proj_hidden, 1), cur), TRUE, p->proj_hidden);
  cur = unary (g, cur, NO_T);
  return with (g, mul_mat (g, weight (g, p->proj_hidden, p->proj_dim, 1), cur), TRUE, p->proj_dim);
}

/* lfm2: the pixel shuffle, the optional LayerNorm (ggml_norm, its weight; its bias), then
 * build_ffn (mm.1 and its bias, GELU in place, mm.2 and its bias) */
static int
lfm2_projector (Graph *g, const VcClipGraph *p, int cur)
{
  gint64 w = (gint64) p->n_merge * p->n_merge * p->n_embd;

  cur = pixel_shuffle (g, p, cur);
  if (p->in_norm)
    cur = unary (g, op (g, FALSE, w, T (g, cur)->ne[1], 1, 1, cur, NO_T, NO_T, NO_T), weight (g, w, 1, 1));
  cur = with (g, cur, p->in_norm_bias, w);
  cur = with (g, mul_mat (g, weight (g, w, p->proj_hidden, 1), cur), TRUE, p->proj_hidden);
  cur = unary (g, cur, NO_T);
  return with (g, mul_mat (g, weight (g, p->proj_hidden, p->proj_dim, 1), cur), TRUE, p->proj_dim);
}

/* clip_graph::build_norm: RMSNorm (in place) or LayerNorm (ggml_norm, never in place), its
 * weight, its bias */
static int
clip_norm (Graph *g, const VcClipGraph *p, int cur, gboolean bias)
{
  gint64 n = T (g, cur)->ne[0];

  if (!p->rms_norm)
    return layer_norm (g, cur, bias);
  return with (g, unary (g, unary (g, cur, NO_T), weight (g, n, 1, 1)), bias, n);
}

/* tools/mtmd/models/qwen2vl.cpp, build_inp_with_temporal_merge for one image: the two patch
 * kernels' convolutions added, then the 2 × 2 patch groups brought together (a permute, cont_4d,
 * reshape, permute, cont_3d): [n_embd, patches] */
static int
qwen2vl_input (Graph *g, const VcClipGraph *p)
{
  gint64 E = p->n_embd, side = p->image_size / p->patch_size;
  int raw = leaf (g, T_F32, F_INPUT, p->image_size, p->image_size, 3, 1);
  int c0 = patch_conv (g, p, raw), c1 = patch_conv (g, p, raw);
  int cur = unary (g, c0, c1);                                                   /* add */
  Tensor *t = T (g, cur);
  gint64 nb[4] = { t->nb[2], t->nb[0], t->nb[1], t->nb[3] };                    /* permute (1, 2, 0, 3) */

  cur = view (g, cur, E, side, side, 1, nb, 0);
  cur = op (g, FALSE, 2 * E, side / 2, side, 1, cur, NO_T, NO_T, NO_T);          /* cont_4d */
  cur = permute_0213 (g, reshape (g, cur, 2 * E, side / 2, 2, side / 2));
  return op (g, FALSE, E, side * side, 1, 1, cur, NO_T, NO_T, NO_T);             /* cont_3d */
}

/* qwen2vl.cpp's block: the norm, attention with M-RoPE (the window mask on windowed layers),
 * the residual, the norm, build_ffn (gated: the gate's and up's products, the GLU; or up and
 * the activation in place), the residual */
static int
qwen2vl_block (Graph *g, const VcClipGraph *p, int inpL, int pos, int pos2, int mask)
{
  gint64 E = p->n_embd, N = T (g, inpL)->ne[1];
  int cur = clip_attention (g, p, clip_norm (g, p, inpL, p->ln1_bias), pos, pos2, mask);
  int up, act;

  cur = unary (g, cur, inpL);                                                    /* residual */
  inpL = cur;
  cur = clip_norm (g, p, inpL, p->ln2_bias);
  up = with (g, mul_mat (g, weight (g, E, p->n_ff, 1), cur), p->up_bias, p->n_ff);
  if (p->ffn_gate)
    {
      int gate = with (g, mul_mat (g, weight (g, E, p->n_ff, 1), cur), p->gate_bias, p->n_ff);

      act = op (g, FALSE, p->n_ff, N, 1, 1, gate, up, NO_T, NO_T);               /* swiglu_split */
    }
  else
    act = unary (g, up, NO_T);                                                   /* the activation */
  cur = with (g, mul_mat (g, weight (g, p->n_ff, E, 1), act), p->down_bias, E);
  return unary (g, inpL, cur);                                                   /* residual */
}

/* clip_graph_qwen2vl::build (qwen2vl.cpp) for one image: the input, the positions (4 a patch),
 * the optional pre-norm; with window attention the window index and mask inputs (the mask cast
 * to f16 with flash attention) and the patch groups reordered (get_rows); the blocks, the
 * post-norm (the merger's ln_q), the merger (groups of 4 patches: mm.0 and its bias, GELU in
 * place, mm.2 and its bias) and, with windows, the result reordered back (get_rows) */
static int
qwen2vl_graph (Graph *g, const VcClipGraph *p)
{
  gint64 E = p->n_embd, side = p->image_size / p->patch_size, N = side * side;
  int cur = qwen2vl_input (g, p);
  int pos = leaf (g, T_I32, F_INPUT, 4 * N, 1, 1, 1);
  int mask = NO_T;

  if (p->pre_ln)
    cur = clip_norm (g, p, cur, p->pre_ln_bias);
  if (p->n_wa_pattern > 0)
    {
      int inv_idx = leaf (g, T_I32, F_INPUT, N / 4, 1, 1, 1);

      mask = leaf (g, T_F32, F_INPUT, N, N, 1, 1);
      if (p->flash_attn)
        mask = add (g, T_F16, OP_NEW, 0, N, N, 1, 1, mask, NO_T, NO_T, NO_T);    /* cast */
      cur = op (g, FALSE, 4 * E, N / 4, 1, 1, reshape (g, cur, 4 * E, N / 4, 1, 1), inv_idx, NO_T, NO_T);  /* get_rows */
      cur = reshape (g, cur, E, N, 1, 1);
    }
  for (guint il = 0; il < p->n_layer; il++)
    {
      gboolean full = p->n_wa_pattern == 0 || (il + 1) % p->n_wa_pattern == 0;

      cur = qwen2vl_block (g, p, cur, pos, NO_T, full ? NO_T : mask);
    }
  if (p->post_ln)
    cur = clip_norm (g, p, cur, p->post_ln_bias);
  cur = reshape (g, cur, 4 * E, N / 4, 1, 1);
  cur = with (g, mul_mat (g, weight (g, 4 * E, p->proj_hidden, 1), cur), TRUE, p->proj_hidden);
  cur = unary (g, cur, NO_T);                                                    /* gelu */
  cur = with (g, mul_mat (g, weight (g, p->proj_hidden, p->proj_dim, 1), cur), TRUE, p->proj_dim);
  if (p->n_wa_pattern > 0)
    {
      int idx = leaf (g, T_I32, F_INPUT, N / 4, 1, 1, 1);

      cur = op (g, FALSE, p->proj_dim, N / 4, 1, 1, reshape (g, cur, p->proj_dim, N / 4, 1, 1), idx, NO_T, NO_T);  /* get_rows */
      cur = reshape (g, cur, p->proj_dim, N / 4, 1, 1);
    }
  return cur;
}

/* qwen3vl.cpp's positions: the learned table (resized to the grid when its side differs,
 * resize_position_embeddings) brought into the same 2 × 2 patch groups as the patches (cont_4d,
 * reshape, permute, cont_3d) */
static int
qwen3vl_positions (Graph *g, const VcClipGraph *p)
{
  gint64 E = p->n_embd, side = p->image_size / p->patch_size;
  int cur = p->pos_side != 0 ? resized_positions (g, p) : leaf (g, T_F32, F_EXTERNAL, E, side * side, 1, 1);

  cur = op (g, FALSE, 2 * E, side / 2, side, 1, cur, NO_T, NO_T, NO_T);          /* cont_4d */
  cur = permute_0213 (g, reshape (g, cur, 2 * E, side / 2, 2, side / 2));
  return op (g, FALSE, E, side * side, 1, 1, cur, NO_T, NO_T, NO_T);             /* cont_3d */
}

/* clip_graph_qwen3vl::build (qwen3vl.cpp) for one image: the input of qwen2vl.cpp, the patch
 * bias, the grouped positions added, the positions input, the optional pre-norm; LayerNorm
 * blocks with a fused qkv, M-RoPE and a plain feed-forward block; after each block that has one,
 * a deepstack merger on the block's output as groups of 4 patches (LayerNorm of 4 · n_embd, its
 * weight and bias, fc1 and its bias, GELU in place, fc2 and its bias), each concatenated to the
 * ones before; the post-norm, the merger, then the deepstack features concatenated to it. The
 * deepstack mergers join the graph only through that last concat, so they run after the merger,
 * the blocks' outputs they take kept until then. */
static int
qwen3vl_graph (Graph *g, const VcClipGraph *p)
{
  gint64 E = p->n_embd, side = p->image_size / p->patch_size, N = side * side, E4 = 4 * E;
  int cur = with (g, qwen2vl_input (g, p), TRUE, E);                            /* the patch bias */
  int pos, ds = NO_T;

  cur = unary (g, cur, qwen3vl_positions (g, p));                               /* add */
  pos = leaf (g, T_I32, F_INPUT, 4 * N, 1, 1, 1);
  if (p->pre_ln)
    cur = clip_norm (g, p, cur, p->pre_ln_bias);
  for (guint il = 0; il < p->n_layer; il++)
    {
      cur = qwen2vl_block (g, p, cur, pos, NO_T, NO_T);
      if (il < 64 && (p->deepstack & (G_GUINT64_CONSTANT (1) << il)))
        {
          int f = layer_norm (g, reshape (g, cur, E4, N / 4, 1, 1), TRUE);

          f = with (g, mul_mat (g, weight (g, E4, p->proj_hidden, 1), f), TRUE, p->proj_hidden);
          f = unary (g, f, NO_T);                                                /* gelu */
          f = with (g, mul_mat (g, weight (g, p->proj_hidden, p->proj_dim, 1), f), TRUE, p->proj_dim);
          ds = ds == NO_T ? f : op (g, FALSE, T (g, ds)->ne[0] + p->proj_dim, N / 4, 1, 1, ds, f, NO_T, NO_T);  /* concat */
        }
    }
  if (p->post_ln)
    cur = clip_norm (g, p, cur, p->post_ln_bias);
  cur = reshape (g, cur, E4, N / 4, 1, 1);
  cur = with (g, mul_mat (g, weight (g, E4, p->proj_hidden, 1), cur), TRUE, p->proj_hidden);
  cur = unary (g, cur, NO_T);                                                    /* gelu */
  cur = with (g, mul_mat (g, weight (g, p->proj_hidden, p->proj_dim, 1), cur), TRUE, p->proj_dim);
  if (ds != NO_T)
    cur = op (g, FALSE, p->proj_dim + T (g, ds)->ne[0], N / 4, 1, 1, cur, ds, NO_T, NO_T);  /* concat */
  return cur;
}

/* clip_graph_pixtral::build (pixtral.cpp) for one image: build_inp, the row and column
 * positions, build_vit with RMSNorm and 2-D RoPE (build_rope_2d: a rope of q and k, then a second
 * in place), the blocks as qwen2vl.cpp's (gated feed-forward block); Mistral 3's patch merger
 * (RMSNorm and mm.input_norm in place, the grid permuted and copied, im2col of n_merge × n_merge
 * in f32, mm.patch_merger); build_ffn (mm.1, GELU in place, mm.2, their optional biases); the
 * [IMG_BREAK] rows: a new tensor of one row per grid row, scaled and added in place, concatenated */
static int
pixtral_graph (Graph *g, const VcClipGraph *p)
{
  gint64 E = p->n_embd, side = p->image_size / p->patch_size, N = side * side, m = p->n_merge, q = side / m;
  int cur = clip_input (g, p);
  int pos_h = leaf (g, T_I32, F_INPUT, N, 1, 1, 1), pos_w = leaf (g, T_I32, F_INPUT, N, 1, 1, 1);
  gint64 T_;
  int tok;

  if (p->pre_ln)
    cur = clip_norm (g, p, cur, p->pre_ln_bias);
  for (guint il = 0; il < p->n_layer; il++)
    cur = qwen2vl_block (g, p, cur, pos_h, pos_w, NO_T);
  if (p->post_ln)
    cur = clip_norm (g, p, cur, p->post_ln_bias);
  if (p->patch_merger)
    {
      Tensor *t;
      gint64 nb[4];

      cur = unary (g, unary (g, cur, NO_T), weight (g, E, 1, 1));              /* rms_norm, mul */
      cur = reshape (g, cur, E, side, side, 1);
      t = T (g, cur);
      nb[0] = t->nb[1], nb[1] = t->nb[2], nb[2] = t->nb[0], nb[3] = t->nb[3];   /* permute (2, 0, 1, 3) */
      cur = op (g, FALSE, side, side, E, 1, view (g, cur, side, side, E, 1, nb, 0), NO_T, NO_T, NO_T);  /* cont */
      cur = add (g, T_F32, OP_NEW, 0, E * m * m, q, q, 1, view (g, cur, m, m, E, 1, NULL, 0), cur, NO_T, NO_T);  /* im2col */
      cur = mul_mat (g, weight (g, E * m * m, E, 1), reshape (g, cur, E * m * m, q * q, 1, 1));
    }
  cur = with (g, mul_mat (g, weight (g, E, p->proj_hidden, 1), cur), p->mm1_bias, p->proj_hidden);
  cur = unary (g, cur, NO_T);                                                    /* gelu */
  cur = with (g, mul_mat (g, weight (g, p->proj_hidden, p->proj_dim, 1), cur), p->mm2_bias, p->proj_dim);
  T_ = p->proj_dim;
  tok = unary (g, unary (g, leaf (g, T_F32, 0, T_, 1, q, 1), NO_T), weight (g, T_, 1, 1));  /* scale, add */
  cur = op (g, FALSE, T_, q + 1, q, 1, reshape (g, cur, T_, q, q, 1), tok, NO_T, NO_T);       /* concat */
  return view (g, cur, T_, q * q + q - 1, 1, 1, NULL, 0);
}

static int
clip_projector (Graph *g, const VcClipGraph *p, int cur)
{
  switch (p->projector)
    {
    case VC_CLIP_IDEFICS3:
      return idefics3_projector (g, p, cur);
    case VC_CLIP_JANUS_PRO:
      return janus_pro_projector (g, p, cur);
    case VC_CLIP_LFM2:
      return lfm2_projector (g, p, cur);
    case VC_CLIP_GEMMA3:
    default:
      return gemma3_projector (g, p, cur);
    }
}

double
vc_llama_graph_clip_bytes (const VcClipGraph *p)
{
  Graph g = { 0 };
  double size;
  int out;

  if (p->patch_size == 0 || p->image_size < p->patch_size || p->n_merge == 0 ||
      (p->image_size / p->patch_size) % p->n_merge != 0 ||
      ((p->projector == VC_CLIP_QWEN2VL || p->projector == VC_CLIP_QWEN3VL) && (p->n_merge != 2 || p->image_size % (2 * p->patch_size) != 0)) || p->n_layer == 0 || p->n_embd == 0 ||
      p->head_dim == 0 || p->n_head == 0 || p->n_ff == 0 || p->proj_dim == 0 ||
      (p->projector != VC_CLIP_GEMMA3 && p->projector != VC_CLIP_IDEFICS3 && p->proj_hidden == 0))
    return 0;
  g.t = g_array_sized_new (FALSE, FALSE, sizeof (Tensor), 64 + 64 * p->n_layer);
  g.nodes = g_array_sized_new (FALSE, FALSE, sizeof (int), 64 + 48 * p->n_layer);
  g.leafs = g_array_sized_new (FALSE, FALSE, sizeof (int), 64 + 32 * p->n_layer);
  g.blocks = g_array_sized_new (FALSE, FALSE, sizeof (Block), 64);
  g.alignment = MAX (1u, p->alignment);
  if (p->projector == VC_CLIP_QWEN2VL)
    out = qwen2vl_graph (&g, p);
  else if (p->projector == VC_CLIP_QWEN3VL)
    out = qwen3vl_graph (&g, p);
  else if (p->projector == VC_CLIP_PIXTRAL)
    out = pixtral_graph (&g, p);
  else
    out = clip_projector (&g, p, clip_encoder (&g, p, clip_input (&g, p)));
  expand (&g, out);
  size = (double) place (&g);
  g_array_unref (g.t);
  g_array_unref (g.nodes);
  g_array_unref (g.leafs);
  g_array_unref (g.blocks);
  return size;
}
