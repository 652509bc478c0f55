/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gguf.h: a GGUF model file read from its header only.
 *
 * GGUF (ggml-org/ggml docs/gguf.md): "GGUF", a version, the tensor and key/value counts, the
 * metadata key/value pairs, the tensor infos (name, dimensions, ggml type, offset), padding to
 * the alignment, then the tensor data, which is never read. Every count, length and offset is
 * checked against the file's size before anything is allocated for it; a fault is refused with
 * a message naming the file and what is wrong.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define VC_GGUF_MAX_DIMS 4
#define VC_GGML_N_TYPES 40

typedef struct
{
  char *name;
  guint32 type;                    /* ggml type */
  guint n_dims;
  guint64 dims[VC_GGUF_MAX_DIMS];
  guint64 offset;                  /* from the start of the data area */
  guint64 elements;
  guint64 bytes;
} VcGgufTensor;

typedef enum
{
  VC_GGUF_VALUE_UINT,
  VC_GGUF_VALUE_INT,
  VC_GGUF_VALUE_FLOAT,
  VC_GGUF_VALUE_BOOL,
  VC_GGUF_VALUE_STRING,
  VC_GGUF_VALUE_ARRAY,
} VcGgufValueKind;

typedef struct
{
  VcGgufValueKind kind;
  guint32 gguf_type;               /* the element type for arrays */
  guint64 u;                       /* UINT, BOOL */
  gint64 i;                        /* INT */
  double f;                        /* FLOAT */
  char *s;                         /* STRING (NULL when too long to keep) */
  guint64 length;                  /* STRING length, ARRAY element count */
  GArray *values;                  /* ARRAY of integers or bools: gint64 each, when kept */
} VcGgufValue;

typedef struct
{
  guint32 version;
  guint n_files;
  guint64 file_bytes;              /* every file of the model, headers included */
  guint64 n_tensors;
  guint64 elements;
  guint64 tensor_bytes;
  guint64 type_elements[VC_GGML_N_TYPES];
  guint64 type_bytes[VC_GGML_N_TYPES];
  GHashTable *metadata;            /* key → VcGgufValue, from the first file */
  GPtrArray *tensors;              /* VcGgufTensor, every file */
} VcGguf;

void          vc_gguf_init           (VcGguf        *gguf);
void          vc_gguf_clear          (VcGguf        *gguf);

/* The ggml type table: NULL name for an id that is not a type (removed or unknown). */
const char   *vc_ggml_type_name      (guint32        type);
guint         vc_ggml_type_block     (guint32        type);
guint         vc_ggml_type_size      (guint32        type);

/* data: a whole file in memory, file_size its size (for fuzzing and tests) */
gboolean      vc_gguf_parse          (VcGguf        *gguf,
                                      const guint8  *data,
                                      gsize          length,
                                      const char    *file_name,
                                      GError       **error);
/* file: a .gguf file, the first of a split model, or a folder holding one */
gboolean      vc_gguf_read           (VcGguf        *gguf,
                                      GFile         *file,
                                      GCancellable  *cancellable,
                                      GError       **error);
/* the .gguf file a folder holds, or NULL (with error) */
/* "NAME-00001-of-00003.gguf" → "NAME", 1, 3, as llama.cpp's llama_split_path names parts */
gboolean      vc_gguf_split_name     (const char    *base,
                                      char         **prefix,
                                      guint         *number,
                                      guint         *count);
GFile        *vc_gguf_find_in_folder (GFile         *folder,
                                      GCancellable  *cancellable,
                                      GError       **error);

const VcGgufValue *vc_gguf_get       (VcGguf        *gguf,
                                      const char    *key);
const char   *vc_gguf_get_string     (VcGguf        *gguf,
                                      const char    *key);
/* an unsigned or non-negative integer scalar */
gboolean      vc_gguf_get_uint       (VcGguf        *gguf,
                                      const char    *key,
                                      guint64       *value);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VcGguf, vc_gguf_clear)

G_END_DECLS
