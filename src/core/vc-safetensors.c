/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-safetensors.c: safetensors headers, read and checked, the tensor data never read.
 *
 * Format (huggingface/safetensors, docs/source/index.mdx "Format"): 8 bytes, a little-endian
 * unsigned 64-bit header size N; N bytes of UTF-8 JSON, an object mapping each tensor name to
 * {"dtype", "shape", "data_offsets": [begin, end]} with offsets relative to the byte after the
 * header, plus an optional "__metadata__" object of strings; then the data. The library itself
 * refuses N over 100 MB, offsets that do not tile the data area, and sizes that disagree with
 * dtype × shape: we refuse the same, and offsets past the end of the file.
 */
#define G_LOG_DOMAIN "vc-safetensors"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "vc-error.h"
#include "vc-json-input.h"
#include "vc-safetensors.h"

/* 64-bit sizes in messages: %llu, which gettext checks, rather than G_GUINT64_FORMAT */
#define U(x) ((unsigned long long) (x))

/* json-glib recurses per nesting level and wraps integer literals beyond 64 bits: a header is
 * scanned for both before it is parsed. */

static const struct
{
  const char *name;
  guint size;
} dtypes[VC_ST_N_DTYPES] = {
  [VC_ST_DTYPE_BOOL] = { "BOOL", 1 },
  [VC_ST_DTYPE_U8] = { "U8", 1 },
  [VC_ST_DTYPE_I8] = { "I8", 1 },
  [VC_ST_DTYPE_F8_E4M3] = { "F8_E4M3", 1 },
  [VC_ST_DTYPE_F8_E5M2] = { "F8_E5M2", 1 },
  [VC_ST_DTYPE_F8_E8M0] = { "F8_E8M0", 1 },
  [VC_ST_DTYPE_I16] = { "I16", 2 },
  [VC_ST_DTYPE_U16] = { "U16", 2 },
  [VC_ST_DTYPE_F16] = { "F16", 2 },
  [VC_ST_DTYPE_BF16] = { "BF16", 2 },
  [VC_ST_DTYPE_I32] = { "I32", 4 },
  [VC_ST_DTYPE_U32] = { "U32", 4 },
  [VC_ST_DTYPE_F32] = { "F32", 4 },
  [VC_ST_DTYPE_I64] = { "I64", 8 },
  [VC_ST_DTYPE_U64] = { "U64", 8 },
  [VC_ST_DTYPE_F64] = { "F64", 8 },
};

const char *
vc_st_dtype_name (VcStDtype dtype)
{
  g_return_val_if_fail (dtype < VC_ST_N_DTYPES, "?");
  return dtypes[dtype].name;
}

guint
vc_st_dtype_size (VcStDtype dtype)
{
  g_return_val_if_fail (dtype < VC_ST_N_DTYPES, 0);
  return dtypes[dtype].size;
}

