/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hub-test-server.c: the Hub and its CDN for the tests (see hub-test-server.h). */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <stdio.h>
#include <string.h>

#include "hub-test-server.h"

struct _HubTestServer
{
  char *root;
  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  SoupServer *hub;
  SoupServer *cdn;
  char *hub_url;
  char *cdn_url;
  GMutex lock;
  GCond ready;
  gboolean started;
  guint n_hub;
  guint n_cdn;
  guint n_leaks;
  guint limited_once;
  GPtrArray *paused;
};

static gboolean
is_lfs (const char *path)
{
  return g_str_has_suffix (path, ".safetensors") || g_str_has_suffix (path, ".gguf");
}

/* bytes [start, start + length) of a fixture */
static GBytes *
read_range (const char *path,
            guint64     start,
            guint64     length)
{
  FILE *f = fopen (path, "rb");
  guint8 *data;
  gsize got;

  if (f == NULL)
    return NULL;
  data = g_malloc (length ? length : 1);
  fseeko (f, (off_t) start, SEEK_SET);
  got = fread (data, 1, length, f);
  fclose (f);
  return g_bytes_new_take (data, got);
}

static void
status (SoupServerMessage *msg,
        guint              code)
{
  soup_server_message_set_status (msg, code, NULL);
}

/* A raw answer written on the stolen connection, then closed: what SoupServer would not send. */
static void
raw (SoupServerMessage *msg,
     const char        *head,
     gsize              body_length)
{
  GIOStream *io = soup_server_message_steal_connection (msg);
  GOutputStream *out = g_io_stream_get_output_stream (io);
  g_autofree char *body = g_strnfill (body_length, ' ');

  g_output_stream_write_all (out, head, strlen (head), NULL, NULL, NULL);
  g_output_stream_write_all (out, body, body_length, NULL, NULL, NULL);
  g_io_stream_close (io, NULL, NULL);
  g_object_unref (io);
}

static void
add_siblings (JsonBuilder *b,
              const char  *dir,
              const char  *prefix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, names->pdata[i], NULL);
      g_autofree char *rel = *prefix ? g_strdup_printf ("%s/%s", prefix, (char *) names->pdata[i])
                                     : g_strdup (names->pdata[i]);
      GStatBuf st;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          add_siblings (b, path, rel);
          continue;
        }
      if (g_stat (path, &st) != 0)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "rfilename");
      json_builder_add_string_value (b, rel);
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, st.st_size);
      json_builder_end_object (b);
    }
}

static void
api_revision (HubTestServer     *s,
              SoupServerMessage *msg,
              const char        *repo)
{
  g_autofree char *dir = g_build_filename (s->root, repo, NULL);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  char *text;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      status (msg, 404);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, repo);
  json_builder_set_member_name (b, "sha");
  json_builder_add_string_value (b, HUB_TEST_COMMIT);
  json_builder_set_member_name (b, "siblings");
  json_builder_begin_array (b);
  add_siblings (b, dir, "");
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  status (msg, 200);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, text, strlen (text));
}

/* A file of the test Hub's tree: from the CDN (a redirect) for the large files, as Git LFS
 * serves them, else the file itself. */
static void
serve_file (HubTestServer     *s,
            SoupServerMessage *msg,
            const char        *repo,
            const char        *file_path)
{
  g_autofree char *full = g_build_filename (s->root, repo, file_path, NULL);

  if (!g_file_test (full, G_FILE_TEST_IS_REGULAR) || strstr (file_path, ".."))
    {
      status (msg, 404);
      return;
    }
  if (is_lfs (file_path))
    {
      g_autofree char *location = g_strdup_printf ("%s/cdn/%s/%s", s->cdn_url, repo, file_path);

      soup_server_message_set_redirect (msg, 302, location);
      return;
    }
  {
    g_autofree char *text = NULL;
    gsize length;

    g_file_get_contents (full, &text, &length, NULL);
    status (msg, 200);
    soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, text, length);
  }
}

