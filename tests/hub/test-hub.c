/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hub.c: Hugging Face Hub models read over HTTP from a Hub on 127.0.0.1 (hub-test-server.c)
 * serving the sparse fixtures of make-hub-fixtures.py: the routes, the redirect to a CDN on
 * another port, range requests, 401, 404, 429, a server that stalls, short and lying answers,
 * header lengths of 2^60, the cache and offline use, the requests and bytes a 4-shard model
 * costs, and vramcalc --model hf:… . */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "hub-test-server.h"
#include "vc-hub-private.h"
#include "vc-model-file.h"
#include "vc-test-util.h"

#define TINY_ELEMENTS 1692928
#define TINY_BF16_BYTES (2 * TINY_ELEMENTS)
#define TINY_GGUF_BYTES 1107152

static char *fixtures;
static char *repos;
static HubTestServer *server;

/* a client of the test Hub with a cache of its own */
static VcHub *
new_hub (const char *cache)
{
  VcHub *hub = vc_hub_new ();

  vc_hub_set_endpoint (hub, hub_test_server_url (server));
  vc_hub_set_cache_dir (hub, cache);
  vc_hub_set_token (hub, NULL);
  vc_hub_set_offline (hub, FALSE);
  vc_hub_set_timeout (hub, 5);
  hub_test_server_reset (server);
  return hub;
}

static VcModelFile *
fetch_model (VcHub      *hub,
             const char *name,
             char      **notice)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = vc_hub_fetch (hub, name, notice, NULL, NULL, &error);
  VcModelFile *model;

  g_assert_no_error (error);
  g_assert_nonnull (file);
  model = vc_model_file_new_for_file (file, NULL, &error);
  g_assert_no_error (error);
  return model;
}

static VcModelFile *
local_model (const char *rel)
{
  g_autofree char *path = g_build_filename (repos, rel, NULL);
  g_autoptr(GError) error = NULL;
  VcModelFile *model = vc_model_file_new_for_path (path, &error);

  g_assert_no_error (error);
  return model;
}

static void
assert_same (VcModelFile *a,
             VcModelFile *b)
{
  g_assert_cmpstr (vc_model_file_get_format (a), ==, vc_model_file_get_format (b));
  g_assert_cmpstr (vc_model_file_get_quantization (a), ==, vc_model_file_get_quantization (b));
  g_assert_cmpfloat (vc_model_file_get_parameters (a), ==, vc_model_file_get_parameters (b));
  g_assert_cmpfloat (vc_model_file_get_weights_bytes (a), ==, vc_model_file_get_weights_bytes (b));
  g_assert_cmpuint (vc_model_file_get_n_tensors (a), ==, vc_model_file_get_n_tensors (b));
  g_assert_cmpuint (vc_model_file_get_file_bytes (a), ==, vc_model_file_get_file_bytes (b));
}

