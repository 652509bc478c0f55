/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-json-input.c: the guarded way JSON files come in (see vc-json-input.h). */
#define G_LOG_DOMAIN "vc-json-input"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vc-error.h"
#include "vc-json-input.h"

/* How comments are read. json-glib 1.6 takes everything from a '/' to the next '/' as a
 * comment (so "/​* … *​/" works, and "//" is an empty comment); other versions may read C
 * comments ("//" to the end of the line, "/​* … *​/"). The data is scanned both ways and must
 * pass both, so that no version's parser goes deeper than the check saw. */
typedef enum
{
  COMMENTS_SLASH_PAIR,
  COMMENTS_C,
} CommentStyle;

typedef struct
{
  guint max_depth;
  gboolean second_value;     /* something after the first complete top-level value */
  gboolean any_value;
  gboolean nul_escape;       /* "\u0000" in a double-quoted string */
  gboolean byte_escape;      /* an octal or \x escape of a byte above 127 */
  gboolean bad_unicode;      /* a \u escape without four hex digits, or half a surrogate pair */
} Scan;

/* An integer literal json-glib would wrap around (it keeps integers in 64 bits without an
 * overflow check): "-99999999999999999999" becomes 1. */
static gboolean
integer_overflows (const char *literal,
                   gboolean    negative)
{
  const char *p = literal;
  gboolean hex;
  guint64 u;

  if (*p == '-')
    {
      negative = !negative;
      p++;
    }
  hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
  if (hex)
    p += 2;
  if (*p == '\0')
    return FALSE;
  for (const char *q = p; *q; q++)
    if (!(hex ? g_ascii_isxdigit (*q) : g_ascii_isdigit (*q)))
      return FALSE;   /* not an integer: a double, a word, or junk json-glib refuses */
  if (!g_ascii_string_to_unsigned (p, hex ? 16 : 10, 0, G_MAXUINT64, &u, NULL))
    return TRUE;
  return negative ? u > (guint64) G_MAXINT64 + 1 : u > (guint64) G_MAXINT64;
}

/* Where scan() is in the data, and what it has seen so far */
typedef struct
{
  const char *data;
  gsize length;
  gsize i;
  guint depth;
  gboolean done;             /* a complete top-level value was read */
  gboolean negative;         /* a "-" word came before the next word */
  const char *key;           /* the last string read: the member a number belongs to */
  gsize key_len;
  GHashTable *huge;
  Scan *out;
} Scanner;

typedef enum
{
  COMMENT_NONE,
  COMMENT_SKIPPED,
  COMMENT_UNTERMINATED,      /* the parser refuses it: the scan stops */
} CommentSkip;

/* Steps over the comment that starts with the '/' at s->i, read in @style. */
static CommentSkip
skip_comment (Scanner      *s,
              CommentStyle  style)
{
  const char *data = s->data;
  gsize length = s->length, i = s->i;
  const char *end = NULL;

  if (style == COMMENTS_SLASH_PAIR)
    {
      end = memchr (data + i + 1, '/', length - i - 1);
      if (end == NULL)
        return COMMENT_UNTERMINATED;
      s->i = end - data + 1;
      return COMMENT_SKIPPED;
    }
  if (i + 1 < length && data[i + 1] == '/')
    {
      end = memchr (data + i, '\n', length - i);
      s->i = end ? (gsize) (end - data) + 1 : length;
      return COMMENT_SKIPPED;
    }
  if (i + 1 < length && data[i + 1] == '*')
    {
      end = g_strstr_len (data + i + 2, length - i - 2, "*/");
      if (end == NULL)
        return COMMENT_UNTERMINATED;
      s->i = end - data + 2;
      return COMMENT_SKIPPED;
    }
  /* a stray '/': a token like any other */
  return COMMENT_NONE;
}

/* Whether the escape at data[i] (after the backslash) is one JSON does not have that stands
 * for a byte above 127: "\351" or "\xe9". json-glib 1.6 puts the byte of "\351" itself in the
 * text (not UTF-8: vc_json_input_parse() refuses it), 1.10 reads it as the character U+00E9;
 * both read "\xe9" as the letters "xe9". Refused before parsing, it means the same on every
 * version, and never a text other than the one written. */
