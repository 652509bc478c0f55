/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-local-model.c: the models Ollama, LM Studio and the Hugging Face cache hold here.
 *
 * Ollama (ollama/ollama server/modelpath.go, manifest.go): {models}/manifests/{host}/
 * {namespace}/{model}/{tag} is a JSON manifest whose layer of mediaType
 * "application/vnd.ollama.image.model" names the GGUF blob by digest "sha256:HEX", stored as
 * {models}/blobs/sha256-HEX. The name shown drops the default host "registry.ollama.ai" and
 * namespace "library": registry.ollama.ai/library/qwen3/30b-a3b is qwen3:30b-a3b.
 * LM Studio: {models}/{publisher}/{repository}/ holding GGUF files, or a folder with config.json.
 * The Hugging Face cache (huggingface_hub file_download.py): {cache}/models--{org}--{name}/
 * snapshots/{commit}/ with the files as links into ../../blobs, refs/main naming the commit.
 */
#define G_LOG_DOMAIN "vc-local-model"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "vc-error.h"
#include "vc-json-input.h"
#include "vc-local-model.h"

#define MAX_MANIFEST (1024 * 1024)
#define OLLAMA_MODEL_LAYER "application/vnd.ollama.image.model"
#define OLLAMA_HOST "registry.ollama.ai"
#define OLLAMA_NAMESPACE "library"

struct _VcLocalModel
{
  GObject parent_instance;

  char *source;
  char *name;
  char *format;
  GFile *file;
  guint64 bytes;
};