static void
test_names (void)
{
  static const struct { const char *text, *repo, *revision, *file; } good[] = {
    { "tiny/llama", "tiny/llama", "main", NULL },
    { "hf:tiny/llama@v1.0", "tiny/llama", "v1.0", NULL },
    { "hf:Qwen/Qwen3-8B-GGUF:Qwen3-8B-Q4_K_M.gguf", "Qwen/Qwen3-8B-GGUF", "main", "Qwen3-8B-Q4_K_M.gguf" },
    { "org/name@refs/pr/1:sub/f.gguf", "org/name", "refs/pr/1", "sub/f.gguf" },
    { "https://huggingface.co/Qwen/Qwen3-8B", "Qwen/Qwen3-8B", "main", NULL },
    { "https://huggingface.co/Qwen/Qwen3-8B/", "Qwen/Qwen3-8B", "main", NULL },
    { "https://huggingface.co/Qwen/Qwen3-8B/tree/abc123", "Qwen/Qwen3-8B", "abc123", NULL },
    { "https://huggingface.co/unsloth/Q-GGUF/blob/main/Q4_K_M/Q-00001-of-00002.gguf?download=true",
      "unsloth/Q-GGUF", "main", "Q4_K_M/Q-00001-of-00002.gguf" },
    { "hf.co/org/name/resolve/main/model.safetensors", "org/name", "main", "model.safetensors" },
    { "  tiny/llama  ", "tiny/llama", "main", NULL },
  };
  static const char *bad[] = {
    "", "llama", "a/b/c", "../etc/passwd", "org/..", "org/name:../../x", "org/name:/abs",
    "org/name@", "org/name@../x", "https://huggingface.co/org", "org/name:a//b", "or g/name",
    "https://huggingface.co/org/name/commits/main", "org/name:a\\b",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autofree char *repo = NULL, *revision = NULL, *file = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (vc_hub_parse_name (good[i].text, &repo, &revision, &file, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (repo, ==, good[i].repo);
      g_assert_cmpstr (revision, ==, good[i].revision);
      g_assert_cmpstr (file, ==, good[i].file);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (vc_hub_parse_name (bad[i], NULL, NULL, NULL, &error));
      g_assert_error (error, VC_HUB_ERROR, VC_HUB_ERROR_INVALID_NAME);
      g_assert_nonnull (strstr (error->message, "org/name"));
    }
}

/* config.json, the index and two ranges a shard: 10 requests to the Hub's routes, each shard's
 * first one redirected to the CDN, whose address the second goes to directly. */
static void
test_four_shards (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);
  g_autoptr(VcModelFile) remote = fetch_model (hub, "tiny/llama-4shard", NULL);
  g_autoptr(VcModelFile) local = local_model ("tiny/llama-4shard");
  guint requests = vc_hub_get_n_requests (hub), redirects = vc_hub_get_n_redirects (hub);
  guint64 bytes = vc_hub_get_n_bytes (hub);
  g_autofree char *config = g_build_filename (repos, "tiny/llama-4shard/config.json", NULL);
  g_autofree char *index = g_build_filename (repos, "tiny/llama-4shard/model.safetensors.index.json", NULL);
  guint64 expected = 0;
  GStatBuf st;

  g_test_message ("4 shards: %u requests (%u redirects), %" G_GUINT64_FORMAT " bytes", requests, redirects, bytes);
  g_assert_cmpuint (requests - redirects, ==, 1 + 1 + 2 * 4);
  g_assert_cmpuint (redirects, ==, 4);
  g_assert_cmpuint (hub_test_server_n_hub (server), ==, 1 + 1 + 4);
  g_assert_cmpuint (hub_test_server_n_cdn (server), ==, 2 * 4);
  g_assert_cmpuint (hub_test_server_n_leaks (server), ==, 0);
  /* config.json, the index, and each shard's 8 + N header bytes, nothing more */
  g_assert_cmpint (g_stat (config, &st), ==, 0);
  expected += st.st_size;
  g_assert_cmpint (g_stat (index, &st), ==, 0);
  expected += st.st_size;
  for (guint i = 1; i <= 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/tiny/llama-4shard/model-%05u-of-00004.safetensors", repos, i);
      FILE *f = fopen (name, "rb");
      guint64 n = 0;

      g_assert_nonnull (f);
      g_assert_cmpuint (fread (&n, 1, 8, f), ==, 8);
      fclose (f);
      expected += 8 + GUINT64_FROM_LE (n);
    }
  g_assert_cmpuint (bytes, ==, expected);
  g_assert_cmpuint (bytes, <, 1000000);

  assert_same (remote, local);
  g_assert_cmpfloat (vc_model_file_get_parameters (remote), ==, TINY_ELEMENTS);
  g_assert_cmpfloat (vc_model_file_get_weights_bytes (remote), ==, TINY_BF16_BYTES);

  /* the cache: keyed by the commit, the revision's name pointing to it; the data is a hole */
  {
    g_autofree char *snap = g_build_filename (cache, "models--tiny--llama-4shard", "snapshots", HUB_TEST_COMMIT, NULL);
    g_autofree char *ref = g_build_filename (cache, "models--tiny--llama-4shard", "refs", "main", NULL);
    g_autofree char *shard = g_build_filename (snap, "model-00001-of-00004.safetensors", NULL);
    g_autofree char *served = g_build_filename (repos, "tiny/llama-4shard/model-00001-of-00004.safetensors", NULL);
    g_autofree char *commit = NULL;
    GStatBuf a, b;

    g_assert_true (g_file_get_contents (ref, &commit, NULL, NULL));
    g_assert_cmpstr (commit, ==, HUB_TEST_COMMIT);
    g_assert_cmpint (g_stat (shard, &a), ==, 0);
    g_assert_cmpint (g_stat (served, &b), ==, 0);
    g_assert_cmpint (a.st_size, ==, b.st_size);
  }
  vc_test_remove_tree (cache);
}

static void
test_single_and_config (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);
  g_autoptr(VcModelFile) single = fetch_model (hub, "https://huggingface.co/tiny/llama-single", NULL);
  g_autoptr(VcModelFile) local = local_model ("tiny/llama-single");

  assert_same (single, local);
  /* config.json, the index (404), two ranges */
  g_assert_cmpuint (vc_hub_get_n_requests (hub) - vc_hub_get_n_redirects (hub), ==, 4);

  {
    g_autofree char *notice = NULL;
    g_autoptr(VcModelFile) config = fetch_model (hub, "tiny/config-only", &notice);

    g_assert_cmpstr (vc_model_file_get_format (config), ==, "config");
    g_assert_cmpfloat (vc_model_file_get_weights_bytes (config), <, 0);
    g_assert_nonnull (strstr (notice, "config.json"));
  }
  /* Qwen3-VL: its processor files come with config.json, so vLLM's dummy image and video are
   * known (tests/hf-config, FORMULAS.md "Multimodal models") */
  {
    g_autoptr(VcModelFile) qwen = fetch_model (hub, "tiny/qwen3-vl-config", NULL);
    const VcArch *a = vc_model_file_get_arch (qwen);

    g_assert_cmpuint (a->encoder_image_tokens, ==, 16384);
    g_assert_cmpuint (a->encoder_patches, ==, 65536);
    g_assert_cmpuint (a->encoder_video_tokens, ==, 16200);
  }
  vc_test_remove_tree (cache);
}

