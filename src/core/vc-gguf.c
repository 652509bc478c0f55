/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gguf.c: GGUF headers, read and checked, the tensor data never read.
 *
 * The layout follows ggml's docs/gguf.md and gguf.cpp (versions 2 and 3: 64-bit counts and
 * lengths, little-endian): magic "GGUF", uint32 version, uint64 tensor count, uint64 key/value
 * count; each key/value a string key (uint64 length, bytes), a uint32 value type and the value
 * (arrays: uint32 element type, uint64 count, the elements); each tensor info a string name,
 * uint32 n_dims (at most 4), n_dims uint64 dimensions, uint32 ggml type, uint64 offset; then
 * padding to general.alignment (default 32) and the data area.
 *
 * The ggml type table (block size in elements, bytes per block) is ggml's type_traits
 * (ggml/src/ggml.c) with the block structures of ggml/src/ggml-common.h, e.g. block_q4_K:
 * two fp16 scales, 12 bytes of 6-bit scales and mins, 128 bytes of nibbles = 144 bytes for 256
 * weights.
 */
#define G_LOG_DOMAIN "vc-gguf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "vc-error.h"
#include "vc-gguf.h"
#include "vc-json-input.h"

/* 64-bit sizes in messages: %llu, which gettext checks, rather than G_GUINT64_FORMAT */
#define U(x) ((unsigned long long) (x))

/* llama.cpp's largest headers (vocabularies of 256k tokens with merges) are tens of MB: a
 * header past this is refused rather than walked through. */
#define MAX_HEADER_BYTES (512u * 1024 * 1024)
#define MAX_KEPT_STRING 65536
/* arrays are kept when they can be per-layer (at most the layers an architecture may have);
 * longer ones (vocabularies) are skipped with one seek */
#define MAX_KEPT_ARRAY 100000
#define MAX_NAME 65536
/* what one file's header may cost in memory once read: keys, kept values, tensor infos */
#define MAX_KEPT_BYTES (64u * 1024 * 1024)
#define READ_CHUNK (256u * 1024)
#define DEFAULT_ALIGNMENT 32

enum
{
  GGUF_UINT8, GGUF_INT8, GGUF_UINT16, GGUF_INT16, GGUF_UINT32, GGUF_INT32, GGUF_FLOAT32,
  GGUF_BOOL, GGUF_STRING, GGUF_ARRAY, GGUF_UINT64, GGUF_INT64, GGUF_FLOAT64, GGUF_N_TYPES
};

static const guint gguf_type_size[GGUF_N_TYPES] = {
  [GGUF_UINT8] = 1, [GGUF_INT8] = 1, [GGUF_UINT16] = 2, [GGUF_INT16] = 2,
  [GGUF_UINT32] = 4, [GGUF_INT32] = 4, [GGUF_FLOAT32] = 4, [GGUF_BOOL] = 1,
  [GGUF_STRING] = 0, [GGUF_ARRAY] = 0, [GGUF_UINT64] = 8, [GGUF_INT64] = 8, [GGUF_FLOAT64] = 8,
};

static const struct
{
  const char *name;
  guint block;
  guint size;
} ggml_types[VC_GGML_N_TYPES] = {
  [0] = { "F32", 1, 4 },
  [1] = { "F16", 1, 2 },
  [2] = { "Q4_0", 32, 18 },
  [3] = { "Q4_1", 32, 20 },
  [6] = { "Q5_0", 32, 22 },
  [7] = { "Q5_1", 32, 24 },
  [8] = { "Q8_0", 32, 34 },
  [9] = { "Q8_1", 32, 36 },
  [10] = { "Q2_K", 256, 84 },
  [11] = { "Q3_K", 256, 110 },
  [12] = { "Q4_K", 256, 144 },
  [13] = { "Q5_K", 256, 176 },
  [14] = { "Q6_K", 256, 210 },
  [15] = { "Q8_K", 256, 292 },
  [16] = { "IQ2_XXS", 256, 66 },
  [17] = { "IQ2_XS", 256, 74 },
  [18] = { "IQ3_XXS", 256, 98 },
  [19] = { "IQ1_S", 256, 50 },
  [20] = { "IQ4_NL", 32, 18 },
  [21] = { "IQ3_S", 256, 110 },
  [22] = { "IQ2_S", 256, 82 },
  [23] = { "IQ4_XS", 256, 136 },
  [24] = { "I8", 1, 1 },
  [25] = { "I16", 1, 2 },
  [26] = { "I32", 1, 4 },
  [27] = { "I64", 1, 8 },
  [28] = { "F64", 1, 8 },
  [29] = { "IQ1_M", 256, 56 },
  [30] = { "BF16", 1, 2 },
  /* 31 to 33 and 36 to 38: repacked Q4_0/IQ4_NL variants, removed from GGUF files */
  [34] = { "TQ1_0", 256, 54 },
  [35] = { "TQ2_0", 256, 66 },
  [39] = { "MXFP4", 32, 17 },
};

