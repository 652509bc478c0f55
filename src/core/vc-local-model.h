/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-local-model.h: the models already on this computer, found where the tools that run them
 * keep them.
 *
 * Ollama ($OLLAMA_MODELS or ~/.ollama/models: manifests naming GGUF blobs, shown by their Ollama
 * names such as qwen3:30b-a3b), LM Studio (~/.lmstudio/models, ~/.cache/lm-studio/models) and
 * the Hugging Face cache ($HF_HUB_CACHE, $HF_HOME/hub or ~/.cache/huggingface/hub: snapshots).
 * Only folders are walked, never a folder a symbolic link points to, to a fixed depth; what
 * cannot be read (a broken manifest, a missing blob) is left out and said.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define VC_TYPE_LOCAL_MODEL (vc_local_model_get_type ())
G_DECLARE_FINAL_TYPE (VcLocalModel, vc_local_model, VC, LOCAL_MODEL, GObject)

/* "ollama", "lmstudio" or "hf-cache" */
const char   *vc_local_model_get_source  (VcLocalModel  *self);
/* qwen3:30b-a3b, publisher/repo/file, org/name… */
const char   *vc_local_model_get_name    (VcLocalModel  *self);
/* "gguf", "safetensors" or "config" */
const char   *vc_local_model_get_format  (VcLocalModel  *self);
/* the file or folder vc_model_file_new_for_file() reads */
GFile        *vc_local_model_get_file    (VcLocalModel  *self);
guint64       vc_local_model_get_bytes   (VcLocalModel  *self);

/* Every model found, sorted by source then name (VcLocalModel). skipped: what was found but
 * cannot be read, one line each (may be NULL). */
GPtrArray    *vc_local_models_list       (GPtrArray    **skipped,
                                          GCancellable  *cancellable);
/* The model Ollama calls `name` (qwen3, qwen3:8b, user/model:tag, host/user/model:tag) */
VcLocalModel *vc_local_models_find_ollama (const char    *name,
                                           GError       **error);

G_END_DECLS
