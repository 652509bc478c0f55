/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-solver.c: the largest sequence, batch or concurrency that fits a GPU, exactly.
 *
 * Every component of the estimate grows with each of the three inputs or stays flat (the KV
 * cache stops at a sliding window, inference activations at the prefill chunk), so "fits" is
 * true up to some value and false after it. The search keeps a bracket [fits, does not fit]
 * and probes where the straight line between its ends crosses the capacity: the estimate is
 * piecewise linear in each input, so that guess is usually exact and a probe on either side of
 * it closes the bracket in three or four estimates. When a guess does not halve the bracket,
 * the next probe bisects it, so no shape of the curve takes more than about 2·log2(range)
 * estimates. The answer is an integer checked by the estimator itself: the estimate at
 * `value` fits, at `value` + 1 it does not, unless the model's context or the input's range
 * stops it first.
 */
#define G_LOG_DOMAIN "vc-solver"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "vc-batch-key.h"
#include "vc-engine.h"
#include "vc-layout.h"
#include "vc-solver.h"
#include "vc-training-rules.h"

/* The largest accepted value of each input (vc-estimator.h), as the estimate's property specs
 * accept it. */
guint
vc_solver_input_max (VcSolveVariable variable)
{
  static const guint max[] = { VC_MAX_SEQ, VC_MAX_BATCH, VC_MAX_CONCURRENCY };

  g_return_val_if_fail (variable <= VC_SOLVE_VARIABLE_CONCURRENCY, 1);
  return max[variable];
}

/* Concurrency is a serving notion: training has a batch and a sequence only. */
gboolean
vc_solver_applies (VcMode          mode,
                   VcSolveVariable variable)
{
  return variable != VC_SOLVE_VARIABLE_CONCURRENCY || mode == VC_MODE_INFERENCE;
}

/* The model's maximum context, when the estimate knows the model: the architecture method with
 * a context recorded by a preset, a config.json or the user. 0: unknown. The rule of thumb
 * sizes a parameter count, which says nothing of a context. */
guint
vc_solver_model_context (const VcInputs *in)
{
  return in->method == VC_METHOD_ARCHITECTURE ? in->arch.max_context : 0;
}

guint
vc_solver_get (const VcInputs  *in,
               VcSolveVariable  variable)
{
  switch (variable)
    {
    case VC_SOLVE_VARIABLE_BATCH: return in->batch;
    case VC_SOLVE_VARIABLE_CONCURRENCY: return in->concurrency;
    case VC_SOLVE_VARIABLE_SEQ:
    default: return in->seq;
    }
}

void
vc_solver_set (VcInputs        *in,
               VcSolveVariable  variable,
               guint            value)
{
  switch (variable)
    {
    case VC_SOLVE_VARIABLE_BATCH: in->batch = value; break;
    case VC_SOLVE_VARIABLE_CONCURRENCY: in->concurrency = value; break;
    case VC_SOLVE_VARIABLE_SEQ:
    default: in->seq = value; break;
    }
}

/* ---- the estimates of one solve, shared by the solves of the same inputs --------------------- */

/* The estimate at one value of the variable: what does not depend on the card. The
 * allocator's reserve is added when first needed, the layouts of the cards searched are kept
 * for the next card. */
typedef struct
{
  VcResult res;                    /* its reserve added when `reserve_added` */
  double total;                    /* the selected scenario's total, before its reserve */
  gboolean reserve_added;
  VcLayoutMemo *layouts;           /* NULL before the first layout search */
} Evaluation;

#define N_VARIABLES (VC_SOLVE_VARIABLE_CONCURRENCY + 1)

/* Past this many estimates (several hundred kB) a memo starts again */
#define MEMO_MAX 4096

struct _VcSolverMemo
{
  /* the value at the card's vLLM batch, the one way an estimate depends on the card
   * (vc_engine_on_card()) → Evaluation */
  GHashTable *evaluations[N_VARIABLES];
};

static void
evaluation_free (gpointer data)
{
  Evaluation *e = data;

  vc_layout_memo_free (e->layouts);
  g_free (e);
}

