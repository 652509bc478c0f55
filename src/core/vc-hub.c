/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-hub.c: a Hugging Face Hub model's headers over HTTP (libsoup 3), kept as sparse files.
 *
 * The Hub's routes, as huggingface_hub uses them (src/huggingface_hub/file_download.py,
 * hf_api.py):
 *   {endpoint}/{repo}/resolve/{revision}/{file}     a file; LFS files answer 302 to a CDN host;
 *                                                   the answer's X-Repo-Commit names the commit
 *   {endpoint}/api/models/{repo}/revision/{revision}?blobs=true
 *                                                   the commit ("sha") and every file with its
 *                                                   size ("siblings": rfilename, size)
 * The endpoint comes from HF_ENDPOINT; HF_HUB_OFFLINE=1 reads the cache only; the token from
 * HF_TOKEN, else the file HF_TOKEN_PATH, HF_HOME/token or ~/.cache/huggingface/token, sent as
 * "Authorization: Bearer" to the endpoint's host only (never to the CDN a redirect points to).
 *
 * A safetensors repository costs config.json, model.safetensors.index.json and two range
 * requests per shard (bytes 0-7, then the header); a GGUF file its header, read in ranges that
 * double from 1 MiB until the tensor infos end. Every answer is capped before it is read, a
 * length a header claims is checked against the cap before anything is allocated for it, and
 * an answer shorter or longer than its Content-Length or Content-Range is refused.
 *
 * The cache: {XDG cache}/vram-calculator/hub/models--{org}--{name}/snapshots/{commit}/ holds the
 * files with their headers and their real sizes (the data is a hole), refs/{revision} the commit
 * a revision named; the layout of the Hub's own cache.
 */
#define G_LOG_DOMAIN "vc-hub"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "vc-gguf.h"
#include "vc-hub-private.h"
#include "vc-json-input.h"
#include "vc-safetensors.h"

#define U(x) ((unsigned long long) (x))

#define GGUF_FIRST_RANGE (1024 * 1024)
#define MAX_REDIRECTS 5
/* a Retry-After up to this is waited for once; a longer one is said */
#define MAX_RETRY_WAIT 5
/* ext4's largest file; no model file is near it */
#define MAX_FILE_SIZE (G_GUINT64_CONSTANT (1) << 44)

struct _VcHub
{
  GObject parent_instance;

  char *endpoint;
  char *token;
  char *cache_dir;
  gboolean offline;
  guint timeout;
  guint n_requests;    /* atomic: fetches run in threads */
  guint n_redirects;
  GMutex lock;         /* n_bytes */
  guint64 n_bytes;
};

G_DEFINE_FINAL_TYPE (VcHub, vc_hub, G_TYPE_OBJECT)
G_DEFINE_QUARK (vc-hub-error-quark, vc_hub_error)

enum
{
  SIGNAL_PROGRESS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
vc_hub_quant_free (VcHubQuant *quant)
{
  if (quant == NULL)
    return;
  g_free (quant->file);
  g_free (quant->label);
  g_free (quant);
}

static void
vc_hub_finalize (GObject *object)
{
  VcHub *self = VC_HUB (object);

  g_free (self->endpoint);
  g_free (self->token);
  g_free (self->cache_dir);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (vc_hub_parent_class)->finalize (object);
}

static void
vc_hub_class_init (VcHubClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = vc_hub_finalize;

  /* a line saying what is being fetched, in the context vc_hub_fetch_async() was called from */
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_DOUBLE);
}

static char *
read_token_file (const char *path)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  if (path == NULL || !g_file_get_contents (path, &text, &length, NULL) || length > 4096)
    return NULL;
  g_strstrip (text);
  return *text != '\0' ? g_steal_pointer (&text) : NULL;
}

/* HF_HOME, else $XDG_CACHE_HOME/huggingface (huggingface_hub's constants.py); in the Flatpak
 * sandbox, whose XDG_CACHE_HOME is the application's own, the host's ~/.cache/huggingface (the
 * manifest grants it read-only) */
static char *
hf_home (void)
{
  const char *home = g_getenv ("HF_HOME");

  if (home != NULL && *home != '\0')
    return g_strdup (home);
  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    return g_build_filename (g_get_home_dir (), ".cache", "huggingface", NULL);
  return g_build_filename (g_get_user_cache_dir (), "huggingface", NULL);
}

static void
vc_hub_init (VcHub *self)
{
  const char *endpoint = g_getenv ("HF_ENDPOINT");
  const char *offline = g_getenv ("HF_HUB_OFFLINE");
  const char *token = g_getenv ("HF_TOKEN");

  vc_hub_set_endpoint (self, endpoint && *endpoint ? endpoint : VC_HUB_DEFAULT_ENDPOINT);
  /* huggingface_hub: "1", "ON", "YES", "TRUE" (any case) */
  self->offline = offline != NULL &&
                  (g_ascii_strcasecmp (offline, "1") == 0 || g_ascii_strcasecmp (offline, "on") == 0 ||
                   g_ascii_strcasecmp (offline, "yes") == 0 || g_ascii_strcasecmp (offline, "true") == 0);
  if (token != NULL && *token != '\0')
    self->token = g_strdup (token);
  else
    {
      const char *path = g_getenv ("HF_TOKEN_PATH");
      g_autofree char *home = hf_home ();
      g_autofree char *in_home = g_build_filename (home, "token", NULL);

      self->token = read_token_file (path && *path ? path : in_home);
    }
  self->cache_dir = g_build_filename (g_get_user_cache_dir (), "vram-calculator", "hub", NULL);
  self->timeout = 30;
  g_mutex_init (&self->lock);
}

VcHub *
vc_hub_new (void)
{
  return g_object_new (VC_TYPE_HUB, NULL);
}

void
vc_hub_set_endpoint (VcHub      *self,
                     const char *endpoint)
{
  g_return_if_fail (VC_IS_HUB (self) && endpoint != NULL);
  g_free (self->endpoint);
  self->endpoint = g_strdup (endpoint);
  /* no trailing slash: routes are appended with one */
  while (g_str_has_suffix (self->endpoint, "/"))
    self->endpoint[strlen (self->endpoint) - 1] = '\0';
}

const char *
vc_hub_get_endpoint (VcHub *self)
{
  g_return_val_if_fail (VC_IS_HUB (self), NULL);
  return self->endpoint;
}

void
vc_hub_set_token (VcHub      *self,
                  const char *token)
{
  g_return_if_fail (VC_IS_HUB (self));
  g_free (self->token);
  self->token = token && *token ? g_strdup (token) : NULL;
}

void
vc_hub_set_offline (VcHub    *self,
                    gboolean  offline)
{
  g_return_if_fail (VC_IS_HUB (self));
  self->offline = offline;
}

void
vc_hub_set_cache_dir (VcHub      *self,
                      const char *path)
{
  g_return_if_fail (VC_IS_HUB (self) && path != NULL);
  g_free (self->cache_dir);
  self->cache_dir = g_strdup (path);
}

const char *
vc_hub_get_cache_dir (VcHub *self)
{
  g_return_val_if_fail (VC_IS_HUB (self), NULL);
  return self->cache_dir;
}

void
vc_hub_set_timeout (VcHub *self,
                    guint  seconds)
{
  g_return_if_fail (VC_IS_HUB (self));
  self->timeout = seconds;
}