static gboolean
is_byte_escape (const char *data,
                gsize       i,
                gsize       length)
{
  guint value = 0, n = 0;

  if (i < length && (data[i] == 'x' || data[i] == 'X'))
    {
      for (i++; i < length && n < 2 && g_ascii_isxdigit (data[i]); i++, n++)
        value = value * 16 + g_ascii_xdigit_value (data[i]);
      return n > 0 && value > 127;
    }
  for (; i < length && n < 3 && data[i] >= '0' && data[i] <= '7'; i++, n++)
    value = value * 8 + (data[i] - '0');
  return n > 0 && value > 127;
}

/* The four hex digits after "\u" at data[i] (the backslash), or -1 when they are not there */
static gint
unicode_escape (const char *data,
                gsize       i,
                gsize       length)
{
  gint value = 0;

  if (length - i < 6 || data[i] != '\\' || data[i + 1] != 'u')
    return -1;
  for (gsize k = i + 2; k < i + 6; k++)
    {
      if (!g_ascii_isxdigit (data[k]))
        return -1;
      value = value * 16 + g_ascii_xdigit_value (data[k]);
    }
  return value;
}

/* Whether the "\u" escape at data[i] is one JSON text can mean: four hex digits, and a
 * surrogate only as the first half of a pair followed by the second. json-glib 1.6 reads
 * "\uZZZZ" as the letters "uZZZZ" where 1.10 refuses it, and leaks the text read so far when
 * the second half of a pair is wrong ("\ud800\u", "\ude00\ud800"). Returns how many bytes the
 * escape takes, or 0 when it is malformed. */
static gsize
unicode_escape_length (const char *data,
                       gsize       i,
                       gsize       length)
{
  gint first = unicode_escape (data, i, length);
  gint second;

  if (first < 0 || (first >= 0xDC00 && first <= 0xDFFF))
    return 0;
  if (first < 0xD800 || first > 0xDBFF)
    return 6;
  second = unicode_escape (data, i + 6, length);
  return second >= 0xDC00 && second <= 0xDFFF ? 12 : 0;
}

/* A string in @quote, from the quote at s->i; it becomes the key of what follows. */
static void
scan_string (Scanner *s,
             char     quote)
{
  const char *data = s->data;
  gsize start = ++s->i;

  /* single-quoted strings have no escapes in json-glib: they end at the next quote */
  while (s->i < s->length && data[s->i] != quote)
    {
      if (quote == '"' && data[s->i] == '\\')
        {
          if (s->length - s->i >= 6 && memcmp (data + s->i, "\\u0000", 6) == 0)
            s->out->nul_escape = TRUE;
          if (is_byte_escape (data, s->i + 1, s->length))
            s->out->byte_escape = TRUE;
          if (s->i + 1 < s->length && data[s->i + 1] == 'u')
            {
              gsize n = unicode_escape_length (data, s->i, s->length);

              if (n == 0)
                s->out->bad_unicode = TRUE;
              s->i += MAX (n, 2);
            }
          else
            s->i += 2;
        }
      else
        s->i++;
    }
  s->key = data + start;
  s->key_len = MIN (s->i, s->length) - start;
  s->i++;
  s->negative = FALSE;
  if (s->depth == 0)
    s->done = TRUE;
}

/* A bare word: a number, true, false, null, or something the parser refuses */
static void
scan_word (Scanner *s)
{
  gsize start = s->i;
  g_autofree char *word = NULL;

  while (s->i < s->length && strchr (" \t\n\r/\"'[]{},:", s->data[s->i]) == NULL)
    s->i++;
  if (s->i == start)
    s->i++;                        /* a stray '/' in C comment style */
  word = g_strndup (s->data + start, s->i - start);
  if (g_str_equal (word, "-"))
    {
      /* json-glib reads "- 5" as -5 */
      s->negative = TRUE;
      return;
    }
  if (s->huge != NULL && s->key != NULL && integer_overflows (word, s->negative))
    g_hash_table_replace (s->huge, g_strndup (s->key, s->key_len),
                          g_strconcat (s->negative ? "-" : "", word, NULL));
  s->negative = FALSE;
  if (s->depth == 0)
    s->done = TRUE;
}