/* /api/models/ORG/NAME/revision/REV (@parts: the path split at its first four '/') */
static void
serve_api (HubTestServer     *s,
           SoupServerMessage *msg,
           char             **parts,
           const char        *auth)
{
  g_auto(GStrv) rest = g_strsplit (parts[4], "/", 3);
  g_autofree char *repo = g_strdup_printf ("%s/%s", parts[2], parts[3]);

  if (g_strv_length (rest) < 2 || !g_str_equal (rest[0], "revision"))
    {
      status (msg, 404);
      return;
    }
  if (g_str_equal (repo, "tiny/gated") && g_strcmp0 (auth, "Bearer " HUB_TEST_TOKEN) != 0)
    {
      status (msg, 401);
      return;
    }
  api_revision (s, msg, repo);
}

static void
hub_handler (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           data)
{
  HubTestServer *s = data;
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *resp = soup_server_message_get_response_headers (msg);
  g_auto(GStrv) parts = g_strsplit (path + 1, "/", 5);
  g_autofree char *repo = NULL;
  g_autofree char *file_path = NULL;
  const char *auth = soup_message_headers_get_one (req, "Authorization");
  guint n = g_strv_length (parts);

  g_mutex_lock (&s->lock);
  s->n_hub++;
  g_mutex_unlock (&s->lock);

  /* /api/models/ORG/NAME/revision/REV */
  if (n >= 5 && g_str_equal (parts[0], "api") && g_str_equal (parts[1], "models"))
    {
      serve_api (s, msg, parts, auth);
      return;
    }
  /* /ORG/NAME/resolve/REV/FILE… */
  if (n < 5 || !g_str_equal (parts[2], "resolve"))
    {
      status (msg, 404);
      return;
    }
  repo = g_strdup_printf ("%s/%s", parts[0], parts[1]);
  file_path = g_strdup (parts[4]);
  soup_message_headers_replace (resp, "X-Repo-Commit", HUB_TEST_COMMIT);

  if (g_str_equal (repo, "tiny/gated") && g_strcmp0 (auth, "Bearer " HUB_TEST_TOKEN) != 0)
    {
      status (msg, 401);
      return;
    }
  if (g_str_equal (repo, "tiny/limited"))
    {
      soup_message_headers_replace (resp, "Retry-After", "120");
      status (msg, 429);
      return;
    }
  if (g_str_equal (repo, "tiny/limited-once"))
    {
      gboolean first;

      g_mutex_lock (&s->lock);
      first = s->limited_once++ == 0;
      g_mutex_unlock (&s->lock);
      if (first)
        {
          soup_message_headers_replace (resp, "Retry-After", "1");
          status (msg, 429);
          return;
        }
      g_free (repo);
      repo = g_strdup ("tiny/llama-single");
    }
  if (g_str_equal (repo, "tiny/stall"))
    {
      /* never answered: the client's time-out or Cancel ends it */
      soup_server_message_pause (msg);
      g_ptr_array_add (s->paused, g_object_ref (msg));
      return;
    }
  if (g_str_equal (repo, "tiny/truncated"))
    {
      raw (msg, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n", 100);
      return;
    }
  if (g_str_equal (repo, "tiny/lying"))
    {
      raw (msg, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1152921504606846976\r\n\r\n", 100);
      return;
    }
  if (g_str_equal (repo, "tiny/truncated-range") && is_lfs (file_path))
    {
      /* the first eight bytes of a file of a megabyte promised, half sent */
      raw (msg, "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-7/1048576\r\nContent-Length: 8\r\n\r\n", 4);
      return;
    }
  if (g_str_equal (repo, "tiny/truncated-range"))
    {
      g_free (repo);
      repo = g_strdup ("tiny/llama-single");
    }

  serve_file (s, msg, repo, file_path);
}

static void
cdn_handler (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           data)
{
  HubTestServer *s = data;
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *resp = soup_server_message_get_response_headers (msg);
  g_autofree char *full = NULL;
  SoupRange *ranges = NULL;
  int n_ranges = 0;
  GStatBuf st;

  g_mutex_lock (&s->lock);
  s->n_cdn++;
  if (soup_message_headers_get_one (req, "Authorization"))
    s->n_leaks++;
  g_mutex_unlock (&s->lock);

  if (!g_str_has_prefix (path, "/cdn/") || strstr (path, ".."))
    {
      status (msg, 404);
      return;
    }
  full = g_build_filename (s->root, path + strlen ("/cdn/"), NULL);
  if (g_stat (full, &st) != 0)
    {
      status (msg, 404);
      return;
    }
  if (soup_message_headers_get_ranges (req, st.st_size, &ranges, &n_ranges) && n_ranges == 1)
    {
      guint64 start = ranges[0].start, end = MIN ((guint64) ranges[0].end, (guint64) st.st_size - 1);
      g_autoptr(GBytes) bytes = read_range (full, start, end - start + 1);

      soup_message_headers_free_ranges (req, ranges);
      status (msg, 206);
      soup_message_headers_set_content_range (resp, start, end, st.st_size);
      soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_COPY,
                                        g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      return;
    }
  if (ranges)
    soup_message_headers_free_ranges (req, ranges);
  {
    g_autoptr(GBytes) bytes = read_range (full, 0, st.st_size);

    status (msg, 200);
    soup_server_message_set_response (msg, "application/octet-stream", SOUP_MEMORY_COPY,
                                      g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  }
}

static char *
listen_url (SoupServer *server)
{
  g_autoptr(GError) error = NULL;
  GSList *uris;
  char *url;

  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  url = g_uri_to_string (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  if (g_str_has_suffix (url, "/"))
    url[strlen (url) - 1] = '\0';
  return url;
}

static gpointer
server_thread (gpointer data)
{
  HubTestServer *s = data;

  g_main_context_push_thread_default (s->context);
  s->hub = soup_server_new (NULL, NULL);
  s->cdn = soup_server_new (NULL, NULL);
  soup_server_add_handler (s->hub, NULL, hub_handler, s, NULL);
  soup_server_add_handler (s->cdn, NULL, cdn_handler, s, NULL);
  s->hub_url = listen_url (s->hub);
  s->cdn_url = listen_url (s->cdn);
  g_mutex_lock (&s->lock);
  s->started = TRUE;
  g_cond_signal (&s->ready);
  g_mutex_unlock (&s->lock);
  g_main_loop_run (s->loop);
  g_ptr_array_set_size (s->paused, 0);
  soup_server_disconnect (s->hub);
  soup_server_disconnect (s->cdn);
  g_clear_object (&s->hub);
  g_clear_object (&s->cdn);
  /* the connections' closing runs in this context: let it, so that nothing is left behind */
  for (int i = 0; i < 100; i++)
    while (g_main_context_iteration (s->context, FALSE))
      ;
  g_main_context_pop_thread_default (s->context);
  return NULL;
}

HubTestServer *
hub_test_server_start (const char *repos_dir)
{
  HubTestServer *s = g_new0 (HubTestServer, 1);

  s->root = g_strdup (repos_dir);
  s->context = g_main_context_new ();
  s->loop = g_main_loop_new (s->context, FALSE);
  s->paused = g_ptr_array_new_with_free_func (g_object_unref);
  g_mutex_init (&s->lock);
  g_cond_init (&s->ready);
  s->thread = g_thread_new ("hub-test-server", server_thread, s);
  g_mutex_lock (&s->lock);
  while (!s->started)
    g_cond_wait (&s->ready, &s->lock);
  g_mutex_unlock (&s->lock);
  return s;
}

void
hub_test_server_stop (HubTestServer *s)
{
  g_main_loop_quit (s->loop);
  g_thread_join (s->thread);
  g_main_loop_unref (s->loop);
  g_main_context_unref (s->context);
  g_ptr_array_unref (s->paused);
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->ready);
  g_free (s->hub_url);
  g_free (s->cdn_url);
  g_free (s->root);
  g_free (s);
}

const char *
hub_test_server_url (HubTestServer *s)
{
  return s->hub_url;
}

guint
hub_test_server_n_hub (HubTestServer *s)
{
  guint n;

  g_mutex_lock (&s->lock);
  n = s->n_hub;
  g_mutex_unlock (&s->lock);
  return n;
}

guint
hub_test_server_n_cdn (HubTestServer *s)
{
  guint n;

  g_mutex_lock (&s->lock);
  n = s->n_cdn;
  g_mutex_unlock (&s->lock);
  return n;
}

guint
hub_test_server_n_leaks (HubTestServer *s)
{
  guint n;

  g_mutex_lock (&s->lock);
  n = s->n_leaks;
  g_mutex_unlock (&s->lock);
  return n;
}

void
hub_test_server_reset (HubTestServer *s)
{
  g_mutex_lock (&s->lock);
  s->n_hub = s->n_cdn = s->n_leaks = 0;
  s->limited_once = 0;
  g_mutex_unlock (&s->lock);
}