static void
test_gguf (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) quants = NULL;
  g_autoptr(GFile) none = vc_hub_fetch (hub, "tiny/llama-gguf", NULL, &quants, NULL, &error);
  g_autofree char *q8 = g_build_filename (repos, "tiny/llama-gguf/tiny-llama-Q8_0.gguf", NULL);
  g_autofree char *q6a = g_build_filename (repos, "tiny/llama-gguf/Q6_K/tiny-llama-Q6_K-00001-of-00002.gguf", NULL);
  g_autofree char *q6b = g_build_filename (repos, "tiny/llama-gguf/Q6_K/tiny-llama-Q6_K-00002-of-00002.gguf", NULL);
  GStatBuf a, b;
  VcHubQuant *q;

  /* three quantizations, the split one counted once, the projector left out: one must be named */
  g_assert_null (none);
  g_assert_error (error, VC_HUB_ERROR, VC_HUB_ERROR_CHOOSE);
  g_assert_nonnull (strstr (error->message, "hf:tiny/llama-gguf:tiny-llama-Q8_0.gguf"));
  g_assert_nonnull (quants);
  g_assert_cmpuint (quants->len, ==, 3);
  q = quants->pdata[0];
  g_assert_cmpstr (q->file, ==, "tiny-llama-Q4_K_M.gguf");
  g_assert_cmpuint (q->n_parts, ==, 1);
  q = quants->pdata[1];
  g_assert_cmpstr (q->file, ==, "Q6_K/tiny-llama-Q6_K-00001-of-00002.gguf");
  g_assert_cmpstr (q->label, ==, "tiny-llama-Q6_K");
  g_assert_cmpuint (q->n_parts, ==, 2);
  g_assert_cmpint (g_stat (q6a, &a), ==, 0);
  g_assert_cmpint (g_stat (q6b, &b), ==, 0);
  g_assert_cmpuint (q->bytes, ==, a.st_size + b.st_size);
  q = quants->pdata[2];
  g_assert_cmpstr (q->file, ==, "tiny-llama-Q8_0.gguf");
  g_assert_cmpint (g_stat (q8, &a), ==, 0);
  g_assert_cmpuint (q->bytes, ==, a.st_size);

  {
    g_autoptr(VcModelFile) remote = fetch_model (hub, "tiny/llama-gguf:tiny-llama-Q4_K_M.gguf", NULL);
    g_autoptr(VcModelFile) local = local_model ("tiny/llama-gguf/tiny-llama-Q4_K_M.gguf");

    assert_same (remote, local);
    g_assert_cmpfloat (vc_model_file_get_weights_bytes (remote), ==, TINY_GGUF_BYTES);
    g_assert_cmpfloat (vc_model_file_get_parameters (remote), ==, TINY_ELEMENTS);
  }
  {
    g_autoptr(VcModelFile) remote = fetch_model (hub, "tiny/llama-gguf:Q6_K/tiny-llama-Q6_K-00001-of-00002.gguf", NULL);
    g_autoptr(VcModelFile) local = local_model ("tiny/llama-gguf/Q6_K/tiny-llama-Q6_K-00001-of-00002.gguf");

    assert_same (remote, local);
    g_assert_cmpfloat (vc_model_file_get_parameters (remote), ==, TINY_ELEMENTS);
  }
  {
    /* one quantization: opened without asking */
    g_autoptr(VcModelFile) remote = fetch_model (hub, "tiny/llama-gguf-one", NULL);

    g_assert_cmpfloat (vc_model_file_get_weights_bytes (remote), ==, TINY_GGUF_BYTES);
  }
  g_assert_cmpuint (hub_test_server_n_leaks (server), ==, 0);
  vc_test_remove_tree (cache);
}