const char *
vc_ggml_type_name (guint32 type)
{
  return type < VC_GGML_N_TYPES ? ggml_types[type].name : NULL;
}

guint
vc_ggml_type_block (guint32 type)
{
  return type < VC_GGML_N_TYPES ? ggml_types[type].block : 0;
}

guint
vc_ggml_type_size (guint32 type)
{
  return type < VC_GGML_N_TYPES ? ggml_types[type].size : 0;
}

static void
value_free (gpointer data)
{
  VcGgufValue *v = data;

  g_free (v->s);
  g_clear_pointer (&v->values, g_array_unref);
  g_free (v);
}

static void
tensor_free (gpointer data)
{
  VcGgufTensor *t = data;

  g_free (t->name);
  g_free (t);
}

void
vc_gguf_init (VcGguf *gguf)
{
  memset (gguf, 0, sizeof *gguf);
  gguf->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, value_free);
  gguf->tensors = g_ptr_array_new_with_free_func (tensor_free);
}

void
vc_gguf_clear (VcGguf *gguf)
{
  g_clear_pointer (&gguf->metadata, g_hash_table_unref);
  g_clear_pointer (&gguf->tensors, g_ptr_array_unref);
}

/* ---- reading, bounded by the file's size -------------------------------------------------- */

typedef struct
{
  const guint8 *mem;               /* memory, or */
  GInputStream *in;                /* a stream, read a chunk at a time into buf */
  GCancellable *cancellable;
  guint64 pos;
  guint64 size;
  const char *file_name;
  guint8 *buf;
  gsize buf_len, buf_pos;          /* bytes in buf, and read from it */
  guint64 kept;                    /* bytes of memory the header's kept values take */
} Reader;

#define fail(error, file_name, ...) vc_error_in_file ((error), VC_ERROR_PARSE, (file_name), __VA_ARGS__)

static gboolean
truncated (Reader     *r,
           const char *what,
           GError    **error)
{
  /* Translators: %s is what was being read: "the tensor count", "a string", … */
  return fail (error, r->file_name, _("the header is truncated: %s at byte %llu runs past the end of the file (%llu bytes)"),
               what, U(r->pos), U(r->size));
}

static gboolean
reader_check (Reader     *r,
              guint64     count,
              const char *what,
              GError    **error)
{
  if (count > r->size - r->pos)
    return truncated (r, what, error);
  if (r->pos + count > MAX_HEADER_BYTES)
    return fail (error, r->file_name, _("the header is larger than %u MiB"), MAX_HEADER_BYTES >> 20);
  return TRUE;
}

/* Refills the chunk buffer from the stream when it is used up. */
static gboolean
reader_fill (Reader     *r,
             const char *what,
             GError    **error)
{
  g_autoptr(GError) local = NULL;
  gsize got = 0;

  if (r->buf == NULL)
    r->buf = g_malloc (READ_CHUNK);
  if (!g_input_stream_read_all (r->in, r->buf, MIN ((guint64) READ_CHUNK, r->size - r->pos), &got,
                                r->cancellable, &local))
    return fail (error, r->file_name, "%s", local->message);
  if (got == 0)
    return truncated (r, what, error);
  r->buf_len = got;
  r->buf_pos = 0;
  return TRUE;
}

static gboolean
reader_read (Reader     *r,
             void       *dest,
             gsize       count,
             const char *what,
             GError    **error)
{
  if (!reader_check (r, count, what, error))
    return FALSE;
  /* nothing to copy (an empty array, whose block may be NULL) */
  if (count == 0)
    return TRUE;
  if (r->mem)
    memcpy (dest, r->mem + r->pos, count);
  else
    {
      guint8 *out = dest;
      gsize done = 0;

      while (done < count)
        {
          gsize n;

          if (r->buf_pos == r->buf_len && !reader_fill (r, what, error))
            return FALSE;
          n = MIN (count - done, r->buf_len - r->buf_pos);
          memcpy (out + done, r->buf + r->buf_pos, n);
          r->buf_pos += n;
          done += n;
        }
    }
  r->pos += count;
  return TRUE;
}

