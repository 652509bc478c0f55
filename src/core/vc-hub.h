/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-hub.h: a Hugging Face Hub model read over HTTP without its weights.
 *
 * VcHub fetches a repository's config.json, its safetensors index and each shard's header (HTTP
 * range requests: the 8-byte length, then the header), or a GGUF file's header, and writes them
 * into a cache folder as sparse files of the files' real sizes. The folder or file it returns is
 * then read by the same readers as a model on disk (vc-model-file.c), so the estimate is as
 * exact as for local files. It follows the Hub client's conventions: HF_ENDPOINT, HF_HUB_OFFLINE,
 * HF_TOKEN or the token file. The network is used only when a fetch is asked for.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define VC_HUB_ERROR (vc_hub_error_quark ())

typedef enum
{
  VC_HUB_ERROR_INVALID_NAME,
  VC_HUB_ERROR_AUTH,          /* 401, 403: gated or private */
  VC_HUB_ERROR_NOT_FOUND,
  VC_HUB_ERROR_RATE_LIMITED,  /* 429 */
  VC_HUB_ERROR_OFFLINE,       /* HF_HUB_OFFLINE=1 and nothing cached */
  VC_HUB_ERROR_NETWORK,       /* the Hub could not be reached and nothing cached */
  VC_HUB_ERROR_CHOOSE,        /* several GGUF quantizations: the name must pick one */
  VC_HUB_ERROR_TOO_LARGE,
  VC_HUB_ERROR_PROTOCOL,      /* an answer that is not what was asked for */
} VcHubError;

/* One GGUF quantization of a repository: its first file, and every part's bytes together. */
typedef struct
{
  char *file;
  char *label;
  guint64 bytes;
  guint n_parts;
} VcHubQuant;

/* The Hub's own default */
#define VC_HUB_DEFAULT_ENDPOINT "https://huggingface.co"
/* Every answer is capped; a GGUF header past this is refused */
#define VC_HUB_MAX_JSON (16 * 1024 * 1024)
#define VC_HUB_MAX_GGUF_HEADER (128 * 1024 * 1024)

#define VC_TYPE_HUB (vc_hub_get_type ())
G_DECLARE_FINAL_TYPE (VcHub, vc_hub, VC, HUB, GObject)

GQuark      vc_hub_error_quark     (void);
void        vc_hub_quant_free      (VcHubQuant     *quant);

/* from the environment: HF_ENDPOINT, HF_HUB_OFFLINE, HF_TOKEN / HF_HOME/token */
VcHub      *vc_hub_new             (void);

/* org/name[@revision][:FILE], hf:org/name…, or a Hub URL (…/org/name, /tree/REV, /blob/REV/FILE,
 * /resolve/REV/FILE) */
gboolean    vc_hub_parse_name      (const char     *text,
                                    char          **repo,
                                    char          **revision,
                                    char          **file,
                                    GError        **error);


/* The local copy to read with vc_model_file_new_for_file(): a folder, or a GGUF file. notice:
 * a line to show (the cached copy was used, …), or NULL. quants: with VC_HUB_ERROR_CHOOSE, the
 * quantizations to choose from (VcHubQuant); the repository's GGUF ones in any case. */
GFile      *vc_hub_fetch           (VcHub          *self,
                                    const char     *name,
                                    char          **notice,
                                    GPtrArray     **quants,
                                    GCancellable   *cancellable,
                                    GError        **error);
void        vc_hub_fetch_async     (VcHub          *self,
                                    const char     *name,
                                    GCancellable   *cancellable,
                                    GAsyncReadyCallback callback,
                                    gpointer        user_data);
GFile      *vc_hub_fetch_finish    (VcHub          *self,
                                    GAsyncResult   *result,
                                    char          **notice,
                                    GPtrArray     **quants,
                                    GError        **error);

G_END_DECLS