VcSolverMemo *
vc_solver_memo_new (void)
{
  VcSolverMemo *memo = g_new0 (VcSolverMemo, 1);

  for (guint v = 0; v < N_VARIABLES; v++)
    memo->evaluations[v] = vc_batch_key_table_new (evaluation_free);
  return memo;
}

void
vc_solver_memo_free (VcSolverMemo *memo)
{
  if (memo == NULL)
    return;
  for (guint v = 0; v < N_VARIABLES; v++)
    g_hash_table_unref (memo->evaluations[v]);
  g_free (memo);
}

/* The estimate of `probe` (the inputs with the variable at `value`), from the memo when it has
 * it (NULL: none, the estimate goes to `scratch`) */
static Evaluation *
evaluation_get (VcSolverMemo    *memo,
                const VcInputs  *probe,
                VcSolveVariable  variable,
                guint            value,
                Evaluation      *scratch)
{
  VcBatchKey key = vc_batch_key (probe, value);
  Evaluation *e;

  if (memo != NULL)
    {
      e = g_hash_table_lookup (memo->evaluations[variable], &key);
      if (e != NULL)
        return e;
      if (g_hash_table_size (memo->evaluations[variable]) >= MEMO_MAX)
        g_hash_table_remove_all (memo->evaluations[variable]);
      e = g_new0 (Evaluation, 1);
      g_hash_table_insert (memo->evaluations[variable], vc_batch_key_dup (&key), e);
    }
  else
    {
      e = scratch;
      memset (e, 0, sizeof *e);
    }
  vc_estimator_compute (probe, &e->res);
  e->total = e->res.scenarios[e->res.selected].total;
  return e;
}

/* vLLM's MXFP4 experts as @gpu's backend pads them on one card (vc_engine_vllm_mxfp4_extra):
 * 0 without a card, or where the backend is not followed */
static double
one_card_padding (const VcInputs *in,
                  const VcGpu    *gpu)
{
  double padding = 0;

  if (gpu == NULL || !vc_engine_vllm_mxfp4_extra (in, gpu, 1, &padding))
    return 0;
  return padding;
}

/* What vc_solver_fits_at() says, from the memo's estimates when it has them, on @gpu when
 * given (its MXFP4 padding counted at each layout's TP degree) */
static gboolean
fits_at (VcSolverMemo    *memo,
         const VcGpu     *gpu,
         const VcInputs  *in,
         VcSolveVariable  variable,
         guint            value,
         double           capacity,
         guint            gpu_count,
         double          *bytes)
{
  VcInputs probe = *in;
  Evaluation scratch;
  Evaluation *e;
  const VcScenarioResult *sc;
  VcLayout layout;
  VcLayoutResult out;
  double usable, reserved;
  gboolean found;

  gpu_count = MAX (1u, gpu_count);
  vc_solver_set (&probe, variable, value);
  /* vLLM's batch of this card (its defaults unless given): the profile run it reserves */
  vc_engine_on_card (&probe, gpu, &probe);
  e = evaluation_get (memo, &probe, variable, value, &scratch);
  sc = &e->res.scenarios[e->res.selected];
  usable = vc_engine_usable_bytes (&probe, capacity, sc->bytes[VC_COMPONENT_OVERHEAD]);
  /* a plain estimate on one card: the smallest layout is that card alone when it holds it all */
  /* training: the caching allocator's reserve is what meets the card's capacity; never below
   * the total, it is needed only when the total fits */
  reserved = e->total;
  if (e->total <= usable)
    {
      if (!e->reserve_added)
        vc_estimator_add_reserve (&probe, &e->res);
      e->reserve_added = TRUE;
      reserved = sc->reserved;
    }
  /* vLLM does not start with MXFP4 experts below compute capability 8.0 */
  if (vc_engine_vllm_mxfp4_refused (&probe, gpu))
    {
      *bytes = e->total / gpu_count;
      return FALSE;
    }
  if (vc_layout_is_default (&probe.layout))
    {
      /* one card: its padding at TP 1 beside the estimate, and vLLM's cache as given
       * (vc_engine_vllm_given_cache()), which the requests must fit in */
      double padding = one_card_padding (&probe, gpu), extra;
      gboolean held = vc_engine_vllm_given_cache (&probe, sc->bytes[VC_COMPONENT_KV_CACHE] +
                                                          sc->bytes[VC_COMPONENT_SEQUENCE_STATE], &extra);

      if ((held && reserved + padding + extra <= usable) || gpu_count == 1)
        {
          *bytes = reserved + padding + extra;
          return held && reserved + padding + extra <= usable;
        }
    }
  /* the layouts read the scenarios' components, never their reserve */
  if (memo != NULL)
    {
      if (e->layouts == NULL)
        e->layouts = vc_layout_memo_new ();
      found = vc_layout_smallest_memo (e->layouts, &probe, &e->res, e->res.selected, usable, gpu, &layout, &out);
    }
  else
    {
      g_autoptr(VcLayoutMemo) layouts = vc_layout_memo_new ();

      found = vc_layout_smallest_memo (layouts, &probe, &e->res, e->res.selected, usable, gpu, &layout, &out);
    }
  if (!found)
    {
      *bytes = e->total / gpu_count;
      return FALSE;
    }
  *bytes = out.reserved;
  return vc_layout_n_gpus (&layout) <= gpu_count;
}