void
vc_safetensors_init (VcSafetensors *st)
{
  memset (st, 0, sizeof *st);
  st->tensors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
vc_safetensors_clear (VcSafetensors *st)
{
  g_clear_pointer (&st->tensors, g_hash_table_unref);
}

#define fail(error, file_name, ...) vc_error_in_file ((error), VC_ERROR_PARSE, (file_name), __VA_ARGS__)

/* A JSON text of the files, through the one guarded way in (vc-json-input.c: depth, UTF-8,
 * comments and both quote styles, a single value) with the cap of its kind; an integer beyond
 * 64 bits, which json-glib would wrap around, is no size or offset. */
static JsonNode *
parse_json (const char  *text,
            gsize        length,
            gsize        max_size,
            const char  *file_name,
            const char  *kind,
            GError     **error)
{
  g_autoptr(GHashTable) huge = NULL;
  g_autoptr(JsonNode) root = vc_json_input_parse_max (text, length, max_size, file_name, kind, &huge, error);

  if (root == NULL)
    return NULL;
  if (huge != NULL)
    {
      fail (error, file_name, _("the header holds a number too large to be a size or an offset"));
      return NULL;
    }
  return g_steal_pointer (&root);
}

static gboolean
find_dtype (const char *name,
            VcStDtype  *dtype)
{
  for (guint i = 0; i < VC_ST_N_DTYPES; i++)
    if (g_str_equal (dtypes[i].name, name))
      {
        *dtype = i;
        return TRUE;
      }
  return FALSE;
}

typedef struct
{
  guint64 begin, end;
  const char *name;
} Span;

/* A tensor read and checked, kept until the whole file is. */
typedef struct
{
  const char *name;
  VcStTensor tensor;
} Entry;

static int
span_compare (gconstpointer a,
              gconstpointer b)
{
  const Span *x = a, *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return 0;
}

static gboolean
get_uint (JsonNode  *node,
          guint64   *value)
{
  gint64 v;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  v = json_node_get_int (node);
  if (v < 0)
    return FALSE;
  *value = (guint64) v;
  return TRUE;
}

/* The header's tokens are JSON's own (RFC 8259), as the format's reference reader (serde_json)
 * takes them: no comments, no single quotes, no hex or other number forms, which the lenient
 * reader of our other inputs would let through. The structure is json-glib's to check. Returns
 * the offset of the first byte that is not, or -1. */
static gssize
strict_json_tokens (const char *text,
                    gsize       length)
{
  gsize i = 0;

  while (i < length)
    {
      char c = text[i];

      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || strchr ("{}[]:,", c))
        i++;
      else if (c == '"')
        {
          for (i++; i < length && text[i] != '"'; i++)
            {
              if ((guchar) text[i] < 0x20)
                return i;
              if (text[i] == '\\')
                {
                  if (++i >= length || !strchr ("\"\\/bfnrtu", text[i]))
                    return i;
                  if (text[i] == 'u')
                    for (int k = 0; k < 4; k++)
                      if (++i >= length || !g_ascii_isxdigit (text[i]))
                        return i;
                }
            }
          if (i >= length)
            return i;
          i++;
        }
      else if (c == '-' || g_ascii_isdigit (c))
        {
          gsize start = i;

          if (text[i] == '-')
            i++;
          if (i < length && text[i] == '0')
            i++;
          else if (i < length && g_ascii_isdigit (text[i]))
            while (i < length && g_ascii_isdigit (text[i]))
              i++;
          else
            return start;
          if (i < length && text[i] == '.')
            {
              if (++i >= length || !g_ascii_isdigit (text[i]))
                return i;
              while (i < length && g_ascii_isdigit (text[i]))
                i++;
            }
          if (i < length && (text[i] == 'e' || text[i] == 'E'))
            {
              if (++i < length && (text[i] == '+' || text[i] == '-'))
                i++;
              if (i >= length || !g_ascii_isdigit (text[i]))
                return i;
              while (i < length && g_ascii_isdigit (text[i]))
                i++;
            }
        }
      else if (length - i >= 4 && (strncmp (text + i, "true", 4) == 0 || strncmp (text + i, "null", 4) == 0))
        i += 4;
      else if (length - i >= 5 && strncmp (text + i, "false", 5) == 0)
        i += 5;
      else
        return i;
    }
  return -1;
}

/* The 8-byte length and the header it announces: within the file, at most 100 MB, UTF-8 text
 * without NUL. */
static gboolean
check_header (const guint8  *data,
              gsize          length,
              guint64        file_size,
              const char    *file_name,
              guint64       *header_size,
              GError       **error)
{
  *header_size = 0;
  if (length < 8 || file_size < 8)
    return fail (error, file_name, _("the file is shorter than the 8-byte header length"));
  for (int i = 7; i >= 0; i--)
    *header_size = (*header_size << 8) | data[i];
  if (*header_size > VC_SAFETENSORS_MAX_HEADER)
    return fail (error, file_name, _("the header length (%llu bytes) is over the 100 MB a safetensors header may have"),
                 U(*header_size));
  if (*header_size > file_size - 8)
    return fail (error, file_name, _("the header length (%llu bytes) runs past the end of the file (%llu bytes)"),
                 U(*header_size), U(file_size));
  if (*header_size > length - 8)
    return fail (error, file_name, _("the header is truncated"));
  if (*header_size < 2)
    return fail (error, file_name, _("the header is empty"));
  if (!g_utf8_validate ((const char *) data + 8, *header_size, NULL) ||
      memchr (data + 8, '\0', *header_size) != NULL)
    return fail (error, file_name, _("the header is not UTF-8 text"));
  {
    gssize bad = strict_json_tokens ((const char *) data + 8, *header_size);

    if (bad >= 0)
      return fail (error, file_name, _("the header is not plain JSON at byte %llu (comments, single quotes and hex numbers are not taken)"),
                   U(8 + bad));
  }
  return TRUE;
}