static void
assert_refused (VcHub      *hub,
                const char *name,
                GQuark      domain,
                int         code,
                const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = vc_hub_fetch (hub, name, NULL, NULL, NULL, &error);

  g_assert_null (file);
  g_assert_error (error, domain, code);
  if (words && strstr (error->message, words) == NULL)
    g_error ("“%s” not in “%s”", words, error->message);
}

static void
test_gated (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);

  assert_refused (hub, "tiny/gated", VC_HUB_ERROR, VC_HUB_ERROR_AUTH, "HF_TOKEN");
  vc_hub_set_token (hub, "hf_wrong");
  assert_refused (hub, "tiny/gated", VC_HUB_ERROR, VC_HUB_ERROR_AUTH, "token given was refused");
  vc_hub_set_token (hub, HUB_TEST_TOKEN);
  hub_test_server_reset (server);
  {
    g_autoptr(VcModelFile) model = fetch_model (hub, "tiny/gated", NULL);

    g_assert_cmpfloat (vc_model_file_get_parameters (model), ==, TINY_ELEMENTS);
  }
  /* the token went to the Hub, never to the CDN it redirects to */
  g_assert_cmpuint (hub_test_server_n_cdn (server), ==, 2);
  g_assert_cmpuint (hub_test_server_n_leaks (server), ==, 0);

  /* the Hub's token file: HF_HOME/token, as "hf auth login" writes it */
  {
    g_autofree char *home = vc_test_make_tmpdir ("hf-home");
    g_autofree char *token = g_build_filename (home, "token", NULL);
    g_autoptr(VcHub) from_file = NULL;
    g_autoptr(VcModelFile) model = NULL;

    g_assert_true (g_file_set_contents (token, HUB_TEST_TOKEN "\n", -1, NULL));
    g_setenv ("HF_HOME", home, TRUE);
    from_file = vc_hub_new ();
    g_unsetenv ("HF_HOME");
    vc_hub_set_endpoint (from_file, hub_test_server_url (server));
    vc_hub_set_cache_dir (from_file, cache);
    model = fetch_model (from_file, "tiny/gated", NULL);
    g_assert_cmpfloat (vc_model_file_get_parameters (model), ==, TINY_ELEMENTS);
    vc_test_remove_tree (home);
  }
  vc_test_remove_tree (cache);
}