/* Whether the selected scenario, with the variable at `value`, fits on `gpu_count` cards of
 * `capacity`, counted as the GPU table counts: what the engine lets the model use of a card
 * (vLLM's and SGLang's memory share), the whole estimate on one card, else the busiest GPU of
 * the card's smallest valid layout (vc-layout.c), which must use at most `gpu_count` cards.
 * `bytes`: the estimate on one card, or that busiest GPU; when no layout holds it, the estimate
 * split evenly, for the record. */
gboolean
vc_solver_fits_at (const VcInputs  *in,
                   VcSolveVariable  variable,
                   guint            value,
                   double           capacity,
                   guint            gpu_count,
                   double          *bytes)
{
  return fits_at (NULL, NULL, in, variable, value, capacity, gpu_count, bytes);
}

/* vc_solver_fits_at() with the estimates of `memo` (vc_solver_solve_memo()): the same answer;
 * on @gpu when given, whose MXFP4 padding under vLLM each layout counts at its TP degree
 * (vc_layout_smallest_memo()) */
gboolean
vc_solver_fits_at_memo (VcSolverMemo    *memo,
                        const VcGpu     *gpu,
                        const VcInputs  *in,
                        VcSolveVariable  variable,
                        guint            value,
                        double           capacity,
                        guint            gpu_count,
                        double          *bytes)
{
  return fits_at (memo, gpu, in, variable, value, capacity, gpu_count, bytes);
}

/* The selected scenario's components on one GPU with the variable at `value`: a point of the
 * memory-versus-context chart. Returns the total. */
double
vc_solver_components_at (const VcInputs  *in,
                         VcSolveVariable  variable,
                         guint            value,
                         double           bytes[VC_N_COMPONENTS])
{
  VcInputs probe = *in;
  VcResult res;
  const VcScenarioResult *sc;

  vc_solver_set (&probe, variable, value);
  vc_estimator_compute (&probe, &res);
  sc = &res.scenarios[res.selected];
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    bytes[c] = sc->bytes[c];
  return sc->total;
}

/* One search of vc_solver_solve(): what it fits, and the bracket it narrows. Invariant: `lo`
 * fits (its bytes `f_lo`), `hi` does not (`f_hi`); the bytes only guide the guesses, the fits
 * decide. */
typedef struct
{
  VcSolverMemo    *memo;
  const VcGpu     *gpu;
  const VcInputs  *in;
  VcSolveVariable  variable;
  double           capacity;
  guint            gpu_count;
  VcSolution      *sol;
  /* on one card the bytes grow with the variable, piecewise linearly, and guide the guesses; a
   * layout's busiest GPU drops when the layout grows, so over several cards plain bisection */
  gboolean         guided;
  guint            step;           /* the variable moves by steps of this many (CP's sequence) */
  guint            lo, hi;
  double           f_lo, f_hi;
} Search;