G_DEFINE_FINAL_TYPE (VcLocalModel, vc_local_model, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_SOURCE,
  PROP_NAME,
  PROP_FORMAT,
  PROP_BYTES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
vc_local_model_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  VcLocalModel *self = VC_LOCAL_MODEL (object);

  switch (prop_id)
    {
    case PROP_SOURCE: g_value_set_string (value, self->source); break;
    case PROP_NAME: g_value_set_string (value, self->name); break;
    case PROP_FORMAT: g_value_set_string (value, self->format); break;
    case PROP_BYTES: g_value_set_uint64 (value, self->bytes); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_local_model_finalize (GObject *object)
{
  VcLocalModel *self = VC_LOCAL_MODEL (object);

  g_free (self->source);
  g_free (self->name);
  g_free (self->format);
  g_clear_object (&self->file);
  G_OBJECT_CLASS (vc_local_model_parent_class)->finalize (object);
}

static void
vc_local_model_class_init (VcLocalModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = vc_local_model_finalize;
  object_class->get_property = vc_local_model_get_property;
  properties[PROP_SOURCE] = g_param_spec_string ("source", NULL, "ollama, lmstudio or hf-cache", NULL,
                                                 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, "The name its tool gives it", NULL,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_FORMAT] = g_param_spec_string ("format", NULL, "gguf, safetensors or config", NULL,
                                                 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BYTES] = g_param_spec_uint64 ("bytes", NULL, "Size of its files", 0, G_MAXUINT64, 0,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
vc_local_model_init (VcLocalModel *self)
{
}

static VcLocalModel *
local_model_new (const char *source,
                 const char *name,
                 const char *format,
                 GFile      *file,
                 guint64     bytes)
{
  VcLocalModel *self = g_object_new (VC_TYPE_LOCAL_MODEL, NULL);

  self->source = g_strdup (source);
  self->name = g_strdup (name);
  self->format = g_strdup (format);
  self->file = g_object_ref (file);
  self->bytes = bytes;
  return self;
}

const char *
vc_local_model_get_source (VcLocalModel *self)
{
  g_return_val_if_fail (VC_IS_LOCAL_MODEL (self), NULL);
  return self->source;
}

const char *
vc_local_model_get_name (VcLocalModel *self)
{
  g_return_val_if_fail (VC_IS_LOCAL_MODEL (self), NULL);
  return self->name;
}

const char *
vc_local_model_get_format (VcLocalModel *self)
{
  g_return_val_if_fail (VC_IS_LOCAL_MODEL (self), NULL);
  return self->format;
}

GFile *
vc_local_model_get_file (VcLocalModel *self)
{
  g_return_val_if_fail (VC_IS_LOCAL_MODEL (self), NULL);
  return self->file;
}

guint64
vc_local_model_get_bytes (VcLocalModel *self)
{
  g_return_val_if_fail (VC_IS_LOCAL_MODEL (self), 0);
  return self->bytes;
}

/* ---- walking folders ------------------------------------------------------------------------- */

/* The entries of a folder: names and types, links not followed (a link to a folder is not one). */
static GPtrArray *
list_dir (GFile        *dir,
          GFileType     type,
          GCancellable *cancellable)
{
  g_autoptr(GFileEnumerator) e = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GFileInfo *info;

  e = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                 G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, NULL);
  if (e == NULL)
    return names;
  /* a folder of a million entries is not a model store: stop there */
  while (names->len < 100000 && (info = g_file_enumerator_next_file (e, cancellable, NULL)) != NULL)
    {
      GFileType t = g_file_info_get_file_type (info);

      if (type == G_FILE_TYPE_UNKNOWN || t == type ||
          (type == G_FILE_TYPE_REGULAR && t == G_FILE_TYPE_SYMBOLIC_LINK))
        g_ptr_array_add (names, g_strdup (g_file_info_get_name (info)));
      g_object_unref (info);
    }
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  return names;
}

/* The size of a regular file (a link followed: the HF cache links into blobs), or -1. */
static gint64
file_size (GFile *file)
{
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);

  if (info == NULL || g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    return -1;
  return g_file_info_get_size (info);
}

static void
skip (GPtrArray  *skipped,
      GFile      *file,
      const char *why)
{
  if (skipped)
    g_ptr_array_add (skipped, g_strdup_printf ("%s: %s", g_file_peek_path (file), why));
}

/* "name-00002-of-00003.gguf": a later part of a split model; mmproj: a vision projector */
static gboolean
is_model_gguf (const char *base)
{
  gsize n = strlen (base);
  const char *tail;

  if (!g_str_has_suffix (base, ".gguf") || g_str_has_prefix (base, "mmproj"))
    return FALSE;
  if (n < strlen ("-00001-of-00001.gguf"))
    return TRUE;
  tail = base + n - strlen ("-00001-of-00001.gguf");
  if (tail[0] != '-' || strncmp (tail + 6, "-of-", 4) != 0)
    return TRUE;
  for (int i = 1; i <= 5; i++)
    if (!g_ascii_isdigit (tail[i]) || !g_ascii_isdigit (tail[i + 9]))
      return TRUE;
  return strncmp (tail + 1, "00001", 5) == 0;
}

/* The safetensors' bytes of a folder, or 0 */
static guint64
folder_safetensors_bytes (GFile *dir)
{
  g_autoptr(GPtrArray) names = list_dir (dir, G_FILE_TYPE_REGULAR, NULL);
  guint64 bytes = 0;

  for (guint i = 0; i < names->len; i++)
    if (g_str_has_suffix (names->pdata[i], ".safetensors"))
      {
        g_autoptr(GFile) f = g_file_get_child (dir, names->pdata[i]);
        gint64 size = file_size (f);

        bytes += size > 0 ? (guint64) size : 0;
      }
  return bytes;
}

/* A model folder's own models: each GGUF (down to `depth` folders), or the folder itself when
 * it holds config.json. */
static void
add_folder (GPtrArray  *models,
            GPtrArray  *skipped,
            const char *source,
            const char *name,
            GFile      *dir,
            guint       depth)
{
  g_autoptr(GPtrArray) files = list_dir (dir, G_FILE_TYPE_REGULAR, NULL);
  g_autoptr(GPtrArray) dirs = NULL;
  g_autoptr(GFile) config = g_file_get_child (dir, "config.json");
  gboolean has_gguf = FALSE;

  for (guint i = 0; i < files->len; i++)
    {
      const char *base = files->pdata[i];
      g_autoptr(GFile) f = NULL;
      g_autofree char *shown = NULL;
      gint64 size;

      if (!is_model_gguf (base))
        continue;
      f = g_file_get_child (dir, base);
      size = file_size (f);
      if (size < 0)
        {
          skip (skipped, f, _("not a file that can be read (a broken or looping link?)"));
          continue;
        }
      has_gguf = TRUE;
      shown = g_strdup_printf ("%s/%.*s", name, (int) (strlen (base) - strlen (".gguf")), base);
      g_ptr_array_add (models, local_model_new (source, shown, "gguf", f, size));
    }
  if (!has_gguf && file_size (config) >= 0)
    {
      guint64 bytes = folder_safetensors_bytes (dir);

      g_ptr_array_add (models, local_model_new (source, name, bytes > 0 ? "safetensors" : "config", dir, bytes));
    }
  if (depth == 0)
    return;
  dirs = list_dir (dir, G_FILE_TYPE_DIRECTORY, NULL);
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autoptr(GFile) sub = g_file_get_child (dir, dirs->pdata[i]);
      g_autofree char *sub_name = g_strdup_printf ("%s/%s", name, (char *) dirs->pdata[i]);

      if (*(char *) dirs->pdata[i] != '.')
        add_folder (models, skipped, source, sub_name, sub, depth - 1);
    }
}

/* ---- Ollama ------------------------------------------------------------------------------------ */

static GFile *
ollama_dir (void)
{
  const char *env = g_getenv ("OLLAMA_MODELS");

  if (env != NULL && *env != '\0')
    return g_file_new_for_path (env);
  return g_file_new_build_filename (g_get_home_dir (), ".ollama", "models", NULL);
}

static char *
ollama_name (const char *host,
             const char *ns,
             const char *model,
             const char *tag)
{
  if (g_str_equal (host, OLLAMA_HOST) && g_str_equal (ns, OLLAMA_NAMESPACE))
    return g_strdup_printf ("%s:%s", model, tag);
  if (g_str_equal (host, OLLAMA_HOST))
    return g_strdup_printf ("%s/%s:%s", ns, model, tag);
  return g_strdup_printf ("%s/%s/%s:%s", host, ns, model, tag);
}

static gboolean
valid_digest (const char *hex)
{
  if (strlen (hex) != 64)
    return FALSE;
  for (const char *p = hex; *p; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  return TRUE;
}

/* A manifest's model blob, or NULL with why */
static VcLocalModel *
ollama_manifest (GFile       *models_dir,
                 GFile       *manifest,
                 const char  *name,
                 GError     **error)
{
  g_autofree char *shown = g_file_get_parse_name (manifest);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonNode *layers;
  const char *data;
  gsize length;

  if (file_size (manifest) < 0)
    return vc_error_in_file (error, VC_ERROR_PARSE, shown, _("not a file that can be read (a broken or looping link?)")), NULL;
  if (file_size (manifest) > MAX_MANIFEST)
    return vc_error_in_file (error, VC_ERROR_TOO_LARGE, shown, _("larger than a manifest can be")), NULL;
  bytes = vc_json_input_read_file (manifest, shown, _("an Ollama manifest"), NULL, error);
  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &length);
  root = vc_json_input_parse (data ? data : "", length, shown, _("an Ollama manifest"), NULL, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root) ||
      (layers = json_object_get_member (json_node_get_object (root), "layers")) == NULL ||
      !JSON_NODE_HOLDS_ARRAY (layers))
    return vc_error_in_file (error, VC_ERROR_PARSE, shown, _("the manifest has no “layers”")), NULL;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (layers)); i++)
    {
      JsonNode *l = json_array_get_element (json_node_get_array (layers), i);
      JsonObject *lo;
      const char *type, *digest;
      g_autofree char *blob_name = NULL;
      g_autoptr(GFile) blob = NULL;
      gint64 size;

      if (!JSON_NODE_HOLDS_OBJECT (l))
        continue;
      lo = json_node_get_object (l);
      type = json_object_get_string_member_with_default (lo, "mediaType", NULL);
      digest = json_object_get_string_member_with_default (lo, "digest", NULL);
      if (g_strcmp0 (type, OLLAMA_MODEL_LAYER) != 0)
        continue;
      if (digest == NULL || !g_str_has_prefix (digest, "sha256:") || !valid_digest (digest + 7))
        return vc_error_in_file (error, VC_ERROR_PARSE, shown, _("the model layer's digest is not sha256:HEX")), NULL;
      blob_name = g_strdup_printf ("sha256-%s", digest + 7);
      blob = g_file_new_build_filename (g_file_peek_path (models_dir), "blobs", blob_name, NULL);
      size = file_size (blob);
      if (size < 0)
        return vc_error_in_file (error, VC_ERROR_PARSE, shown, _("its model blob %s is missing"), blob_name), NULL;
      return local_model_new ("ollama", name, "gguf", blob, size);
    }
  return vc_error_in_file (error, VC_ERROR_PARSE, shown, _("the manifest has no model layer (%s)"), OLLAMA_MODEL_LAYER), NULL;
}