/* Skips count bytes: from the buffer, then with one seek. */
static gboolean
reader_skip (Reader     *r,
             guint64     count,
             const char *what,
             GError    **error)
{
  if (!reader_check (r, count, what, error))
    return FALSE;
  if (r->in)
    {
      guint64 in_buf = MIN (count, (guint64) (r->buf_len - r->buf_pos));

      r->buf_pos += in_buf;
      if (count > in_buf)
        {
          g_autoptr(GError) local = NULL;

          /* the stream stands after the buffer's end */
          if (!g_seekable_seek (G_SEEKABLE (r->in), count - in_buf, G_SEEK_CUR, r->cancellable, &local))
            return fail (error, r->file_name, "%s", local->message);
        }
    }
  r->pos += count;
  return TRUE;
}

/* Memory the header's kept values take, bounded for each file. */
static gboolean
reader_keep (Reader     *r,
             guint64     bytes,
             GError    **error)
{
  r->kept += bytes;
  if (r->kept > MAX_KEPT_BYTES)
    return fail (error, r->file_name, _("the header's keys, values and tensor names take more than %u MiB"),
                 MAX_KEPT_BYTES >> 20);
  return TRUE;
}

static gboolean
read_u32 (Reader     *r,
          guint32    *value,
          const char *what,
          GError    **error)
{
  guint8 b[4];

  if (!reader_read (r, b, 4, what, error))
    return FALSE;
  *value = (guint32) b[0] | (guint32) b[1] << 8 | (guint32) b[2] << 16 | (guint32) b[3] << 24;
  return TRUE;
}

static gboolean
read_u64 (Reader     *r,
          guint64    *value,
          const char *what,
          GError    **error)
{
  guint8 b[8];

  if (!reader_read (r, b, 8, what, error))
    return FALSE;
  *value = 0;
  for (int i = 7; i >= 0; i--)
    *value = (*value << 8) | b[i];
  return TRUE;
}

/* A string: kept when at most `keep` bytes (NUL-terminated, made valid UTF-8), else skipped. */
static gboolean
read_string (Reader     *r,
             guint64     keep,
             char      **out,
             guint64    *out_length,
             const char *what,
             GError    **error)
{
  guint64 length;

  if (!read_u64 (r, &length, what, error))
    return FALSE;
  if (length > r->size - r->pos)
    return fail (error, r->file_name, _("%s at byte %llu has a length of %llu bytes, past the end of the file (%llu bytes)"),
                 what, U(r->pos - 8), U(length), U(r->size));
  if (out_length)
    *out_length = length;
  if (length <= keep && out)
    {
      g_autofree char *raw = NULL;

      /* the text and its valid UTF-8 copy */
      if (!reader_keep (r, 2 * (length + 1), error))
        return FALSE;
      raw = g_malloc (length + 1);

      if (!reader_read (r, raw, length, what, error))
        return FALSE;
      raw[length] = '\0';
      *out = g_utf8_make_valid (raw, length);
      return TRUE;
    }
  if (out)
    *out = NULL;
  return reader_skip (r, length, what, error);
}

/* The bytes readable at once: the rest of the memory, or of the chunk buffer. */
static const guint8 *
reader_window (Reader *r,
               gsize  *available)
{
  if (r->mem)
    {
      *available = r->size - r->pos;
      return r->mem + r->pos;
    }
  *available = r->buf_len - r->buf_pos;
  return r->buf + r->buf_pos;
}

/* n strings skipped (a vocabulary: never kept): their lengths read straight from the buffer,
 * a few nanoseconds each, so that even a header of empty strings is walked in well under a
 * second; a length or a string across the buffer's end takes the general way. */
static gboolean
skip_strings (Reader      *r,
              guint64      n,
              GError     **error)
{
  guint64 i = 0;

  while (i < n)
    {
      gsize available, used = 0;
      const guint8 *p = reader_window (r, &available);

      /* as many strings as lie wholly in the window, in one tight loop */
      while (i < n && available - used >= 8)
        {
          guint64 length;

          memcpy (&length, p + used, 8);
          length = GUINT64_FROM_LE (length);
          if (length > available - used - 8 || r->pos + used + 8 + length > MAX_HEADER_BYTES)
            break;
          used += 8 + length;
          i++;
        }
      /* within the window, hence within the file */
      if (!r->mem)
        r->buf_pos += used;
      r->pos += used;
      /* a length or a string across the window's end (or past a limit) takes the general way */
      if (i < n)
        {
          if (!read_string (r, 0, NULL, NULL, _("a string"), error))
            return FALSE;
          i++;
        }
    }
  return TRUE;
}