static void
test_not_found (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);

  assert_refused (hub, "tiny/nothing-here", VC_HUB_ERROR, VC_HUB_ERROR_NOT_FOUND, "tiny/nothing-here");
  assert_refused (hub, "tiny/llama-single:missing.gguf", VC_HUB_ERROR, VC_HUB_ERROR_NOT_FOUND, "missing.gguf");
  assert_refused (hub, "tiny/llama-single:weights.bin", VC_HUB_ERROR, VC_HUB_ERROR_INVALID_NAME, ".gguf");
  vc_test_remove_tree (cache);
}

static void
test_rate_limited (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);

  assert_refused (hub, "tiny/limited", VC_HUB_ERROR, VC_HUB_ERROR_RATE_LIMITED, "120 seconds");
  /* a short Retry-After is waited for, once */
  hub_test_server_reset (server);
  {
    g_autoptr(VcModelFile) model = fetch_model (hub, "tiny/limited-once", NULL);

    g_assert_cmpfloat (vc_model_file_get_parameters (model), ==, TINY_ELEMENTS);
  }
  vc_test_remove_tree (cache);
}

static gpointer
cancel_later (gpointer cancellable)
{
  g_usleep (300000);
  g_cancellable_cancel (cancellable);
  return NULL;
}

static void
test_stall (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  GThread *thread;

  vc_hub_set_timeout (hub, 1);
  assert_refused (hub, "tiny/stall", VC_HUB_ERROR, VC_HUB_ERROR_NETWORK, "did not answer within 1 seconds");

  vc_hub_set_timeout (hub, 60);
  thread = g_thread_new ("cancel", cancel_later, cancellable);
  file = vc_hub_fetch (hub, "tiny/stall", NULL, NULL, cancellable, &error);
  g_thread_join (thread);
  g_assert_null (file);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  vc_test_remove_tree (cache);
}

static void
test_bad_answers (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);

  assert_refused (hub, "tiny/truncated", VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL, "config.json");
  /* Content-Length: 2^60, refused before a byte of the body is read */
  vc_hub_reset_counts (hub);
  assert_refused (hub, "tiny/lying", VC_HUB_ERROR, VC_HUB_ERROR_TOO_LARGE, "1152921504606846976");
  g_assert_cmpuint (vc_hub_get_n_bytes (hub), ==, 0);
  assert_refused (hub, "tiny/truncated-range", VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL, "model.safetensors");

  /* a safetensors header length of 2^60: refused after its 8 bytes, nothing more asked for */
  vc_hub_reset_counts (hub);
  assert_refused (hub, "tiny/huge-header", VC_HUB_ERROR, VC_HUB_ERROR_TOO_LARGE, "1152921504606846976");
  {
    g_autofree char *config = g_build_filename (repos, "tiny/huge-header/config.json", NULL);
    GStatBuf st;

    g_assert_cmpint (g_stat (config, &st), ==, 0);
    g_assert_cmpuint (vc_hub_get_n_bytes (hub), ==, st.st_size + 8);
  }
  /* a GGUF key of 2^60 bytes: refused after the first range */
  vc_hub_reset_counts (hub);
  assert_refused (hub, "tiny/huge-gguf:huge.gguf", VC_HUB_ERROR, VC_HUB_ERROR_TOO_LARGE, "GGUF");
  g_assert_cmpuint (vc_hub_get_n_requests (hub) - vc_hub_get_n_redirects (hub), ==, 1);
  vc_test_remove_tree (cache);
}