static void
scan (const char   *data,
      gsize         length,
      CommentStyle  style,
      guint         limit,
      GHashTable   *huge,
      Scan         *out)
{
  Scanner s = { .data = data, .length = length, .huge = huge, .out = out };

  memset (out, 0, sizeof *out);
  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    s.i = 3;

  while (s.i < length)
    {
      char c = data[s.i];

      if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        {
          s.i++;
          continue;
        }
      if (c == '/')
        {
          CommentSkip skip = skip_comment (&s, style);

          if (skip == COMMENT_UNTERMINATED)
            break;
          if (skip == COMMENT_SKIPPED)
            continue;
        }

      if (s.depth == 0 && s.done)
        {
          out->second_value = TRUE;
          break;
        }

      if (c == '"' || c == '\'')
        scan_string (&s, c);
      else if (c == '[' || c == '{')
        {
          s.depth++;
          out->max_depth = MAX (out->max_depth, s.depth);
          if (s.depth > limit)
            break;
          s.i++;
        }
      else if (c == ']' || c == '}')
        {
          if (s.depth > 0)
            s.depth--;
          if (s.depth == 0)
            s.done = TRUE;
          s.i++;
        }
      else if (c == ',' || c == ':')
        {
          s.negative = FALSE;
          s.i++;
        }
      else
        scan_word (&s);
    }
  out->any_value = s.done || s.depth > 0;
}

static gboolean
not_utf8_escape (const char  *name,
                 GError     **error)
{
  g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
               _("%s holds a text that is not UTF-8 once its escapes are read (such as \\377); "
                 "write characters as they are or as \\uXXXX"), name);
  return FALSE;
}

/* UTF-8, NUL bytes aside (g_utf8_validate_len() stops at the first) */
static gboolean
utf8_valid_but_nul (const char *data,
                    gsize       length)
{
  const char *end;

  while (!g_utf8_validate_len (data, length, &end))
    {
      if (*end != '\0')
        return FALSE;
      length -= end - data + 1;
      data = end + 1;
    }
  return TRUE;
}

/**
 * vc_json_input_check:
 * @data: the bytes, as read
 * @length: their number
 * @name: the file, as messages name it ("config.json", "the file")
 * @kind: what the file should be, for messages ("a profile")
 * @huge_integers: (out) (optional) (transfer full): member name → integer literal, for every
 *   integer json-glib cannot hold in 64 bits (it would wrap around); %NULL when there is none
 *
 * Everything but the parse itself (see vc_json_input_parse()).
 */
gboolean
vc_json_input_check (const char  *data,
                     gsize        length,
                     const char  *name,
                     const char  *kind,
                     GHashTable **huge_integers,
                     GError     **error)
{
  return vc_json_input_check_max (data, length, VC_JSON_INPUT_MAX_SIZE, name, kind, huge_integers, error);
}

/**
 * vc_json_input_check_max:
 * @max_size: the most bytes accepted, for a JSON text that may be larger than a profile or a
 *   config.json (a safetensors header, its index)
 *
 * vc_json_input_check() with another size cap.
 */
gboolean
vc_json_input_check_max (const char  *data,
                         gsize        length,
                         gsize        max_size,
                         const char  *name,
                         const char  *kind,
                         GHashTable **huge_integers,
                         GError     **error)
{
  g_autoptr(GHashTable) huge = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  Scan a, b;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (length == 0)
    {
      /* TRANSLATORS: “config.json is empty; a config.json is a JSON object” */
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s is empty; %s is a JSON object"), name, kind);
      return FALSE;
    }
  if (length > max_size)
    {
      g_autofree char *size = g_format_size_full (length, G_FORMAT_SIZE_LONG_FORMAT);
      g_autofree char *max = g_format_size_full (max_size, G_FORMAT_SIZE_LONG_FORMAT);

      /* TRANSLATORS: “the file is too large for a profile: 8.6 GB (…), the limit is 4.2 MB (…)” */
      g_set_error (error, VC_ERROR, VC_ERROR_TOO_LARGE, _("%s is too large for %s: %s, the limit is %s"),
                   name, kind, size, max);
      return FALSE;
    }
  if (!utf8_valid_but_nul (data, length))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s is not UTF-8 text, so not %s (a JSON file)"), name, kind);
      return FALSE;
    }
  if (memchr (data, '\0', length) != NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s holds a NUL byte, so it is not %s (a JSON text file)"),
                   name, kind);
      return FALSE;
    }

  scan (data, length, COMMENTS_SLASH_PAIR, VC_JSON_INPUT_MAX_DEPTH, huge, &a);
  scan (data, length, COMMENTS_C, VC_JSON_INPUT_MAX_DEPTH, huge, &b);
  if (MAX (a.max_depth, b.max_depth) > VC_JSON_INPUT_MAX_DEPTH)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("%s nests lists or objects too deeply (more than %d levels) for %s"),
                   name, VC_JSON_INPUT_MAX_DEPTH, kind);
      return FALSE;
    }
  if (!a.any_value && !b.any_value)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s holds only blanks or comments; %s is a JSON object"),
                   name, kind);
      return FALSE;
    }
  /* either reading: json-glib 1.6 ignores a second value after a list or an object, and
   * leaks it */
  if (a.second_value || b.second_value)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("%s holds more than one JSON value; %s is a single JSON object"), name, kind);
      return FALSE;
    }
  if (a.nul_escape || b.nul_escape)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("%s holds the escape \\u0000 (a NUL character) in a text; %s cannot hold it"),
                   name, kind);
      return FALSE;
    }
  if (a.byte_escape || b.byte_escape)
    return not_utf8_escape (name, error);
  if (a.bad_unicode || b.bad_unicode)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("%s holds a malformed \\u escape in a text (four hex digits are needed, and a "
                     "surrogate only as a pair, \\ud800–\\udbff then \\udc00–\\udfff)"), name);
      return FALSE;
    }
  if (huge_integers)
    *huge_integers = g_hash_table_size (huge) > 0 ? g_steal_pointer (&huge) : NULL;
  return TRUE;
}

