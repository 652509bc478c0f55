/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-hf-config.h: a model's Hugging Face config.json read into an exact architecture.
 *
 * VcHfConfig is what one config.json says: the VcArch the architecture method counts, the
 * parameter counts that follow, and what the window shows about it (display name, model_type,
 * whether the family is known or was estimated the Llama way, the stored dtype, notes such as
 * "only the text model is counted"). It is immutable once loaded; vc_hf_config_apply() puts it
 * into an estimate the way a preset would. Nothing here touches the network.
 */
#pragma once

#include <gio/gio.h>

#include "vc-arch.h"
#include "vc-estimate.h"
#include "vc-json-input.h"
#include "vc-types.h"

G_BEGIN_DECLS

/* A config.json is a few kilobytes; anything beyond this is not one. */
#define VC_HF_CONFIG_MAX_SIZE VC_JSON_INPUT_MAX_SIZE

#define VC_TYPE_HF_CONFIG (vc_hf_config_get_type ())
G_DECLARE_FINAL_TYPE (VcHfConfig, vc_hf_config, VC, HF_CONFIG, GObject)

/* file: a config.json (any name) or a folder holding config.json */
VcHfConfig   *vc_hf_config_new_for_file          (GFile               *file,
                                                  GCancellable        *cancellable,
                                                  GError             **error);
VcHfConfig   *vc_hf_config_new_for_path          (const char          *path,
                                                  GError             **error);
/* file_name: how messages name the data ("config.json"); display_name: NULL to take it from
 * the data (_name_or_path) or the model_type */
VcHfConfig   *vc_hf_config_new_from_data         (const char          *data,
                                                  gsize                length,
                                                  const char          *file_name,
                                                  const char          *display_name,
                                                  GError             **error);

/* The processor's settings (a preprocessor_config.json's data) where the model's images in
 * vLLM's profile run depend on them (Llama 4's max_patches, Qwen3-VL's size); other models ignore them. Errors
 * name file_name. */
gboolean      vc_hf_config_read_preprocessor     (VcHfConfig          *self,
                                                  const char          *data,
                                                  gsize                length,
                                                  const char          *file_name,
                                                  GError             **error);

/* Qwen3-VL's video processor settings (a video_preprocessor_config.json's data), read after
 * its preprocessor_config.json: the most tokens a dummy video gives in vLLM's profile run */
gboolean      vc_hf_config_read_video_preprocessor (VcHfConfig        *self,
                                                  const char          *data,
                                                  gsize                length,
                                                  const char          *file_name,
                                                  GError             **error);

const VcArch *vc_hf_config_get_arch              (VcHfConfig          *self);
const VcParamCounts *vc_hf_config_get_counts     (VcHfConfig          *self);
const char   *vc_hf_config_get_name              (VcHfConfig          *self);
const char   *vc_hf_config_get_model_type        (VcHfConfig          *self);
const char   *vc_hf_config_get_family            (VcHfConfig          *self);
gboolean      vc_hf_config_get_known_family      (VcHfConfig          *self);
gboolean      vc_hf_config_get_text_only         (VcHfConfig          *self);
const char   *vc_hf_config_get_torch_dtype       (VcHfConfig          *self);
gboolean      vc_hf_config_get_precision         (VcHfConfig          *self,
                                                  VcPrecision         *precision);
const char * const *vc_hf_config_get_not_understood (VcHfConfig       *self);
gboolean      vc_hf_config_is_exact              (VcHfConfig          *self);
guint         vc_hf_config_get_max_context       (VcHfConfig          *self);
const char   *vc_hf_config_get_rope_scaling      (VcHfConfig          *self);
gboolean      vc_hf_config_check_exact           (VcHfConfig          *self,
                                                  GError             **error);
const char   *vc_hf_config_get_description       (VcHfConfig          *self);
const char   *vc_hf_config_get_warning           (VcHfConfig          *self);

void          vc_hf_config_apply                 (VcHfConfig          *self,
                                                  VcEstimate          *estimate);

G_END_DECLS
