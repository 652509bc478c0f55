/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-catalog.c: loading the models of data/models/ and data/gpus.json from the core's resources. */
#define G_LOG_DOMAIN "vc-catalog"

#include "config.h"

#include <gio/gio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vc-catalog.h"
#include "vc-error.h"
#include "vc-hf-config.h"

#define RESOURCE_PREFIX "/io/github/vramcalc/VramCalculator/core/"

static VcPreset *presets;
static guint n_presets;
static VcGpu *gpus;
static guint n_gpus;

gboolean
vc_arch_update_from_json (VcArch     *arch,
                          JsonObject *object,
                          const char *context,
                          GError    **error)
{
  guint n;
  const VcArchField *fields = vc_arch_fields (&n);

  for (guint i = 0; i < n; i++)
    {
      const VcArchField *f = &fields[i];
      JsonNode *node = json_object_get_member (object, f->name);
      GType vtype;
      guint value;

      if (node == NULL)
        continue;
      vtype = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

      switch (f->type)
        {
        case VC_ARCH_FIELD_BOOL:
          if (vtype != G_TYPE_BOOLEAN)
            goto wrong_type;
          value = json_node_get_boolean (node);
          break;
        case VC_ARCH_FIELD_NORM:
          {
            const char *s = vtype == G_TYPE_STRING ? json_node_get_string (node) : NULL;

            if (g_strcmp0 (s, "rms") == 0)
              value = VC_NORM_RMS;
            else if (g_strcmp0 (s, "layer") == 0)
              value = VC_NORM_LAYER;
            else
              goto wrong_type;
          }
          break;
        case VC_ARCH_FIELD_UINT:
        default:
          {
            double v;

            if (vtype != G_TYPE_INT64 && vtype != G_TYPE_DOUBLE)
              goto wrong_type;
            v = json_node_get_double (node);
            if (!isfinite (v) || v != floor (v) || v < f->min || v > f->max)
              {
                g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                             "%s: “%s” is %g; accepted: a whole number from %u to %u",
                             context, f->name, v, f->min, f->max);
                return FALSE;
              }
            value = (guint) v;
          }
          break;
        }
      vc_arch_field_set (arch, f, value);
      continue;

    wrong_type:
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   "%s: “%s” has the wrong type; expected %s", context, f->name,
                   f->type == VC_ARCH_FIELD_BOOL ? "true or false" :
                   f->type == VC_ARCH_FIELD_NORM ? "\"rms\" or \"layer\"" : "a whole number");
      return FALSE;
    }
  return TRUE;
}

static GBytes *
resource (const char *file)
{
  g_autofree char *path = g_strconcat (RESOURCE_PREFIX, file, NULL);
  g_autoptr(GError) error = NULL;
  GBytes *bytes = g_resources_lookup_data (path, 0, &error);

  if (bytes == NULL)
    g_error ("built-in %s is missing: %s", file, error->message);
  return bytes;
}

static JsonArray *
load_array (const char *file,
            const char *member,
            JsonParser *parser)
{
  g_autoptr(GBytes) bytes = resource (file);
  g_autoptr(GError) error = NULL;
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);
  JsonNode *root;

  if (!json_parser_load_from_data (parser, data, size, &error))
    g_error ("built-in %s is malformed: %s", file, error->message);
  root = json_parser_get_root (parser);
  return json_object_get_array_member (json_node_get_object (root), member);
}

static char *
string_member (JsonObject *o,
               const char *id,
               const char *member)
{
  const char *s = json_object_get_string_member_with_default (o, member, NULL);

  if (s == NULL || *s == '\0')
    g_error ("built-in model %s: “%s” is missing", id, member);
  return g_strdup (s);
}

/* What the search matches: the name, id, families and repository (which carry the size:
 * "70B", "30b-a3b"), and "moe" or "dense", and "vision". */
static char *
search_text_of (const VcPreset *p)
{
  g_autofree char *text = g_strdup_printf ("%s %s %s %s %s %s%s", p->name, p->id, p->family_name,
                                           p->family, p->repository,
                                           vc_arch_is_moe (&p->arch) ? "moe" : "dense",
                                           p->vision ? " vision" : "");

  return g_utf8_strdown (text, -1);
}

/* A model's processor files (preprocessor_config.json, then video_preprocessor_config.json)
 * beside its config.json in data/models, read as vc-hf-config.c reads them beside a config.json
 * in a folder (read_preprocessor_beside), where the index names their source
 * ("processor_source"): the same files give the same figures */