static gboolean
read_scalar (Reader      *r,
             guint32      type,
             VcGgufValue *v,
             GError     **error)
{
  guint8 b[8] = { 0 };
  guint size = gguf_type_size[type];
  guint64 raw = 0;

  if (!reader_read (r, b, size, _("a value"), error))
    return FALSE;
  for (int i = size - 1; i >= 0; i--)
    raw = (raw << 8) | b[i];
  switch (type)
    {
    case GGUF_UINT8: case GGUF_UINT16: case GGUF_UINT32: case GGUF_UINT64:
      v->kind = VC_GGUF_VALUE_UINT;
      v->u = raw;
      break;
    case GGUF_INT8: v->kind = VC_GGUF_VALUE_INT; v->i = (gint8) raw; break;
    case GGUF_INT16: v->kind = VC_GGUF_VALUE_INT; v->i = (gint16) raw; break;
    case GGUF_INT32: v->kind = VC_GGUF_VALUE_INT; v->i = (gint32) raw; break;
    case GGUF_INT64: v->kind = VC_GGUF_VALUE_INT; v->i = (gint64) raw; break;
    case GGUF_BOOL:
      v->kind = VC_GGUF_VALUE_BOOL;
      v->u = raw != 0;
      break;
    case GGUF_FLOAT32:
      {
        guint32 u32 = (guint32) raw;
        float f;

        memcpy (&f, &u32, 4);
        v->kind = VC_GGUF_VALUE_FLOAT;
        v->f = f;
      }
      break;
    case GGUF_FLOAT64:
      memcpy (&v->f, &raw, 8);
      v->kind = VC_GGUF_VALUE_FLOAT;
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

static gboolean
read_value (Reader      *r,
            const char  *key,
            VcGgufValue *v,
            GError     **error)
{
  guint32 type;

  if (!read_u32 (r, &type, _("a value type"), error))
    return FALSE;
  if (type >= GGUF_N_TYPES)
    return fail (error, r->file_name, _("key “%s” has the value type %u, which is not a GGUF type (0 to 12)"), key, type);
  v->gguf_type = type;
  if (type == GGUF_STRING)
    {
      v->kind = VC_GGUF_VALUE_STRING;
      return read_string (r, MAX_KEPT_STRING, &v->s, &v->length, _("a string"), error);
    }
  if (type != GGUF_ARRAY)
    return read_scalar (r, type, v, error);

  {
    guint32 elem;
    guint64 n;

    v->kind = VC_GGUF_VALUE_ARRAY;
    if (!read_u32 (r, &elem, _("an array type"), error) || !read_u64 (r, &n, _("an array length"), error))
      return FALSE;
    if (elem >= GGUF_N_TYPES)
      return fail (error, r->file_name, _("key “%s” is an array of type %u, which is not a GGUF type (0 to 12)"), key, elem);
    if (elem == GGUF_ARRAY)
      return fail (error, r->file_name, _("key “%s” is an array of arrays, which GGUF readers do not take"), key);
    v->gguf_type = elem;
    v->length = n;
    if (elem == GGUF_STRING)
      {
        /* each string takes at least its 8-byte length */
        if (n > (r->size - r->pos) / 8)
          return fail (error, r->file_name, _("key “%s” says it holds %llu strings, more than the rest of the file can hold"), key, U(n));
        return skip_strings (r, n, error);
      }
    if (n > (r->size - r->pos) / gguf_type_size[elem])
      return fail (error, r->file_name, _("key “%s” says it holds %llu values, more than the rest of the file can hold"), key, U(n));
    if (n > MAX_KEPT_ARRAY || elem == GGUF_FLOAT32 || elem == GGUF_FLOAT64)
      return reader_skip (r, n * gguf_type_size[elem], _("an array"), error);
    if (!reader_keep (r, n * sizeof (gint64), error))
      return FALSE;
    v->values = g_array_sized_new (FALSE, FALSE, sizeof (gint64), (guint) n);
    {
      guint size = gguf_type_size[elem];
      g_autofree guint8 *block = g_malloc (n * size);

      /* one read for the whole array */
      if (!reader_read (r, block, n * size, _("an array"), error))
        return FALSE;
      for (guint64 i = 0; i < n; i++)
        {
          const guint8 *b = block + i * size;
          guint64 raw = 0;
          gint64 x;

          for (int k = size - 1; k >= 0; k--)
            raw = (raw << 8) | b[k];
          switch (elem)
            {
            case GGUF_INT8: x = (gint8) raw; break;
            case GGUF_INT16: x = (gint16) raw; break;
            case GGUF_INT32: x = (gint32) raw; break;
            case GGUF_INT64: x = (gint64) raw; break;
            case GGUF_BOOL: x = raw != 0; break;
            default: x = (gint64) MIN (raw, (guint64) G_MAXINT64); break;
            }
          g_array_append_val (v->values, x);
        }
    }
    return TRUE;
  }
}

static int
tensor_by_offset (gconstpointer a,
                  gconstpointer b)
{
  const VcGgufTensor *x = *(VcGgufTensor * const *) a;
  const VcGgufTensor *y = *(VcGgufTensor * const *) b;

  return x->offset < y->offset ? -1 : x->offset > y->offset ? 1 : 0;
}

/* The magic, the version and the two counts, each count checked against what the file can
 * hold. */
static gboolean
read_preamble (Reader   *r,
               guint32  *version,
               guint64  *n_tensors,
               guint64  *n_kv,
               GError  **error)
{
  guint8 magic[4];

  if (r->size < 4 || !reader_read (r, magic, 4, _("the magic"), NULL) || memcmp (magic, "GGUF", 4) != 0)
    return fail (error, r->file_name, _("not a GGUF file (it does not begin with “GGUF”)"));
  if (!read_u32 (r, version, _("the version"), error))
    return FALSE;
  if (*version != 2 && *version != 3)
    return fail (error, r->file_name, _("GGUF version %u is not known; versions 2 and 3 are read"), *version);
  if (!read_u64 (r, n_tensors, _("the tensor count"), error) ||
      !read_u64 (r, n_kv, _("the key/value count"), error))
    return FALSE;
  /* a key/value takes at least 8 + 4 + 1 bytes, a tensor info 8 + 4 + 4 + 8 */
  if (*n_kv > (r->size - r->pos) / 13)
    return fail (error, r->file_name, _("the header says %llu key/value pairs, more than the file can hold"), U(*n_kv));
  if (*n_tensors > (r->size - r->pos) / 24)
    return fail (error, r->file_name, _("the header says %llu tensors, more than the file can hold"), U(*n_tensors));
  return TRUE;
}

/* `n_kv` key/value pairs into `kv`, each key once. */
static gboolean
read_metadata (Reader      *r,
               guint64      n_kv,
               GHashTable  *kv,
               GError     **error)
{
  for (guint64 i = 0; i < n_kv; i++)
    {
      g_autofree char *key = NULL;
      guint64 key_length;
      VcGgufValue *v;

      if (!read_string (r, MAX_NAME, &key, &key_length, _("a key"), error))
        return FALSE;
      if (key == NULL)
        return fail (error, r->file_name, _("a key is %llu bytes long"), U(key_length));
      if (g_hash_table_contains (kv, key))
        return fail (error, r->file_name, _("key “%s” appears twice"), key);
      /* a hash table entry, the key and its value */
      if (!reader_keep (r, 64 + sizeof (VcGgufValue), error))
        return FALSE;
      v = g_new0 (VcGgufValue, 1);
      if (!read_value (r, key, v, error))
        {
          value_free (v);
          return FALSE;
        }
      g_hash_table_insert (kv, g_steal_pointer (&key), v);
    }
  return TRUE;
}

/* general.alignment when the metadata has it, a power of two; else the default. */
static gboolean
metadata_alignment (Reader      *r,
                    GHashTable  *kv,
                    guint32     *alignment,
                    GError     **error)
{
  VcGgufValue *v = g_hash_table_lookup (kv, "general.alignment");

  *alignment = DEFAULT_ALIGNMENT;
  if (v == NULL)
    return TRUE;
  if (v->kind != VC_GGUF_VALUE_UINT || v->u == 0 || v->u > 1u << 30 || (v->u & (v->u - 1)) != 0)
    return fail (error, r->file_name, _("general.alignment is not a power of two"));
  *alignment = (guint32) v->u;
  return TRUE;
}

/* A tensor's dimensions, and its element count, which must fit 63 bits. */
static gboolean
read_tensor_dims (Reader        *r,
                  VcGgufTensor  *t,
                  GError       **error)
{
  guint32 n_dims;

  if (!read_u32 (r, &n_dims, _("a tensor's dimension count"), error))
    return FALSE;
  if (n_dims == 0 || n_dims > VC_GGUF_MAX_DIMS)
    return fail (error, r->file_name, _("tensor “%s” has %u dimensions; 1 to 4 are possible"), t->name, n_dims);
  t->n_dims = n_dims;
  t->elements = 1;
  for (guint d = 0; d < n_dims; d++)
    {
      if (!read_u64 (r, &t->dims[d], _("a tensor dimension"), error))
        return FALSE;
      if (t->dims[d] > G_MAXINT64)
        return fail (error, r->file_name, _("tensor “%s” has a negative dimension"), t->name);
      if (t->dims[d] != 0 && t->elements > (guint64) G_MAXINT64 / t->dims[d])
        return fail (error, r->file_name, _("the dimensions of tensor “%s” multiply past 63 bits"), t->name);
      t->elements *= t->dims[d];
    }
  return TRUE;
}

/* One tensor info: its name (once in `names`), dimensions, type and offset; its size from its
 * type's blocks. */
static gboolean
read_tensor_info (Reader        *r,
                  GHashTable    *names,
                  guint32        alignment,
                  VcGgufTensor  *t,
                  GError       **error)
{
  guint64 name_length;
  guint block, size;

  if (!read_string (r, MAX_NAME, &t->name, &name_length, _("a tensor name"), error))
    return FALSE;
  if (t->name == NULL)
    return fail (error, r->file_name, _("a tensor name is %llu bytes long"), U(name_length));
  if (g_hash_table_contains (names, t->name))
    return fail (error, r->file_name, _("tensor “%s” appears twice"), t->name);
  g_hash_table_add (names, t->name);
  if (!read_tensor_dims (r, t, error))
    return FALSE;
  if (!read_u32 (r, &t->type, _("a tensor type"), error) ||
      !read_u64 (r, &t->offset, _("a tensor offset"), error))
    return FALSE;
  block = vc_ggml_type_block (t->type);
  size = vc_ggml_type_size (t->type);
  if (block == 0)
    return fail (error, r->file_name, _("tensor “%s” has the ggml type %u, which is not known"), t->name, t->type);
  if (t->dims[0] % block != 0)
    return fail (error, r->file_name, _("tensor “%s” has rows of %llu elements, not a whole number of %s blocks of %u"),
                 t->name, U(t->dims[0]), vc_ggml_type_name (t->type), block);
  if (t->elements / block > G_MAXUINT64 / size)
    return fail (error, r->file_name, _("the size of tensor “%s” is past 64 bits"), t->name);
  t->bytes = t->elements / block * size;
  if (t->offset % alignment != 0)
    return fail (error, r->file_name, _("tensor “%s” begins at offset %llu, not a multiple of the alignment %u"),
                 t->name, U(t->offset), alignment);
  return TRUE;
}

/* The data area begins at the next multiple of the alignment; every tensor lies inside it and
 * no two overlap. */
static gboolean
check_data_area (Reader     *r,
                 GPtrArray  *tensors,
                 guint32     alignment,
                 GError    **error)
{
  guint64 data_start = r->pos + (alignment - r->pos % alignment) % alignment;
  guint64 data_size, end = 0;
  g_autoptr(GPtrArray) sorted = NULL;

  if (data_start > r->size)
    return fail (error, r->file_name, _("the file ends before its data area (%llu bytes, the data begins at %llu)"),
                 U(r->size), U(data_start));
  data_size = r->size - data_start;

  /* a view: the tensors stay owned by `tensors` */
  sorted = g_ptr_array_sized_new (tensors->len);
  for (guint i = 0; i < tensors->len; i++)
    g_ptr_array_add (sorted, tensors->pdata[i]);
  g_ptr_array_sort (sorted, tensor_by_offset);
  for (guint i = 0; i < sorted->len; i++)
    {
      VcGgufTensor *t = sorted->pdata[i];

      if (t->offset > data_size || t->bytes > data_size - t->offset)
        return fail (error, r->file_name, _("tensor “%s” (%llu bytes at offset %llu) runs past the end of the file"),
                     t->name, U(t->bytes), U(t->offset));
      if (i > 0 && t->offset < end)
        return fail (error, r->file_name, _("tensor “%s” overlaps tensor “%s”"),
                     t->name, ((VcGgufTensor *) sorted->pdata[i - 1])->name);
      end = t->offset + t->bytes;
    }
  return TRUE;
}

/* A checked file joins gguf: its tensors and counts, its metadata into `metadata` (when not
 * NULL). */
static void
keep_file (VcGguf     *gguf,
           Reader     *r,
           guint32     version,
           GPtrArray  *tensors,
           GHashTable *kv,
           GHashTable *metadata)
{
  gguf->version = version;
  gguf->n_files++;
  gguf->file_bytes += r->size;
  for (guint i = 0; i < tensors->len; i++)
    {
      VcGgufTensor *t = tensors->pdata[i];

      gguf->n_tensors++;
      gguf->elements += t->elements;
      gguf->tensor_bytes += t->bytes;
      gguf->type_elements[t->type] += t->elements;
      gguf->type_bytes[t->type] += t->bytes;
    }
  g_ptr_array_extend_and_steal (gguf->tensors, tensors);
  if (metadata)
    {
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, kv);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          g_hash_table_iter_steal (&iter);
          g_hash_table_replace (metadata, key, value);
        }
    }
}