/* A tensor's dtype, by name. */
static gboolean
read_dtype (JsonObject  *t,
            const char  *name,
            const char  *file_name,
            VcStDtype   *dtype,
            GError     **error)
{
  JsonNode *node = json_object_get_member (t, "dtype");

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (error, file_name, _("tensor “%s” has no dtype"), name);
  if (!find_dtype (json_node_get_string (node), dtype))
    return fail (error, file_name, _("tensor “%s” has the dtype “%s”, which is not known; known: BOOL, U8, I8, F8_E4M3, F8_E5M2, F8_E8M0, I16, U16, F16, BF16, I32, U32, F32, I64, U64, F64"),
                 name, json_node_get_string (node));
  return TRUE;
}

/* A tensor's shape, and its element count and size, which must fit 64 bits. */
static gboolean
read_shape (JsonObject  *t,
            const char  *name,
            const char  *file_name,
            VcStTensor  *tensor,
            GError     **error)
{
  JsonNode *node = json_object_get_member (t, "shape");
  JsonArray *shape;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return fail (error, file_name, _("tensor “%s” has no shape"), name);
  shape = json_node_get_array (node);
  if (json_array_get_length (shape) > G_N_ELEMENTS (tensor->dims))
    return fail (error, file_name, _("tensor “%s” has %u dimensions; at most %u are read"),
                 name, json_array_get_length (shape), (guint) G_N_ELEMENTS (tensor->dims));
  tensor->elements = 1;
  for (guint i = 0; i < json_array_get_length (shape); i++)
    {
      guint64 dim;

      if (!get_uint (json_array_get_element (shape, i), &dim))
        return fail (error, file_name, _("tensor “%s” has a dimension that is not a whole number"), name);
      if (dim != 0 && tensor->elements > G_MAXUINT64 / dim)
        return fail (error, file_name, _("the dimensions of tensor “%s” multiply past 64 bits"), name);
      tensor->elements *= dim;
      tensor->dims[tensor->n_dims++] = dim;
    }
  if (tensor->elements > G_MAXUINT64 / dtypes[tensor->dtype].size)
    return fail (error, file_name, _("the size of tensor “%s” is past 64 bits"), name);
  tensor->bytes = tensor->elements * dtypes[tensor->dtype].size;
  return TRUE;
}

/* A tensor's data_offsets: inside the data area of `data_size` bytes, as long as its dtype and
 * shape need. */
static gboolean
read_offsets (JsonObject       *t,
              const char       *name,
              const char       *file_name,
              guint64           data_size,
              const VcStTensor *tensor,
              Span             *span,
              GError          **error)
{
  JsonNode *node = json_object_get_member (t, "data_offsets");
  JsonArray *offsets;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length (offsets = json_node_get_array (node)) != 2 ||
      !get_uint (json_array_get_element (offsets, 0), &span->begin) ||
      !get_uint (json_array_get_element (offsets, 1), &span->end))
    return fail (error, file_name, _("tensor “%s” has no data_offsets [begin, end]"), name);
  if (span->end < span->begin)
    return fail (error, file_name, _("tensor “%s” ends (%llu) before it begins (%llu)"),
                 name, U(span->end), U(span->begin));
  if (span->end > data_size)
    return fail (error, file_name, _("tensor “%s” runs past the end of the file (offset %llu, data area %llu bytes)"),
                 name, U(span->end), U(data_size));
  if (span->end - span->begin != tensor->bytes)
    return fail (error, file_name, _("tensor “%s” holds %llu bytes but its dtype and shape need %llu"),
                 name, U(span->end - span->begin), U(tensor->bytes));
  span->name = name;
  return TRUE;
}