/* the walk that tells where a GGUF header ends in the bytes a range returned */
static void
test_gguf_walk (void)
{
  g_autofree char *path = g_build_filename (repos, "tiny/llama-gguf/tiny-llama-Q4_K_M.gguf", NULL);
  g_autofree char *data = NULL;
  gsize length = 0;
  guint64 end = 0, need = 0;

  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  g_assert_true (vc_hub_gguf_header_length ((guint8 *) data, length, &end, &need));
  g_assert_cmpuint (need, ==, 0);
  g_assert_cmpuint (end, >, 24);
  g_assert_cmpuint (end, <, 65536);
  /* one byte short: that byte and more are needed */
  {
    guint64 header = end;

    g_assert_false (vc_hub_gguf_header_length ((guint8 *) data, header - 1, &end, &need));
    g_assert_cmpuint (need, ==, header);
    g_assert_cmpuint (end, ==, 0);
  }
  g_assert_false (vc_hub_gguf_header_length ((guint8 *) data, 10, &end, &need));
  g_assert_cmpuint (need, ==, 16);
  /* not GGUF: nothing to wait for */
  g_assert_false (vc_hub_gguf_header_length ((guint8 *) "GGUX\3\0\0\0", 8, &end, &need));
  g_assert_cmpuint (need, ==, 0);
}

static void
test_offline (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);
  g_autoptr(VcModelFile) online = fetch_model (hub, "tiny/llama-single", NULL);

  vc_hub_set_offline (hub, TRUE);
  hub_test_server_reset (server);
  {
    g_autofree char *notice = NULL;
    g_autoptr(VcModelFile) cached = fetch_model (hub, "tiny/llama-single", &notice);

    assert_same (cached, online);
    g_assert_nonnull (strstr (notice, "HF_HUB_OFFLINE"));
    g_assert_nonnull (strstr (notice, "0123456"));
    g_assert_cmpuint (hub_test_server_n_hub (server), ==, 0);
  }
  assert_refused (hub, "tiny/llama-4shard", VC_HUB_ERROR, VC_HUB_ERROR_OFFLINE, "HF_HUB_OFFLINE");

  /* the Hub out of reach: the cached copy, said to be one */
  vc_hub_set_offline (hub, FALSE);
  vc_hub_set_endpoint (hub, "http://127.0.0.1:1");
  {
    g_autofree char *notice = NULL;
    g_autoptr(VcModelFile) cached = fetch_model (hub, "tiny/llama-single", &notice);

    assert_same (cached, online);
    g_assert_nonnull (strstr (notice, "could not be reached"));
  }
  assert_refused (hub, "tiny/llama-4shard", VC_HUB_ERROR, VC_HUB_ERROR_NETWORK, "127.0.0.1:1");
  vc_test_remove_tree (cache);
}

static void
fetched (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  GAsyncResult **out = data;

  *out = g_object_ref (result);
}

static void
progress (VcHub      *hub,
          const char *message,
          double      fraction,
          guint      *n)
{
  g_assert_nonnull (message);
  (*n)++;
}

