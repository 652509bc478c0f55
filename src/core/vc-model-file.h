/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-model-file.h: a model's own files, read into an estimate.
 *
 * VcModelFile is what a path holds: a config.json alone, a model folder (config.json with
 * model.safetensors or the shards of model.safetensors.index.json; or a GGUF), or a .gguf file
 * (the first of a split model too). Files are read from their headers only. It gives the
 * architecture the estimate counts with, and, when tensors were read, their exact bytes and
 * element count, which become the weights and the parameters at the checkpoint's own precision.
 * It is immutable once loaded.
 */
#pragma once

#include <gio/gio.h>

#include "vc-arch.h"
#include "vc-estimate.h"
#include "vc-hf-config.h"

G_BEGIN_DECLS

#define VC_TYPE_MODEL_FILE (vc_model_file_get_type ())
G_DECLARE_FINAL_TYPE (VcModelFile, vc_model_file, VC, MODEL_FILE, GObject)

VcModelFile  *vc_model_file_new_for_file       (GFile               *file,
                                                GCancellable        *cancellable,
                                                GError             **error);
VcModelFile  *vc_model_file_new_for_path       (const char          *path,
                                                GError             **error);
VcModelFile  *vc_model_file_new_for_config     (GFile               *file,
                                                GCancellable        *cancellable,
                                                GError             **error);
VcModelFile  *vc_model_file_new_for_config_data (const char         *data,
                                                gsize               length,
                                                const char         *name,
                                                GError            **error);
VcModelFile  *vc_model_file_new_for_config_path (const char         *path,
                                                 GError            **error);
void          vc_model_file_load_async         (GFile               *file,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
VcModelFile  *vc_model_file_load_finish        (GAsyncResult        *result,
                                                GError             **error);

/* "config", "safetensors" or "gguf" */
const char   *vc_model_file_get_format         (VcModelFile         *self);
/* "Q4_K_M", "BF16", "fp8", "gptq 4-bit", … */
const char   *vc_model_file_get_quantization   (VcModelFile         *self);
const char   *vc_model_file_get_name           (VcModelFile         *self);
const VcArch *vc_model_file_get_arch           (VcModelFile         *self);
VcHfConfig   *vc_model_file_get_config         (VcModelFile         *self);
guint64       vc_model_file_get_n_tensors      (VcModelFile         *self);
guint64       vc_model_file_get_file_bytes     (VcModelFile         *self);
/* < 0: no tensors were read (a bare config.json) */
double        vc_model_file_get_weights_bytes  (VcModelFile         *self);
double        vc_model_file_get_parameters     (VcModelFile         *self);
double        vc_model_file_get_active_parameters (VcModelFile      *self);
/* 0 when the files do not say */
guint64       vc_model_file_get_max_context    (VcModelFile         *self);
gboolean      vc_model_file_get_precision      (VcModelFile         *self,
                                                VcPrecision         *precision);
const char   *vc_model_file_get_warning        (VcModelFile         *self);

void          vc_model_file_apply              (VcModelFile         *self,
                                                VcEstimate          *estimate);

G_END_DECLS