static void
load_processor (const VcPreset *p,
                VcHfConfig     *config)
{
  static const char *const names[] = { "preprocessor_config.json", "video_preprocessor_config.json" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *file = g_strconcat ("models/", p->id, "/", names[i], NULL);
      g_autoptr(GBytes) bytes = resource (file);
      g_autoptr(GError) error = NULL;
      gsize size;
      const char *data = g_bytes_get_data (bytes, &size);
      gboolean ok = i == 0 ? vc_hf_config_read_preprocessor (config, data, size, names[i], &error) :
                             vc_hf_config_read_video_preprocessor (config, data, size, names[i], &error);

      if (!ok)
        g_error ("built-in model %s: %s", p->id, error->message);
    }
}

/* One model: its config.json read as an import is, exact or the build is broken. */
static void
load_model (VcPreset   *p,
            JsonObject *o)
{
  g_autofree char *file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(VcHfConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  const VcParamCounts *counts;
  gsize size;
  const char *data;

  p->name = string_member (o, p->id, "name");
  p->family_name = string_member (o, p->id, "family");
  p->repository = string_member (o, p->id, "repository");
  p->released = string_member (o, p->id, "released");
  p->config_source = string_member (o, p->id, "config_source");
  p->source = string_member (o, p->id, "published_source");
  p->published_total = json_object_get_double_member_with_default (o, "published_parameters", 0);
  p->published_unit = json_object_get_double_member_with_default (o, "published_unit", 0);
  p->published_truncated = json_object_get_boolean_member_with_default (o, "published_truncated", FALSE);
  p->published_uncounted = json_object_get_double_member_with_default (o, "published_uncounted_parameters", 0);
  p->published_active = json_object_get_double_member_with_default (o, "published_active_parameters", 0);
  p->published_active_unit = json_object_get_double_member_with_default (o, "published_active_unit", 0);
  p->active_source = g_strdup (json_object_get_string_member_with_default (o, "published_active_source", ""));
  p->vision = json_object_get_boolean_member_with_default (o, "vision", FALSE);
  p->suggested = (guint) CLAMP (json_object_get_int_member_with_default (o, "suggested", 0), 0, G_MAXUINT);
  p->processor_source = g_strdup (json_object_get_string_member_with_default (o, "processor_source", ""));
  if (!(p->published_total > 0) || !(p->published_unit > 0))
    g_error ("built-in model %s: no published parameter count", p->id);

  file = g_strconcat ("models/", p->id, "/config.json", NULL);
  bytes = resource (file);
  data = g_bytes_get_data (bytes, &size);
  config = vc_hf_config_new_from_data (data, size, file, p->name, &error);
  if (config == NULL || !vc_hf_config_check_exact (config, &error))
    g_error ("built-in model %s: %s", p->id, error->message);
  if (*p->processor_source != '\0')
    load_processor (p, config);
  p->arch = *vc_hf_config_get_arch (config);
  p->family = g_strdup (vc_hf_config_get_family (config));
  p->max_context = vc_hf_config_get_max_context (config);
  counts = vc_hf_config_get_counts (config);
  p->published_parameters = counts->total;
  /* the activated count the estimate takes: the module count, or where the catalog gives one
   * (a seed preset's published figure), that */
  p->published_active_parameters = vc_arch_is_moe (&p->arch) ?
    json_object_get_double_member_with_default (o, "active_parameters", counts->active) : 0;
  p->search_text = search_text_of (p);
}

/* data/models/index.json lists the models by id; each one's entry and config.json are read
 * when it is first asked for (vc_presets_lookup() reads one model, vc_presets_get_all() and
 * the search every one), so that a run that names one model, or none, does not read the
 * others' (most of vramcalc's start-up time). The application reads the whole catalog on a
 * thread of its own at start-up (vc-application.c); tests/test-catalog-models.c reads every
 * model, so a broken one still fails the build. */
static JsonObject **index_entries;
static gsize *preset_loaded;

static void
load_index (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *array = load_array ("models/index.json", "models", parser);

  n_presets = json_array_get_length (array);
  presets = g_new0 (VcPreset, n_presets);
  index_entries = g_new0 (JsonObject *, n_presets);
  preset_loaded = g_new0 (gsize, n_presets);
  for (guint i = 0; i < n_presets; i++)
    {
      index_entries[i] = json_object_ref (json_array_get_object_element (array, i));
      presets[i].id = string_member (index_entries[i], "?", "id");
    }
}

static void
ensure_index (void)
{
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded))
    {
      load_index ();
      g_once_init_leave (&loaded, 1);
    }
}

/* presets[i] read whole (after ensure_index()); the index's entry is not needed afterwards */
static const VcPreset *
ensure_preset (guint i)
{
  if (g_once_init_enter (&preset_loaded[i]))
    {
      load_model (&presets[i], index_entries[i]);
      g_clear_pointer (&index_entries[i], json_object_unref);
      g_once_init_leave (&preset_loaded[i], 1);
    }
  return &presets[i];
}

static void
ensure_presets (void)
{
  static gsize loaded = 0;

  ensure_index ();
  if (g_once_init_enter (&loaded))
    {
      for (guint i = 0; i < n_presets; i++)
        ensure_preset (i);
      g_once_init_leave (&loaded, 1);
    }
}