static void
list_ollama (GPtrArray    *models,
             GPtrArray    *skipped,
             GCancellable *cancellable)
{
  g_autoptr(GFile) dir = ollama_dir ();
  g_autoptr(GFile) manifests = g_file_get_child (dir, "manifests");
  g_autoptr(GPtrArray) hosts = list_dir (manifests, G_FILE_TYPE_DIRECTORY, cancellable);

  for (guint h = 0; h < hosts->len; h++)
    {
      g_autoptr(GFile) host = g_file_get_child (manifests, hosts->pdata[h]);
      g_autoptr(GPtrArray) nss = list_dir (host, G_FILE_TYPE_DIRECTORY, cancellable);

      for (guint n = 0; n < nss->len; n++)
        {
          g_autoptr(GFile) ns = g_file_get_child (host, nss->pdata[n]);
          g_autoptr(GPtrArray) names = list_dir (ns, G_FILE_TYPE_DIRECTORY, cancellable);

          for (guint m = 0; m < names->len; m++)
            {
              g_autoptr(GFile) model = g_file_get_child (ns, names->pdata[m]);
              g_autoptr(GPtrArray) tags = list_dir (model, G_FILE_TYPE_REGULAR, cancellable);

              for (guint t = 0; t < tags->len; t++)
                {
                  g_autoptr(GFile) manifest = g_file_get_child (model, tags->pdata[t]);
                  g_autofree char *name = ollama_name (hosts->pdata[h], nss->pdata[n], names->pdata[m], tags->pdata[t]);
                  g_autoptr(GError) error = NULL;
                  VcLocalModel *found = ollama_manifest (dir, manifest, name, &error);

                  if (found)
                    g_ptr_array_add (models, found);
                  else if (skipped)
                    g_ptr_array_add (skipped, g_strdup (error->message));
                }
            }
        }
    }
}