guint
vc_hub_get_n_requests (VcHub *self)
{
  return (guint) g_atomic_int_get (&self->n_requests);
}

guint
vc_hub_get_n_redirects (VcHub *self)
{
  return (guint) g_atomic_int_get (&self->n_redirects);
}

guint64
vc_hub_get_n_bytes (VcHub *self)
{
  guint64 n;

  g_mutex_lock (&self->lock);
  n = self->n_bytes;
  g_mutex_unlock (&self->lock);
  return n;
}

static void
add_bytes (VcHub   *self,
           guint64  n)
{
  g_mutex_lock (&self->lock);
  self->n_bytes += n;
  g_mutex_unlock (&self->lock);
}

void
vc_hub_reset_counts (VcHub *self)
{
  g_atomic_int_set (&self->n_requests, 0);
  g_atomic_int_set (&self->n_redirects, 0);
  g_mutex_lock (&self->lock);
  self->n_bytes = 0;
  g_mutex_unlock (&self->lock);
}

/* ---- names ----------------------------------------------------------------------------------- */

static gboolean
valid_repo_part (const char *s)
{
  gsize n = strlen (s);

  if (n == 0 || n > 96 || strstr (s, "..") || s[0] == '.' || s[0] == '-')
    return FALSE;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      return FALSE;
  return TRUE;
}

/* a revision: a branch, a tag, a commit or refs/pr/N */
static gboolean
valid_revision (const char *s)
{
  gsize n = strlen (s);

  if (n == 0 || n > 200 || strstr (s, "..") || s[0] == '/' || s[n - 1] == '/')
    return FALSE;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isalnum (*p) && !strchr ("-_./", *p))
      return FALSE;
  return TRUE;
}

/* a file inside the repository: relative, no "." or ".." part, no control character */
static gboolean
valid_file (const char *s)
{
  g_auto(GStrv) parts = NULL;

  if (*s == '\0' || strlen (s) > 1000 || s[0] == '/' || strchr (s, '\\'))
    return FALSE;
  for (const char *p = s; *p; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      return FALSE;
  parts = g_strsplit (s, "/", -1);
  for (guint i = 0; parts[i]; i++)
    if (*parts[i] == '\0' || g_str_equal (parts[i], ".") || g_str_equal (parts[i], ".."))
      return FALSE;
  return TRUE;
}

static gboolean
bad_name (GError    **error,
          const char *text)
{
  g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_INVALID_NAME,
               _("“%s” is not a Hugging Face model; accepted: org/name, org/name@revision, org/name:FILE, "
                 "or the model's address on the Hub (https://huggingface.co/org/name)"), text);
  return FALSE;
}

gboolean
vc_hub_parse_name (const char  *text,
                   char       **repo,
                   char       **revision,
                   char       **file,
                   GError     **error)
{
  g_autofree char *s = NULL;
  g_autofree char *rev = NULL;
  g_autofree char *path = NULL;
  g_auto(GStrv) parts = NULL;
  char *at, *colon;
  const char *rest;

  g_return_val_if_fail (text != NULL, FALSE);
  s = g_strstrip (g_strdup (text));
  rest = s;
  if (g_str_has_prefix (rest, "hf:"))
    rest += 3;
  if (g_str_has_prefix (rest, "https://") || g_str_has_prefix (rest, "http://") ||
      g_str_has_prefix (rest, "huggingface.co/") || g_str_has_prefix (rest, "hf.co/"))
    {
      /* a Hub address: host/org/name[/tree|blob|resolve/REV[/FILE]], any query dropped */
      g_auto(GStrv) url = NULL;
      g_autofree char *no_query = NULL;
      const char *after = strstr (rest, "://");
      guint n;

      after = after ? after + 3 : rest;
      no_query = g_strndup (after, strcspn (after, "?#"));
      url = g_strsplit (no_query, "/", -1);
      n = g_strv_length (url);
      if (n < 3)
        return bad_name (error, text);
      if (n >= 5 && (g_str_equal (url[3], "tree") || g_str_equal (url[3], "blob") || g_str_equal (url[3], "resolve")))
        {
          g_autofree char *r = g_uri_unescape_string (url[4], NULL);

          rev = g_strdup (r);
          if (n >= 6 && !g_str_equal (url[3], "tree"))
            {
              g_autofree char *joined = g_strjoinv ("/", url + 5);

              path = g_uri_unescape_string (joined, NULL);
            }
        }
      else if (n > 3 && !(n == 4 && *url[3] == '\0'))
        return bad_name (error, text);
      parts = g_new0 (char *, 3);
      parts[0] = g_strdup (url[1]);
      parts[1] = g_strdup (url[2]);
    }
  else
    {
      g_autofree char *id = NULL;

      colon = strchr (rest, ':');
      if (colon)
        path = g_strdup (colon + 1);
      id = colon ? g_strndup (rest, colon - rest) : g_strdup (rest);
      at = strchr (id, '@');
      if (at)
        {
          rev = g_strdup (at + 1);
          *at = '\0';
        }
      parts = g_strsplit (id, "/", -1);
      if (g_strv_length (parts) != 2)
        return bad_name (error, text);
    }
  if (!valid_repo_part (parts[0]) || !valid_repo_part (parts[1]) ||
      (rev != NULL && !valid_revision (rev)) || (path != NULL && !valid_file (path)))
    return bad_name (error, text);
  if (repo)
    *repo = g_strdup_printf ("%s/%s", parts[0], parts[1]);
  if (revision)
    *revision = rev ? g_steal_pointer (&rev) : g_strdup ("main");
  if (file)
    *file = g_steal_pointer (&path);
  return TRUE;
}

/* ---- one fetch ------------------------------------------------------------------------------- */

typedef struct
{
  VcHub *self;
  SoupSession *session;
  GCancellable *cancellable;
  GMainContext *context;       /* where progress is said; NULL: not said */
  char *repo;
  char *revision;
  char *file;
  char *commit;                /* X-Repo-Commit or the API's sha */
  GFile *snapshot;
  GUri *endpoint_uri;
} Fetch;

