/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-safetensors.h: a safetensors checkpoint read from its headers only.
 *
 * A safetensors file is an 8-byte little-endian header length N, N bytes of JSON naming each
 * tensor's dtype, shape and [begin, end) offsets into the data area that follows, then the data.
 * Only the first 8 + N bytes are read: the tensor data never is. Every length and offset is
 * checked against the file's size; a fault is refused with a message naming the file and what
 * is wrong.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The safetensors library refuses headers over 100 MB; so do we. */
#define VC_SAFETENSORS_MAX_HEADER 100000000
/* model.safetensors.index.json lists a few thousand tensor names. */
#define VC_SAFETENSORS_MAX_INDEX (64 * 1024 * 1024)

typedef enum
{
  VC_ST_DTYPE_BOOL,
  VC_ST_DTYPE_U8,
  VC_ST_DTYPE_I8,
  VC_ST_DTYPE_F8_E4M3,
  VC_ST_DTYPE_F8_E5M2,
  VC_ST_DTYPE_F8_E8M0,
  VC_ST_DTYPE_I16,
  VC_ST_DTYPE_U16,
  VC_ST_DTYPE_F16,
  VC_ST_DTYPE_BF16,
  VC_ST_DTYPE_I32,
  VC_ST_DTYPE_U32,
  VC_ST_DTYPE_F32,
  VC_ST_DTYPE_I64,
  VC_ST_DTYPE_U64,
  VC_ST_DTYPE_F64,
  VC_ST_N_DTYPES
} VcStDtype;

typedef struct
{
  guint n_files;
  guint64 n_tensors;
  guint64 elements;                       /* every element of every tensor */
  guint64 tensor_bytes;                   /* the data of every tensor */
  guint64 file_bytes;                     /* the files' sizes, headers included */
  guint64 dtype_elements[VC_ST_N_DTYPES];
  guint64 dtype_bytes[VC_ST_N_DTYPES];
  GHashTable *tensors;                    /* name → VcStTensor, NULL until something is read */
} VcSafetensors;

typedef struct
{
  VcStDtype dtype;
  guint64 elements;
  guint64 bytes;
  guint n_dims;
  guint64 dims[8];
} VcStTensor;

void         vc_safetensors_init          (VcSafetensors  *st);
void         vc_safetensors_clear         (VcSafetensors  *st);
const char  *vc_st_dtype_name             (VcStDtype       dtype);
guint        vc_st_dtype_size             (VcStDtype       dtype);

/* data: the first bytes of a file (at least the 8-byte length and the header it announces);
 * file_size: the whole file's size. Adds the file's tensors to st. */
gboolean     vc_safetensors_parse         (VcSafetensors  *st,
                                           const guint8   *data,
                                           gsize           length,
                                           guint64         file_size,
                                           const char     *file_name,
                                           GError        **error);
gboolean     vc_safetensors_read_file     (VcSafetensors  *st,
                                           GFile          *file,
                                           GCancellable   *cancellable,
                                           GError        **error);
/* folder: holds model.safetensors, or the shards model.safetensors.index.json lists */
gboolean     vc_safetensors_read_folder   (VcSafetensors  *st,
                                           GFile          *folder,
                                           GCancellable   *cancellable,
                                           GError        **error);
gboolean     vc_safetensors_folder_has    (GFile          *folder);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VcSafetensors, vc_safetensors_clear)

G_END_DECLS