/* One member of the header: __metadata__, an object, or a tensor not read from another file. */
static gboolean
read_member (VcSafetensors  *st,
             JsonObject     *root,
             const char     *name,
             const char     *file_name,
             guint64         data_size,
             GArray         *tensors,
             GArray         *spans,
             GError        **error)
{
  JsonNode *node = json_object_get_member (root, name);
  JsonObject *t;
  Entry entry = { name, { 0 } };
  Span span;

  if (g_str_equal (name, "__metadata__"))
    {
      if (!JSON_NODE_HOLDS_OBJECT (node))
        return fail (error, file_name, _("__metadata__ is not an object"));
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (error, file_name, _("tensor “%s” is not an object"), name);
  t = json_node_get_object (node);
  if (!read_dtype (t, name, file_name, &entry.tensor.dtype, error) ||
      !read_shape (t, name, file_name, &entry.tensor, error) ||
      !read_offsets (t, name, file_name, data_size, &entry.tensor, &span, error))
    return FALSE;
  if (g_hash_table_contains (st->tensors, name))
    return fail (error, file_name, _("tensor “%s” is also in another file"), name);
  g_array_append_val (spans, span);
  g_array_append_val (tensors, entry);
  return TRUE;
}

/* The tensors tile the data area: sorted, each begins where the previous ends. */
static gboolean
check_tiling (GArray      *spans,
              const char  *file_name,
              GError     **error)
{
  guint64 covered = 0;

  g_array_sort (spans, span_compare);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *s = &g_array_index (spans, Span, i);

      if (s->begin < covered)
        return fail (error, file_name, _("tensor “%s” overlaps tensor “%s”"),
                     s->name, g_array_index (spans, Span, i - 1).name);
      if (s->begin > covered)
        return fail (error, file_name, _("the data area has a gap of %llu bytes before tensor “%s”"),
                     U(s->begin - covered), s->name);
      covered = s->end;
    }
  return TRUE;
}

/* A checked file's tensors join st. */
static void
keep_tensors (VcSafetensors *st,
              GArray        *tensors,
              guint64        file_size)
{
  for (guint i = 0; i < tensors->len; i++)
    {
      const Entry *e = &g_array_index (tensors, Entry, i);
      VcStDtype d = e->tensor.dtype;

      g_hash_table_insert (st->tensors, g_strdup (e->name), g_memdup2 (&e->tensor, sizeof e->tensor));
      st->n_tensors++;
      st->elements += e->tensor.elements;
      st->tensor_bytes += e->tensor.bytes;
      st->dtype_elements[d] += e->tensor.elements;
      st->dtype_bytes[d] += e->tensor.bytes;
    }
  st->n_files++;
  st->file_bytes += file_size;
}

gboolean
vc_safetensors_parse (VcSafetensors  *st,
                      const guint8   *data,
                      gsize           length,
                      guint64         file_size,
                      const char     *file_name,
                      GError        **error)
{
  g_autoptr(JsonNode) root_node = NULL;
  g_autoptr(GArray) spans = NULL;
  g_autoptr(GArray) tensors = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *root;
  guint64 header_size, data_size;

  g_return_val_if_fail (st != NULL && st->tensors != NULL, FALSE);

  if (!check_header (data, length, file_size, file_name, &header_size, error))
    return FALSE;
  data_size = file_size - 8 - header_size;
  root_node = parse_json ((const char *) data + 8, header_size, VC_SAFETENSORS_MAX_HEADER, file_name,
                          _("a safetensors header"), error);
  if (root_node == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root_node))
    return fail (error, file_name, _("the header is not a JSON object"));
  root = json_node_get_object (root_node);

  spans = g_array_new (FALSE, FALSE, sizeof (Span));
  tensors = g_array_new (FALSE, FALSE, sizeof (Entry));
  members = json_object_get_members (root);
  for (GList *l = members; l != NULL; l = l->next)
    if (!read_member (st, root, l->data, file_name, data_size, tensors, spans, error))
      return FALSE;
  if (!check_tiling (spans, file_name, error))
    return FALSE;
  /* all checked: add this file's tensors */
  keep_tensors (st, tensors, file_size);
  return TRUE;
}