static void
fetch_clear (Fetch *f)
{
  g_clear_object (&f->session);
  g_clear_pointer (&f->context, g_main_context_unref);
  g_free (f->repo);
  g_free (f->revision);
  g_free (f->file);
  g_free (f->commit);
  g_clear_object (&f->snapshot);
  g_clear_pointer (&f->endpoint_uri, g_uri_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Fetch, fetch_clear)

typedef struct
{
  VcHub *self;
  char *message;
  double fraction;
} Progress;

static gboolean
emit_progress (gpointer data)
{
  Progress *p = data;

  g_signal_emit (p->self, signals[SIGNAL_PROGRESS], 0, p->message, p->fraction);
  g_object_unref (p->self);
  g_free (p->message);
  g_free (p);
  return G_SOURCE_REMOVE;
}

static void
say (Fetch      *f,
     double      fraction,
     const char *format,
     ...) G_GNUC_PRINTF (3, 4);

static void
say (Fetch      *f,
     double      fraction,
     const char *format,
     ...)
{
  Progress *p;
  va_list ap;

  if (f->context == NULL)
    return;
  p = g_new0 (Progress, 1);
  p->self = g_object_ref (f->self);
  va_start (ap, format);
  p->message = g_strdup_vprintf (format, ap);
  va_end (ap);
  p->fraction = fraction;
  g_main_context_invoke (f->context, emit_progress, p);
}

/* the cache folder of the repository */
static GFile *
repo_dir (Fetch *f)
{
  g_autofree char *dashed = g_strdup (f->repo);
  g_autofree char *name = NULL;

  g_strdelimit (dashed, "/", '\0');
  name = g_strdup_printf ("models--%s--%s", dashed, dashed + strlen (dashed) + 1);
  return g_file_new_build_filename (f->self->cache_dir, name, NULL);
}

static GFile *
ref_file (Fetch *f)
{
  g_autoptr(GFile) dir = repo_dir (f);
  g_autofree char *escaped = g_uri_escape_string (f->revision, NULL, FALSE);

  return g_file_new_build_filename (g_file_peek_path (dir), "refs", escaped, NULL);
}

static gboolean
is_commit (const char *s)
{
  if (strlen (s) != 40)
    return FALSE;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  return TRUE;
}

static gboolean
http_error (Fetch        *f,
            SoupMessage  *msg,
            const char   *file,
            GError      **error)
{
  guint status = soup_message_get_status (msg);

  switch (status)
    {
    case 401:
    case 403:
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_AUTH,
                   f->self->token
                   ? _("%s is gated or private (HTTP %u) and the token given was refused: accept the model's "
                       "terms on its Hub page with the account the token belongs to, or give another token "
                       "(HF_TOKEN, or the token file written by “hf auth login”)")
                   : _("%s is gated or private (HTTP %u): accept the model's terms on its Hub page, then give "
                       "a token with read access: set HF_TOKEN, or run “hf auth login”, which writes "
                       "~/.cache/huggingface/token"),
                   f->repo, status);
      return FALSE;
    case 404:
      if (file)
        g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_NOT_FOUND,
                     _("%s (revision %s) has no file %s on the Hub (HTTP 404)"), f->repo, f->revision, file);
      else
        g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_NOT_FOUND,
                     _("no model %s (revision %s) on the Hub (HTTP 404); check the name"), f->repo, f->revision);
      return FALSE;
    case 429:
      {
        const char *after = soup_message_headers_get_one (soup_message_get_response_headers (msg), "Retry-After");
        guint64 seconds = 0;

        if (after && g_ascii_string_to_unsigned (after, 10, 0, 86400 * 7, &seconds, NULL))
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_RATE_LIMITED,
                       _("the Hub is limiting requests (HTTP 429): try again in %llu seconds"), U(seconds));
        else
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_RATE_LIMITED,
                       _("the Hub is limiting requests (HTTP 429): try again later"));
        return FALSE;
      }
    default:
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                   _("the Hub answered HTTP %u (%s) for %s"), status,
                   soup_message_get_reason_phrase (msg) ? soup_message_get_reason_phrase (msg) : "",
                   file ? file : f->repo);
      return FALSE;
    }
}

/* A transport error: the Hub could not be reached or stopped answering. */
static gboolean
transport_error (Fetch   *f,
                 GError  *local,
                 GError **error)
{
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_NETWORK,
                 _("%s did not answer within %u seconds"), f->self->endpoint, f->self->timeout);
  else
    g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_NETWORK,
                 _("could not reach %s: %s"), f->self->endpoint, local->message);
  g_error_free (local);
  return FALSE;
}

static gboolean
wait_seconds (guint          seconds,
              GCancellable  *cancellable,
              GError       **error)
{
  gint64 end = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < end)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      g_usleep (20000);
    }
  return TRUE;
}

typedef struct
{
  guint64 start;               /* a range: its first byte and length; length 0: the whole file */
  guint64 length;
  gsize cap;                   /* the most a whole file may hold */
  /* out */
  GByteArray *body;
  guint64 total;               /* the whole file's size */
  char *final_url;             /* where the redirects led */
} Get;

static void
get_clear (Get *g)
{
  g_clear_pointer (&g->body, g_byte_array_unref);
  g_clear_pointer (&g->final_url, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Get, get_clear)

static gboolean
same_host (GUri *a,
           GUri *b)
{
  return g_ascii_strcasecmp (g_uri_get_host (a) ? g_uri_get_host (a) : "",
                             g_uri_get_host (b) ? g_uri_get_host (b) : "") == 0 &&
         g_uri_get_port (a) == g_uri_get_port (b) &&
         g_strcmp0 (g_uri_get_scheme (a), g_uri_get_scheme (b)) == 0;
}

static gboolean
too_large (GError    **error,
           const char *file,
           guint64     claimed,
           guint64     cap)
{
  g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_TOO_LARGE,
               _("%s: the answer would be %llu bytes, more than the %llu read at most; refused"),
               file, U(claimed), U(cap));
  return FALSE;
}

static gboolean
truncated_answer (GError    **error,
                  const char *file,
                  guint64     got,
                  guint64     said)
{
  g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
               _("%s: the answer ended after %llu of the %llu bytes it announced"), file, U(got), U(said));
  return FALSE;
}

/* Reads at most `cap` bytes of the body; one more is an error. Allocates as data arrives. */
static gboolean
read_body (Fetch         *f,
           GInputStream  *in,
           const char    *file,
           guint64        cap,
           GByteArray    *body,
           GError       **error)
{
  guint8 buffer[65536];

  for (;;)
    {
      GError *local = NULL;
      gssize n = g_input_stream_read (in, buffer, sizeof buffer, f->cancellable, &local);

      if (n < 0)
        {
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
            {
              g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                           _("%s: the answer ended before the bytes it announced (%s)"), file, local->message);
              g_error_free (local);
              return FALSE;
            }
          return transport_error (f, local, error);
        }
      if (n == 0)
        return TRUE;
      add_bytes (f->self, n);
      if ((guint64) n > cap - body->len)
        return too_large (error, file, body->len + (guint64) n, cap);
      g_byte_array_append (body, buffer, n);
    }
}

/* The body of a 200 or 206 answer into g->body: the range asked for (checked against the
 * answer's headers), or the whole file up to g->cap. */