static gboolean
texts_valid (JsonNode *node,
             guint     depth)
{
  if (depth > VC_JSON_INPUT_MAX_DEPTH)
    return FALSE;
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *child;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &member, &child))
        if (!g_utf8_validate (member, -1, NULL) || !texts_valid (child, depth + 1))
          return FALSE;
      return TRUE;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (!texts_valid (json_array_get_element (array, i), depth + 1))
          return FALSE;
      return TRUE;
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_utf8_validate (json_node_get_string (node), -1, NULL);
  return TRUE;
}

/**
 * vc_json_input_parse:
 *
 * Checks @data (see vc_json_input_check()), parses it with json-glib, then checks that every
 * text in it is valid UTF-8.
 *
 * Returns: (transfer full) (nullable): the top-level value, or %NULL with @error set
 */
JsonNode *
vc_json_input_parse (const char  *data,
                     gsize        length,
                     const char  *name,
                     const char  *kind,
                     GHashTable **huge_integers,
                     GError     **error)
{
  return vc_json_input_parse_max (data, length, VC_JSON_INPUT_MAX_SIZE, name, kind, huge_integers, error);
}

/**
 * vc_json_input_parse_max:
 *
 * vc_json_input_parse() with another size cap (see vc_json_input_check_max()).
 */
JsonNode *
vc_json_input_parse_max (const char  *data,
                         gsize        length,
                         gsize        max_size,
                         const char  *name,
                         const char  *kind,
                         GHashTable **huge_integers,
                         GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GHashTable) huge = NULL;
  g_autoptr(JsonNode) root = NULL;

  if (!vc_json_input_check_max (data, length, max_size, name, kind, &huge, error))
    return NULL;
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      /* json-glib quotes the text at fault cut at a byte count, possibly inside a character */
      g_autofree char *reason = g_utf8_make_valid (local->message, -1);

      /* TRANSLATORS: “config.json is not valid JSON: <data>:1:5: Parse error: …” */
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s is not valid JSON: %s"), name, reason);
      return NULL;
    }
  root = json_parser_steal_root (parser);
  if (root == NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s holds only blanks or comments; %s is a JSON object"),
                   name, kind);
      return NULL;
    }
  if (!texts_valid (root, 0))
    {
      not_utf8_escape (name, error);
      return NULL;
    }
  if (huge_integers)
    *huge_integers = g_steal_pointer (&huge);
  return g_steal_pointer (&root);
}

static GBytes *
too_large (const char *name,
           const char *kind,
           goffset     size,
           GError    **error)
{
  g_autofree char *shown = g_format_size_full (size, G_FORMAT_SIZE_LONG_FORMAT);
  g_autofree char *max = g_format_size_full (VC_JSON_INPUT_MAX_SIZE, G_FORMAT_SIZE_LONG_FORMAT);

  g_set_error (error, VC_ERROR, VC_ERROR_TOO_LARGE, _("%s is too large for %s: %s, the limit is %s"),
               name, kind, shown, max);
  return NULL;
}