static gboolean
read_exactly (GInputStream  *in,
              guint8        *buffer,
              gsize          count,
              GCancellable  *cancellable,
              const char    *file_name,
              GError       **error)
{
  gsize got = 0;
  g_autoptr(GError) local = NULL;

  if (!g_input_stream_read_all (in, buffer, count, &got, cancellable, &local))
    return fail (error, file_name, "%s", local->message);
  if (got != count)
    return fail (error, file_name, _("the header is truncated"));
  return TRUE;
}

gboolean
vc_safetensors_read_file (VcSafetensors  *st,
                          GFile          *file,
                          GCancellable   *cancellable,
                          GError        **error)
{
  g_autofree char *file_name = g_file_get_parse_name (file);
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local = NULL;
  guint8 head[8];
  guint64 size, header_size = 0;

  if (!vc_file_check_regular (file, file_name, _("a safetensors file"), cancellable, error))
    return FALSE;
  in = g_file_read (file, cancellable, &local);
  if (in == NULL)
    return fail (error, file_name, "%s", local->message);
  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, &local);
  if (info == NULL)
    return fail (error, file_name, "%s", local->message);
  size = g_file_info_get_size (info);
  if (size < 8)
    return fail (error, file_name, _("the file is shorter than the 8-byte header length"));
  if (!read_exactly (G_INPUT_STREAM (in), head, 8, cancellable, file_name, error))
    return FALSE;
  for (int i = 7; i >= 0; i--)
    header_size = (header_size << 8) | head[i];
  /* the checks on the length come before any allocation of that length */
  if (header_size > VC_SAFETENSORS_MAX_HEADER || header_size > size - 8)
    return vc_safetensors_parse (st, head, 8, size, file_name, error);
  /* memory grows with what is read, a chunk at a time, never with what the length claims */
  {
    g_autoptr(GByteArray) bytes = g_byte_array_new ();

    g_byte_array_append (bytes, head, 8);
    while (bytes->len < 8 + header_size)
      {
        gsize chunk = MIN ((guint64) 1 << 20, 8 + header_size - bytes->len), at = bytes->len;

        g_byte_array_set_size (bytes, at + chunk);
        if (!read_exactly (G_INPUT_STREAM (in), bytes->data + at, chunk, cancellable, file_name, error))
          return FALSE;
      }
    return vc_safetensors_parse (st, bytes->data, bytes->len, size, file_name, error);
  }
}

gboolean
vc_safetensors_folder_has (GFile *folder)
{
  g_autoptr(GFile) single = g_file_get_child (folder, "model.safetensors");
  g_autoptr(GFile) index = g_file_get_child (folder, "model.safetensors.index.json");

  return g_file_query_exists (single, NULL) || g_file_query_exists (index, NULL);
}

/* At most `cap` bytes of a file, read until its end whatever size it reports (procfs files
 * report 0): one byte more than the cap is refused, and memory grows with what is read, never
 * with what a size says. */
static char *
read_capped (GFile         *file,
             gsize          cap,
             const char    *file_name,
             gsize         *length,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GError) local = NULL;
  gsize total = 0;

  in = g_file_read (file, cancellable, &local);
  if (in == NULL)
    {
      fail (error, file_name, "%s", local->message);
      return NULL;
    }
  for (;;)
    {
      /* whole chunks: some procfs files refuse reads of odd lengths */
      gsize want = (gsize) 1 << 20, got = 0;

      g_byte_array_set_size (bytes, total + want);
      if (!g_input_stream_read_all (G_INPUT_STREAM (in), bytes->data + total, want, &got, cancellable, &local))
        {
          fail (error, file_name, "%s", local->message);
          return NULL;
        }
      total += got;
      if (total > cap)
        {
          fail (error, file_name, _("the index is larger than %d MiB"), (int) (cap >> 20));
          return NULL;
        }
      if (got < want)
        break;
    }
  g_byte_array_set_size (bytes, total + 1);
  bytes->data[total] = '\0';
  *length = total;
  return (char *) g_byte_array_free (g_steal_pointer (&bytes), FALSE);
}