static gboolean
read_answer (Fetch               *f,
             GInputStream        *in,
             SoupMessageHeaders  *headers,
             guint                status,
             goffset              content_length,
             const char          *file,
             Get                 *g,
             GError             **error)
{
  GError *local = NULL;

  if (g->length > 0 && status == SOUP_STATUS_PARTIAL_CONTENT)
    {
      guint64 want;
      goffset start = 0, end = 0, total = 0;

      if (!soup_message_headers_get_content_range (headers, &start, &end, &total) ||
          total <= 0 || start != (goffset) g->start || end < start || end >= total)
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                       _("%s: the answer is not the range asked for (bytes %llu-%llu)"), file,
                       U(g->start), U(g->start + g->length - 1));
          return FALSE;
        }
      /* the whole range, or up to the end of a shorter file */
      want = MIN (g->length, (guint64) total - g->start);
      if ((guint64) (end - start + 1) != want || (content_length >= 0 && (guint64) content_length != want))
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                       _("%s: the answer is not the range asked for (bytes %llu-%llu)"), file,
                       U(g->start), U(g->start + g->length - 1));
          return FALSE;
        }
      g->total = total;
      if (!read_body (f, in, file, want, g->body, error))
        return FALSE;
      if (g->body->len != want)
        return truncated_answer (error, file, g->body->len, want);
    }
  else if (g->length > 0)
    {
      /* a server without ranges sends the whole file: its first bytes are kept, the rest
       * never read */
      guint64 want;
      gsize got = 0;

      if (content_length < 0)
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                       _("%s: the server answers neither a range nor the file's size"), file);
          return FALSE;
        }
      g->total = content_length;
      if (g->start >= g->total)
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                       _("%s: the answer is not the range asked for (bytes %llu-%llu)"), file,
                       U(g->start), U(g->start + g->length - 1));
          return FALSE;
        }
      want = MIN (g->length, g->total - g->start);
      if (g->start > 0 && g_input_stream_skip (in, g->start, f->cancellable, NULL) != (gssize) g->start)
        return truncated_answer (error, file, 0, g->total);
      g_byte_array_set_size (g->body, want);
      if (!g_input_stream_read_all (in, g->body->data, want, &got, f->cancellable, &local))
        return transport_error (f, local, error);
      add_bytes (f->self, got);
      if (got != want)
        return truncated_answer (error, file, got, want);
    }
  else
    {
      /* a whole file: refused before reading when it says it is too large */
      if (content_length >= 0 && (guint64) content_length > g->cap)
        return too_large (error, file, content_length, g->cap);
      if (!read_body (f, in, file, g->cap, g->body, error))
        return FALSE;
      if (content_length >= 0 && g->body->len != (guint64) content_length)
        return truncated_answer (error, file, g->body->len, content_length);
      g->total = g->body->len;
    }
  return TRUE;
}

/* The GET of @uri, not following redirects, with the token (to the Hub only) and the range. */
static SoupMessage *
new_request (Fetch  *f,
             GUri   *uri,
             Get    *g)
{
  SoupMessage *msg = soup_message_new_from_uri ("GET", uri);
  SoupMessageHeaders *headers = soup_message_get_request_headers (msg);

  soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
  /* the token goes to the Hub, never to the host a redirect names */
  if (f->self->token && same_host (uri, f->endpoint_uri))
    {
      g_autofree char *bearer = g_strdup_printf ("Bearer %s", f->self->token);

      soup_message_headers_replace (headers, "Authorization", bearer);
    }
  if (g->length > 0)
    soup_message_headers_set_range (headers, g->start, g->start + g->length - 1);
  return msg;
}

/* GET url (a range of it when g->length > 0), following redirects; the answer checked. */
static gboolean
http_get (Fetch       *f,
          const char  *url,
          const char  *file,
          Get         *g,
          GError     **error)
{
  g_autofree char *current = g_strdup (url);
  gboolean retried = FALSE;

  g->body = g_byte_array_new ();
  for (guint hop = 0;; hop++)
    {
      g_autoptr(GUri) uri = g_uri_parse (current, SOUP_HTTP_URI_FLAGS, NULL);
      g_autoptr(SoupMessage) msg = NULL;
      g_autoptr(GInputStream) in = NULL;
      GError *local = NULL;
      SoupMessageHeaders *headers;
      guint status;
      goffset content_length = -1;

      if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                          g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                       _("%s: not an http(s) address: %s"), file, current);
          return FALSE;
        }
      msg = new_request (f, uri, g);

      if (g_cancellable_set_error_if_cancelled (f->cancellable, error))
        return FALSE;
      g_atomic_int_inc (&f->self->n_requests);
      in = soup_session_send (f->session, msg, f->cancellable, &local);
      if (in == NULL)
        return transport_error (f, local, error);
      status = soup_message_get_status (msg);
      headers = soup_message_get_response_headers (msg);

      if (SOUP_STATUS_IS_REDIRECTION (status) && soup_message_headers_get_one (headers, "Location"))
        {
          g_autoptr(GUri) next = NULL;

          g_input_stream_close (in, NULL, NULL);
          if (hop >= MAX_REDIRECTS)
            {
              g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                           _("%s: more than %d redirects"), file, MAX_REDIRECTS);
              return FALSE;
            }
          next = g_uri_parse_relative (uri, soup_message_headers_get_one (headers, "Location"),
                                       SOUP_HTTP_URI_FLAGS, NULL);
          if (next == NULL)
            {
              g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                           _("%s: a redirect to an address that is not one"), file);
              return FALSE;
            }
          g_atomic_int_inc (&f->self->n_redirects);
          if (f->commit == NULL && soup_message_headers_get_one (headers, "X-Repo-Commit"))
            f->commit = g_strdup (soup_message_headers_get_one (headers, "X-Repo-Commit"));
          g_free (current);
          current = g_uri_to_string (next);
          continue;
        }
      if (status == 429 && !retried)
        {
          const char *after = soup_message_headers_get_one (headers, "Retry-After");
          guint64 seconds;

          if (after && g_ascii_string_to_unsigned (after, 10, 0, MAX_RETRY_WAIT, &seconds, NULL))
            {
              g_input_stream_close (in, NULL, NULL);
              say (f, -1, _("The Hub asks to wait %llu seconds…"), U(seconds));
              if (!wait_seconds ((guint) seconds, f->cancellable, error))
                return FALSE;
              retried = TRUE;
              hop--;
              continue;
            }
        }
      if (status != SOUP_STATUS_OK && status != SOUP_STATUS_PARTIAL_CONTENT)
        {
          g_input_stream_close (in, NULL, NULL);
          return http_error (f, msg, file, error);
        }
      if (f->commit == NULL && soup_message_headers_get_one (headers, "X-Repo-Commit"))
        f->commit = g_strdup (soup_message_headers_get_one (headers, "X-Repo-Commit"));
      if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH)
        content_length = soup_message_headers_get_content_length (headers);

      if (!read_answer (f, in, headers, status, content_length, file, g, error))
        return FALSE;
      g_input_stream_close (in, NULL, NULL);
      g->final_url = g_steal_pointer (&current);
      return TRUE;
    }
}

static char *
file_url (Fetch      *f,
          const char *file)
{
  g_autofree char *rev = g_uri_escape_string (f->commit ? f->commit : f->revision, NULL, FALSE);
  g_autofree char *path = g_uri_escape_string (file, "/", FALSE);

  return g_strdup_printf ("%s/%s/resolve/%s/%s", f->self->endpoint, f->repo, rev, path);
}

/* The snapshot folder once the commit is known (the revision's name until then). */
static GFile *
snapshot_dir (Fetch *f)
{
  g_autoptr(GFile) dir = repo_dir (f);
  g_autofree char *escaped = g_uri_escape_string (f->commit ? f->commit : f->revision, NULL, FALSE);

  return g_file_new_build_filename (g_file_peek_path (dir), "snapshots", escaped, NULL);
}

/* Writes data, then extends the file to `total` bytes with a hole: the header in place, the
 * size the reader checks offsets against, no disk taken by the data. */