/* A later part of a split model says where it stands: split.no (from 0) is its place, as
 * llama.cpp's llama_model_loader requires of each part ("invalid split file idx"). */
static gboolean
check_split_no (Reader      *r,
                GHashTable  *kv,
                guint64      split_no,
                GError     **error)
{
  VcGgufValue *v = g_hash_table_lookup (kv, "split.no");

  if (v == NULL)
    return fail (error, r->file_name, _("this part of a split model has no split.no"));
  if (v->kind != VC_GGUF_VALUE_UINT || v->u != split_no)
    return fail (error, r->file_name, _("this file says it is not part %llu of the split model (its split.no is not %llu)"),
                 U(split_no + 1), U(split_no));
  return TRUE;
}

/* One file: its metadata into `metadata` (when not NULL), its tensors appended to gguf;
 * split_no: the place a later part of a split model must say it has (0: none asked). */
static gboolean
parse_file (VcGguf      *gguf,
            Reader      *r,
            GHashTable  *metadata,
            guint64      split_no,
            GError     **error)
{
  guint32 version = 0, alignment = DEFAULT_ALIGNMENT;
  guint64 n_tensors = 0, n_kv = 0;
  g_autoptr(GHashTable) kv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, value_free);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) tensors = g_ptr_array_new_with_free_func (tensor_free);

  if (!read_preamble (r, &version, &n_tensors, &n_kv, error) ||
      !read_metadata (r, n_kv, kv, error) ||
      !metadata_alignment (r, kv, &alignment, error) ||
      (split_no > 0 && !check_split_no (r, kv, split_no, error)))
    return FALSE;
  for (guint64 i = 0; i < n_tensors; i++)
    {
      VcGgufTensor *t;

      if (!reader_keep (r, 64 + sizeof (VcGgufTensor), error))
        return FALSE;
      t = g_new0 (VcGgufTensor, 1);
      g_ptr_array_add (tensors, t);
      if (!read_tensor_info (r, names, alignment, t, error))
        return FALSE;
    }
  if (!check_data_area (r, tensors, alignment, error))
    return FALSE;
  /* all checked: keep this file's tensors and metadata */
  keep_file (gguf, r, version, g_steal_pointer (&tensors), kv, metadata);
  return TRUE;
}