/* Whether the variable at `value` fits; one more evaluation counted. */
static gboolean
search_fits (Search *s,
             guint   value,
             double *bytes)
{
  s->sol->n_evaluations++;
  return fits_at (s->memo, s->gpu, s->in, s->variable, value * s->step, s->capacity, s->gpu_count, bytes);
}

/* Probes `value`, inside the bracket, and moves the end of the bracket it belongs to. */
static gboolean
search_narrow (Search *s,
               guint   value)
{
  double f;

  if (search_fits (s, value, &f))
    {
      s->lo = value;
      s->f_lo = f;
      return TRUE;
    }
  s->hi = value;
  s->f_hi = f;
  return FALSE;
}

/* The next probe: where the straight line between the bracket's ends crosses the capacity,
 * else (not guided, the last guess did not halve the bracket, or the bytes do not help) its
 * middle. */
static guint
search_guess (const Search *s,
              gboolean      bisect)
{
  guint width = s->hi - s->lo;
  double t;

  if (!s->guided || bisect || !(s->f_hi > s->f_lo) || !isfinite (s->f_hi))
    return s->lo + width / 2;
  t = (s->capacity - s->f_lo) / (s->f_hi - s->f_lo) * width;
  return s->lo + (guint) CLAMP (t, 1.0, (double) (width - 1));
}

/* Narrows the bracket until its ends are neighbours. */
static void
search_bracket (Search *s)
{
  gboolean bisect = FALSE;

  while (s->hi - s->lo > 1)
    {
      guint width = s->hi - s->lo;
      guint g = search_guess (s, bisect);
      gboolean fits = search_narrow (s, g);

      /* the guess is often exact: its neighbour closes the bracket */
      if (s->guided && s->hi - s->lo > 1)
        search_narrow (s, fits ? g + 1 : g - 1);
      bisect = (s->hi - s->lo) > width / 2;
    }
}

/* vc_solver_solve() with the estimates of earlier solves of the same inputs (other cards, other
 * counts): `memo` belongs to `in` as it stands, and is dropped when an input changes. The same
 * search, the same probes and answer; an estimate already made is not made again. On @gpu when
 * given (NULL: `capacity` alone): vLLM's MXFP4 experts count as its backend pads them at each
 * layout's TP degree. */
void
vc_solver_solve_memo (VcSolverMemo    *memo,
                      const VcGpu     *gpu,
                      const VcInputs  *in,
                      VcSolveVariable  variable,
                      double           capacity,
                      guint            gpu_count,
                      VcSolution      *sol)
{
  guint top = vc_solver_input_max (variable);
  guint context = variable == VC_SOLVE_VARIABLE_SEQ ? vc_solver_model_context (in) : 0;
  VcSolveLimit top_limit = VC_SOLVE_LIMIT_NONE;
  /* context parallelism: the CP ranks share each sequence, so a card of them trains with its
   * CP - 1 peers, and the sequence is a multiple of 2 × CP (vc_training_rules_check()) */
  guint cp = vc_training_cp (in);
  Search s = {
    .memo = memo,
    .gpu = gpu,
    .in = in,
    .variable = variable,
    .capacity = capacity,
    .gpu_count = MAX (MAX (1u, gpu_count), cp),
    .sol = sol,
    .guided = gpu_count <= 1 && vc_layout_is_default (&in->layout),
    .step = variable == VC_SOLVE_VARIABLE_SEQ && cp > 1 ? VC_CP_CHUNKS_PER_RANK * cp : 1,
  };

  *sol = (VcSolution) {
    .variable = variable,
    .limit = VC_SOLVE_LIMIT_MEMORY,
    .gpu_count = s.gpu_count,
    .capacity_bytes = capacity,
  };
  if (context > 0 && context <= top)
    {
      top = context;
      top_limit = VC_SOLVE_LIMIT_MODEL_CONTEXT;
    }
  /* searched in steps: 1 … top / step */
  top = MAX (1u, top / s.step);

  if (!search_fits (&s, 1, &s.f_lo))
    {
      VcInputs probe = *in;
      Evaluation scratch;
      const Evaluation *e;

      sol->total_bytes = s.f_lo;
      /* the message compares the need with what the engine may use, not with the card */
      vc_solver_set (&probe, variable, s.step);
      vc_engine_on_card (&probe, gpu, &probe);
      e = evaluation_get (memo, &probe, variable, s.step, &scratch);
      sol->usable_bytes = vc_engine_usable_bytes (&probe, capacity,
                                                  e->res.scenarios[e->res.selected].bytes[VC_COMPONENT_OVERHEAD]);
      if (vc_engine_vllm_mxfp4_refused (in, gpu))
        sol->limit = VC_SOLVE_LIMIT_ENGINE;
      return;
    }
  sol->found = TRUE;
  if (top <= 1 || search_fits (&s, top, &s.f_hi))
    {
      sol->value = top * s.step;
      sol->limit = top_limit;
      sol->total_bytes = top <= 1 ? s.f_lo : s.f_hi;
      return;
    }

  s.lo = 1;
  s.hi = top;
  search_bracket (&s);
  sol->value = s.lo * s.step;
  sol->total_bytes = s.f_lo;
}

