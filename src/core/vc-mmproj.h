/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-mmproj.h: a multimodal projector file (llama.cpp's --mmproj), read from its GGUF header.
 *
 * llama.cpp's converter writes a model's vision or audio encoder and its projector to a GGUF of
 * its own (general.type "mmproj", general.architecture "clip", the clip.* keys), which
 * llama-server loads beside the model with --mmproj (tools/mtmd/clip.cpp, clip_model_loader).
 * Its tensors are counted exactly, from their ggml types and shapes; the data is never read.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  char *projector;                 /* clip.projector_type: "gemma3", "mlp", … */
  guint64 bytes;                   /* every tensor's bytes */
  guint64 elements;                /* every tensor's elements */
  guint64 n_tensors;
  gboolean vision;                 /* clip.has_vision_encoder */
  gboolean audio;                  /* clip.has_audio_encoder */
  /* clip.cpp's compute buffer for the warm-up image, without and with flash attention; 0 when
   * the projector's graph is not followed (vc-llama-graph.h, VcClipGraph) */
  guint64 compute_bytes;
  guint64 compute_bytes_fa;
} VcMmproj;

void          vc_mmproj_clear          (VcMmproj      *mmproj);

/* file: a .gguf projector file; refused, naming what is wrong, when it is not one, or when its
 * projector type is not one llama.cpp knows */
gboolean      vc_mmproj_read           (VcMmproj      *mmproj,
                                        GFile         *file,
                                        GCancellable  *cancellable,
                                        GError       **error);

/* whether llama.cpp's clip.cpp knows this projector type (clip-impl.h, PROJECTOR_TYPE_NAMES) */
gboolean      vc_mmproj_projector_known (const char   *projector);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VcMmproj, vc_mmproj_clear)

G_END_DECLS