static gboolean
write_sparse (Fetch         *f,
              const char    *file,
              const guint8  *data,
              gsize          length,
              guint64        total,
              GError       **error)
{
  g_autoptr(GFile) dest = NULL;
  g_autoptr(GFile) parent = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  GError *local = NULL;

  /* named after the commit the first answer gave; every file of this fetch goes there */
  if (f->snapshot == NULL)
    f->snapshot = snapshot_dir (f);
  dest = g_file_resolve_relative_path (f->snapshot, file);
  parent = g_file_get_parent (dest);

  if (total > MAX_FILE_SIZE)
    return too_large (error, file, total, MAX_FILE_SIZE);
  if (!g_file_make_directory_with_parents (parent, f->cancellable, &local))
    {
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_EXISTS))
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      g_clear_error (&local);
    }
  out = g_file_replace (dest, NULL, FALSE, G_FILE_CREATE_NONE, f->cancellable, error);
  if (out == NULL)
    return FALSE;
  if (!g_output_stream_write_all (G_OUTPUT_STREAM (out), data, length, NULL, f->cancellable, error))
    return FALSE;
  if (total > length && !g_seekable_truncate (G_SEEKABLE (out), total, f->cancellable, error))
    return FALSE;
  return g_output_stream_close (G_OUTPUT_STREAM (out), f->cancellable, error);
}

/* ---- what a repository holds ------------------------------------------------------------------ */

static JsonNode *
parse_json (GByteArray  *body,
            const char  *file,
            gsize        max,
            GError     **error)
{
  return vc_json_input_parse_max ((const char *) body->data, body->len, max, file, _("a Hub answer"), NULL, error);
}

static int
quant_compare (gconstpointer a,
               gconstpointer b)
{
  const VcHubQuant *qa = *(VcHubQuant **) a, *qb = *(VcHubQuant **) b;

  return qa->bytes < qb->bytes ? -1 : qa->bytes > qb->bytes ? 1 : g_strcmp0 (qa->file, qb->file);
}

/* The API's listing: the commit, and the GGUF quantizations (shards of one are one), smallest
 * first. Vision projectors (mmproj) are not the model. */
static GPtrArray *
list_ggufs (Fetch   *f,
            GError **error)
{
  g_auto(Get) g = { .cap = VC_HUB_MAX_JSON };
  g_autofree char *rev = g_uri_escape_string (f->commit ? f->commit : f->revision, NULL, FALSE);
  g_autofree char *url = g_strdup_printf ("%s/api/models/%s/revision/%s?blobs=true", f->self->endpoint, f->repo, rev);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) quants = g_ptr_array_new_with_free_func ((GDestroyNotify) vc_hub_quant_free);
  g_autoptr(GHashTable) by_prefix = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonObject *o;
  JsonArray *siblings;
  JsonNode *node;

  if (!http_get (f, url, _("the file list"), &g, error))
    return NULL;
  root = parse_json (g.body, _("the file list"), VC_HUB_MAX_JSON, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root) ||
      (node = json_object_get_member (json_node_get_object (root), "siblings")) == NULL ||
      !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL, _("the Hub's file list of %s has no “siblings”"), f->repo);
      return NULL;
    }
  o = json_node_get_object (root);
  siblings = json_node_get_array (node);
  node = json_object_get_member (o, "sha");
  if (f->commit == NULL && node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
      is_commit (json_node_get_string (node)))
    f->commit = g_strdup (json_node_get_string (node));

  for (guint i = 0; i < json_array_get_length (siblings); i++)
    {
      JsonNode *s = json_array_get_element (siblings, i);
      JsonObject *so;
      JsonNode *name, *size;
      const char *path, *base;
      g_autofree char *prefix = NULL;
      guint number = 1, count = 1;
      VcHubQuant *q;
      gint64 bytes;

      if (!JSON_NODE_HOLDS_OBJECT (s))
        continue;
      so = json_node_get_object (s);
      name = json_object_get_member (so, "rfilename");
      size = json_object_get_member (so, "size");
      if (name == NULL || !JSON_NODE_HOLDS_VALUE (name) || json_node_get_value_type (name) != G_TYPE_STRING)
        continue;
      path = json_node_get_string (name);
      base = strrchr (path, '/') ? strrchr (path, '/') + 1 : path;
      if (!g_str_has_suffix (path, ".gguf") || g_str_has_prefix (base, "mmproj") || !valid_file (path))
        continue;
      bytes = size && JSON_NODE_HOLDS_VALUE (size) && json_node_get_value_type (size) == G_TYPE_INT64
              ? json_node_get_int (size) : 0;
      if (!vc_gguf_split_name (path, &prefix, &number, &count))
        prefix = g_strndup (path, strlen (path) - strlen (".gguf"));
      q = g_hash_table_lookup (by_prefix, prefix);
      if (q == NULL)
        {
          const char *label = strrchr (prefix, '/') ? strrchr (prefix, '/') + 1 : prefix;

          q = g_new0 (VcHubQuant, 1);
          q->label = g_strdup (label);
          g_ptr_array_add (quants, q);
          g_hash_table_insert (by_prefix, g_strdup (prefix), q);
        }
      if (number == 1)
        {
          g_free (q->file);
          q->file = g_strdup (path);
        }
      q->bytes += bytes > 0 ? (guint64) bytes : 0;
      q->n_parts++;
    }
  /* a split quantization whose first part is missing is not offered */
  for (guint i = quants->len; i-- > 0;)
    if (((VcHubQuant *) quants->pdata[i])->file == NULL)
      g_ptr_array_remove_index (quants, i);
  g_ptr_array_sort (quants, quant_compare);
  return g_steal_pointer (&quants);
}

/* ---- headers ---------------------------------------------------------------------------------- */

/* A safetensors file: bytes 0-7, the header length checked, then the header. */
static gboolean
fetch_safetensors (Fetch       *f,
                   const char  *file,
                   GError     **error)
{
  g_autofree char *url = file_url (f, file);
  g_auto(Get) head = { .start = 0, .length = 8 };
  g_auto(Get) rest = { 0 };
  g_autoptr(GByteArray) all = NULL;
  guint64 n;

  if (!http_get (f, url, file, &head, error))
    return FALSE;
  if (head.body->len < 8)
    {
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                   _("%s: a %llu-byte file is not safetensors"), file, U(head.total));
      return FALSE;
    }
  memcpy (&n, head.body->data, 8);
  n = GUINT64_FROM_LE (n);
  /* refused before anything is allocated or asked for */
  if (n > VC_SAFETENSORS_MAX_HEADER)
    {
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_TOO_LARGE,
                   _("%s: the header length says %llu bytes, more than the %u a safetensors header may hold"),
                   file, U(n), VC_SAFETENSORS_MAX_HEADER);
      return FALSE;
    }
  if (n > head.total - 8)
    {
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                   _("%s: the header length says %llu bytes, past the end of the %llu-byte file"),
                   file, U(n), U(head.total));
      return FALSE;
    }
  rest.start = 8;
  rest.length = n;
  /* straight to where the first request was sent */
  if (n > 0 && !http_get (f, head.final_url, file, &rest, error))
    return FALSE;
  all = g_byte_array_sized_new (8 + n);
  g_byte_array_append (all, head.body->data, 8);
  if (rest.body)
    g_byte_array_append (all, rest.body->data, rest.body->len);
  return write_sparse (f, file, all->data, all->len, head.total, error);
}

/* GGUF (ggml docs/gguf.md): where the tensor infos end, or how many bytes are needed to know. */
typedef struct
{
  const guint8 *d;
  guint64 len;
  guint64 pos;
  guint64 need;                /* > 0: the header goes on past len */
} Walk;

static gboolean
walk_take (Walk    *w,
           guint64  n)
{
  if (n > G_MAXUINT64 - w->pos)
    {
      w->need = G_MAXUINT64;
      return FALSE;
    }
  if (w->pos + n > w->len)
    {
      w->need = w->pos + n;
      return FALSE;
    }
  w->pos += n;
  return TRUE;
}