void
vc_solver_solve (const VcInputs  *in,
                 VcSolveVariable  variable,
                 double           capacity,
                 guint            gpu_count,
                 VcSolution      *sol)
{
  vc_solver_solve_memo (NULL, NULL, in, variable, capacity, gpu_count, sol);
}

/* The smallest count of a GPU that holds the estimate as it stands: the count the GPU table
 * shows: its smallest valid layout (vc-layout.c). 0 when no count is enough. */
guint
vc_solver_min_gpus (const VcInputs *in,
                    double          capacity)
{
  VcResult res;
  VcLayout layout;
  VcLayoutResult out;
  const VcScenarioResult *sc;

  vc_estimator_compute (in, &res);
  sc = &res.scenarios[res.selected];
  if (!vc_layout_smallest (in, &res, res.selected,
                           vc_engine_usable_bytes (in, capacity, sc->bytes[VC_COMPONENT_OVERHEAD]),
                           &layout, &out))
    return 0;
  return vc_layout_n_gpus (&layout);
}

/* "59,944 tokens", "12 sequences", "251 requests": the value with its unit, grouped as the
 * locale groups thousands. */
char *
vc_solution_format_value (const VcSolution *sol)
{
  g_autofree char *n = g_strdup_printf ("%'u", sol->value);

  switch (sol->variable)
    {
    case VC_SOLVE_VARIABLE_BATCH:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sequence", "%s sequences", sol->value), n);
    case VC_SOLVE_VARIABLE_CONCURRENCY:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s request", "%s requests", sol->value), n);
    case VC_SOLVE_VARIABLE_SEQ:
    default:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s token", "%s tokens", sol->value), n);
    }
}

const char *
vc_solve_limit_name (VcSolveLimit limit)
{
  switch (limit)
    {
    case VC_SOLVE_LIMIT_MODEL_CONTEXT: return _("the model's maximum context");
    case VC_SOLVE_LIMIT_NONE: return _("none below the largest value accepted");
    case VC_SOLVE_LIMIT_ENGINE: return _("vLLM refuses MXFP4 below compute capability 8.0");
    case VC_SOLVE_LIMIT_MEMORY:
    default: return _("memory");
    }
}

/* The table's line: "Longest sequence that fits on 1 × H100 80 GB: 183,296 tokens (limit:
 * memory)", or why nothing does. `gpu_name` names one card; sizes are formatted by the caller
 * (NULL: the sentence without them). */