static GBytes *
not_regular (const char *name,
             const char *kind,
             gboolean    folder,
             GError    **error)
{
  if (folder)
    g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s is a folder, not %s"), name, kind);
  else
    g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                 _("%s is not a regular file (a pipe, device or socket), so not %s"), name, kind);
  return NULL;
}

/* Local files: opened without blocking (a FIFO would wait for a writer forever), then checked
 * on the open descriptor, so that nothing can be swapped in between. */
static GBytes *
read_local (const char    *path,
            const char    *name,
            const char    *kind,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  struct stat st;
  int fd, flags;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("cannot read %s: %s"),
                   name, g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      gboolean folder = S_ISDIR (st.st_mode);
      close (fd);
      return not_regular (name, kind, folder, error);
    }
  if (st.st_size > VC_JSON_INPUT_MAX_SIZE)
    {
      close (fd);
      return too_large (name, kind, st.st_size, error);
    }
  flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);

  /* at most one byte more than allowed, should the file grow meanwhile */
  g_byte_array_set_size (bytes, VC_JSON_INPUT_MAX_SIZE + 1);
  {
    gsize total = 0;

    while (total < bytes->len)
      {
        gssize n;

        if (g_cancellable_set_error_if_cancelled (cancellable, error))
          {
            close (fd);
            return NULL;
          }
        n = read (fd, bytes->data + total, bytes->len - total);
        if (n < 0 && errno == EINTR)
          continue;
        if (n < 0)
          {
            int saved = errno;
            close (fd);
            g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("cannot read %s: %s"),
                         name, g_strerror (saved));
            return NULL;
          }
        if (n == 0)
          break;
        total += n;
      }
    close (fd);
    if (total > VC_JSON_INPUT_MAX_SIZE)
      return too_large (name, kind, total, error);
    g_byte_array_set_size (bytes, total);
  }
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

/**
 * vc_json_input_read_file:
 * @file: the file to read
 * @name: the file, as messages name it
 * @kind: what it should be, for messages ("a profile")
 *
 * Reads a regular file of at most VC_JSON_INPUT_MAX_SIZE bytes; folders, pipes, devices and
 * sockets are refused before anything is read. An empty file is read (as no bytes):
 * vc_json_input_check() refuses it with its message.
 *
 * Returns: (transfer full) (nullable): the bytes
 */
GBytes *
vc_json_input_read_file (GFile         *file,
                         const char    *name,
                         const char    *kind,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree guint8 *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  if (path != NULL)
    return read_local (path, name, kind, cancellable, error);

  /* other locations (a URI through GVfs): the same checks through GIO */
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, cancellable, &local);
  if (info == NULL)
    {
      g_set_error (error, local->domain, local->code, _("cannot read %s: %s"), name, local->message);
      return NULL;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    return not_regular (name, kind, g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY, error);
  if (g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE) &&
      g_file_info_get_size (info) > VC_JSON_INPUT_MAX_SIZE)
    return too_large (name, kind, g_file_info_get_size (info), error);
  stream = g_file_read (file, cancellable, &local);
  if (stream == NULL)
    {
      g_set_error (error, local->domain, local->code, _("cannot read %s: %s"), name, local->message);
      return NULL;
    }
  data = g_malloc (VC_JSON_INPUT_MAX_SIZE + 1);
  if (!g_input_stream_read_all (G_INPUT_STREAM (stream), data, VC_JSON_INPUT_MAX_SIZE + 1, &length,
                                cancellable, &local))
    {
      g_set_error (error, local->domain, local->code, _("cannot read %s: %s"), name, local->message);
      return NULL;
    }
  if (length > VC_JSON_INPUT_MAX_SIZE)
    return too_large (name, kind, length, error);
  return g_bytes_new (data, length);
}

/**
 * vc_file_check_regular:
 * @name: the file as messages name it
 * @kind: what it should be, as "a GGUF file"
 *
 * Whether @file is a regular file, checked before a reader opens it: a FIFO would block the
 * open and a device be read without end. The readers of binary headers (GGUF, safetensors)
 * read only a file's beginning through GIO and check it here first.
 *
 * Returns: %TRUE when it is one, else %FALSE with @error naming the file
 */
gboolean
vc_file_check_regular (GFile         *file,
                       const char    *name,
                       const char    *kind,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE, cancellable, &local);
  if (info == NULL)
    {
      g_set_error (error, local->domain, local->code, _("cannot read %s: %s"), name, local->message);
      return FALSE;
    }
  /* followed, a link is only itself when it leads nowhere */
  if (g_file_info_get_file_type (info) == G_FILE_TYPE_SYMBOLIC_LINK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s is a link to a file that does not exist"), name);
      return FALSE;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      not_regular (name, kind, g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY, error);
      return FALSE;
    }
  return TRUE;
}