static gboolean
walk_u32 (Walk    *w,
          guint32 *v)
{
  guint64 at = w->pos;

  if (!walk_take (w, 4))
    return FALSE;
  memcpy (v, w->d + at, 4);
  *v = GUINT32_FROM_LE (*v);
  return TRUE;
}

static gboolean
walk_u64 (Walk    *w,
          guint64 *v)
{
  guint64 at = w->pos;

  if (!walk_take (w, 8))
    return FALSE;
  memcpy (v, w->d + at, 8);
  *v = GUINT64_FROM_LE (*v);
  return TRUE;
}

static gboolean
walk_string (Walk *w)
{
  guint64 n;

  return walk_u64 (w, &n) && walk_take (w, n);
}

/* GGUF value types: uint8 int8 uint16 int16 uint32 int32 float32 bool string array uint64 int64
 * float64 */
static const guint gguf_sizes[13] = { 1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8 };

/* FALSE with w->need == 0: not a GGUF header we can walk */
static gboolean
walk_value (Walk    *w,
            guint32  type,
            gboolean in_array)
{
  if (type >= G_N_ELEMENTS (gguf_sizes) || (in_array && type == 9))
    return FALSE;
  if (type == 8)
    return walk_string (w);
  if (type == 9)
    {
      guint32 et;
      guint64 count;

      if (!walk_u32 (w, &et) || !walk_u64 (w, &count))
        return FALSE;
      if (et >= G_N_ELEMENTS (gguf_sizes) || et == 9)
        return FALSE;
      if (et == 8)
        {
          for (guint64 i = 0; i < count; i++)
            if (!walk_string (w))
              return FALSE;
          return TRUE;
        }
      if (count > G_MAXUINT64 / gguf_sizes[et])
        {
          w->need = G_MAXUINT64;
          return FALSE;
        }
      return walk_take (w, count * gguf_sizes[et]);
    }
  return walk_take (w, gguf_sizes[type]);
}

static gboolean
walk_gguf (Walk *w)
{
  guint32 version, type, n_dims;
  guint64 n_tensors, n_kv, dim;

  w->pos = 0;
  w->need = 0;
  if (!walk_take (w, 4))
    return FALSE;
  if (memcmp (w->d, "GGUF", 4) != 0)
    return FALSE;
  if (!walk_u32 (w, &version) || !walk_u64 (w, &n_tensors) || !walk_u64 (w, &n_kv))
    return FALSE;
  if (version != 2 && version != 3)
    return FALSE;
  for (guint64 i = 0; i < n_kv; i++)
    if (!walk_string (w) || !walk_u32 (w, &type) || !walk_value (w, type, FALSE))
      return FALSE;
  for (guint64 i = 0; i < n_tensors; i++)
    {
      if (!walk_string (w) || !walk_u32 (w, &n_dims))
        return FALSE;
      if (n_dims > 4)
        return FALSE;
      for (guint d = 0; d < n_dims; d++)
        if (!walk_u64 (w, &dim))
          return FALSE;
      if (!walk_u32 (w, &type) || !walk_u64 (w, &dim))
        return FALSE;
    }
  return TRUE;
}

/**
 * vc_hub_gguf_header_length:
 * @end: (out): where the tensor infos end, when the header is complete in @data
 * @need: (out): how many bytes from the start are needed to go on, when it is not (0: @data
 *   does not begin a GGUF header of version 2 or 3 that can be walked)
 *
 * Walks a GGUF header's first bytes without allocating. G_MAXUINT64 in @need: a length past
 * any file.
 */
gboolean
vc_hub_gguf_header_length (const guint8 *data,
                           gsize         length,
                           guint64      *end,
                           guint64      *need)
{
  Walk w = { .d = data, .len = length };
  gboolean done = walk_gguf (&w);

  *end = done ? w.pos : 0;
  *need = done ? 0 : w.need;
  return done;
}

/* A GGUF file's header, in ranges that double until the tensor infos end. */
static gboolean
fetch_gguf (Fetch       *f,
            const char  *file,
            GError     **error)
{
  g_autofree char *url = file_url (f, file);
  g_autoptr(GByteArray) data = NULL;
  g_autofree char *where = NULL;
  guint64 total = 0;
  guint64 ask = GGUF_FIRST_RANGE;
  Walk w = { 0 };

  for (;;)
    {
      g_auto(Get) g = { .start = data ? data->len : 0, .length = ask };

      if (!http_get (f, where ? where : url, file, &g, error))
        return FALSE;
      if (where == NULL)
        where = g_strdup (g.final_url);
      if (data == NULL)
        {
          data = g_steal_pointer (&g.body);
          total = g.total;
        }
      else
        g_byte_array_append (data, g.body->data, g.body->len);
      w.d = data->data;
      w.len = data->len;
      if (walk_gguf (&w))
        break;
      if (w.need == 0)
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                       _("%s: not a GGUF file of version 2 or 3, or a header that cannot be read"), file);
          return FALSE;
        }
      if (w.need > VC_HUB_MAX_GGUF_HEADER)
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_TOO_LARGE,
                       _("%s: the GGUF header says it goes on past %llu bytes, more than the %u read at most; refused"),
                       file, U(MIN (w.need, G_MAXUINT64 - 1)), VC_HUB_MAX_GGUF_HEADER);
          return FALSE;
        }
      if (w.need > total)
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                       _("%s: the header runs past the end of the %llu-byte file"), file, U(total));
          return FALSE;
        }
      ask = MAX (w.need - data->len, data->len);
      ask = MIN (ask, total - data->len);
      say (f, -1, _("Reading the header of %s (%llu kB)…"), file, U(data->len / 1000));
    }
  return write_sparse (f, file, data->data, w.pos, total, error);
}

/* model.safetensors.index.json's shards, each once, sorted */
static GPtrArray *
index_shards (GByteArray  *body,
              GError     **error)
{
  g_autoptr(JsonNode) root = parse_json (body, "model.safetensors.index.json", VC_SAFETENSORS_MAX_INDEX, error);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) shards = g_ptr_array_new_with_free_func (g_free);
  JsonNode *map;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root) ||
      (map = json_object_get_member (json_node_get_object (root), "weight_map")) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (map))
    {
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                   _("model.safetensors.index.json has no “weight_map”"));
      return NULL;
    }
  json_object_iter_init (&iter, json_node_get_object (map));
  while (json_object_iter_next (&iter, &name, &value))
    {
      const char *shard;

      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        continue;
      shard = json_node_get_string (value);
      if (!valid_file (shard) || !g_str_has_suffix (shard, ".safetensors"))
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                       _("model.safetensors.index.json names “%s”, not a safetensors file of the repository"), shard);
          return NULL;
        }
      if (g_hash_table_add (seen, (gpointer) shard))
        g_ptr_array_add (shards, g_strdup (shard));
    }
  g_ptr_array_sort (shards, (GCompareFunc) g_strcmp0);
  if (shards->len == 0)
    {
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_PROTOCOL,
                   _("model.safetensors.index.json names no shard"));
      return NULL;
    }
  return g_steal_pointer (&shards);
}