char *
vc_solution_describe (const VcSolution *sol,
                      const char       *gpu_name,
                      const char       *need_text,
                      const char       *capacity_text)
{
  g_autofree char *value = NULL;

  /* the engine does not start on the card: no value runs there, whatever the memory */
  if (!sol->found && sol->limit == VC_SOLVE_LIMIT_ENGINE)
    /* TRANSLATORS: GPU count, GPU name */
    return g_strdup_printf (_("Nothing runs on %u × %s: vLLM refuses MXFP4 below compute capability 8.0 "
                              "(Mxfp4Config.get_min_capability), so it does not start there"),
                            sol->gpu_count, gpu_name);
  if (!sol->found && need_text == NULL)
    switch (sol->variable)
      {
      case VC_SOLVE_VARIABLE_BATCH:
        /* TRANSLATORS: GPU count, GPU name */
        return g_strdup_printf (_("Not even a batch of 1 fits on %u × %s"), sol->gpu_count, gpu_name);
      case VC_SOLVE_VARIABLE_CONCURRENCY:
        return g_strdup_printf (_("Not even 1 request fits on %u × %s"), sol->gpu_count, gpu_name);
      case VC_SOLVE_VARIABLE_SEQ:
      default:
        return g_strdup_printf (_("Not even a sequence of 1 token fits on %u × %s"), sol->gpu_count, gpu_name);
      }
  /* what each GPU would hold fits, but the smallest layout takes more GPUs than given */
  if (!sol->found && sol->total_bytes <= sol->usable_bytes)
    switch (sol->variable)
      {
      case VC_SOLVE_VARIABLE_BATCH:
        /* TRANSLATORS: GPU count, GPU name, GPU count */
        return g_strdup_printf (_("Not even a batch of 1 fits on %u × %s: its smallest layout takes more than %u GPUs"),
                                sol->gpu_count, gpu_name, sol->gpu_count);
      case VC_SOLVE_VARIABLE_CONCURRENCY:
        return g_strdup_printf (_("Not even 1 request fits on %u × %s: its smallest layout takes more than %u GPUs"),
                                sol->gpu_count, gpu_name, sol->gpu_count);
      case VC_SOLVE_VARIABLE_SEQ:
      default:
        return g_strdup_printf (_("Not even a sequence of 1 token fits on %u × %s: its smallest layout takes more than %u GPUs"),
                                sol->gpu_count, gpu_name, sol->gpu_count);
      }
  if (!sol->found)
    switch (sol->variable)
      {
      case VC_SOLVE_VARIABLE_BATCH:
        /* TRANSLATORS: GPU count, GPU name, memory needed per GPU, memory usable on one GPU */
        return g_strdup_printf (_("Not even a batch of 1 fits on %u × %s: it needs %s per GPU, of %s usable"),
                                sol->gpu_count, gpu_name, need_text, capacity_text);
      case VC_SOLVE_VARIABLE_CONCURRENCY:
        return g_strdup_printf (_("Not even 1 request fits on %u × %s: it needs %s per GPU, of %s usable"),
                                sol->gpu_count, gpu_name, need_text, capacity_text);
      case VC_SOLVE_VARIABLE_SEQ:
      default:
        return g_strdup_printf (_("Not even a sequence of 1 token fits on %u × %s: it needs %s per GPU, of %s usable"),
                                sol->gpu_count, gpu_name, need_text, capacity_text);
      }

  value = vc_solution_format_value (sol);
  switch (sol->variable)
    {
    case VC_SOLVE_VARIABLE_BATCH:
      /* TRANSLATORS: GPU count, GPU name, "12 sequences", what limits it ("memory") */
      return g_strdup_printf (_("Largest batch that fits on %u × %s: %s (limit: %s)"),
                              sol->gpu_count, gpu_name, value, vc_solve_limit_name (sol->limit));
    case VC_SOLVE_VARIABLE_CONCURRENCY:
      return g_strdup_printf (_("Most concurrent requests that fit on %u × %s: %s (limit: %s)"),
                              sol->gpu_count, gpu_name, value, vc_solve_limit_name (sol->limit));
    case VC_SOLVE_VARIABLE_SEQ:
    default:
      return g_strdup_printf (_("Longest sequence that fits on %u × %s: %s (limit: %s)"),
                              sol->gpu_count, gpu_name, value, vc_solve_limit_name (sol->limit));
    }
}