gboolean
vc_gguf_parse (VcGguf        *gguf,
               const guint8  *data,
               gsize          length,
               const char    *file_name,
               GError       **error)
{
  Reader r = { .mem = data, .size = length, .file_name = file_name };

  g_return_val_if_fail (gguf != NULL && gguf->metadata != NULL, FALSE);
  return parse_file (gguf, &r, gguf->metadata, 0, error);
}

static gboolean
read_one (VcGguf        *gguf,
          GFile         *file,
          guint64        split_no,
          GCancellable  *cancellable,
          GError       **error)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local = NULL;
  Reader r = { .cancellable = cancellable, .file_name = name };
  gboolean ok;

  if (!vc_file_check_regular (file, name, _("a GGUF file"), cancellable, error))
    return FALSE;
  in = g_file_read (file, cancellable, &local);
  if (in == NULL)
    return fail (error, name, "%s", local->message);
  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, &local);
  if (info == NULL)
    return fail (error, name, "%s", local->message);
  r.in = G_INPUT_STREAM (in);
  r.size = g_file_info_get_size (info);
  ok = parse_file (gguf, &r, split_no == 0 ? gguf->metadata : NULL, split_no, error);
  g_free (r.buf);
  return ok;
}

/* "NAME-00001-of-00003.gguf": the prefix and the count, as llama.cpp's llama_split_path
 * writes them ("%s-%05d-of-%05d.gguf"). */