/* The characters vc_json_fix_numbers() stops at, by class: the scans are loops over this table
 * rather than strcspn() and strspn(), whose sanitizer interceptors measure the rest of the
 * text at every call (a report's thousands of tokens made the fix quadratic under ASan). */
enum
{
  FIX_QUOTE = 1,      /* " */
  FIX_BACKSLASH = 2,  /* the backslash */
  FIX_NUMBER = 4,     /* what starts a number: - and the digits */
  FIX_IN_NUMBER = 8,  /* what a number holds: - + . e E and the digits */
};

static const guint8 fix_class[256] = {
  ['"'] = FIX_QUOTE, ['\\'] = FIX_BACKSLASH,
  ['-'] = FIX_NUMBER | FIX_IN_NUMBER, ['+'] = FIX_IN_NUMBER, ['.'] = FIX_IN_NUMBER,
  ['e'] = FIX_IN_NUMBER, ['E'] = FIX_IN_NUMBER,
  ['0'] = FIX_NUMBER | FIX_IN_NUMBER, ['1'] = FIX_NUMBER | FIX_IN_NUMBER,
  ['2'] = FIX_NUMBER | FIX_IN_NUMBER, ['3'] = FIX_NUMBER | FIX_IN_NUMBER,
  ['4'] = FIX_NUMBER | FIX_IN_NUMBER, ['5'] = FIX_NUMBER | FIX_IN_NUMBER,
  ['6'] = FIX_NUMBER | FIX_IN_NUMBER, ['7'] = FIX_NUMBER | FIX_IN_NUMBER,
  ['8'] = FIX_NUMBER | FIX_IN_NUMBER, ['9'] = FIX_NUMBER | FIX_IN_NUMBER,
};

/* how many characters from @p (up to its NUL) are of one of @classes (inside: TRUE, as
 * strspn() counts) or of none of them (inside: FALSE, as strcspn() counts) */
static inline gsize
fix_span (const char *p,
          guint8      classes,
          gboolean    inside)
{
  const char *q = p;

  while (*q != '\0' && ((fix_class[(guchar) *q] & classes) != 0) == inside)
    q++;
  return q - p;
}

/**
 * vc_json_fix_numbers:
 * @text: JSON text written by json-glib's generator
 *
 * json-glib 1.6 writes a double whose shortest form has an exponent but no point with ".0"
 * appended ("2e-08.0", "1e+20.0"), which is not JSON and which no parser reads back. This
 * moves the ".0" before the exponent ("2.0e-08"): the same number, valid JSON. Strings are
 * left alone.
 *
 * Returns: (transfer full): the corrected text
 */
char *
vc_json_fix_numbers (const char *text)
{
  GString *out = g_string_sized_new (strlen (text));
  const char *p = text;

  /* a report is hundreds of kB: the text between strings and numbers, and each string, go over
   * in one piece */
  while (*p)
    {
      gsize plain = fix_span (p, FIX_QUOTE | FIX_NUMBER, FALSE);

      g_string_append_len (out, p, plain);
      p += plain;
      if (*p == '"')
        {
          const char *start = p++;

          /* to the closing quote; an escape takes the character after it, whatever it is */
          for (;;)
            {
              p += fix_span (p, FIX_QUOTE | FIX_BACKSLASH, FALSE);
              if (*p != '\\')
                break;
              p += p[1] ? 2 : 1;
            }
          if (*p)
            p++;
          g_string_append_len (out, start, p - start);
        }
      else if (*p)
        {
          const char *start = p, *e = NULL, *point;

          p += fix_span (p, FIX_IN_NUMBER, TRUE);
          /* the first exponent mark and the first point */
          for (const char *q = start; q < p && e == NULL; q++)
            if (*q == 'e' || *q == 'E')
              e = q;
          point = memchr (start, '.', p - start);
          if (e != NULL && point != NULL && point > e && p - point == 2 && point[1] == '0')
            {
              g_string_append_len (out, start, e - start);
              g_string_append (out, ".0");
              g_string_append_len (out, e, point - e);
            }
          else
            g_string_append_len (out, start, p - start);
        }
    }
  return g_string_free (out, FALSE);
}