static gboolean
valid_ollama_part (const char *s)
{
  if (*s == '\0' || g_str_equal (s, ".") || g_str_equal (s, "..") || strlen (s) > 200)
    return FALSE;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isalnum (*p) && !strchr ("-_.", *p))
      return FALSE;
  return TRUE;
}

VcLocalModel *
vc_local_models_find_ollama (const char  *name,
                             GError     **error)
{
  g_autofree char *copy = g_strdup (name);
  g_auto(GStrv) parts = NULL;
  g_autoptr(GFile) dir = ollama_dir ();
  g_autoptr(GFile) manifest = NULL;
  g_autofree char *shown = NULL;
  const char *host = OLLAMA_HOST, *ns = OLLAMA_NAMESPACE, *model, *tag = "latest";
  char *colon;
  guint n;

  g_return_val_if_fail (name != NULL, NULL);
  colon = strrchr (copy, ':');
  if (colon && !strchr (colon, '/'))
    {
      *colon = '\0';
      tag = colon + 1;
    }
  parts = g_strsplit (copy, "/", -1);
  n = g_strv_length (parts);
  if (n == 0 || n > 3)
    goto invalid;
  model = parts[n - 1];
  if (n >= 2)
    ns = parts[n - 2];
  if (n == 3)
    host = parts[0];
  if (!valid_ollama_part (host) || !valid_ollama_part (ns) || !valid_ollama_part (model) || !valid_ollama_part (tag))
    goto invalid;
  manifest = g_file_new_build_filename (g_file_peek_path (dir), "manifests", host, ns, model, tag, NULL);
  shown = ollama_name (host, ns, model, tag);
  if (!g_file_query_exists (manifest, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("Ollama has no model %s in %s; vramcalc --list-local-models lists those it has"),
                   shown, g_file_peek_path (dir));
      return NULL;
    }
  return ollama_manifest (dir, manifest, shown, error);

invalid:
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
               _("“%s” is not an Ollama model name; accepted: NAME, NAME:TAG, USER/NAME:TAG"), name);
  return NULL;
}

/* ---- LM Studio and the Hugging Face cache --------------------------------------------------------- */