gboolean
vc_gguf_split_name (const char *base,
                    char      **prefix,
                    guint      *number,
                    guint      *count)
{
  gsize n = strlen (base);
  const char *tail;

  if (n < strlen ("-00001-of-00001.gguf") || !g_str_has_suffix (base, ".gguf"))
    return FALSE;
  tail = base + n - strlen ("-00001-of-00001.gguf");
  if (tail[0] != '-' || strncmp (tail + 6, "-of-", 4) != 0)
    return FALSE;
  for (int i = 1; i <= 5; i++)
    if (!g_ascii_isdigit (tail[i]) || !g_ascii_isdigit (tail[i + 9]))
      return FALSE;
  *number = (guint) g_ascii_strtoull (tail + 1, NULL, 10);
  *count = (guint) g_ascii_strtoull (tail + 10, NULL, 10);
  *prefix = g_strndup (base, tail - base);
  return TRUE;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

GFile *
vc_gguf_find_in_folder (GFile         *folder,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(GFileEnumerator) e = NULL;
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *folder_name = g_file_get_parse_name (folder);
  g_autoptr(GError) local = NULL;
  GFileInfo *info;

  e = g_file_enumerate_children (folder, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                 G_FILE_QUERY_INFO_NONE, cancellable, &local);
  if (e == NULL)
    {
      fail (error, folder_name, "%s", local->message);
      return NULL;
    }
  while ((info = g_file_enumerator_next_file (e, cancellable, NULL)) != NULL)
    {
      const char *base = g_file_info_get_name (info);
      g_autofree char *prefix = NULL;
      guint number, count;

      /* the first part of a split model stands for it; vision projectors are not the model */
      if (g_file_info_get_file_type (info) != G_FILE_TYPE_DIRECTORY &&
          g_str_has_suffix (base, ".gguf") && !g_str_has_prefix (base, "mmproj") &&
          !(vc_gguf_split_name (base, &prefix, &number, &count) && number != 1))
        g_ptr_array_add (found, g_strdup (base));
      g_object_unref (info);
    }
  if (found->len == 1)
    return g_file_get_child (folder, found->pdata[0]);
  if (found->len == 0)
    fail (error, folder_name, _("no .gguf file"));
  else
    {
      g_ptr_array_sort (found, compare_names);
      g_ptr_array_add (found, NULL);
      {
        g_autofree char *list = g_strjoinv (", ", (char **) found->pdata);
        /* a code of its own: the folder does hold models, which callers must not say it lacks */
        vc_error_in_file (error, VC_ERROR_INVALID_COMBINATION, folder_name,
                          _("several GGUF models (%s): open one of them"), list);
      }
    }
  return NULL;
}

gboolean
vc_gguf_read (VcGguf        *gguf,
              GFile         *file,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GFile) model = NULL;
  g_autofree char *base = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *name = NULL;
  guint64 split_count = 0, split_no = 0, split_tensors = 0;
  guint number, count;

  g_return_val_if_fail (gguf != NULL && gguf->metadata != NULL, FALSE);

  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable) == G_FILE_TYPE_DIRECTORY)
    {
      model = vc_gguf_find_in_folder (file, cancellable, error);
      if (model == NULL)
        return FALSE;
    }
  else
    model = g_object_ref (file);

  if (!read_one (gguf, model, 0, cancellable, error))
    return FALSE;
  name = g_file_get_parse_name (model);
  vc_gguf_get_uint (gguf, "split.count", &split_count);
  vc_gguf_get_uint (gguf, "split.no", &split_no);
  if (split_count <= 1)
    return TRUE;

  if (split_no != 0)
    return fail (error, name, _("this is part %llu of a model split in %llu files; open the first part"),
                 U(split_no + 1), U(split_count));
  base = g_file_get_basename (model);
  if (!vc_gguf_split_name (base, &prefix, &number, &count) || count != split_count || number != 1)
    return fail (error, name, _("the first part of a model split in %llu files is not named NAME-00001-of-%05llu.gguf"),
                 U(split_count), U(split_count));
  for (guint i = 2; i <= count; i++)
    {
      g_autofree char *part_name = g_strdup_printf ("%s-%05u-of-%05u.gguf", prefix, i, count);
      g_autoptr(GFile) parent = g_file_get_parent (model);
      g_autoptr(GFile) part = g_file_get_child (parent, part_name);

      if (!read_one (gguf, part, i - 1, cancellable, error))
        return FALSE;
    }
  /* a tensor in two parts would be counted twice: llama.cpp refuses it ("invalid model: tensor
   * '%s' is duplicated") */
  {
    g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; i < gguf->tensors->len; i++)
      {
        const VcGgufTensor *t = gguf->tensors->pdata[i];

        if (!g_hash_table_add (names, t->name))
          return fail (error, name, _("tensor “%s” is in two parts of the split model"), t->name);
      }
  }
  if (vc_gguf_get_uint (gguf, "split.tensors.count", &split_tensors) && split_tensors != gguf->n_tensors)
    return fail (error, name, _("the parts hold %llu tensors but split.tensors.count says %llu"),
                 U(gguf->n_tensors), U(split_tensors));
  return TRUE;
}

const VcGgufValue *
vc_gguf_get (VcGguf     *gguf,
             const char *key)
{
  return g_hash_table_lookup (gguf->metadata, key);
}

const char *
vc_gguf_get_string (VcGguf     *gguf,
                    const char *key)
{
  const VcGgufValue *v = vc_gguf_get (gguf, key);

  return v && v->kind == VC_GGUF_VALUE_STRING ? v->s : NULL;
}

gboolean
vc_gguf_get_uint (VcGguf     *gguf,
                  const char *key,
                  guint64    *value)
{
  const VcGgufValue *v = vc_gguf_get (gguf, key);

  if (v == NULL)
    return FALSE;
  if (v->kind == VC_GGUF_VALUE_UINT)
    *value = v->u;
  else if (v->kind == VC_GGUF_VALUE_INT && v->i >= 0)
    *value = (guint64) v->i;
  else
    return FALSE;
  return TRUE;
}