/* A GGUF and the other parts of its split model. */
static GFile *
fetch_gguf_model (Fetch       *f,
                  const char  *file,
                  GError     **error)
{
  g_autofree char *prefix = NULL;
  guint number, count;

  if (vc_gguf_split_name (file, &prefix, &number, &count))
    {
      if (number != 1)
        {
          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_INVALID_NAME,
                       _("%s is part %u of a model split in %u files; name the first part"), file, number, count);
          return NULL;
        }
      for (guint i = 1; i <= count; i++)
        {
          g_autofree char *part = g_strdup_printf ("%s-%05u-of-%05u.gguf", prefix, i, count);

          say (f, (double) (i - 1) / count, _("Reading the header of %s…"), part);
          if (!fetch_gguf (f, part, error))
            return NULL;
        }
    }
  else
    {
      say (f, 0, _("Reading the header of %s…"), file);
      if (!fetch_gguf (f, file, error))
        return NULL;
    }
  return g_file_resolve_relative_path (f->snapshot, file);
}

/* A processor file beside config.json (vc-hf-config.c reads it from the snapshot where the
 * model's images in vLLM's profile run depend on it); none on the Hub is no error */
static gboolean
fetch_processor_file (Fetch       *f,
                      const char  *file,
                      GError     **error)
{
  g_auto(Get) g = { .cap = VC_JSON_INPUT_MAX_SIZE };
  g_autofree char *url = file_url (f, file);
  GError *local = NULL;

  say (f, 0.05, _("Fetching %s of %s…"), file, f->repo);
  if (!http_get (f, url, file, &g, &local))
    {
      if (g_error_matches (local, VC_HUB_ERROR, VC_HUB_ERROR_NOT_FOUND))
        {
          g_error_free (local);
          return TRUE;
        }
      g_propagate_error (error, local);
      return FALSE;
    }
  return write_sparse (f, file, g.body->data, g.body->len, g.body->len, error);
}

/* Whether config.json's model_type is one whose images come from its processor files (Llama 4's
 * tiles, Qwen3-VL's size) */
static gboolean
wants_processor (const GByteArray *body)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root, *node;
  const char *type;

  if (!json_parser_load_from_data (parser, (const char *) body->data, body->len, NULL))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  node = json_object_get_member (json_node_get_object (root), "model_type");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  type = json_node_get_string (node);
  return g_str_equal (type, "llama4") || g_str_equal (type, "qwen3_vl") || g_str_equal (type, "qwen3_vl_moe");
}

static gboolean
fetch_config (Fetch     *f,
              gboolean  *found,
              GError   **error)
{
  g_auto(Get) g = { .cap = VC_JSON_INPUT_MAX_SIZE };
  g_autofree char *url = file_url (f, "config.json");
  GError *local = NULL;

  say (f, 0, _("Fetching config.json of %s…"), f->repo);
  if (!http_get (f, url, "config.json", &g, &local))
    {
      if (g_error_matches (local, VC_HUB_ERROR, VC_HUB_ERROR_NOT_FOUND))
        {
          g_error_free (local);
          *found = FALSE;
          return TRUE;
        }
      g_propagate_error (error, local);
      return FALSE;
    }
  *found = TRUE;
  if (!write_sparse (f, "config.json", g.body->data, g.body->len, g.body->len, error))
    return FALSE;
  if (!wants_processor (g.body))
    return TRUE;
  return fetch_processor_file (f, "preprocessor_config.json", error) &&
         fetch_processor_file (f, "video_preprocessor_config.json", error);
}

static void
remember_revision (Fetch *f)
{
  g_autoptr(GFile) ref = ref_file (f);
  g_autoptr(GFile) parent = g_file_get_parent (ref);

  if (f->commit == NULL || g_str_equal (f->commit, f->revision))
    return;
  g_file_make_directory_with_parents (parent, NULL, NULL);
  g_file_replace_contents (ref, f->commit, strlen (f->commit), NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, NULL);
}

static gboolean
choose_error (Fetch      *f,
              GPtrArray  *quants,
              GError    **error)
{
  g_autoptr(GString) list = g_string_new (NULL);

  for (guint i = 0; i < quants->len; i++)
    {
      VcHubQuant *q = quants->pdata[i];
      g_autofree char *size = g_format_size (q->bytes);

      g_string_append_printf (list, "\n  hf:%s:%s  (%s)", f->repo, q->file, size);
    }
  g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_CHOOSE,
               _("%s holds %u GGUF quantizations; name one:%s"), f->repo, quants->len, list->str);
  return FALSE;
}

/* The safetensors files of the model: those model.safetensors.index.json lists (written to the
 * snapshot), or model.safetensors alone when there is no index; %NULL with @error set. */
static GPtrArray *
safetensors_shards (Fetch   *f,
                    GError **error)
{
  g_auto(Get) index = { .cap = VC_SAFETENSORS_MAX_INDEX };
  g_autofree char *url = file_url (f, "model.safetensors.index.json");
  g_autoptr(GPtrArray) shards = NULL;
  GError *local = NULL;

  say (f, 0.05, _("Fetching model.safetensors.index.json…"));
  if (http_get (f, url, "model.safetensors.index.json", &index, &local))
    {
      shards = index_shards (index.body, error);
      if (shards == NULL ||
          !write_sparse (f, "model.safetensors.index.json", index.body->data, index.body->len, index.body->len, error))
        return NULL;
    }
  else if (g_error_matches (local, VC_HUB_ERROR, VC_HUB_ERROR_NOT_FOUND))
    {
      g_clear_error (&local);
      shards = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (shards, g_strdup ("model.safetensors"));
    }
  else
    {
      g_propagate_error (error, local);
      return NULL;
    }
  return g_steal_pointer (&shards);
}

/* Over the network: what the repository holds, its headers into the snapshot folder. */
static GFile *
fetch_online (Fetch       *f,
              GPtrArray  **quants_out,
              char       **notice,
              GError     **error)
{
  g_autoptr(GPtrArray) quants = NULL;
  gboolean has_config = FALSE;

  if (f->file != NULL && g_str_has_suffix (f->file, ".gguf"))
    {
      GFile *model = fetch_gguf_model (f, f->file, error);

      remember_revision (f);
      return model;
    }
  if (f->file != NULL && !g_str_has_suffix (f->file, ".safetensors") && !g_str_equal (f->file, "config.json"))
    {
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_INVALID_NAME,
                   _("%s: only a .gguf, a .safetensors or config.json file can be read"), f->file);
      return NULL;
    }
  if (!fetch_config (f, &has_config, error))
    return NULL;
  if (has_config && g_strcmp0 (f->file, "config.json") != 0)
    {
      g_autoptr(GPtrArray) shards = safetensors_shards (f, error);
      GError *local = NULL;

      if (shards == NULL)
        return NULL;
      for (guint i = 0; i < shards->len; i++)
        {
          say (f, 0.1 + 0.9 * i / shards->len, _("Reading the header of %s (%u of %u)…"),
               (char *) shards->pdata[i], i + 1, shards->len);
          if (!fetch_safetensors (f, shards->pdata[i], &local))
            {
              /* a config.json without model.safetensors: the GGUFs beside it, or the config alone */
              if (shards->len == 1 && g_error_matches (local, VC_HUB_ERROR, VC_HUB_ERROR_NOT_FOUND))
                {
                  g_clear_error (&local);
                  break;
                }
              g_propagate_error (error, local);
              return NULL;
            }
          if (i + 1 == shards->len)
            {
              remember_revision (f);
              return g_object_ref (f->snapshot);
            }
        }
    }
  if (!has_config || f->file == NULL)
    {
      say (f, 0.1, _("Listing the files of %s…"), f->repo);
      quants = list_ggufs (f, error);
      if (quants == NULL)
        return NULL;
    }
  if (quants != NULL && quants->len > 0)
    {
      if (quants_out)
        *quants_out = g_ptr_array_ref (quants);
      if (quants->len > 1)
        {
          choose_error (f, quants, error);
          return NULL;
        }
      {
        GFile *model = fetch_gguf_model (f, ((VcHubQuant *) quants->pdata[0])->file, error);

        remember_revision (f);
        return model;
      }
    }
  if (!has_config)
    {
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_NOT_FOUND,
                   _("%s (revision %s) has neither a config.json nor a GGUF file"), f->repo, f->revision);
      return NULL;
    }
  /* no weights to read: the architecture from config.json, as an imported one */
  if (notice && f->file == NULL)
    *notice = g_strdup_printf (_("%s has no model.safetensors: the weights are counted from config.json"), f->repo);
  remember_revision (f);
  return g_file_get_child (f->snapshot, "config.json");
}