static double
positive_member (JsonObject *o,
                 const char *id,
                 const char *member,
                 gboolean    nullable)
{
  JsonNode *node = json_object_get_member (o, member);
  double v;

  if (node == NULL)
    g_error ("built-in GPU %s: “%s” is missing", id, member);
  if (JSON_NODE_HOLDS_NULL (node) && nullable)
    return 0;
  v = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_double (node) : NAN;
  if (!isfinite (v) || v <= 0)
    g_error ("built-in GPU %s: “%s” must be a positive number", id, member);
  return v;
}

static char *
source_member (JsonObject *sources,
               const char *id,
               const char *member)
{
  const char *s = sources ? json_object_get_string_member_with_default (sources, member, NULL) : NULL;

  if (s == NULL || *s == '\0')
    g_error ("built-in GPU %s: no source for “%s”", id, member);
  return g_strdup (s);
}

/* Every card carries its bandwidth and dense bf16 and fp8 rates, each with its source. */
static void
load_speed (VcGpu      *g,
            JsonObject *o)
{
  JsonObject *sources = json_object_get_object_member (o, "sources");
  const char *kind;

  g->bandwidth_bytes_per_s = positive_member (o, g->id, "bandwidth_gbps", FALSE) * 1e9;
  g->bf16_flops = positive_member (o, g->id, "bf16_tflops", FALSE) * 1e12;
  g->fp8_flops = positive_member (o, g->id, "fp8_tflops", TRUE) * 1e12;
  g->bandwidth_source = source_member (sources, g->id, "bandwidth");
  g->bf16_source = source_member (sources, g->id, "bf16");
  g->fp8_source = source_member (sources, g->id, "fp8");
  kind = json_object_get_string_member_with_default (o, "memory_kind", "");
  if (g_str_equal (kind, "gddr"))
    g->memory_kind = VC_MEMORY_KIND_GDDR;
  else if (g_str_equal (kind, "hbm"))
    g->memory_kind = VC_MEMORY_KIND_HBM;
  else if (g_str_equal (kind, "unified"))
    g->memory_kind = VC_MEMORY_KIND_UNIFIED;
  else
    g_error ("built-in GPU %s: “memory_kind” is “%s”; expected gddr, hbm or unified", g->id, kind);
  g->unified_memory = json_object_get_boolean_member_with_default (o, "unified_memory", FALSE);
  if (g->unified_memory != (g->memory_kind == VC_MEMORY_KIND_UNIFIED))
    g_error ("built-in GPU %s: “unified_memory” and “memory_kind” disagree", g->id);
  g->gpu_share = 1;
  if (g->unified_memory)
    {
      g->gpu_share = positive_member (o, g->id, "gpu_share", FALSE);
      if (g->gpu_share > 1)
        g_error ("built-in GPU %s: “gpu_share” is a fraction of memory", g->id);
      g->capacity_bytes = g->memory_bytes * g->gpu_share;
    }
}

/* What a CUDA process sees (cudaMemGetInfo's total, torch.cuda.mem_get_info()[1], which vLLM
 * logs as total_gpu_memory and sizes its request from) is less than nvidia-smi's total: where
 * it is known, with its source, the serving engines size their memory from it
 * (vc_engine_gpu_capacity). */
static void
load_cuda_memory (VcGpu      *g,
                  JsonObject *o)
{
  JsonNode *mib = json_object_get_member (o, "cuda_mib");

  if (mib == NULL || JSON_NODE_HOLDS_NULL (mib))
    return;
  g->cuda_mib = positive_member (o, g->id, "cuda_mib", FALSE);
  g->cuda_source = source_member (json_object_get_object_member (o, "sources"), g->id, "cuda");
}

/* NVIDIA's compute capability, "major.minor" as NVIDIA's CUDA GPUs page gives it, with its
 * source; null where the page does not list the card. vLLM chooses its MXFP4 expert backend
 * from it (vc_engine_vllm_mxfp4_extra). */
static void
load_compute_capability (VcGpu      *g,
                         JsonObject *o)
{
  JsonNode *node = json_object_get_member (o, "compute_capability");
  const char *text;
  guint64 major = 0, minor = 0;
  char *end = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  text = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
  if (text != NULL)
    major = g_ascii_strtoull (text, &end, 10);
  if (text == NULL || end == text || *end != '.' || major < 1 || major > 99 ||
      (minor = g_ascii_strtoull (end + 1, &end, 10), *end != '\0') || minor > 9)
    g_error ("built-in GPU %s: “compute_capability” is not “major.minor”", g->id);
  if (g_strcmp0 (g->vendor, "NVIDIA") != 0)
    g_error ("built-in GPU %s: a compute capability is NVIDIA's", g->id);
  g->cc_major = major;
  g->cc_minor = minor;
  g->compute_capability_source = source_member (json_object_get_object_member (o, "sources"), g->id,
                                                "compute_capability");
}