static gboolean
read_index (VcSafetensors  *st,
            GFile          *folder,
            GFile          *index,
            GCancellable   *cancellable,
            GError        **error)
{
  g_autofree char *index_name = g_file_get_parse_name (index);
  g_autofree char *contents = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GPtrArray) shards = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GList) members = NULL;
  JsonNode *map_node;
  JsonObject *map;
  gsize length;

  info = g_file_query_info (index, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, cancellable, &local);
  if (info == NULL)
    return fail (error, index_name, "%s", local->message);
  /* a FIFO or a device would be read without end */
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    return fail (error, index_name, _("not a regular file"));
  if (g_file_info_get_size (info) > VC_SAFETENSORS_MAX_INDEX)
    return fail (error, index_name, _("the index is larger than %d MiB"), VC_SAFETENSORS_MAX_INDEX >> 20);
  contents = read_capped (index, VC_SAFETENSORS_MAX_INDEX, index_name, &length, cancellable, error);
  if (contents == NULL)
    return FALSE;
  if (!g_utf8_validate (contents, length, NULL))
    return fail (error, index_name, _("the index is not UTF-8 text"));
  root = parse_json (contents, length, VC_SAFETENSORS_MAX_INDEX, index_name, _("a safetensors index"), error);
  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root) ||
      (map_node = json_object_get_member (json_node_get_object (root), "weight_map")) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (map_node))
    return fail (error, index_name, _("no weight_map object"));
  map = json_node_get_object (map_node);
  members = json_object_get_members (map);
  if (members == NULL)
    return fail (error, index_name, _("the weight_map lists no tensor"));
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *n = json_object_get_member (map, l->data);
      const char *shard;

      if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
        return fail (error, index_name, _("the weight_map entry of “%s” is not a file name"), (char *) l->data);
      shard = json_node_get_string (n);
      if (*shard == '\0' || strchr (shard, '/') || strchr (shard, '\\') || g_str_equal (shard, "..") ||
          !g_str_has_suffix (shard, ".safetensors"))
        return fail (error, index_name, _("“%s” is not the name of a .safetensors file in the model's folder"), shard);
      if (!g_hash_table_contains (seen, shard))
        {
          g_hash_table_add (seen, (gpointer) shard);
          g_ptr_array_add (shards, (gpointer) shard);
        }
    }

  for (guint i = 0; i < shards->len; i++)
    {
      g_autoptr(GFile) file = g_file_get_child (folder, shards->pdata[i]);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!vc_safetensors_read_file (st, file, cancellable, error))
        return FALSE;
    }
  /* the index and the shards agree: each listed tensor is where the index says */
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_hash_table_contains (st->tensors, l->data))
      return fail (error, index_name, _("tensor “%s” is listed but in none of its files"), (char *) l->data);
  if (g_hash_table_size (st->tensors) != g_list_length (members))
    return fail (error, index_name, _("the files hold %u tensors but the index lists %u"),
                 g_hash_table_size (st->tensors), g_list_length (members));
  return TRUE;
}

gboolean
vc_safetensors_read_folder (VcSafetensors  *st,
                            GFile          *folder,
                            GCancellable   *cancellable,
                            GError        **error)
{
  g_autoptr(GFile) index = g_file_get_child (folder, "model.safetensors.index.json");
  g_autoptr(GFile) single = g_file_get_child (folder, "model.safetensors");

  if (g_file_query_exists (index, cancellable))
    return read_index (st, folder, index, cancellable, error);
  if (g_file_query_exists (single, cancellable))
    return vc_safetensors_read_file (st, single, cancellable, error);
  {
    g_autofree char *name = g_file_get_parse_name (folder);
    return fail (error, name, _("no model.safetensors and no model.safetensors.index.json"));
  }
}