/* From the cache: the revision's commit, then the file asked for or the snapshot folder. */
static GFile *
from_cache (Fetch   *f,
            GError **error)
{
  g_autoptr(GFile) ref = ref_file (f);
  g_autofree char *commit = NULL;
  g_autoptr(GFile) target = NULL;

  if (is_commit (f->revision))
    commit = g_strdup (f->revision);
  else if (g_file_load_contents (ref, NULL, &commit, NULL, NULL, NULL))
    g_strstrip (commit);
  if (commit != NULL && !is_commit (commit))
    return NULL;
  /* no commit: a mirror that does not send X-Repo-Commit, whose snapshot has the revision's name */
  g_free (f->commit);
  f->commit = g_steal_pointer (&commit);
  g_clear_object (&f->snapshot);
  f->snapshot = snapshot_dir (f);
  target = f->file ? g_file_resolve_relative_path (f->snapshot, f->file) : g_object_ref (f->snapshot);
  if (!g_file_query_exists (target, NULL))
    return NULL;
  return g_steal_pointer (&target);
}

static SoupSession *
new_session (VcHub *self)
{
  g_autofree char *agent = g_strdup_printf ("vram-calculator/%s", PACKAGE_VERSION);
  SoupSession *session = soup_session_new_with_options ("timeout", self->timeout, "idle-timeout", self->timeout,
                                                        "user-agent", agent, NULL);

  /* bodies as sent: Content-Length counts what is read */
  soup_session_remove_feature_by_type (session, SOUP_TYPE_CONTENT_DECODER);
  return session;
}

static GFile *
fetch_run (VcHub         *self,
           const char    *name,
           GMainContext  *context,
           char         **notice,
           GPtrArray    **quants,
           GCancellable  *cancellable,
           GError       **error)
{
  g_auto(Fetch) f = { .self = self, .cancellable = cancellable };
  GError *local = NULL;
  GFile *model;

  if (notice)
    *notice = NULL;
  if (quants)
    *quants = NULL;
  if (!vc_hub_parse_name (name, &f.repo, &f.revision, &f.file, error))
    return NULL;
  if (context)
    f.context = g_main_context_ref (context);
  if (self->offline)
    {
      model = from_cache (&f, NULL);
      if (model == NULL)
        {
          g_autoptr(GFile) dir = repo_dir (&f);

          g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_OFFLINE,
                       _("HF_HUB_OFFLINE is set: the Hub is not asked, and %s (revision %s) is not in the cache "
                         "(%s); unset HF_HUB_OFFLINE to fetch it"), f.repo, f.revision, g_file_peek_path (dir));
          return NULL;
        }
      if (notice)
        *notice = g_strdup_printf (_("HF_HUB_OFFLINE is set: the cached copy of %s (commit %.7s) is used"),
                                   f.repo, f.commit ? f.commit : f.revision);
      return model;
    }
  f.endpoint_uri = g_uri_parse (self->endpoint, SOUP_HTTP_URI_FLAGS, NULL);
  if (f.endpoint_uri == NULL)
    {
      g_set_error (error, VC_HUB_ERROR, VC_HUB_ERROR_INVALID_NAME,
                   _("HF_ENDPOINT “%s” is not an http(s) address"), self->endpoint);
      return NULL;
    }
  f.session = new_session (self);
  model = fetch_online (&f, quants, notice, &local);
  if (model != NULL)
    return model;
  if (g_error_matches (local, VC_HUB_ERROR, VC_HUB_ERROR_NETWORK))
    {
      /* the Hub out of reach: the cached copy, said to be one */
      g_clear_pointer (&f.commit, g_free);
      model = from_cache (&f, NULL);
      if (model != NULL)
        {
          if (notice)
            {
              g_free (*notice);
              *notice = g_strdup_printf (_("The Hub could not be reached (%s): the cached copy of %s (commit %.7s) is used"),
                                         local->message, f.repo, f.commit ? f.commit : f.revision);
            }
          g_error_free (local);
          return model;
        }
    }
  g_propagate_error (error, local);
  return NULL;
}

/**
 * vc_hub_fetch:
 *
 * Blocks: call it in a thread (vc_hub_fetch_async()) where a window waits.
 */
GFile *
vc_hub_fetch (VcHub         *self,
              const char    *name,
              char         **notice,
              GPtrArray    **quants,
              GCancellable  *cancellable,
              GError       **error)
{
  g_return_val_if_fail (VC_IS_HUB (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  return fetch_run (self, name, NULL, notice, quants, cancellable, error);
}

typedef struct
{
  char *name;
  GMainContext *context;
  char *notice;
  GPtrArray *quants;
} FetchTask;

static void
fetch_task_free (FetchTask *t)
{
  g_free (t->name);
  g_main_context_unref (t->context);
  g_free (t->notice);
  g_clear_pointer (&t->quants, g_ptr_array_unref);
  g_free (t);
}

static void
fetch_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  FetchTask *t = task_data;
  GError *error = NULL;
  GFile *model = fetch_run (source_object, t->name, t->context, &t->notice, &t->quants, cancellable, &error);

  if (model)
    g_task_return_pointer (task, model, g_object_unref);
  else
    g_task_return_error (task, error);
}

void
vc_hub_fetch_async (VcHub               *self,
                    const char          *name,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  FetchTask *t;

  g_return_if_fail (VC_IS_HUB (self));
  g_return_if_fail (name != NULL);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, vc_hub_fetch_async);
  t = g_new0 (FetchTask, 1);
  t->name = g_strdup (name);
  t->context = g_main_context_ref_thread_default ();
  g_task_set_task_data (task, t, (GDestroyNotify) fetch_task_free);
  g_task_run_in_thread (task, fetch_thread);
}

GFile *
vc_hub_fetch_finish (VcHub         *self,
                     GAsyncResult  *result,
                     char         **notice,
                     GPtrArray    **quants,
                     GError       **error)
{
  FetchTask *t;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  t = g_task_get_task_data (G_TASK (result));
  if (notice)
    *notice = g_steal_pointer (&t->notice);
  if (quants)
    *quants = g_steal_pointer (&t->quants);
  return g_task_propagate_pointer (G_TASK (result), error);
}