/* NVIDIA's SM count, with its source; null where none was found. vLLM sizes its Triton
 * top-k/top-p kernel's buffer from it (vc_estimator_vllm_triton_buffer); AMD's compute units,
 * which vLLM's ROCm platform reads the same way, are not given. */
static void
load_sm_count (VcGpu      *g,
               JsonObject *o)
{
  JsonNode *node = json_object_get_member (o, "sm_count");

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 1 || json_node_get_int (node) > 1024)
    g_error ("built-in GPU %s: “sm_count” is not a count of SMs", g->id);
  if (g_strcmp0 (g->vendor, "NVIDIA") != 0)
    g_error ("built-in GPU %s: an SM count is NVIDIA's", g->id);
  g->sm_count = json_node_get_int (node);
  g->sm_count_source = source_member (json_object_get_object_member (o, "sources"), g->id, "sm_count");
}

static void
load_gpus (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *array = load_array ("gpus.json", "gpus", parser);

  n_gpus = json_array_get_length (array);
  gpus = g_new0 (VcGpu, n_gpus);
  for (guint i = 0; i < n_gpus; i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);
      VcGpu *g = &gpus[i];
      JsonNode *mib = json_object_get_member (o, "memory_mib");

      g->id = g_strdup (json_object_get_string_member (o, "id"));
      g->name = g_strdup (json_object_get_string_member (o, "name"));
      g->vendor = g_strdup (json_object_get_string_member_with_default (o, "vendor", ""));
      /* cards are sold in GiB: the "24 GB" of an RTX 4090 are 24 GiB */
      g->memory_bytes = json_object_get_double_member (o, "memory_gb") * 1073741824.0;
      g->memory_mib = (mib && !JSON_NODE_HOLDS_NULL (mib)) ? json_node_get_double (mib) : 0;
      g->capacity_bytes = g->memory_mib > 0 ? g->memory_mib * 1048576.0 : g->memory_bytes;
      load_speed (g, o);
      load_cuda_memory (g, o);
      load_compute_capability (g, o);
      load_sm_count (g, o);
    }
}

/* the GPU catalog, read apart from the models: most runs need the cards and one model at most */
static void
ensure_gpus (void)
{
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded))
    {
      load_gpus ();
      g_once_init_leave (&loaded, 1);
    }
}

const VcPreset *
vc_presets_get_all (guint *n)
{
  ensure_presets ();
  *n = n_presets;
  return presets;
}

const VcPreset *
vc_presets_lookup (const char *id)
{
  ensure_index ();
  for (guint i = 0; id != NULL && i < n_presets; i++)
    if (g_str_equal (presets[i].id, id))
      return ensure_preset (i);
  return NULL;
}

const VcGpu *
vc_gpus_get_all (guint *n)
{
  ensure_gpus ();
  *n = n_gpus;
  return gpus;
}

const VcGpu *
vc_gpus_lookup (const char *id)
{
  ensure_gpus ();
  for (guint i = 0; id != NULL && i < n_gpus; i++)
    if (g_str_equal (gpus[i].id, id))
      return &gpus[i];
  return NULL;
}

static int
compare_suggested (gconstpointer a,
                   gconstpointer b)
{
  guint ra = presets[*(const guint *) a].suggested, rb = presets[*(const guint *) b].suggested;

  /* suggested first, by rank; then the catalog's order */
  if ((ra == 0) != (rb == 0))
    return ra == 0 ? 1 : -1;
  if (ra != rb)
    return ra < rb ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : *(const guint *) a > *(const guint *) b;
}

guint
vc_presets_search (const char *text,
                   guint      *found,
                   guint       max)
{
  g_autofree char *lower = NULL;
  g_auto(GStrv) words = NULL;
  g_autofree guint *all = NULL;
  guint n = 0;
  gboolean any_word = FALSE;

  ensure_presets ();
  lower = g_utf8_strdown (text ? text : "", -1);
  words = g_strsplit_set (lower, " \t\n", -1);
  for (guint w = 0; words[w] != NULL; w++)
    any_word |= words[w][0] != '\0';
  all = g_new (guint, n_presets);
  for (guint i = 0; i < n_presets; i++)
    {
      gboolean match = any_word || presets[i].suggested > 0;

      for (guint w = 0; match && words[w] != NULL; w++)
        match = words[w][0] == '\0' || strstr (presets[i].search_text, words[w]) != NULL;
      if (match)
        all[n++] = i;
    }
  qsort (all, n, sizeof (guint), compare_suggested);
  n = MIN (n, max);
  if (found != NULL)
    memcpy (found, all, n * sizeof (guint));
  return n;
}
