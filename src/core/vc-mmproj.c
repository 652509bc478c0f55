/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-mmproj.c: a multimodal projector file (llama.cpp's --mmproj), read from its GGUF header. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "vc-error.h"
#include "vc-gguf.h"
#include "vc-mmproj.h"

/* llama.cpp's tools/mtmd/clip-impl.h (ggml-org/llama.cpp a449251), PROJECTOR_TYPE_NAMES: the
 * projector types clip_projector_type_from_string() knows; any other is PROJECTOR_TYPE_UNKNOWN,
 * which clip_model_loader refuses ("unknown projector type") */
static const char *const projectors[] = {
  "mlp", "ldp", "ldpv2", "resampler", "adapter", "qwen2vl_merger", "qwen2.5vl_merger",
  "qwen3vl_merger", "eagle2vl", "gemma3", "idefics3", "pixtral", "ultravox", "internvl", "llama4",
  "qwen2a", "glma", "qwen2.5o", "voxtral", "lfm2", "kimivl", "lightonocr", "cogvlm", "janus_pro",
  "lfm2a", "glm4v", NULL,
};

void
vc_mmproj_clear (VcMmproj *mmproj)
{
  g_clear_pointer (&mmproj->projector, g_free);
  memset (mmproj, 0, sizeof *mmproj);
}

/* projector: one type, or the vision and audio types of a file of both joined by '+' */
gboolean
vc_mmproj_projector_known (const char *projector)
{
  g_auto(GStrv) parts = NULL;

  if (projector == NULL || *projector == '\0')
    return FALSE;
  parts = g_strsplit (projector, "+", 3);
  if (g_strv_length (parts) > 2)
    return FALSE;
  for (guint i = 0; parts[i] != NULL; i++)
    if (!g_strv_contains (projectors, parts[i]))
      return FALSE;
  return TRUE;
}

static gboolean
get_bool (VcGguf     *g,
          const char *key)
{
  const VcGgufValue *v = vc_gguf_get (g, key);

  return v != NULL && v->kind == VC_GGUF_VALUE_BOOL && v->u != 0;
}

/* clip.projector_type, or for a file of two modalities clip.vision.projector_type and
 * clip.audio.projector_type (clip_model_loader reads the latter when the former is absent) */
static gboolean
read_projector (VcMmproj    *out,
                VcGguf      *g,
                const char  *shown,
                GError     **error)
{
  static const char *const keys[] = { "clip.projector_type", "clip.vision.projector_type",
                                      "clip.audio.projector_type" };
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *type = vc_gguf_get_string (g, keys[i]);

      if (type == NULL)
        continue;
      if (!g_strv_contains (projectors, type))
        {
          g_autofree char *accepted = g_strjoinv (", ", (char **) projectors);

          return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                                   _("%s “%s” is not a projector type llama.cpp knows; accepted: %s"),
                                   keys[i], type, accepted);
        }
      if (names->len > 0)
        g_string_append_c (names, '+');
      g_string_append (names, type);
      if (i == 0)
        break;
    }
  if (names->len == 0)
    return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                             _("the projector file names no projector type (clip.projector_type)"));
  out->projector = g_string_free (g_steal_pointer (&names), FALSE);
  return TRUE;
}

gboolean
vc_mmproj_read (VcMmproj      *out,
                GFile         *file,
                GCancellable  *cancellable,
                GError       **error)
{
  g_auto(VcGguf) g = { 0 };
  g_autofree char *shown = g_file_get_parse_name (file);
  const char *arch, *type;

  memset (out, 0, sizeof *out);
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable) == G_FILE_TYPE_DIRECTORY)
    return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                             _("this is a folder; a projector is one .gguf file (mmproj-….gguf)"));
  vc_gguf_init (&g);
  if (!vc_gguf_read (&g, file, cancellable, error))
    return FALSE;
  /* the converter's MmprojModel writes general.type "mmproj" and general.architecture "clip"
   * (convert_hf_to_gguf.py; gguf-py GGUFType.MMPROJ) */
  arch = vc_gguf_get_string (&g, "general.architecture");
  type = vc_gguf_get_string (&g, "general.type");
  if ((type != NULL && !g_str_equal (type, "mmproj")) || arch == NULL || !g_str_equal (arch, "clip"))
    return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                             _("this is not a multimodal projector (general.type “%s”, general.architecture “%s”): "
                               "a projector file has general.type mmproj, general.architecture clip and clip.* keys"),
                             type ? type : "", arch ? arch : "");
  if (!read_projector (out, &g, shown, error))
    return FALSE;
  out->vision = get_bool (&g, "clip.has_vision_encoder");
  out->audio = get_bool (&g, "clip.has_audio_encoder");
  if (!out->vision && !out->audio)
    {
      vc_mmproj_clear (out);
      return vc_error_in_file (error, VC_ERROR_PARSE, shown,
                               _("the projector file has neither a vision nor an audio encoder "
                                 "(clip.has_vision_encoder, clip.has_audio_encoder)"));
    }
  out->bytes = g.tensor_bytes;
  out->elements = g.elements;
  out->n_tensors = g.n_tensors;
  return TRUE;
}