static void
list_lmstudio (GPtrArray    *models,
               GPtrArray    *skipped,
               GCancellable *cancellable)
{
  const char *roots[] = { ".lmstudio/models", ".cache/lm-studio/models" };

  for (guint r = 0; r < G_N_ELEMENTS (roots); r++)
    {
      g_autoptr(GFile) root = g_file_new_build_filename (g_get_home_dir (), roots[r], NULL);
      g_autoptr(GPtrArray) publishers = list_dir (root, G_FILE_TYPE_DIRECTORY, cancellable);

      for (guint p = 0; p < publishers->len; p++)
        {
          g_autoptr(GFile) pub = g_file_get_child (root, publishers->pdata[p]);
          g_autoptr(GPtrArray) repos = list_dir (pub, G_FILE_TYPE_DIRECTORY, cancellable);

          if (*(char *) publishers->pdata[p] == '.')
            continue;
          for (guint i = 0; i < repos->len; i++)
            {
              g_autoptr(GFile) repo = g_file_get_child (pub, repos->pdata[i]);
              g_autofree char *name = g_strdup_printf ("%s/%s", (char *) publishers->pdata[p], (char *) repos->pdata[i]);

              add_folder (models, skipped, "lmstudio", name, repo, 1);
            }
        }
    }
}

static GFile *
hf_cache_dir (void)
{
  const char *cache = g_getenv ("HF_HUB_CACHE");
  const char *home = g_getenv ("HF_HOME");

  if (cache != NULL && *cache != '\0')
    return g_file_new_for_path (cache);
  if (home != NULL && *home != '\0')
    return g_file_new_build_filename (home, "hub", NULL);
  /* the Flatpak sandbox's XDG_CACHE_HOME is the application's own: the host's ~/.cache, which
   * the manifest grants read-only */
  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    return g_file_new_build_filename (g_get_home_dir (), ".cache", "huggingface", "hub", NULL);
  return g_file_new_build_filename (g_get_user_cache_dir (), "huggingface", "hub", NULL);
}

static void
list_hf_cache (GPtrArray    *models,
               GPtrArray    *skipped,
               GCancellable *cancellable)
{
  g_autoptr(GFile) cache = hf_cache_dir ();
  g_autoptr(GPtrArray) repos = list_dir (cache, G_FILE_TYPE_DIRECTORY, cancellable);

  for (guint i = 0; i < repos->len; i++)
    {
      const char *dir_name = repos->pdata[i];
      g_autoptr(GFile) repo = NULL;
      g_autoptr(GFile) snapshots = NULL;
      g_autoptr(GPtrArray) commits = NULL;
      g_autofree char *id = NULL;
      g_autofree char *main_commit = NULL;
      g_autoptr(GFile) ref = NULL;
      const char *sep;

      if (!g_str_has_prefix (dir_name, "models--") || (sep = strstr (dir_name + 8, "--")) == NULL)
        continue;
      id = g_strdup_printf ("%.*s/%s", (int) (sep - dir_name - 8), dir_name + 8, sep + 2);
      repo = g_file_get_child (cache, dir_name);
      snapshots = g_file_get_child (repo, "snapshots");
      commits = list_dir (snapshots, G_FILE_TYPE_DIRECTORY, cancellable);
      ref = g_file_new_build_filename (g_file_peek_path (repo), "refs", "main", NULL);
      if (g_file_load_contents (ref, NULL, &main_commit, NULL, NULL, NULL))
        g_strstrip (main_commit);
      for (guint c = 0; c < commits->len; c++)
        {
          g_autoptr(GFile) snap = g_file_get_child (snapshots, commits->pdata[c]);
          g_autofree char *name = NULL;

          /* main's snapshot by the model's name; others with their commit */
          if (commits->len == 1 || g_strcmp0 (main_commit, commits->pdata[c]) == 0)
            name = g_strdup (id);
          else
            name = g_strdup_printf ("%s@%.7s", id, (char *) commits->pdata[c]);
          add_folder (models, skipped, "hf-cache", name, snap, 1);
        }
    }
}

static int
model_compare (gconstpointer a,
               gconstpointer b)
{
  VcLocalModel *ma = *(VcLocalModel **) a, *mb = *(VcLocalModel **) b;
  int c = g_strcmp0 (ma->source, mb->source);

  return c != 0 ? c : g_strcmp0 (ma->name, mb->name);
}

GPtrArray *
vc_local_models_list (GPtrArray    **skipped,
                      GCancellable  *cancellable)
{
  GPtrArray *models = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *why = g_ptr_array_new_with_free_func (g_free);

  list_ollama (models, why, cancellable);
  list_lmstudio (models, why, cancellable);
  list_hf_cache (models, why, cancellable);
  g_ptr_array_sort (models, model_compare);
  if (skipped)
    *skipped = why;
  else
    g_ptr_array_unref (why);
  return models;
}