static void
test_async (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-cache");
  g_autoptr(VcHub) hub = new_hub (cache);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *notice = NULL;
  guint n_progress = 0;

  g_signal_connect (hub, "progress", G_CALLBACK (progress), &n_progress);
  vc_hub_fetch_async (hub, "tiny/llama-4shard", NULL, fetched, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  file = vc_hub_fetch_finish (hub, result, &notice, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (file);
  g_assert_null (notice);
  /* config.json, the index, four shards */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (n_progress, ==, 6);
  vc_test_remove_tree (cache);
}

static void
test_cli (void)
{
  g_autofree char *cache = vc_test_make_tmpdir ("hub-xdg-cache");
  const char *env[] = { "HF_ENDPOINT", hub_test_server_url (server), "XDG_CACHE_HOME", cache,
                        "HF_HUB_OFFLINE", "0", NULL };
  const char *offline_env[] = { "HF_ENDPOINT", hub_test_server_url (server), "XDG_CACHE_HOME", cache,
                                "HF_HUB_OFFLINE", "1", NULL };
  const char *args[] = { "--model", "hf:tiny/llama-4shard", "--format", "json", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (vc_test_run_vramcalc (args, env, &out, &err), ==, 0);
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root, *source;

    g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    source = json_object_get_object_member (root, "source");
    g_assert_cmpstr (json_object_get_string_member (source, "format"), ==, "safetensors");
    g_assert_cmpint (json_object_get_int_member (source, "weights_bytes"), ==, TINY_BF16_BYTES);
    g_assert_cmpint (json_object_get_int_member (root, "parameters"), ==, TINY_ELEMENTS);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  /* offline: the same numbers from the cache, and a line saying so */
  g_assert_cmpint (vc_test_run_vramcalc (args, offline_env, &out, &err), ==, 0);
  g_assert_nonnull (strstr (err, "HF_HUB_OFFLINE"));
  g_assert_nonnull (strstr (out, "\"parameters\" : 1692928"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *gated[] = { "--model", "hf:tiny/gated", NULL };
    const char *choose[] = { "--model", "hf:tiny/llama-gguf", NULL };

    g_assert_cmpint (vc_test_run_vramcalc (gated, env, &out, &err), !=, 0);
    g_assert_nonnull (strstr (err, "HF_TOKEN"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (vc_test_run_vramcalc (choose, env, &out, &err), !=, 0);
    g_assert_nonnull (strstr (err, "tiny/llama-gguf:tiny-llama-Q4_K_M.gguf"));
  }
  vc_test_remove_tree (cache);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *script = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0, ret;

  /* the Hub's own settings of whoever runs the tests are not the tests' */
  g_unsetenv ("HF_TOKEN");
  g_unsetenv ("HF_HUB_OFFLINE");
  g_unsetenv ("HF_ENDPOINT");
  g_unsetenv ("HF_HOME");
  g_unsetenv ("HF_TOKEN_PATH");
  /* the test Hub is on this machine: never through a proxy the environment names */
  g_setenv ("no_proxy", "127.0.0.1,localhost", TRUE);
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_test_init (&argc, &argv, NULL);

  fixtures = vc_test_make_tmpdir ("hub-fixtures");
  script = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hub", "make-hub-fixtures.py", NULL);
  g_assert_nonnull (python);
  {
    const char *args[] = { python, script, fixtures, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error));
    if (!g_spawn_check_wait_status (status, NULL))
      g_error ("make-hub-fixtures.py failed: %s", err);
  }
  repos = g_build_filename (fixtures, "repos", NULL);
  server = hub_test_server_start (repos);

  g_test_add_func ("/hub/names", test_names);
  g_test_add_func ("/hub/four-shards", test_four_shards);
  g_test_add_func ("/hub/single-and-config", test_single_and_config);
  g_test_add_func ("/hub/gguf", test_gguf);
  g_test_add_func ("/hub/gated", test_gated);
  g_test_add_func ("/hub/not-found", test_not_found);
  g_test_add_func ("/hub/rate-limited", test_rate_limited);
  g_test_add_func ("/hub/stall", test_stall);
  g_test_add_func ("/hub/bad-answers", test_bad_answers);
  g_test_add_func ("/hub/gguf-walk", test_gguf_walk);
  g_test_add_func ("/hub/offline", test_offline);
  g_test_add_func ("/hub/async", test_async);
  g_test_add_func ("/hub/cli", test_cli);
  ret = g_test_run ();

  hub_test_server_stop (server);
  vc_test_remove_tree (fixtures);
  g_free (repos);
  g_free (fixtures);
  return ret;
}
