/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hf-config: config.json import, through the API and through vramcalc --config.
 *
 * Each model below has its config.json in models/<name>/ with the values of the published
 * file; the total the architecture gives must equal the published exact count. Where a figure
 * comes from a safetensors index, total_size is in bytes: divide by 2 for bfloat16/float16, by 4
 * for float32.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-arch.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-hf-config.h"
#include "vc-model-file.h"
#include "vc-test-util.h"

typedef struct
{
  const char *dir;
  const char *family;
  double total;            /* published exact total */
  double active;           /* MoE: activated per token (module count); 0 for dense */
  double kv_bytes;         /* KV cache per token in 16 bits, before any window */
  guint window;
  guint window_layers;
  const char *dtype;
  gboolean text_only;
  const char *not_understood;  /* NULL: exact */
  /* where the published figures are rounded: the total and, for MoE, the activated parameters
   * without the input embedding, as model cards give them, and the unit of their last digit */
  double published_total;
  double published_active;
  double published_unit;
  double published_total_unit;  /* when the total is rounded coarser than the activated count */
} ModelCase;

static const ModelCase models[] = {
  /* meta-llama/Llama-3.1-8B: 8,030,261,248 (model card 8.03B; safetensors index total_size
   * 16,060,522,496 bytes in bfloat16) */
  { "Llama-3.1-8B", "llama", 8030261248, 0, 131072, 0, 0, "bfloat16", FALSE },
  /* mistralai/Mistral-7B-v0.1: 7,241,732,096 (safetensors index total_size 14,483,464,192
   * bytes, bfloat16); the 4096-token window on all 32 layers */
  { "Mistral-7B-v0.1", "mistral", 7241732096, 0, 131072, 4096, 32, "bfloat16", FALSE },
  /* mistralai/Mixtral-8x7B-v0.1: 46,702,792,704 total (safetensors index total_size
   * 93,405,585,408 bytes), 12.9B active (Mistral's announcement; the module count gives
   * 12,879,925,248: 2 of 8 experts) */
  { "Mixtral-8x7B-v0.1", "mixtral", 46702792704, 12879925248, 131072, 0, 0, "bfloat16", FALSE },
  /* Qwen/Qwen2.5-7B: 7,615,616,512 (model card 7.61B; safetensors total_size 15,231,233,024
   * bytes); use_sliding_window false */
  { "Qwen2.5-7B", "qwen2", 7615616512, 0, 57344, 0, 0, "bfloat16", FALSE },
  /* Qwen/Qwen3-8B: 8,190,735,360 (model card 8.2B; safetensors total_size 16,381,470,720 bytes) */
  { "Qwen3-8B", "qwen3", 8190735360, 0, 147456, 0, 0, "bfloat16", FALSE },
  /* Qwen/Qwen3-30B-A3B: 30,532,122,624 total (model card 30.5B, 3.3B activated; safetensors
   * total_size 61,064,245,248 bytes); 8 of 128 experts: 3,353,032,704 */
  { "Qwen3-30B-A3B", "qwen3_moe", 30532122624, 3353032704, 98304, 0, 0, "bfloat16", FALSE },
  /* Qwen/Qwen1.5-MoE-A2.7B: 14,315,784,192 total (model card 14.3B, 2.7B activated;
   * safetensors total_size 28,631,568,384 bytes); 4 of 60 experts + the shared one */
  { "Qwen1.5-MoE-A2.7B", "qwen2_moe", 14315784192, 2689173504, 196608, 0, 0, "bfloat16", FALSE },
  /* google/gemma-2b: 2,506,172,416 (model card 2.51B; safetensors total_size 5,012,344,832
   * bytes in bfloat16) */
  { "gemma-2b", "gemma", 2506172416, 0, 18432, 0, 0, "bfloat16", FALSE },
  /* google/gemma-2-9b: 9,241,705,984 (model card 9.24B; safetensors total_size 36,966,823,936
   * bytes in float32); even layers use the window: 21 of 42 */
  { "gemma-2-9b", "gemma2", 9241705984, 0, 344064, 4096, 21, "float32", FALSE },
  /* google/gemma-3-1b-pt: 999,885,952 (safetensors total_size 1,999,771,904 bytes, bfloat16);
   * five local layers to one global: 22 of 26 */
  { "gemma-3-1b-pt", "gemma3", 999885952, 0, 26624, 512, 22, "bfloat16", FALSE },
  /* google/gemma-3-4b-it: 4,300,079,472 parameters in its safetensors (total_size 8,600,158,944
   * bytes, bfloat16), of which the SigLIP vision tower holds 416,866,032 (27 layers of width
   * 1152, MLP 4304, 4096 positions at 896 px) and the projector 2,950,272 (1152 × 2560 and a
   * norm), both counted: the text model is 3,880,263,168. Its text_config gives only what
   * differs from Gemma3TextConfig (heads 8, KV heads 4, head_dim 256, vocabulary 262,208 are
   * defaults). */
  { "gemma-3-4b-it", "gemma3", 4300079472, 0, 139264, 1024, 29, "bfloat16", FALSE },
  /* microsoft/Phi-3-mini-4k-instruct: 3,821,079,552 (model card 3.8B; safetensors total_size
   * 7,642,159,104 bytes); window 2047 on every layer */
  { "Phi-3-mini-4k-instruct", "phi3", 3821079552, 0, 393216, 2047, 32, "bfloat16", FALSE },
  /* openai-community/gpt2: 124,439,808 (model.safetensors: 124,439,808 float32 values) */
  { "gpt2", "gpt2", 124439808, 0, 36864, 0, 0, NULL, FALSE },
  /* EleutherAI/pythia-160m: 162,322,944 total parameters (the Pythia paper's table and the
   * model card: 85,056,000 non-embedding) */
  { "pythia-160m", "gpt_neox", 162322944, 0, 36864, 0, 0, "float16", FALSE },
  /* tiiuae/falcon-7b: 6,921,720,704 (safetensors total_size 13,843,441,408 bytes, bfloat16);
   * multi-query: one KV head of 64 */
  { "falcon-7b", "falcon", 6921720704, 0, 8192, 0, 0, "bfloat16", FALSE },
  /* deepseek-ai/DeepSeek-V2-Lite: 15,706,484,224 total (model card 15.7B total, 2.4B activated;
   * safetensors total_size 31,412,968,448 bytes). The module count of activated parameters,
   * 2,661,150,208, includes the 209,715,200 of the input embedding, which DeepSeek's 2.4B
   * leaves out (2,451,435,008). KV cache: the 512 latent + 64 rotary values a layer. */
  { "DeepSeek-V2-Lite", "deepseek_v2", 15706484224, 2661150208, 31104, 0, 0, "bfloat16", FALSE },
  /* deepseek-ai/DeepSeek-V3: 671B main model + 14B multi-token prediction module = 685B
   * (README_WEIGHTS.md). The Hub's safetensors hold 684,531,386,000 values: the main model's
   * 671,026,419,200, the MTP layer's 13,463,426,304 and 41,540,496 FP8 block scales
   * (weight_scale_inv, one per 128 × 128 block of each linear weight). 37B activated; the
   * module count 37,552,297,472 includes the 926,679,040 of the input embedding. */
  { "DeepSeek-V3", "deepseek_v3", 671026419200, 37552297472, 70272, 0, 0, "bfloat16", FALSE, NULL },
  /* moonshotai/Kimi-K2-Base (the values of its config.json as quoted in lumenrl's DeepSeek-V3
   * registry test; model_type kimi_k2, DeepseekV3ForCausalLM): "1 T total, 32 B active" (Kimi
   * K2-Instruct and K2-Thinking, Miles's Kimi K2 launch recipes, from Moonshot's model card).
   * KV cache: the MLA latent, 512 + 64 values a layer. */
  { "Kimi-K2-Base", "kimi_k2", 1026408232448, 32861500928, 70272, 0, 0, NULL, FALSE, NULL,
    1e12, 32e9, 1e9, 1e12 },
  /* Qwen/Qwen3-Next-80B-A3B-Instruct: its safetensors hold 81,324,862,720 parameters (the
   * tensor listing of a published model report, which quotes this config.json), of which the
   * multi-token prediction module mtp.* holds 1,650,471,424 (fc 2048 × 4096, one
   * full-attention layer with its 512 experts, three norms) that transformers does not load:
   * the model is 79,674,391,296, the model card's 80B. 36 Gated DeltaNet layers, 12 with
   * attention. Its "3B activated" is below the module count (3.56B without the input
   * embedding), so only the total is checked against it. */
  { "Qwen3-Next-80B-A3B-Instruct", "qwen3_next", 79674391296, 3874929408, 24576, 0, 0, "bfloat16", FALSE, NULL,
    80e9, -1, 1e9 },
  /* tiiuae/Falcon-H1-Tiny-90M-Instruct (config.json as quoted by mlx-lm's Falcon-H1 test and a
   * Falcon-H1 converter's required values): the Falcon-H1-Tiny release gives 90M parameters.
   * Every one of its 24 layers runs attention (8 heads, 2 KV heads of 64) and a Mamba-2 mixer
   * (24 heads of 32, state 64) side by side, then an MLP of 768; tied embeddings. */
  { "Falcon-H1-Tiny-90M-Instruct", "falcon_h1", 91131072, 0, 12288, 0, 0, NULL, FALSE, NULL, 90e6, 0, 1e7 },
  /* ibm-granite/granite-4.0-h-tiny (config.json as quoted, fields read, by a performance model's
   * importer tests): "a 7B parameter long-context instruct model" (its model card), "H-Tiny
   * (7B / 1B)" (IBM's Granite 4.0 release as open-source-ai.tech lists it). 36 Mamba-2 layers (48 heads of 64, state 128), 4 attention layers (12 heads,
   * 4 KV heads of 128); every layer 6 of 64 experts of 512 and a shared MLP of 1024; tied. */
  { "granite-4.0-h-tiny", "granitemoehybrid", 6939037248, 1465470528, 8192, 0, 0, NULL, FALSE, NULL,
    7e9, 1e9, 1e9 },
  /* meta-llama/Llama-4-Scout-17B-16E (its config.json and per-module parameter table as published
   * in a Llama 4 notes file, which gives "109B"; its exact total, 109,676,279,296, is one
   * 202,048 × 5120 matrix more than the modules it lists add up to): the full model is counted,
   * the text model's 107,769,861,120 and the vision encoder with its projector, 871,932,416
   * (class embedding 1408, positions 812,416, patch projection 827,904, 34 layers of 23,807,872,
   * adapter 23,068,672 + 16,777,216, projector 20,971,520, as the table lists them). 36 layers
   * attend within 8192-token chunks, the 12 NoPE layers to the whole context. The "17B" of the
   * model's name is the text model's activated count with its embeddings (17,172,894,720): the
   * active count, since a generated token does not read the encoder. */
  { "Llama-4-Scout-17B-16E", "llama4_text", 108641793536, 17172894720, 196608, 8192, 36, "bfloat16", FALSE, NULL,
    109e9, -1, 1e9 },
  /* meta-llama/Llama-4-Maverick-17B-128E (the config TensorRT-LLM's Llama 4 test quotes, with its
   * 48 layers back and without the no_rope_layer_interval the test adds; vision_config as
   * Scout's): MoE of 128 experts in every other layer, dense MLPs of 16384 between. "Llama 4
   * Maverick with 402 billion parameters" (immers.cloud's Granite-4.0-H-Small page); the name's
   * 17B activated: 17,184,691,200 in the text model, the active count. */
  { "Llama-4-Maverick-17B-128E", "llama4_text", 401583781376, 17184691200, 196608, 8192, 36, "bfloat16", FALSE, NULL,
    402e9, -1, 1e9 },
  /* ibm-granite/granite-3.3-2b-instruct (config.json as quoted in mlx-lm's granite tests): the
   * Granite 3.x model card's architecture table gives the 2B dense model (embedding 2048, 40
   * layers, 32 heads of 64, 8 KV heads, MLP 8192) as 2.5B parameters. Llama's modules, tied. */
  { "granite-3.3-2b-instruct", "granite", 2533539840, 0, 81920, 0, 0, NULL, FALSE, NULL, 2.5e9, 2.5e9, 1e8 },
  /* tencent/Hunyuan-A13B-Instruct (Tencent's own config.json, model_type "hunyuan" with
   * HunYuanMoEV1ForCausalLM, from Tencent-Hunyuan/Hunyuan-A13B models/config.json as a copy of
   * that repository keeps it): read as transformers' hunyuan_v1_moe. "A total of 80 billion
   * parameters with 13 billion active" (its README); the 13 billion hold the tied embedding
   * (12,747,448,320), so the activated count is not checked without it. */
  { "Hunyuan-A13B-Instruct", "hunyuan_v1_moe", 80393183232, 12747448320, 131072, 0, 0, "bfloat16", FALSE,
    NULL, 80e9, -1, 1e9 },
  /* ibm-granite/granite-3.1-1b-a400m-instruct and granite-3.1-3b-a800m-instruct: the Granite
   * 3.1 model card's table gives 1.3B parameters with 400M activated, and 3.3B with 800M (8 of
   * 32 and of 40 experts) */
  { "granite-3.1-1b-a400m-instruct", "granitemoe", 1334628352, 428658688, 49152, 0, 0, "bfloat16", FALSE, NULL,
    1.3e9, 0.4e9, 1e8 },
  { "granite-3.1-3b-a800m-instruct", "granitemoe", 3298793472, 882874368, 65536, 0, 0, NULL, FALSE, NULL,
    3.3e9, 0.8e9, 1e8 },
  /* openai/gpt-oss-20b and gpt-oss-120b (config.json: num_local_experts 32 and 128, 24 and 36
   * layers): the gpt-oss model card (arXiv 2508.10925), as OpenAI's release summarizes it:
   * "gpt-oss-120b: 116.8B total parameters (5.1B active)", "gpt-oss-20b: 20.9B total parameters
   * (3.6B active)"; its active figures leave out the input embedding.
   * Every other layer attends to a window of 128 tokens. Their MXFP4 quantization_config is
   * understood: vc-quant.c sizes it (tests/model-files). */
  { "gpt-oss-20b", "gpt_oss", 20914757184, 4187440704, 49152, 128, 12, NULL, FALSE,
    NULL, 20.9e9, 3.6e9, 1e8 },
  { "gpt-oss-120b", "gpt_oss", 116829156672, 5711982912, 73728, 128, 18, NULL, FALSE,
    NULL, 116.8e9, 5.1e9, 1e8 },
  /* zai-org/GLM-4.5 (config.json as NVIDIA Megatron-Bridge's GLM-4.5 bridge test quotes it,
   * under the model_type the Hub's file now has, with the routing and multi-token prediction
   * keys Glm4MoeConfig writes, as ms-swift's printout of GLM-4.5-Air's config shows them):
   * 92 layers, the first 3 dense (MLP 12288), then 160 experts of 1536 (8 routed) with a shared
   * one; 96 heads and 8 KV heads of 128 with q, k and v biases and per-head q/k norms. What
   * transformers loads is 352,797,829,024 parameters (33,632,266,144 activated). The checkpoint
   * also holds the multi-token prediction layer, model.layers.92, which Glm4MoeModel skips: a
   * further MoE decoder layer (3,935,625,632), eh_proj 10240 → 5120, three norms and its own
   * copies of the embedding and the output head: 5,539,962,272, so the safetensors hold
   * 358,337,791,296, the "358.34B Params" (667.5 GiB in bfloat16) the Hub lists for the model
   * (https://free2aitools.com/model/zai-org/glm-4.5; "params 358B" on onlylabs.fyi's capture of
   * the Hub page): checked in test_glm4_moe(). The model card's "355 billion total parameters
   * with 32 billion active" is neither count; its activated 32B leave out the embedding and the
   * head (32,080,373,664). */
  { "GLM-4.5", "glm4_moe", 352797829024, 33632266144, 376832, 0, 0, "bfloat16", FALSE, NULL },
  /* zai-org/GLM-4.5-Air (its Glm4MoeConfig as ms-swift's Megatron conversion notes print it):
   * 46 layers, the first dense (MLP 10944), then 128 experts of 1408 (8 routed) and a shared
   * one; q, k and v biases, no q/k norms. Loaded by transformers: 106,852,251,264 (13,424,129,664
   * activated). With the multi-token prediction layer model.layers.46 (2,341,492,864 + eh_proj,
   * three norms, embedding and head copies: 3,616,573,568) the safetensors hold 110,468,824,832,
   * the "110.5B-parameter" model the Hub's figures give on
   * https://llmrun.dev/model/zai-org-glm-4-5-air: checked in test_glm4_moe(). The model card's
   * "106 billion total parameters and 12 billion active" counts neither exactly; its activated
   * 12B leave out the embedding and the head (12,182,615,680). */
  { "GLM-4.5-Air", "glm4_moe", 106852251264, 13424129664, 188416, 0, 0, "bfloat16", FALSE, NULL },
  /* zai-org/GLM-4.7-Flash (model_type glm4_moe_lite; config.json as vLLM's glm4_moe_lite config
   * test writes it, with the list of end tokens the checkpoint has, and num_nextn_predict_layers
   * as GLM-4.7-Flash metadata importers' tests give it): DeepSeek-V3's latent attention (20
   * heads, q rank 768, KV rank 512, nope 192 + rope 64, values 256) and GLM-4.5's experts (64
   * of 1536, 4 routed, a shared one) after one dense layer of 10240. "GLM-4.7-Flash is a 30B-A3B
   * MoE model" (its model card); like GLM-4.5's, its activated 3B leave out the embedding and
   * the head (3,262,377,600): checked in test_glm4_moe(). KV cache: the 512 + 64 latent values
   * of each of the 47 layers. The multi-token prediction layer model.layers.47 is not loaded by
   * transformers and not counted. */
  { "GLM-4.7-Flash", "glm4_moe_lite", 29943393920, 3896766080, 54144, 0, 0, "bfloat16", FALSE, NULL,
    30e9, -1, 1e9 },
};

static char *
model_path (const char *dir)
{
  return g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", dir, NULL);
}

static VcHfConfig *
load_model (const char *dir)
{
  g_autofree char *path = model_path (dir);
  g_autoptr(GError) error = NULL;
  VcHfConfig *config = vc_hf_config_new_for_path (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

static void
test_model (gconstpointer data)
{
  const ModelCase *m = data;
  g_autoptr(VcHfConfig) config = load_model (m->dir);
  const VcArch *arch = vc_hf_config_get_arch (config);
  const VcParamCounts *counts = vc_hf_config_get_counts (config);
  VcParamCounts again;

  g_assert_cmpstr (vc_hf_config_get_family (config), ==, m->family);
  g_assert_true (vc_hf_config_get_known_family (config));
  g_assert_cmpstr (vc_hf_config_get_name (config), ==, m->dir);
  g_assert_cmpstr (vc_hf_config_get_torch_dtype (config), ==, m->dtype);
  g_assert_cmpint (vc_hf_config_get_text_only (config), ==, m->text_only);

  vc_arch_count_params (arch, &again);
  g_assert_cmpfloat (again.total, ==, m->total);
  g_assert_cmpfloat (counts->total, ==, m->total);
  if (m->active > 0)
    {
      g_assert_true (vc_arch_is_moe (arch));
      g_assert_cmpfloat (counts->active, ==, m->active);
    }
  else
    {
      /* a token reads all but the vision encoder */
      g_assert_false (vc_arch_is_moe (arch));
      g_assert_cmpfloat (counts->active, ==, m->total - arch->encoder_params);
    }
  if (m->published_unit > 0)
    {
      double embedding = (double) arch->vocab_size * arch->hidden_size;

      double total_unit = m->published_total_unit > 0 ? m->published_total_unit : m->published_unit;

      g_assert_cmpfloat (fabs (counts->total - m->published_total), <=, total_unit / 2);
      if (m->active > 0 && m->published_active >= 0)
        g_assert_cmpfloat (fabs (counts->active - embedding - m->published_active), <=, m->published_unit / 2);
    }
  g_assert_cmpfloat (vc_arch_kv_bytes_per_token (arch, 2), ==, m->kv_bytes);
  g_assert_cmpuint (arch->sliding_window, ==, m->window);
  g_assert_cmpuint (arch->sliding_window_layers, ==, m->window_layers);
  /* a pattern read gives the count read */
  if (arch->sliding_window_pattern > 0)
    g_assert_cmpuint (arch->n_layers - arch->n_layers / arch->sliding_window_pattern, ==, arch->sliding_window_layers);
  g_assert_true (vc_arch_validate (arch, NULL));
  g_assert_nonnull (vc_hf_config_get_description (config));
  if (m->text_only)
    g_assert_nonnull (strstr (vc_hf_config_get_warning (config), "text model"));
  else if (m->not_understood == NULL)
    g_assert_null (vc_hf_config_get_warning (config));
  /* exact, or not understood: what, exactly */
  if (m->not_understood == NULL)
    {
      g_assert_true (vc_hf_config_is_exact (config));
      g_assert_true (vc_hf_config_check_exact (config, NULL));
      g_assert_null (vc_hf_config_get_not_understood (config)[0]);
    }
  else
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *parts = g_strjoinv (", ", (char **) vc_hf_config_get_not_understood (config));

      g_assert_false (vc_hf_config_is_exact (config));
      g_assert_cmpstr (parts, ==, m->not_understood);
      g_assert_false (vc_hf_config_check_exact (config, &error));
      g_assert_error (error, VC_ERROR, VC_ERROR_NOT_UNDERSTOOD);
      g_assert_nonnull (strstr (error->message, m->not_understood));
    }
}

static void
test_family_details (void)
{
  g_autoptr(VcHfConfig) falcon = load_model ("falcon-7b");
  g_autoptr(VcHfConfig) gpt2 = load_model ("gpt2");
  g_autoptr(VcHfConfig) neox = load_model ("pythia-160m");
  g_autoptr(VcHfConfig) qwen = load_model ("Qwen1.5-MoE-A2.7B");
  g_autoptr(VcHfConfig) v2 = load_model ("DeepSeek-V2-Lite");
  g_autoptr(VcHfConfig) v3 = load_model ("DeepSeek-V3");
  g_autoptr(VcHfConfig) gemma3 = load_model ("gemma-3-1b-pt");
  g_autoptr(VcHfConfig) oss = load_model ("gpt-oss-20b");
  g_autoptr(VcHfConfig) granite = load_model ("granite-3.1-3b-a800m-instruct");
  VcPrecision precision;

  g_assert_cmpuint (vc_hf_config_get_arch (falcon)->n_kv_heads, ==, 1);
  g_assert_cmpuint (vc_hf_config_get_arch (falcon)->norms_per_layer, ==, 1);
  g_assert_true (vc_hf_config_get_arch (falcon)->tied_embeddings);
  g_assert_cmpuint (vc_hf_config_get_arch (gpt2)->max_positions, ==, 1024);
  g_assert_true (vc_hf_config_get_arch (gpt2)->tied_embeddings);
  g_assert_false (vc_hf_config_get_arch (neox)->tied_embeddings);
  g_assert_true (vc_hf_config_get_arch (neox)->qkv_bias);
  g_assert_true (vc_hf_config_get_arch (qwen)->shared_expert_gate);
  g_assert_true (vc_hf_config_get_arch (qwen)->qkv_bias);
  g_assert_false (vc_hf_config_get_arch (v2)->router_bias);
  g_assert_cmpuint (vc_hf_config_get_arch (v2)->q_lora_rank, ==, 0);
  g_assert_cmpuint (vc_hf_config_get_arch (v2)->dense_layers, ==, 1);
  g_assert_true (vc_hf_config_get_arch (v3)->router_bias);
  g_assert_cmpuint (vc_hf_config_get_arch (v3)->dense_layers, ==, 3);
  g_assert_nonnull (strstr (vc_hf_config_get_description (v3), "multi-token"));
  g_assert_true (vc_hf_config_get_arch (gemma3)->qk_norm);
  /* gpt-oss: sinks, biases everywhere, every layer an MoE; Granite MoE: no bias, no shared expert */
  g_assert_true (vc_hf_config_get_arch (oss)->attention_sinks);
  g_assert_true (vc_hf_config_get_arch (oss)->qkv_bias && vc_hf_config_get_arch (oss)->o_bias);
  g_assert_true (vc_hf_config_get_arch (oss)->mlp_bias && vc_hf_config_get_arch (oss)->router_bias);
  g_assert_cmpuint (vc_hf_config_get_arch (oss)->dense_layers, ==, 0);
  g_assert_false (vc_hf_config_get_arch (granite)->router_bias || vc_hf_config_get_arch (granite)->mlp_bias);
  g_assert_cmpuint (vc_hf_config_get_arch (granite)->n_shared_experts, ==, 0);
  g_assert_true (vc_hf_config_get_arch (granite)->tied_embeddings);
  g_assert_cmpuint (vc_hf_config_get_arch (gemma3)->norms_per_layer, ==, 4);

  /* the longest context, as max_position_embeddings (GPT-2: n_positions) and rope_scaling say */
  {
    g_autoptr(VcHfConfig) llama = load_model ("Llama-3.1-8B");

    g_assert_cmpuint (vc_hf_config_get_max_context (llama), ==, 131072);
    g_assert_cmpstr (vc_hf_config_get_rope_scaling (llama), ==, "llama3 ×8");
    g_assert_nonnull (strstr (vc_hf_config_get_description (llama), "Maximum context: "));
    g_assert_nonnull (strstr (vc_hf_config_get_description (llama), " tokens (rope scaling llama3 ×8)."));
    g_assert_cmpuint (vc_hf_config_get_max_context (gpt2), ==, 1024);
    g_assert_null (vc_hf_config_get_rope_scaling (gpt2));
    g_assert_cmpuint (vc_hf_config_get_max_context (oss), ==, 131072);
    g_assert_cmpstr (vc_hf_config_get_rope_scaling (oss), ==, "yarn ×32");
  }

  /* stored precision: DeepSeek-V3's weights are FP8 although torch_dtype says bfloat16 */
  g_assert_true (vc_hf_config_get_precision (v3, &precision));
  g_assert_cmpint (precision, ==, VC_PRECISION_FP8);
  g_assert_true (vc_hf_config_get_precision (neox, &precision));
  g_assert_cmpint (precision, ==, VC_PRECISION_FP16);
  g_assert_false (vc_hf_config_get_precision (gpt2, &precision));
}

/* ---- variants written from a real file ------------------------------------------------------ */

/* The config of dir with key set to the raw JSON text value (NULL: removed). The raw text goes
 * in by replacing a sentinel, so that literals json-glib cannot hold can be written too. */
static char *
variant (const char *dir,
         const char *key,
         const char *value)
{
  g_autofree char *path = model_path (dir);
  g_autofree char *file = g_build_filename (path, "config.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonObject *root;
  g_auto(GStrv) parts = NULL;
  JsonObject *target;

  json_parser_load_from_file (parser, file, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  target = root;
  parts = g_strsplit (key, ".", 2);
  if (parts[1] != NULL)
    {
      target = json_object_get_object_member (root, parts[0]);
      key = parts[1];
    }
  if (value == NULL)
    json_object_remove_member (target, key);
  else
    json_object_set_int_member (target, key, 987654321987);
  json_generator_set_root (generator, json_parser_get_root (parser));
  text = json_generator_to_data (generator, NULL);
  if (value != NULL)
    {
      g_autoptr(GString) s = g_string_new (text);
      g_string_replace (s, "987654321987", value, 1);
      return g_string_free (g_steal_pointer (&s), FALSE);
    }
  return g_steal_pointer (&text);
}

static VcHfConfig *
load_variant (const char  *dir,
              const char  *key,
              const char  *value,
              GError     **error)
{
  g_autofree char *text = variant (dir, key, value);
  return vc_hf_config_new_from_data (text, strlen (text), "config.json", NULL, error);
}

typedef struct
{
  const char *dir;
  const char *key;
  const char *value;
  const char *message;     /* the whole message, or a part of it after '~' */
} BadCase;

static const BadCase bad_cases[] = {
  { "Llama-3.1-8B", "num_hidden_layers", "-3",
    "config.json: \"num_hidden_layers\" must be a whole number from 1 to 100000, got -3" },
  { "Llama-3.1-8B", "num_hidden_layers", "0", "~\"num_hidden_layers\" must be a whole number from 1 to 100000, got 0" },
  { "Llama-3.1-8B", "num_hidden_layers", "1000000", "~\"num_hidden_layers\" must be a whole number from 1 to 100000, got 1000000" },
  { "Llama-3.1-8B", "num_hidden_layers", "32.5", "~\"num_hidden_layers\" must be a whole number from 1 to 100000, got 32.5" },
  { "Llama-3.1-8B", "num_hidden_layers", "32.0", "~\"num_hidden_layers\" must be a whole number from 1 to 100000, got 32" },
  { "Llama-3.1-8B", "hidden_size", "\"4096\"", "~\"hidden_size\" must be a whole number from 1 to 1000000, got the text \"4096\"" },
  { "Llama-3.1-8B", "hidden_size", NULL, "config.json: \"hidden_size\" is missing; it must be a whole number from 1 to 1000000" },
  { "Llama-3.1-8B", "hidden_size", "null", "~\"hidden_size\" must be a whole number from 1 to 1000000, got null" },
  { "Llama-3.1-8B", "intermediate_size", "1e30", "~\"intermediate_size\" must be a whole number from 1 to 10000000, got 1e+30" },
  { "Llama-3.1-8B", "intermediate_size", "1e400", "~\"intermediate_size\" must be a whole number from 1 to 10000000, got a number too large" },
  { "Llama-3.1-8B", "vocab_size", "99999999999999999999", "~\"vocab_size\" must be a whole number from 1 to 100000000, got 99999999999999999999" },
  { "Llama-3.1-8B", "vocab_size", "-18446744073709547520", "~\"vocab_size\" must be a whole number from 1 to 100000000, got -18446744073709547520" },
  { "Llama-3.1-8B", "vocab_size", "9223372036854775807", "~\"vocab_size\" must be a whole number from 1 to 100000000, got 9223372036854775807" },
  { "Llama-3.1-8B", "num_attention_heads", "true", "~\"num_attention_heads\" must be a whole number from 1 to 100000, got true" },
  { "Llama-3.1-8B", "num_attention_heads", "[32]", "~\"num_attention_heads\" must be a whole number from 1 to 100000, got a list" },
  { "Llama-3.1-8B", "num_attention_heads", "{}", "~\"num_attention_heads\" must be a whole number from 1 to 100000, got an object" },
  { "Llama-3.1-8B", "num_attention_heads", "24", "~\"hidden_size\" (4096) is not a multiple of the number of attention heads (24)" },
  { "Llama-3.1-8B", "num_key_value_heads", "5", "~is not a multiple of \"num_key_value_heads\" (5)" },
  { "Llama-3.1-8B", "num_key_value_heads", "64", "~is not a multiple of \"num_key_value_heads\" (64)" },
  { "Llama-3.1-8B", "num_key_value_heads", "0", "~\"num_key_value_heads\" must be a whole number from 1 to 100000, got 0" },
  { "Llama-3.1-8B", "head_dim", "0", "~\"head_dim\" must be a whole number from 1 to 100000, got 0" },
  { "Llama-3.1-8B", "tie_word_embeddings", "\"no\"", "~\"tie_word_embeddings\" must be true or false, got the text \"no\"" },
  { "Llama-3.1-8B", "tie_word_embeddings", "1", "~\"tie_word_embeddings\" must be true or false, got 1" },
  { "Llama-3.1-8B", "model_type", "7", "~\"model_type\" must be text, got 7" },
  { "Llama-3.1-8B", "torch_dtype", "16", "~\"torch_dtype\" must be text, got 16" },
  { "Mistral-7B-v0.1", "sliding_window", "-4096", "~\"sliding_window\" must be a whole number from 1 to 100000000, got -4096" },
  { "Mixtral-8x7B-v0.1", "num_experts_per_tok", "10", "~\"num_experts_per_tok\" must be a whole number from 1 to 8, got 10" },
  { "Mixtral-8x7B-v0.1", "num_local_experts", "0", "~\"num_local_experts\" must be a whole number from 1 to 100000, got 0" },
  { "Qwen3-30B-A3B", "mlp_only_layers", "[0, 48]", "~\"mlp_only_layers\" must be a list of layer numbers from 0 to 47" },
  { "Qwen3-30B-A3B", "decoder_sparse_step", "0", "~\"decoder_sparse_step\" must be a whole number" },
  { "gemma-3-1b-pt", "layer_types", "[\"sliding_attention\"]", "~\"layer_types\" must list one attention type per layer (26)" },
  { "gemma-3-4b-it", "text_config.num_hidden_layers", "-1", "~\"text_config.num_hidden_layers\" must be a whole number from 1 to 100000, got -1" },
  { "gemma-3-4b-it", "text_config", "3", "~\"text_config\" must be an object" },
  /* Gemma 3's SigLIP tower: every key of vision_config required, no pooling head */
  { "gemma-3-4b-it", "vision_config.vision_use_head", "true", "~\"vision_config.vision_use_head\" must be false" },
  { "gemma-3-4b-it", "vision_config.vision_use_head", NULL, "~\"vision_config.vision_use_head\" must be false" },
  { "gemma-3-4b-it", "vision_config.num_hidden_layers", NULL, "~\"vision_config.num_hidden_layers\" is missing" },
  { "gemma-3-4b-it", "vision_config.image_size", NULL, "~\"vision_config.image_size\" is missing" },
  { "gemma-3-4b-it", "vision_config.num_attention_heads", "17",
    "~\"vision_config.hidden_size\" (1152) is not a multiple of \"vision_config.num_attention_heads\" (17)" },
  { "DeepSeek-V3", "kv_lora_rank", NULL, "~\"kv_lora_rank\" is missing" },
  { "granite-4.0-h-tiny", "layer_types", NULL, "~\"layer_types\" is missing; it must say for each layer \"mamba\" or \"attention\"" },
  { "granite-4.0-h-tiny", "mamba_d_head", "60", "~\"mamba_d_head\" (60) × \"mamba_n_heads\" (48) must equal the Mamba width (3072)" },
  { "Falcon-H1-Tiny-90M-Instruct", "mamba_n_heads", "25", "~must equal the Mamba width (768)" },
  { "DeepSeek-V3", "first_k_dense_replace", "62", "~\"first_k_dense_replace\" must be a whole number from 0 to 61, got 62" },
  { "DeepSeek-V3", "q_lora_rank", "\"1536\"", "~\"q_lora_rank\" must be a whole number" },
  { "gpt2", "n_embd", "768.5", "~\"n_embd\" must be a whole number from 1 to 1000000, got 768.5" },
  { "gpt2", "n_positions", NULL, "~\"n_positions\" is missing" },
  { "falcon-7b", "bias", "\"false\"", "~\"bias\" must be true or false" },
  { "pythia-160m", "num_attention_heads", "7", "~\"hidden_size\" (768) is not a multiple" },
  { "GLM-4.5", "first_k_dense_replace", "93", "~\"first_k_dense_replace\" must be a whole number from 0 to 92, got 93" },
  { "GLM-4.5", "n_routed_experts", "0", "~\"n_routed_experts\" must be a whole number from 1 to 100000, got 0" },
  { "GLM-4.5", "num_experts_per_tok", "161", "~\"num_experts_per_tok\" must be a whole number from 1 to 160, got 161" },
  { "GLM-4.5", "moe_intermediate_size", NULL, "~\"moe_intermediate_size\" is missing" },
  { "GLM-4.5", "use_qk_norm", "\"true\"", "~\"use_qk_norm\" must be true or false" },
  { "GLM-4.7-Flash", "mlp_layer_types", "[\"dense\", \"sparse\"]",
    "~\"mlp_layer_types\" must list \"dense\" or \"sparse\" for each of the 47 layers" },
  { "GLM-4.7-Flash", "mlp_layer_types", "\"dense\"", "~\"mlp_layer_types\" must list \"dense\" or \"sparse\"" },
  { "GLM-4.7-Flash", "kv_lora_rank", NULL, "~\"kv_lora_rank\" is missing" },
  { "GLM-4.7-Flash", "attention_bias", "true", "~\"attention_bias\": true is not supported with multi-head latent attention" },
  { "GLM-4.5", "head_dim", NULL, "~\"hidden_size\" (5120) is not a multiple of the number of attention heads (96)" },
};

static void
check_message (const char *message,
               const char *expected)
{
  if (expected[0] == '~')
    {
      if (strstr (message, expected + 1) == NULL)
        g_error ("message “%s” does not contain “%s”", message, expected + 1);
    }
  else
    g_assert_cmpstr (message, ==, expected);
}

static void
test_bad_values (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      const BadCase *c = &bad_cases[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(VcHfConfig) config = load_variant (c->dir, c->key, c->value, &error);

      g_test_message ("%s: %s = %s", c->dir, c->key, c->value ? c->value : "(removed)");
      g_assert_null (config);
      g_assert_error (error, VC_ERROR, error->code);
      check_message (error->message, c->message);
      g_assert_true (g_str_has_prefix (error->message, "config.json"));
    }
}

static void
test_bad_files (void)
{
  static const struct { const char *data; const char *message; } files[] = {
    { "{ \"model_type\": \"llama\", ", "~config.json is not valid JSON" },
    { "", "config.json is empty; a config.json is a JSON object" },
    { "[1, 2, 3]", "~config.json does not hold a JSON object" },
    { "\"llama\"", "~config.json does not hold a JSON object" },
    { "{\"a\": NaN}", "~is not valid JSON" },
    { "{\"model_type\": \"llama\"\xff}", "~is not UTF-8 text" },
    { "{\"model_type\": \"llama\"}", "~\"num_hidden_layers\" is missing" },
    { "{}", "~\"num_hidden_layers\" is missing" },
    /* every key within its range, a model beyond what an estimate takes */
    { "{\"model_type\": \"llama\", \"hidden_size\": 1000000, \"num_hidden_layers\": 100000, "
      "\"num_attention_heads\": 1000, \"intermediate_size\": 10000000, \"vocab_size\": 100000000}",
      "config.json describes a model of 3.4e+18 parameters; accepted: up to 1e+15" },
  };
  g_autofree char *big = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GError) e = NULL;
      g_autoptr(VcHfConfig) c = vc_hf_config_new_from_data (files[i].data, strlen (files[i].data),
                                                            "config.json", NULL, &e);
      g_assert_null (c);
      g_assert_nonnull (e);
      check_message (e->message, files[i].message);
    }

  big = g_strnfill (VC_HF_CONFIG_MAX_SIZE + 10, ' ');
  config = vc_hf_config_new_from_data (big, VC_HF_CONFIG_MAX_SIZE + 10, "config.json", NULL, &error);
  g_assert_null (config);
  g_assert_error (error, VC_ERROR, VC_ERROR_TOO_LARGE);
}

static void
write_file (const char *path,
            const char *text,
            gssize      length)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_mkdir_with_parents (dir, 0755);
  g_file_set_contents (path, text, length, &error);
  g_assert_no_error (error);
}

static void
test_files_and_folders (void)
{
  g_autofree char *tmp = vc_test_make_tmpdir ("vc-hf-config");
  g_autofree char *empty = g_build_filename (tmp, "empty", NULL);
  g_autofree char *huge = g_build_filename (tmp, "huge.json", NULL);
  g_autofree char *named = g_build_filename (tmp, "my-llama.json", NULL);
  g_autofree char *cache = g_build_filename (tmp, "models--meta-llama--Llama-3.1-8B", "snapshots",
                                             "0e9e39f249a16976918f6564b8830bc894c89659", "config.json", NULL);
  g_autofree char *missing = g_build_filename (tmp, "absent", "config.json", NULL);
  g_autofree char *llama = variant ("Llama-3.1-8B", "rope_theta", "500000.0");
  g_autofree char *big = g_strnfill (VC_HF_CONFIG_MAX_SIZE + 1, ' ');
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = NULL;

  g_mkdir_with_parents (empty, 0755);
  config = vc_hf_config_new_for_path (empty, &error);
  g_assert_null (config);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "holds no config.json"));
  g_clear_error (&error);

  config = vc_hf_config_new_for_path (missing, &error);
  g_assert_null (config);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  write_file (huge, big, -1);
  config = vc_hf_config_new_for_path (huge, &error);
  g_assert_null (config);
  g_assert_error (error, VC_ERROR, VC_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "huge.json"));
  g_clear_error (&error);

  /* names: a file named after the model, the Hugging Face cache's layout */
  write_file (named, llama, -1);
  config = vc_hf_config_new_for_path (named, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (vc_hf_config_get_name (config), ==, "my-llama");
  g_clear_object (&config);

  write_file (cache, llama, -1);
  config = vc_hf_config_new_for_path (cache, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (vc_hf_config_get_name (config), ==, "Llama-3.1-8B");
  g_assert_cmpfloat (vc_hf_config_get_counts (config)->total, ==, 8030261248);
  g_clear_object (&config);

  /* a Hub id in _name_or_path wins over a file name */
  {
    g_autofree char *named_hub = variant ("Llama-3.1-8B", "_name_or_path", "\"meta-llama/Meta-Llama-3-8B\"");
    write_file (named, named_hub, -1);
    config = vc_hf_config_new_for_path (named, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (vc_hf_config_get_name (config), ==, "Meta-Llama-3-8B");
    g_clear_object (&config);
  }

  vc_test_remove_tree (tmp);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  VcModelFile **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = vc_model_file_load_finish (result, &error);
  g_assert_no_error (error);
}

/* The window reads a config.json in a thread, through the model-file reader */
static void
test_async (void)
{
  g_autofree char *path = model_path ("Mixtral-8x7B-v0.1");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  VcModelFile *model = NULL;

  vc_model_file_load_async (file, NULL, loaded_cb, &model);
  while (model == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpfloat (vc_hf_config_get_counts (vc_model_file_get_config (model))->total, ==, 46702792704);
  g_assert_finalize_object (model);
}

/* GLM-4.5: what the checkpoint adds to what transformers loads (the multi-token prediction
 * layer: one more MoE decoder layer, eh_proj 2h → h, enorm, hnorm and shared_head.norm, and its
 * own embedding and output head), against the parameters the Hub lists for the safetensors; and
 * the activated parameters without the embedding and the head, against the model cards. */
static void
test_glm4_moe (void)
{
  static const struct
  {
    const char *dir;
    double mtp;            /* the multi-token prediction layer as the checkpoint stores it */
    double stored;         /* what the Hub lists, and the unit of its last digit */
    double stored_unit;
    double active;         /* the model card's activated parameters */
    gboolean qk_norm;
    guint dense;
  } cases[] = {
    { "GLM-4.5", 5539962272, 358.34e9, 1e7, 32e9, TRUE, 3 },
    { "GLM-4.5-Air", 3616573568, 110.5e9, 1e8, 12e9, FALSE, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VcHfConfig) config = load_model (cases[i].dir);
      const VcArch *a = vc_hf_config_get_arch (config);
      const VcParamCounts *counts = vc_hf_config_get_counts (config);
      VcArch more = *a;
      VcParamCounts with_layer;
      double h = a->hidden_size, embedding = (double) a->vocab_size * a->hidden_size;
      double mtp;

      g_test_message ("%s", cases[i].dir);
      g_assert_true (a->qkv_bias);
      g_assert_false (a->o_bias);
      g_assert_cmpint (a->qk_norm, ==, cases[i].qk_norm);
      g_assert_true (a->router_bias);
      g_assert_cmpuint (a->n_shared_experts, ==, 1);
      g_assert_cmpuint (a->dense_layers, ==, cases[i].dense);
      g_assert_false (a->tied_embeddings);
      g_assert_nonnull (strstr (vc_hf_config_get_description (config), "multi-token"));

      /* one more layer after the dense ones is one more MoE decoder layer */
      more.n_layers++;
      vc_arch_count_params (&more, &with_layer);
      mtp = (with_layer.total - counts->total) + 2 * h * h + 3 * h + 2 * embedding;
      g_assert_cmpfloat (mtp, ==, cases[i].mtp);
      g_assert_cmpfloat (fabs (counts->total + mtp - cases[i].stored), <=, cases[i].stored_unit / 2);
      g_assert_cmpfloat (fabs (counts->active - 2 * embedding - cases[i].active), <=, 0.5e9);
    }

  /* GLM-4.7-Flash: latent attention, GLM-4.5's experts after the dense first layer; which
   * layers are dense comes from mlp_layer_types, and first_k_dense_replace must agree */
  {
    g_autoptr(VcHfConfig) flash = load_model ("GLM-4.7-Flash");
    const VcArch *a = vc_hf_config_get_arch (flash);
    double embedding = (double) a->vocab_size * a->hidden_size;
    g_autoptr(GError) error = NULL;
    g_autoptr(VcHfConfig) listed = NULL, two = NULL, disagree = NULL;
    g_autoptr(GString) types = g_string_new ("[\"dense\"");
    g_autoptr(GString) types2 = g_string_new ("[\"dense\", \"dense\"");

    g_assert_true (vc_arch_is_mla (a));
    g_assert_cmpuint (a->q_lora_rank, ==, 768);
    g_assert_cmpuint (a->v_head_dim, ==, 256);
    g_assert_true (a->router_bias);
    g_assert_cmpuint (a->n_shared_experts, ==, 1);
    g_assert_cmpuint (a->dense_layers, ==, 1);
    g_assert_nonnull (strstr (vc_hf_config_get_description (flash), "multi-token"));
    g_assert_cmpfloat (fabs (vc_hf_config_get_counts (flash)->active - 2 * embedding - 3e9), <=, 0.5e9);

    for (guint i = 1; i < 47; i++)
      g_string_append (types, ", \"sparse\"");
    for (guint i = 2; i < 47; i++)
      g_string_append (types2, ", \"sparse\"");
    g_string_append (types, "]");
    g_string_append (types2, "]");
    listed = load_variant ("GLM-4.7-Flash", "mlp_layer_types", types->str, &error);
    g_assert_no_error (error);
    g_assert_true (vc_hf_config_is_exact (listed));
    g_assert_cmpfloat (vc_hf_config_get_counts (listed)->total, ==, 29943393920);

    /* two dense layers where first_k_dense_replace says one: not understood */
    two = load_variant ("GLM-4.7-Flash", "mlp_layer_types", types2->str, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (two)->dense_layers, ==, 2);
    g_assert_cmpstr (vc_hf_config_get_not_understood (two)[0], ==, "first_k_dense_replace");
    g_assert_null (vc_hf_config_get_not_understood (two)[1]);

    disagree = load_variant ("GLM-4.7-Flash", "first_k_dense_replace", "3", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (disagree)->dense_layers, ==, 1);
    g_assert_false (vc_hf_config_is_exact (disagree));
  }
}

static void
test_unknown_family (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = load_variant ("Llama-3.1-8B", "model_type", "\"my_new_llm\"", &error);
  g_autoptr(VcHfConfig) none = load_variant ("Llama-3.1-8B", "model_type", NULL, &error);
  g_autoptr(VcHfConfig) moe = load_variant ("Mixtral-8x7B-v0.1", "model_type", "\"some_moe\"", &error);

  g_assert_no_error (error);
  g_assert_false (vc_hf_config_get_known_family (config));
  g_assert_false (vc_hf_config_is_exact (config));
  g_assert_cmpstr (vc_hf_config_get_not_understood (config)[0], ==, "model_type “my_new_llm”");
  g_assert_null (vc_hf_config_get_not_understood (config)[1]);
  g_assert_cmpstr (vc_hf_config_get_family (config), ==, "llama");
  g_assert_cmpstr (vc_hf_config_get_model_type (config), ==, "my_new_llm");
  g_assert_nonnull (strstr (vc_hf_config_get_warning (config), "my_new_llm"));
  g_assert_nonnull (strstr (vc_hf_config_get_warning (config), "Llama way"));
  g_assert_cmpfloat (vc_hf_config_get_counts (config)->total, ==, 8030261248);

  g_assert_false (vc_hf_config_get_known_family (none));
  g_assert_cmpstr (vc_hf_config_get_not_understood (none)[0], ==, "model_type");

  /* the standard MoE keys are read for an unknown family too, for an approximate estimate */
  g_assert_false (vc_hf_config_get_known_family (moe));
  g_assert_cmpstr (vc_hf_config_get_not_understood (moe)[0], ==, "model_type “some_moe”");
  g_assert_cmpfloat (vc_hf_config_get_counts (moe)->total, ==, 46702792704);
  g_assert_cmpfloat (vc_hf_config_get_counts (moe)->active, ==, 12879925248);
}

/* Memory keys a family does not read are named; keys that say "none" are not. */
static void
test_not_understood (void)
{
  static const struct { const char *dir; const char *key; const char *value; const char *parts; } cases[] = {
    { "Llama-3.1-8B", "num_local_experts", "8", "num_local_experts" },
    { "Llama-3.1-8B", "kv_lora_rank", "512", "kv_lora_rank" },
    { "Llama-3.1-8B", "sliding_window", "4096", "sliding_window" },
    { "Llama-3.1-8B", "mamba_d_state", "128", "mamba_d_state" },
    { "Llama-3.1-8B", "linear_num_value_heads", "32", "linear_num_value_heads" },
    { "Llama-3.1-8B", "attention_chunk_size", "8192", "attention_chunk_size" },
    /* what vc-quant.c sizes is understood; what it cannot size, it names */
    { "Llama-3.1-8B", "quantization_config", "{\"quant_method\": \"awq\", \"bits\": 4, \"group_size\": 128}", NULL },
    { "Llama-3.1-8B", "quantization_config", "{\"quant_method\": \"awq\", \"bits\": 3, \"group_size\": 128}",
      "quantization_config.bits is 3; awq checkpoints of 2, 3, 4 or 8 bits (AWQ: 4) are sized" },
    { "Llama-3.1-8B", "quantization_config", "{\"bits\": 4}", "quantization_config has no quant_method" },
    /* nested lists where sizes belong: named, without json-glib's warnings (fatal here) */
    { "Llama-3.1-8B", "quantization_config",
      "{\"quant_method\": \"fp8\", \"weight_block_size\": [[1], [2]]}",
      "quantization_config.weight_block_size is not two positive sizes" },
    { "gemma-3-4b-it", "text_config.moe_intermediate_size", "1024", "text_config.moe_intermediate_size" },
    { "Qwen2.5-7B", "layer_types", NULL, "layer_types “linear_attention”" },
    /* GLM-4.5: what Glm4MoeModel does not read changes nothing it builds, but it is not
     * understood; Llama's files never say use_qk_norm */
    { "GLM-4.5", "moe_layer_freq", "2", "moe_layer_freq" },
    { "GLM-4.5", "kv_lora_rank", "512", "kv_lora_rank" },
    { "Llama-3.1-8B", "use_qk_norm", "true", "use_qk_norm" },
    { "GLM-4.5", "num_local_experts", "160", NULL },
    { "GLM-4.7-Flash", "moe_layer_freq", "2", "moe_layer_freq" },
    { "DeepSeek-V3", "mlp_layer_types", "[\"dense\"]", "mlp_layer_types" },
    { "DeepSeek-V3", "index_n_heads", "64", "index_n_heads" },
    /* what says "none" is understood */
    { "Llama-3.1-8B", "num_local_experts", "null", NULL },
    { "Llama-3.1-8B", "num_experts", "0", NULL },
    { "Llama-3.1-8B", "use_sliding_window", "false", NULL },
    { "Llama-3.1-8B", "mamba_layers", "[]", NULL },
    { "Llama-3.1-8B", "quantization_config", "{}", NULL },
    { "Llama-3.1-8B", "quantization_config",
      "{\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": false, \"load_in_8bit\": false}", NULL },
    /* keys that change nothing in memory */
    { "Llama-3.1-8B", "router_aux_loss_coef", "0.01", NULL },
    { "Llama-3.1-8B", "attn_logit_softcapping", "50.0", NULL },
  };
  g_autoptr(GString) types = g_string_new ("[");

  for (guint i = 0; i < 28; i++)
    g_string_append_printf (types, "%s\"%s\"", i ? ", " : "", i % 4 == 3 ? "full_attention" : "linear_attention");
  g_string_append (types, "]");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(VcHfConfig) config = load_variant (cases[i].dir, cases[i].key,
                                                   cases[i].value ? cases[i].value : types->str, &error);
      g_autofree char *parts = NULL;

      g_test_message ("%s: %s = %s", cases[i].dir, cases[i].key, cases[i].value);
      g_assert_no_error (error);
      parts = g_strjoinv (", ", (char **) vc_hf_config_get_not_understood (config));
      if (cases[i].parts == NULL)
        {
          g_assert_cmpstr (parts, ==, "");
          g_assert_true (vc_hf_config_is_exact (config));
          continue;
        }
      g_assert_cmpstr (parts, ==, cases[i].parts);
      g_assert_false (vc_hf_config_check_exact (config, &error));
      g_assert_error (error, VC_ERROR, VC_ERROR_NOT_UNDERSTOOD);
      check_message (error->message, "~config.json: not understood, so the estimate would not be exact: ");
      g_assert_nonnull (strstr (error->message, cases[i].parts));
      g_assert_nonnull (strstr (vc_hf_config_get_warning (config), cases[i].parts));
    }
}

static void
test_windows_and_layers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) qwen = NULL;
  g_autoptr(VcHfConfig) gemma = NULL;
  g_autoptr(VcHfConfig) moe = NULL;
  g_autoptr(VcHfConfig) falcon = NULL;
  g_autoptr(VcHfConfig) mistral = NULL;
  g_autoptr(GString) types = g_string_new ("[");
  g_autofree char *qwen_text = variant ("Qwen2.5-7B", "use_sliding_window", "true");
  g_autofree char *qwen_text2 = NULL;

  /* Qwen: layers from max_window_layers on use the window */
  {
    g_autoptr(JsonParser) p = json_parser_new ();
    g_autoptr(JsonGenerator) g = json_generator_new ();

    json_parser_load_from_data (p, qwen_text, -1, &error);
    g_assert_no_error (error);
    json_object_set_int_member (json_node_get_object (json_parser_get_root (p)), "max_window_layers", 21);
    json_object_set_int_member (json_node_get_object (json_parser_get_root (p)), "sliding_window", 4096);
    json_generator_set_root (g, json_parser_get_root (p));
    qwen_text2 = json_generator_to_data (g, NULL);
  }
  qwen = vc_hf_config_new_from_data (qwen_text2, strlen (qwen_text2), "config.json", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (qwen)->sliding_window, ==, 4096);
  g_assert_cmpuint (vc_hf_config_get_arch (qwen)->sliding_window_layers, ==, 7);
  /* the last layers, no period: which layers slide is not a pattern */
  g_assert_cmpuint (vc_hf_config_get_arch (qwen)->sliding_window_pattern, ==, 0);

  /* layer_types, when given, says which layers slide */
  for (guint i = 0; i < 26; i++)
    g_string_append_printf (types, "%s\"%s\"", i ? ", " : "", i % 2 ? "full_attention" : "sliding_attention");
  g_string_append (types, "]");
  gemma = load_variant ("gemma-3-1b-pt", "layer_types", types->str, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (gemma)->sliding_window_layers, ==, 13);
  /* every other layer full, from the second: the pattern 2 (sliding-window-pattern) */
  g_assert_cmpuint (vc_hf_config_get_arch (gemma)->sliding_window_pattern, ==, 2);
  g_assert_cmpfloat (vc_hf_config_get_counts (gemma)->total, ==, 999885952);

  /* Qwen MoE: dense layers from decoder_sparse_step and mlp_only_layers */
  moe = load_variant ("Qwen3-30B-A3B", "decoder_sparse_step", "2", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (moe)->dense_layers, ==, 24);
  g_clear_object (&moe);
  moe = load_variant ("Qwen3-30B-A3B", "mlp_only_layers", "[0, 1, 47]", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (moe)->dense_layers, ==, 3);

  /* Falcon's new decoder architecture: grouped KV heads, two LayerNorms a layer */
  {
    g_autofree char *text = variant ("falcon-7b", "new_decoder_architecture", "true");
    g_autoptr(GString) s = g_string_new (text);

    g_string_replace (s, "\"num_attention_heads\"", "\"num_kv_heads\" : 1, \"num_attention_heads\"", 1);
    falcon = vc_hf_config_new_from_data (s->str, s->len, "config.json", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (falcon)->norms_per_layer, ==, 2);
    g_assert_cmpuint (vc_hf_config_get_arch (falcon)->n_kv_heads, ==, 1);
  }

  /* Mistral v0.2 has no window */
  mistral = load_variant ("Mistral-7B-v0.1", "sliding_window", "null", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (mistral)->sliding_window, ==, 0);
  g_assert_cmpfloat (vc_hf_config_get_counts (mistral)->total, ==, 7241732096);
}

static void
test_apply (void)
{
  g_autoptr(VcHfConfig) config = load_model ("Qwen3-30B-A3B");
  VcEstimate *estimate = vc_estimate_new ();
  g_autofree char *preset = NULL;
  g_autofree char *name = NULL;
  VcMethod method;
  VcModelType model_type;
  double parameters, active, kv;
  guint layers, experts;

  vc_estimate_set_preset (estimate, "llama-3-8b", NULL);
  vc_hf_config_apply (config, estimate);
  g_object_get (estimate,
                "preset", &preset,
                "model-name", &name,
                "method", &method,
                "model-type", &model_type,
                "model-parameters", &parameters,
                "model-active-parameters", &active,
                "kv-bytes-per-token", &kv,
                "layers", &layers,
                "experts", &experts,
                NULL);
  g_assert_cmpstr (preset, ==, "");
  g_assert_cmpstr (name, ==, "Qwen3-30B-A3B");
  g_assert_cmpstr (vc_estimate_get_model_name (estimate), ==, "Qwen3-30B-A3B");
  g_assert_cmpint (method, ==, VC_METHOD_ARCHITECTURE);
  g_assert_cmpint (model_type, ==, VC_MODEL_TYPE_MOE);
  g_assert_cmpfloat (parameters, ==, 30532122624);
  g_assert_cmpfloat (active, ==, 3353032704);
  g_assert_cmpfloat (kv, ==, 98304);
  g_assert_cmpuint (layers, ==, 48);
  g_assert_cmpuint (experts, ==, 128);
  g_assert_null (vc_estimate_get_model_not_understood (estimate)[0]);

  /* an approximate import says what it is not exact about until another model comes: a
   * preset, or the inputs of a profile */
  {
    g_autoptr(VcHfConfig) v3 = load_variant ("DeepSeek-V3", "quantization_config",
                                             "{\"quant_method\": \"fp8\", \"activation_scheme\": \"other\"}", NULL);
    g_autoptr(VcEstimate) fresh = vc_estimate_new ();

    g_assert_nonnull (v3);
    vc_hf_config_apply (v3, estimate);
    g_assert_cmpstr (vc_estimate_get_model_not_understood (estimate)[0], ==,
                     "quantization_config.activation_scheme “other” is not understood; known: dynamic, static");
    vc_estimate_set_preset (estimate, "llama-3-8b", NULL);
    g_assert_null (vc_estimate_get_model_not_understood (estimate)[0]);
    vc_hf_config_apply (v3, estimate);
    vc_estimate_copy_inputs (fresh, estimate);
    g_assert_nonnull (vc_estimate_get_model_not_understood (fresh)[0]);
    g_clear_object (&fresh);
    fresh = vc_estimate_new ();
    vc_estimate_copy_inputs (estimate, fresh);
    g_assert_null (vc_estimate_get_model_not_understood (estimate)[0]);
  }
  g_assert_finalize_object (estimate);
}

/* ---- vramcalc --config ----------------------------------------------------------------------- */

static void
test_cli_models (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autofree char *path = model_path (models[i].dir);
      /* what is not understood is estimated only when asked for */
      const char *args[] = { "--config", path, "--format", "json",
                             models[i].not_understood ? "--approximate" : NULL, NULL };
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *o = vc_test_run_json (parser, args);
      JsonArray *parts = json_object_get_array_member (o, "not_understood");

      g_test_message ("%s", models[i].dir);
      g_assert_cmpstr (json_object_get_string_member (o, "method"), ==, "architecture");
      g_assert_true (json_node_is_null (json_object_get_member (o, "preset")));
      g_assert_cmpstr (json_object_get_string_member (o, "model"), ==, models[i].dir);
      g_assert_cmpint (json_object_get_int_member (o, "parameters"), ==, (gint64) models[i].total);
      /* a dense model's token reads all but its vision encoder */
      {
        g_autoptr(VcHfConfig) config = load_model (models[i].dir);

        g_assert_cmpint (json_object_get_int_member (o, "active_parameters"), ==,
                         (gint64) (models[i].active > 0 ? models[i].active
                                   : models[i].total - vc_hf_config_get_arch (config)->encoder_params));
      }
      g_assert_cmpint (json_object_get_int_member (o, "kv_bytes_per_token"), ==, (gint64) models[i].kv_bytes);
      if (models[i].not_understood)
        {
          g_assert_cmpuint (json_array_get_length (parts), ==, 1);
          g_assert_cmpstr (json_array_get_string_element (parts, 0), ==, models[i].not_understood);
        }
      else
        g_assert_cmpuint (json_array_get_length (parts), ==, 0);
    }
}

static void
test_cli_overrides (void)
{
  g_autofree char *path = model_path ("Llama-3.1-8B");
  const char *layers[] = { "--config", path, "--layers", "16", "--format", "json", NULL };
  const char *before[] = { "--layers", "16", "--config", path, "--format", "json", NULL };
  const char *fp8[] = { "--config", path, "--kv-precision", "fp8", "--format", "json", NULL };
  const char *rule[] = { "--config", path, "--method", "rule-of-thumb", "--format", "json", NULL };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonParser) p3 = json_parser_new ();
  g_autoptr(JsonParser) p4 = json_parser_new ();
  /* 16 layers of 218,112,000 fewer */
  gint64 sixteen = 8030261248 - 16 * (gint64) 218112000;

  g_assert_cmpint (json_object_get_int_member (vc_test_run_json (p1, layers), "parameters"), ==, sixteen);
  g_assert_cmpint (json_object_get_int_member (vc_test_run_json (p2, before), "parameters"), ==, sixteen);
  g_assert_cmpint (json_object_get_int_member (vc_test_run_json (p3, fp8), "kv_bytes_per_token"), ==, 65536);
  g_assert_cmpstr (json_object_get_string_member (vc_test_run_json (p4, rule), "method"), ==, "rule-of-thumb");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json_parser_get_root (p4)), "parameters"),
                   ==, 8030261248);
}

/* A linear-attention model: the KV cache grows with the context in its 12 attention layers only,
 * the Gated DeltaNet state is per sequence and does not grow. */
static void
test_cli_sequence_state (void)
{
  g_autofree char *path = model_path ("Qwen3-Next-80B-A3B-Instruct");
  g_autofree char *llama = model_path ("Llama-3.1-8B");
  const char *long_ctx[] = { "--config", path, "--seq", "262144", "--concurrency", "4",
                             "--kv-precision", "fp8", "--format", "json", NULL };
  const char *short_ctx[] = { "--config", path, "--seq", "1024", "--concurrency", "4",
                              "--kv-precision", "fp8", "--format", "json", NULL };
  const char *dense[] = { "--config", llama, "--format", "json", NULL };
  const char *training[] = { "--config", path, "--mode", "training", "--format", "json", NULL };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonParser) p3 = json_parser_new ();
  g_autoptr(JsonParser) p4 = json_parser_new ();
  JsonObject *o1 = vc_test_run_json (p1, long_ctx);
  JsonObject *o2 = vc_test_run_json (p2, short_ctx);

  /* 12 layers × 2 × 2 KV heads × 256 × 1 byte × 262,144 tokens × 4 sequences */
  g_assert_cmpint (json_object_get_int_member (o1, "kv_bytes_per_token"), ==, 12 * 2 * 2 * 256);
  g_assert_cmpint (vc_test_component_bytes (o1, "kv_cache"), ==, (gint64) 12 * 2 * 2 * 256 * 262144 * 4);
  /* 36 layers × 548,864 values × 1 byte × 4 sequences, whatever the context */
  g_assert_cmpint (vc_test_component_bytes (o1, "sequence_state"), ==, (gint64) 36 * 548864 * 4);
  g_assert_cmpint (vc_test_component_bytes (o2, "sequence_state"), ==, (gint64) 36 * 548864 * 4);
  /* a model without such layers, and training, have no such component */
  g_assert_cmpint (vc_test_component_bytes (vc_test_run_json (p3, dense), "sequence_state"), ==, -1);
  g_assert_cmpint (vc_test_component_bytes (vc_test_run_json (p4, training), "sequence_state"), ==, -1);
}

static void
test_cli_errors (void)
{
  g_autofree char *tmp = vc_test_make_tmpdir ("vc-hf-config");
  g_autofree char *bad = g_build_filename (tmp, "config.json", NULL);
  g_autofree char *text = variant ("Llama-3.1-8B", "num_hidden_layers", "-3");
  g_autofree char *empty = g_build_filename (tmp, "empty", NULL);
  g_autofree char *llama = model_path ("Llama-3.1-8B");
  g_autofree char *unknown = g_build_filename (tmp, "unknown", "config.json", NULL);
  g_autofree char *unknown_text = variant ("Llama-3.1-8B", "model_type", "\"my_new_llm\"");
  struct { const char *args[6]; const char *message; } cases[] = {
    { { "--config", bad, NULL }, "config.json: \"num_hidden_layers\" must be a whole number from 1 to 100000, got -3" },
    { { "--config", tmp, NULL }, "config.json: \"num_hidden_layers\" must be a whole number" },
    { { "--config", empty, NULL }, "holds no config.json" },
    { { "--config", llama, "--preset", "llama-3-8b", NULL }, "--preset" },
    { { "--config", NULL }, "a value is required" },
  };

  write_file (bad, text, -1);
  g_mkdir_with_parents (empty, 0755);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (vc_test_run_vramcalc (cases[i].args, NULL, &out, &err), ==, 2);
      if (strstr (err, cases[i].message) == NULL)
        g_error ("stderr “%s” does not contain “%s”", err, cases[i].message);
      g_assert_cmpstr (out, ==, "");
    }

  /* an unknown family is refused, naming what is not understood; with --approximate it is
   * estimated the Llama way, and the result says what was not understood */
  write_file (unknown, unknown_text, -1);
  {
    g_autofree char *dir = g_path_get_dirname (unknown);
    const char *refused[] = { "--config", dir, "--format", "json", NULL };
    const char *approximate[] = { "--config", dir, "--approximate", "--format", "json", NULL };
    const char *table[] = { "--approximate", "--config", dir, NULL };
    const char *alone[] = { "--approximate", "--preset", "llama-3-8b", NULL };
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    g_autofree char *out2 = NULL;
    g_autofree char *err2 = NULL;
    g_autofree char *out3 = NULL;
    g_autofree char *err3 = NULL;
    g_autofree char *out4 = NULL;
    g_autofree char *err4 = NULL;
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;
    JsonObject *o;

    g_assert_cmpint (vc_test_run_vramcalc (refused, NULL, &out, &err), ==, 2);
    g_assert_cmpstr (out, ==, "");
    g_assert_nonnull (strstr (err, "--config: config.json: not understood, so the estimate would not be exact: "
                                   "model_type “my_new_llm”; --approximate estimates it anyway"));

    g_assert_cmpint (vc_test_run_vramcalc (approximate, NULL, &out2, &err2), ==, 0);
    g_assert_nonnull (strstr (err2, "my_new_llm"));
    json_parser_load_from_data (parser, out2, -1, &error);
    g_assert_no_error (error);
    o = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpint (json_object_get_int_member (o, "parameters"), ==, 8030261248);
    g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (o, "not_understood"), 0),
                     ==, "model_type “my_new_llm”");

    g_assert_cmpint (vc_test_run_vramcalc (table, NULL, &out3, &err3), ==, 0);
    g_assert_nonnull (strstr (out3, "Approximate, not understood: model_type “my_new_llm”\n"));

    /* never an option ignored */
    g_assert_cmpint (vc_test_run_vramcalc (alone, NULL, &out4, &err4), ==, 2);
    g_assert_nonnull (strstr (err4, "--approximate: applies to a model read with --config"));
  }
  vc_test_remove_tree (tmp);
}

/* The model's maximum context: max_position_embeddings (n_positions) with the rope scaling
 * applied as vLLM's _get_and_verify_max_len does (vllm/config.py): llama3, longrope and su
 * give the written length; yarn scales original_max_position_embeddings; linear and dynamic
 * scale the written length; Gemma 3 writes the scaled length already. */
static void
test_max_context (void)
{
  static const struct { const char *dir; guint expected; } files[] = {
    { "Llama-3.1-8B", 131072 },       /* llama3, factor 8: written scaled */
    { "DeepSeek-V3", 163840 },        /* yarn: 4,096 × 40 */
    { "DeepSeek-V2-Lite", 163840 },   /* yarn: 4,096 × 40 */
    { "Qwen2.5-7B", 131072 },
    { "Qwen3-8B", 40960 },
    { "Mistral-7B-v0.1", 32768 },
    { "Phi-3-mini-4k-instruct", 4096 },
    { "gemma-2b", 8192 },
    { "gemma-3-1b-pt", 32768 },
    { "gemma-3-4b-it", 0 },           /* its text_config does not say */
    { "gpt2", 1024 },                 /* n_positions */
    { "pythia-160m", 2048 },
    { "falcon-7b", 0 },               /* no length in the file: unknown */
  };
  static const struct { const char *preset, *dir; } preset_files[] = {
    { "gpt2", "gpt2" }, { "phi-3-mini", "Phi-3-mini-4k-instruct" }, { "mistral-7b", "Mistral-7B-v0.1" },
    { "qwen2.5-7b", "Qwen2.5-7B" }, { "falcon-7b", "falcon-7b" }, { "qwen3-8b", "Qwen3-8B" },
    { "llama-3.1-8b", "Llama-3.1-8B" }, { "gemma-2-9b", "gemma-2-9b" }, { "qwen3-30b-a3b", "Qwen3-30B-A3B" },
    { "mixtral-8x7b", "Mixtral-8x7B-v0.1" }, { "deepseek-r1", "DeepSeek-V3" },
  };
  static const struct { const char *dir, *key, *value; guint expected; const char *message; } variants[] = {
    { "Qwen2.5-7B", "rope_scaling", "{\"type\": \"yarn\", \"factor\": 4.0, \"original_max_position_embeddings\": 32768}", 131072, NULL },
    { "Llama-3.1-8B", "rope_scaling", "{\"rope_type\": \"linear\", \"factor\": 2}", 262144, NULL },
    { "Phi-3-mini-4k-instruct", "rope_scaling", "{\"type\": \"dynamic\", \"factor\": 2.0}", 8192, NULL },
    { "Phi-3-mini-4k-instruct", "rope_scaling", "{\"type\": \"longrope\", \"factor\": 32.0}", 4096, NULL },
    { "Llama-3.1-8B", "max_position_embeddings", NULL, 0, NULL },
    { "Llama-3.1-8B", "max_position_embeddings", "-1", 0, "~\"max_position_embeddings\" must be a whole number from 1 to 100000000, got -1" },
    { "Llama-3.1-8B", "rope_scaling", "\"long\"", 0, "~\"rope_scaling\" must be an object or null, got the text \"long\"" },
    { "Llama-3.1-8B", "rope_scaling", "{\"rope_type\": \"linear\", \"factor\": \"8\"}", 0, "~\"rope_scaling.factor\" must be a number from 1 to 1000000, got the text \"8\"" },
    { "Llama-3.1-8B", "rope_scaling", "{\"rope_type\": \"yarn\", \"factor\": 4}", 0, "~\"rope_scaling.original_max_position_embeddings\" is missing" },
    { "Llama-3.1-8B", "rope_scaling", "{\"rope_type\": \"linear\", \"factor\": 10000}", 0, "~the context the rope scaling gives (1310720000 tokens) is beyond 100000000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(VcHfConfig) config = load_model (files[i].dir);

      g_test_message ("%s", files[i].dir);
      g_assert_cmpuint (vc_hf_config_get_arch (config)->max_context, ==, files[i].expected);
    }
  /* the presets whose config.json is here record what import derives from it (DeepSeek-R1
   * has DeepSeek-V3's architecture and rope scaling) */
  for (guint i = 0; i < G_N_ELEMENTS (preset_files); i++)
    {
      g_autoptr(VcHfConfig) config = load_model (preset_files[i].dir);
      g_autoptr(VcEstimate) estimate = vc_estimate_new ();
      guint preset_context = 0;

      g_assert_true (vc_estimate_set_preset (estimate, preset_files[i].preset, NULL));
      g_object_get (estimate, "max-context", &preset_context, NULL);
      g_test_message ("%s: %u", preset_files[i].preset, preset_context);
      g_assert_cmpuint (preset_context, ==, vc_hf_config_get_arch (config)->max_context);
    }
  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(VcHfConfig) config = load_variant (variants[i].dir, variants[i].key, variants[i].value, &error);

      g_test_message ("%s: %s = %s", variants[i].dir, variants[i].key, variants[i].value);
      if (variants[i].message)
        {
          g_assert_null (config);
          g_assert_nonnull (error);
          check_message (error->message, variants[i].message);
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (vc_hf_config_get_arch (config)->max_context, ==, variants[i].expected);
    }
}

/* Qwen3-VL's config.json (the catalog's Qwen3-VL-8B-Instruct) with rope_scaling as @rope, into
 * @dir */
static void
write_qwen3_vl (const char *dir,
                const char *rope)
{
  g_autofree char *src = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "..", "data", "models",
                                           "qwen3-vl-8b-instruct", "config.json", NULL);
  g_autofree char *config = g_build_filename (dir, "config.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) edited = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (src, &text, NULL, &error));
  edited = g_string_new (text);
  /* the preset's own rope_scaling out, @rope in its place */
  g_assert_cmpuint (g_string_replace (edited, "\"rope_scaling\": {\"mrope_interleaved\": true, \"mrope_section\": "
                                              "[24, 20, 20], \"rope_type\": \"default\"},", "", 1), ==, 1);
  g_assert_cmpuint (g_string_replace (edited, "\"rope_theta\": 5000000,", rope, 1), ==, 1);
  g_assert_true (g_file_set_contents (config, edited->str, -1, &error));
}

/* Qwen3-VL's dummy image and video in vLLM's profile run from its processor files
 * (FORMULAS.md, "Multimodal models"): smart_resize of a 9,999,999-pixel square within
 * size.longest_edge, factor 32; the video's most tokens over 2 to 24,576 frames; settings not
 * followed leave them unknown, the tower's pass known from config.json alone */
static void
test_qwen3_vl_preprocessor (void)
{
  static const struct
  {
    const char *settings;
    guint tokens, patches;
  } cases[] = {
    /* Qwen3-VL's image processor: 4,096² pixels */
    { "{\"size\": {\"longest_edge\": 16777216, \"shortest_edge\": 65536}, \"patch_size\": 16, "
      "\"temporal_patch_size\": 2, \"merge_size\": 2, \"image_processor_type\": \"Qwen2VLImageProcessorFast\"}",
      16384, 65536 },
    /* 28 × 28 × 1,280 pixels: a side of 992 */
    { "{\"size\": {\"longest_edge\": 1003520, \"shortest_edge\": 3136}}", 961, 3844 },
    { "{\"size\": {\"longest_edge\": 16777216, \"shortest_edge\": 65536}, \"max_pixels\": 16777216}", 16384, 65536 },
    /* what is not followed: no size, another patch, max_pixels that disagrees */
    { "{}", 0, 0 },
    { "{\"size\": {\"longest_edge\": 16777216, \"shortest_edge\": 65536}, \"patch_size\": 14}", 0, 0 },
    { "{\"size\": {\"longest_edge\": 16777216, \"shortest_edge\": 65536}, \"max_pixels\": 1003520}", 0, 0 },
  };
  g_autofree char *dir = vc_test_make_tmpdir ("qwen3-vl-preprocessor");
  g_autofree char *pre = g_build_filename (dir, "preprocessor_config.json", NULL);
  g_autofree char *video = g_build_filename (dir, "video_preprocessor_config.json", NULL);
  g_autoptr(GError) error = NULL;

  write_qwen3_vl (dir, "\"rope_scaling\": {\"mrope_interleaved\": true, \"mrope_section\": [24, 20, 20], "
                       "\"rope_type\": \"default\"}, \"rope_theta\": 5000000,");
  {
    g_autoptr(VcHfConfig) none = vc_hf_config_new_for_path (dir, &error);
    const VcArch *a = vc_hf_config_get_arch (none);

    g_assert_no_error (error);
    g_assert_cmpuint (a->encoder_tower, ==, VC_ENCODER_TOWER_QWEN3_VL);
    g_assert_cmpuint (a->encoder_width, ==, 1152);
    g_assert_cmpuint (a->encoder_intermediate, ==, 4304);
    /* SGLang's getattr(vision_config, "num_hidden_layers", 24): the 27 blocks are depth */
    g_assert_cmpuint (a->encoder_layers, ==, 24);
    /* pos_embeds 1,152, the rotary tables 72 (head_dim), three deepstack features of 4,096 / 4 */
    g_assert_cmpuint (a->encoder_patch_held, ==, 1152 + 72 + 3 * 1024);
    g_assert_cmpuint (a->encoder_embed_width, ==, 4 * 4096);
    g_assert_cmpuint (a->encoder_image_tokens, ==, 0);
    g_assert_cmpuint (a->encoder_video_tokens, ==, 0);
    /* MRotaryEmbedding: four times max_position_embeddings */
    g_assert_cmpuint (a->rope_table_kind, ==, VC_ROPE_TABLE_MROPE);
    g_assert_cmpuint (a->rope_table_rows, ==, 4 * 262144);
    g_assert_cmpuint (a->rotary_dim, ==, 128);
  }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VcHfConfig) c = NULL;
      const VcArch *a;

      g_test_message ("%s", cases[i].settings);
      g_assert_true (g_file_set_contents (pre, cases[i].settings, -1, &error));
      c = vc_hf_config_new_for_path (dir, &error);
      g_assert_no_error (error);
      a = vc_hf_config_get_arch (c);
      g_assert_cmpuint (a->encoder_image_tokens, ==, cases[i].tokens);
      g_assert_cmpuint (a->encoder_image_embeds, ==, cases[i].tokens);
      g_assert_cmpuint (a->encoder_patches, ==, cases[i].patches);
      g_assert_cmpuint (a->encoder_pixel_values, ==, cases[i].patches * 3 * 2 * 16 * 16);
      g_assert_cmpuint (a->encoder_params, ==, 576388336);
    }
  /* the video processor's: at most 16,200 tokens (3 frames, 2,880² each) */
  g_assert_true (g_file_set_contents (pre, cases[0].settings, -1, &error));
  g_assert_true (g_file_set_contents (video, "{\"size\": {\"longest_edge\": 25165824, \"shortest_edge\": 4096}, "
                                             "\"patch_size\": 16, \"temporal_patch_size\": 2, \"merge_size\": 2}",
                                      -1, &error));
  {
    g_autoptr(VcHfConfig) c = vc_hf_config_new_for_path (dir, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (c)->encoder_video_tokens, ==, 16200);
  }
  g_assert_true (g_file_set_contents (pre, "{\"size\": {\"longest_edge\": 4000000000, \"shortest_edge\": 1}}", -1,
                                      &error));
  g_assert_null (vc_hf_config_new_for_path (dir, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "preprocessor_config.json: \"size.longest_edge\""));
  g_clear_error (&error);
  /* without mrope_section, which table vLLM builds is not followed */
  g_assert_cmpint (g_remove (pre), ==, 0);
  write_qwen3_vl (dir, "\"rope_theta\": 5000000,");
  {
    g_autoptr(VcHfConfig) c = vc_hf_config_new_for_path (dir, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (c)->rope_table_kind, ==, VC_ROPE_TABLE_MROPE);
    g_assert_cmpuint (vc_hf_config_get_arch (c)->rope_table_rows, ==, 0);
  }
  vc_test_remove_tree (dir);
}

/* The layers SGLang's adjust_mem_fraction_for_vlm reads of Qwen3-VL's tower,
 * getattr(vision_config, "num_hidden_layers", 24): Qwen3VLVisionConfig names its blocks depth,
 * so 24 whatever depth says; a vision_config that names num_hidden_layers gives it; null, which
 * SGLang could not multiply, leaves it unknown */
static void
test_qwen3_vl_sglang_layers (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("qwen3-vl-sglang-layers");
  static const char *const depth[] = { "\"depth\": 27,", "\"depth\": 27, \"num_hidden_layers\": 27,",
                                       "\"depth\": 27, \"num_hidden_layers\": null," };
  static const guint layers[] = { 24, 27, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (depth); i++)
    {
      g_autofree char *config = g_build_filename (dir, "config.json", NULL);
      g_autofree char *text = NULL;
      g_autoptr(GString) edited = NULL;
      g_autoptr(VcHfConfig) c = NULL;
      g_autoptr(GError) error = NULL;

      write_qwen3_vl (dir, "\"rope_theta\": 5000000,");
      g_assert_true (g_file_get_contents (config, &text, NULL, &error));
      edited = g_string_new (text);
      g_assert_cmpuint (g_string_replace (edited, "\"depth\": 27,", depth[i], 1), ==, 1);
      g_assert_true (g_file_set_contents (config, edited->str, -1, &error));
      c = vc_hf_config_new_for_path (dir, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (vc_hf_config_get_arch (c)->encoder_layers, ==, layers[i]);
      g_assert_cmpuint (vc_hf_config_get_arch (c)->encoder_width, ==, 1152);
    }
  vc_test_remove_tree (dir);
}

/* Llama 4's images in vLLM's profile run come from its processor's max_patches
 * (preprocessor_config.json beside config.json; FORMULAS.md, "Multimodal models"): P tiles of
 * 336² and a global one, (336 / 14)² = 576 patches a tile, 576 // 4 = 144 embeddings a tile
 * (pixel_shuffle_ratio 0.5), a placeholder of P × 145 + 147 tokens (147 for one tile). Without
 * the file the image stays unknown; a tile size other than the tower's or resize_to_max_canvas
 * leave it unknown; a bad file is refused naming it. */
static void
test_llama4_preprocessor (void)
{
  static const struct
  {
    const char *settings;
    guint tokens, embeds, patches;
  } cases[] = {
    { "{\"max_patches\": 16, \"resize_to_max_canvas\": false, \"size\": {\"height\": 336, \"width\": 336}, "
      "\"image_processor_type\": \"Llama4ImageProcessorFast\"}", 16 * 145 + 147, 17 * 144, 17 * 576 },
    /* the processor's defaults: 16 tiles */
    { "{}", 2467, 2448, 9792 },
    { "{\"max_patches\": 2}", 437, 3 * 144, 3 * 576 },
    { "{\"max_patches\": 1}", 147, 144, 576 },
    { "{\"max_patches\": 16, \"size\": {\"height\": 448, \"width\": 448}}", 0, 0, 0 },
    { "{\"max_patches\": 16, \"resize_to_max_canvas\": true}", 0, 0, 0 },
  };
  g_autofree char *src = model_path ("Llama-4-Scout-17B-16E-Instruct");
  g_autofree char *src_config = g_build_filename (src, "config.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *dir = vc_test_make_tmpdir ("llama4-preprocessor");
  g_autofree char *config = g_build_filename (dir, "config.json", NULL);
  g_autofree char *pre = g_build_filename (dir, "preprocessor_config.json", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (src_config, &text, NULL, &error));
  g_assert_true (g_file_set_contents (config, text, -1, &error));
  {
    g_autoptr(VcHfConfig) none = vc_hf_config_new_for_path (dir, &error);
    const VcArch *a = vc_hf_config_get_arch (none);

    g_assert_no_error (error);
    g_assert_cmpuint (a->encoder_tower, ==, VC_ENCODER_TOWER_LLAMA4);
    g_assert_cmpuint (a->encoder_image_tokens, ==, 0);
    g_assert_cmpuint (a->encoder_patches, ==, 0);
  }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VcHfConfig) c = NULL;
      const VcArch *a;

      g_test_message ("%s", cases[i].settings);
      g_assert_true (g_file_set_contents (pre, cases[i].settings, -1, &error));
      c = vc_hf_config_new_for_path (dir, &error);
      g_assert_no_error (error);
      a = vc_hf_config_get_arch (c);
      g_assert_cmpuint (a->encoder_image_tokens, ==, cases[i].tokens);
      g_assert_cmpuint (a->encoder_image_embeds, ==, cases[i].embeds);
      g_assert_cmpuint (a->encoder_patches, ==, cases[i].patches);
      g_assert_cmpuint (a->encoder_pixel_values, ==, cases[i].patches / 576 * 3 * 336 * 336);
      /* the weights do not change */
      g_assert_cmpuint (a->encoder_params, ==, 871932416);
      /* the tower's pass in vLLM 0.10 (keep_llama4_pass): its MLP width, the adapter and
       * projector below its layers (2 × (4,096 + 4,096) ≤ 3 × 1,408 × 4; 4,096 + 3 × 5,120 ≤
       * 5 × 1,408 × 4) */
      g_assert_cmpuint (a->encoder_intermediate, ==, 5632);
    }
  {
    /* a wider adapter (projector_input_dim 8,192: 2 × (8,192 + 4,096) > 16,896) leaves the pass
     * unknown, the weights read */
    g_autoptr(GString) wide = g_string_new (text);
    g_autoptr(VcHfConfig) c = NULL;

    g_assert_cmpuint (g_string_replace (wide, "\"projector_input_dim\": 4096", "\"projector_input_dim\": 8192", 1),
                      ==, 1);
    g_assert_true (g_file_set_contents (config, wide->str, -1, &error));
    g_assert_true (g_file_set_contents (pre, "{\"max_patches\": 16}", -1, &error));
    c = vc_hf_config_new_for_path (dir, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (c)->encoder_intermediate, ==, 0);
    g_assert_cmpuint (vc_hf_config_get_arch (c)->encoder_image_tokens, ==, 2467);
    g_assert_true (g_file_set_contents (config, text, -1, &error));
  }
  g_assert_true (g_file_set_contents (pre, "{\"max_patches\": 0}", -1, &error));
  g_assert_null (vc_hf_config_new_for_path (dir, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "preprocessor_config.json: \"max_patches\""));
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (pre, "[1]", -1, &error));
  g_assert_null (vc_hf_config_new_for_path (dir, &error));
  g_assert_nonnull (strstr (error->message, "preprocessor_config.json"));
  g_clear_error (&error);
  /* another model ignores the file */
  {
    g_autofree char *gemma = model_path ("gemma-3-4b-it");
    g_autofree char *gemma_config = g_build_filename (gemma, "config.json", NULL);
    g_autofree char *gtext = NULL;
    g_autoptr(VcHfConfig) g = NULL;

    g_assert_true (g_file_get_contents (gemma_config, &gtext, NULL, &error));
    g_assert_true (g_file_set_contents (config, gtext, -1, &error));
    g = vc_hf_config_new_for_path (dir, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (g)->encoder_image_tokens, ==, 260);
  }
  vc_test_remove_tree (dir);
}

/* Gemma 3's vision tower read from its vision_config */
static void
test_gemma3_encoder (void)
{
  /* Gemma 3: the SigLIP tower (416,866,032) and the projector (2,950,272) counted, FORMULAS.md;
   * a token reads the text model alone; the tower's layers and width kept for SGLang */
  {
    g_autoptr(VcHfConfig) gemma = load_model ("gemma-3-4b-it");
    const VcArch *a = vc_hf_config_get_arch (gemma);

    g_assert_cmpuint (a->encoder_params, ==, 419816304);
    g_assert_cmpuint (a->encoder_layers, ==, 27);
    g_assert_cmpuint (a->encoder_width, ==, 1152);
    /* SGLang's Gemma3ForConditionalGeneration: multimodal off by default (mm_disabled_models) */
    g_assert_true (a->sglang_multimodal_off);
    g_assert_cmpfloat (vc_hf_config_get_counts (gemma)->active, ==, 3880263168.0);
    g_assert_nonnull (strstr (vc_hf_config_get_description (gemma), "vision encoder and projector are counted"));
    /* what vLLM's profile run passes through the tower for one image: 896² pixels in 3
     * channels, (896 / 14)² patches, an MLP of 4,304, 256 embeddings in a placeholder of 260
     * prompt tokens ("\n\n", <start_of_image>, the 256, <end_of_image>, "\n\n") */
    g_assert_cmpuint (a->encoder_intermediate, ==, 4304);
    g_assert_cmpuint (a->encoder_patches, ==, 4096);
    g_assert_cmpuint (a->encoder_pixel_values, ==, 2408448);
    g_assert_cmpuint (a->encoder_image_embeds, ==, 256);
    g_assert_cmpuint (a->encoder_image_tokens, ==, 260);
    g_assert_cmpuint (a->encoder_tower, ==, VC_ENCODER_TOWER_SIGLIP);
  }
  /* an mm_tokens_per_image that is no square dividing the patch grid is not pooled as the
   * projector pools: the image is left unknown, the weights still counted */
  {
    g_autofree char *path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", "gemma-3-4b-it",
                                              "config.json", NULL);
    g_autofree char *text = NULL;
    g_autoptr(GString) odd = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(VcHfConfig) config = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, &error));
    odd = g_string_new (text);
    g_assert_cmpuint (g_string_replace (odd, "\"mm_tokens_per_image\": 256", "\"mm_tokens_per_image\": 255", 1), ==, 1);
    config = vc_hf_config_new_from_data (odd->str, odd->len, "config.json", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (config)->encoder_params, ==, 419816304);
    g_assert_cmpuint (vc_hf_config_get_arch (config)->encoder_image_tokens, ==, 0);
    g_assert_cmpuint (vc_hf_config_get_arch (config)->encoder_patches, ==, 0);
  }
  /* a text-only Gemma 3 has no encoder */
  {
    g_autoptr(VcHfConfig) small = load_model ("gemma-3-1b-pt");

    g_assert_cmpuint (vc_hf_config_get_arch (small)->encoder_params, ==, 0);
    g_assert_cmpuint (vc_hf_config_get_arch (small)->encoder_layers, ==, 0);
    g_assert_cmpuint (vc_hf_config_get_arch (small)->encoder_width, ==, 0);
    g_assert_false (vc_hf_config_get_arch (small)->sglang_multimodal_off);
  }
}

/* Mistral 3's Pixtral tower and projector read from vision_config and the wrapper's keys
 * (FORMULAS.md): Mistral Small 3.1's 24,011,361,280 with them; the projector's biases and a
 * list of feature layers grow linear_1 and linear_2; a Mistral text model under llava_next
 * (a CLIP tower) is still the text model alone */
static void
test_pixtral_encoder (void)
{
  static const char text[] =
    "\"text_config\": {\"model_type\": \"mistral\", \"head_dim\": 128, \"hidden_size\": 5120, "
    "\"intermediate_size\": 32768, \"max_position_embeddings\": 131072, \"num_attention_heads\": 32, "
    "\"num_hidden_layers\": 40, \"num_key_value_heads\": 8, \"rms_norm_eps\": 1e-05, "
    "\"rope_theta\": 1000000000.0, \"sliding_window\": null, \"vocab_size\": 131072}";
  static const char vision[] =
    "\"vision_config\": {\"model_type\": \"pixtral\", \"head_dim\": 64, \"hidden_size\": 1024, "
    "\"image_size\": 1540, \"intermediate_size\": 4096, \"num_attention_heads\": 16, \"num_channels\": 3, "
    "\"num_hidden_layers\": 24, \"patch_size\": 14, \"rope_theta\": 10000.0}";
  static const struct
  {
    const char *wrapper;
    double total;
    guint encoder;
    guint tokens;
  } cases[] = {
    { "\"model_type\": \"mistral3\", \"multimodal_projector_bias\": false, \"spatial_merge_size\": 2, "
      "\"vision_feature_layer\": -1", 24011361280.0, 438958080, 3080 },
    /* linear_1 and linear_2 with biases: 2 × 5,120 */
    { "\"model_type\": \"mistral3\", \"multimodal_projector_bias\": true", 24011371520.0, 438968320, 3080 },
    /* two feature layers concatenated: linear_1 of 2,048 → 5,120 */
    { "\"model_type\": \"mistral3\", \"vision_feature_layer\": [-1, -2]", 24016604160.0, 444200960, 3080 },
    /* a spatial merge of 3: the patch merger 9 × 1,024² instead of 4 × 1,024²; 1,540 is no
     * multiple of 14 × 3, so the processor's resizing would decide the image: unknown */
    { "\"model_type\": \"mistral3\", \"spatial_merge_size\": 3", 24016604160.0, 444200960, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf ("{%s, %s, %s}", cases[i].wrapper, text, vision);
      g_autoptr(GError) error = NULL;
      g_autoptr(VcHfConfig) config = vc_hf_config_new_from_data (json, strlen (json), "config.json", NULL, &error);
      const VcArch *a;

      g_test_message ("%s", cases[i].wrapper);
      g_assert_no_error (error);
      a = vc_hf_config_get_arch (config);
      g_assert_false (vc_hf_config_get_text_only (config));
      g_assert_cmpuint (a->encoder_params, ==, cases[i].encoder);
      g_assert_cmpfloat (vc_hf_config_get_counts (config)->total, ==, cases[i].total);
      /* the text model alone is active */
      g_assert_cmpfloat (vc_hf_config_get_counts (config)->active, ==, 23572403200.0);
      /* whether SGLang's release adjusts its fraction for Mistral3ForConditionalGeneration
       * (multimodal_model_archs) is not followed: no layers for it, its capacity refused; the
       * width is vLLM's profile pass's, known with the image */
      g_assert_cmpuint (a->encoder_layers, ==, 0);
      g_assert_cmpuint (a->encoder_width, ==, cases[i].tokens ? 1024 : 0);
      g_assert_false (a->sglang_multimodal_off);
      /* vLLM 0.11's dummy image (mistral3.py, pixtral.py PixtralHFEncoderInfo): image_size² =
       * 1,540², (1,540 / 14)² = 12,100 patches through the tower, (1,539 // 28 + 1)² = 55² =
       * 3,025 embeddings in a placeholder of 55 rows of 55 [IMG] and a break: 56 × 55 = 3,080
       * tokens; the tower's pass is Pixtral's (vc-engine-mm.c) */
      g_assert_cmpuint (a->encoder_tower, ==, VC_ENCODER_TOWER_PIXTRAL);
      g_assert_cmpuint (a->encoder_image_tokens, ==, cases[i].tokens);
      g_assert_cmpuint (a->encoder_image_embeds, ==, cases[i].tokens ? 3025 : 0);
      g_assert_cmpuint (a->encoder_patches, ==, cases[i].tokens ? 12100 : 0);
      g_assert_cmpuint (a->encoder_pixel_values, ==, cases[i].tokens ? 3 * 1540 * 1540 : 0);
      g_assert_cmpuint (a->encoder_intermediate, ==, cases[i].tokens ? 4096 : 0);
    }
  {
    static const char llava[] =
      "{\"model_type\": \"llava_next\", \"text_config\": {\"model_type\": \"mistral\", \"hidden_size\": 4096, "
      "\"intermediate_size\": 14336, \"num_attention_heads\": 32, \"num_hidden_layers\": 32, "
      "\"num_key_value_heads\": 8, \"vocab_size\": 32064}, \"vision_config\": {\"model_type\": "
      "\"clip_vision_model\", \"hidden_size\": 1024, \"intermediate_size\": 4096, \"num_hidden_layers\": 24, "
      "\"patch_size\": 14}}";
    g_autoptr(GError) error = NULL;
    g_autoptr(VcHfConfig) config = vc_hf_config_new_from_data (llava, strlen (llava), "config.json", NULL, &error);

    g_assert_no_error (error);
    g_assert_true (vc_hf_config_get_text_only (config));
    g_assert_cmpuint (vc_hf_config_get_arch (config)->encoder_params, ==, 0);
  }
}

/* The families with linear-attention or Mamba layers, and Llama 4's experts, chunked attention
 * and vision tower */
static void
test_hybrid_details (void)
{
  /* Qwen3-Next: three Gated DeltaNet layers to one with gated attention */
  {
    g_autoptr(VcHfConfig) next = load_model ("Qwen3-Next-80B-A3B-Instruct");
    const VcArch *a = vc_hf_config_get_arch (next);

    g_assert_cmpuint (a->recurrent_layers, ==, 36);
    g_assert_false (a->recurrent_with_attention);
    g_assert_cmpuint (vc_arch_attention_layers (a), ==, 12);
    /* attention where (i + 1) % full_attention_interval (4) == 0: layers 3, 7, … 47 */
    g_assert_cmpuint (a->attention_layer_period, ==, 4);
    g_assert_cmpuint (a->attention_layer_offset, ==, 3);
    g_assert_true (a->gated_attention && a->qk_norm && a->shared_expert_gate);
    /* in_proj_qkvz 2048 × 12288, in_proj_ba 2048 × 64, conv1d 8192 × 4, dt_bias and A_log 32
     * each, the gated norm 128, out_proj 4096 × 2048 */
    g_assert_cmpuint (a->recurrent_params, ==, 33718464);
    /* the convolution's last 3 inputs of 8192 channels and 32 × 128 × 128 recurrent values */
    g_assert_cmpuint (a->recurrent_state, ==, 548864);
    /* what TP splits: 32 value heads, 16 key heads (linear_num_value_heads, linear_num_key_heads) */
    g_assert_cmpuint (a->recurrent_heads, ==, 32);
    g_assert_cmpuint (a->recurrent_groups, ==, 16);
  }
  /* Llama 4: MoE in every layer with a shared expert, chunked attention, the vision tower counted */
  {
    g_autoptr(VcHfConfig) scout = load_model ("Llama-4-Scout-17B-16E");
    const VcArch *a = vc_hf_config_get_arch (scout);

    g_assert_cmpuint (a->encoder_params, ==, 871932416);
    g_assert_cmpuint (a->encoder_layers, ==, 34);
    g_assert_cmpuint (a->encoder_width, ==, 1408);
    g_assert_true (a->sglang_multimodal_off);
    /* 17B active, as published: the encoder is not read per generated token */
    g_assert_cmpfloat (vc_hf_config_get_counts (scout)->active, ==, 17172894720.0);
    g_assert_cmpuint (a->dense_layers, ==, 0);
    g_assert_cmpuint (a->n_shared_experts, ==, 1);
    g_assert_cmpuint (a->shared_intermediate_size, ==, 8192);
    g_assert_cmpuint (a->intermediate_size, ==, 16384);
    g_assert_nonnull (strstr (vc_hf_config_get_description (scout), "vision encoder and projector are counted"));
    g_assert_nonnull (strstr (vc_hf_config_get_description (scout), "chunks of 8192 tokens"));
  }
  {
    g_autoptr(VcHfConfig) maverick = load_model ("Llama-4-Maverick-17B-128E");
    const VcArch *a = vc_hf_config_get_arch (maverick);

    g_assert_cmpuint (a->dense_layers, ==, 24);
    g_assert_cmpfloat (vc_hf_config_get_counts (maverick)->active, ==, 17184691200.0);
  }
  /* Granite 4.0 hybrid: Mamba-2 layers instead of attention, as layer_types says */
  {
    g_autoptr(VcHfConfig) g4 = load_model ("granite-4.0-h-tiny");
    const VcArch *a = vc_hf_config_get_arch (g4);

    g_assert_cmpuint (a->recurrent_layers, ==, 36);
    g_assert_false (a->recurrent_with_attention);
    g_assert_cmpuint (vc_arch_attention_layers (a), ==, 4);
    /* layer_types' "attention" at layers 5, 15, 25 and 35 */
    g_assert_cmpuint (a->attention_layer_period, ==, 10);
    g_assert_cmpuint (a->attention_layer_offset, ==, 5);
    g_assert_cmpuint (a->n_shared_experts, ==, 1);
    g_assert_cmpuint (a->shared_intermediate_size, ==, 1024);
    /* in_proj 1536 × (3072 + 3328 + 48), conv1d 3328 × 4 with its bias, dt_bias, A_log and D 48
     * each, the gated norm 3072, out_proj 3072 × 1536 */
    g_assert_cmpuint (a->recurrent_params, ==, 14642576);
    /* 3328 channels × 3 and 48 heads × 64 × 128 */
    g_assert_cmpuint (a->recurrent_state, ==, 403200);
    g_assert_cmpuint (a->recurrent_heads, ==, 48);
    g_assert_cmpuint (a->recurrent_groups, ==, 1);
  }
  /* Falcon-H1: a Mamba-2 mixer beside attention in every layer */
  {
    g_autoptr(VcHfConfig) h1 = load_model ("Falcon-H1-Tiny-90M-Instruct");
    const VcArch *a = vc_hf_config_get_arch (h1);

    g_assert_cmpuint (a->recurrent_layers, ==, 24);
    g_assert_true (a->recurrent_with_attention);
    g_assert_cmpuint (vc_arch_attention_layers (a), ==, 24);
    /* in_proj 512 × (768 + 896 + 24), conv1d 896 × 4 with its bias, dt_bias, A_log and D 24
     * each, no norm (mamba_rms_norm false), out_proj 768 × 512 */
    g_assert_cmpuint (a->recurrent_params, ==, 1262024);
    /* 896 channels × 3 and 24 heads × 32 × 64 */
    g_assert_cmpuint (a->recurrent_state, ==, 51840);
    g_assert_cmpuint (a->recurrent_heads, ==, 24);
    g_assert_cmpuint (a->recurrent_groups, ==, 1);
  }
}

/* Qwen3-Next's and Llama 4's layer lists: which layers are linear attention, which are MoE */
static void
test_hybrid_layers (void)
{
  g_autoptr(GError) error = NULL;

  /* Qwen3-Next: layer_types, when given, says which layers are Gated DeltaNet */
  {
    g_autoptr(GString) kinds = g_string_new ("[");
    g_autoptr(VcHfConfig) next = NULL;

    for (guint i = 0; i < 48; i++)
      g_string_append_printf (kinds, "%s\"%s\"", i ? ", " : "", i % 2 ? "full_attention" : "linear_attention");
    g_string_append (kinds, "]");
    next = load_variant ("Qwen3-Next-80B-A3B-Instruct", "layer_types", kinds->str, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (next)->recurrent_layers, ==, 24);
    /* full attention on the odd layers: period 2, offset 1 */
    g_assert_cmpuint (vc_hf_config_get_arch (next)->attention_layer_period, ==, 2);
    g_assert_cmpuint (vc_hf_config_get_arch (next)->attention_layer_offset, ==, 1);
    g_assert_true (vc_hf_config_is_exact (next));
  }
  /* a layer_types whose attention layers are not periodic: the counts, no pattern */
  {
    g_autoptr(GString) kinds = g_string_new ("[");
    g_autoptr(VcHfConfig) next = NULL;

    for (guint i = 0; i < 48; i++)
      g_string_append_printf (kinds, "%s\"%s\"", i ? ", " : "", i == 0 || i == 3 || i == 5 ? "full_attention" : "linear_attention");
    g_string_append (kinds, "]");
    next = load_variant ("Qwen3-Next-80B-A3B-Instruct", "layer_types", kinds->str, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (next)->recurrent_layers, ==, 45);
    g_assert_cmpuint (vc_hf_config_get_arch (next)->attention_layer_period, ==, 0);
  }

  /* Llama 4: moe_layers or interleave_moe_layer_step; a text-only config counts no encoder */
  {
    g_autoptr(VcHfConfig) half = load_variant ("Llama-4-Scout-17B-16E", "text_config.moe_layers", "[1, 3, 5, 7]", &error);

    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (half)->dense_layers, ==, 44);
    g_assert_cmpuint (vc_hf_config_get_arch (half)->encoder_params, ==, 871932416);
  }
  {
    g_autofree char *dir = model_path ("Llama-4-Scout-17B-16E");
    g_autofree char *file = g_build_filename (dir, "config.json", NULL);
    g_autoptr(JsonParser) p = json_parser_new ();
    g_autoptr(JsonGenerator) g = json_generator_new ();
    g_autoptr(JsonNode) text = NULL;
    g_autofree char *data = NULL;
    g_autoptr(VcHfConfig) llm = NULL;

    json_parser_load_from_file (p, file, &error);
    g_assert_no_error (error);
    text = json_node_copy (json_object_get_member (json_node_get_object (json_parser_get_root (p)), "text_config"));
    json_generator_set_root (g, text);
    data = json_generator_to_data (g, NULL);
    llm = vc_hf_config_new_from_data (data, strlen (data), "config.json", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (vc_hf_config_get_family (llm), ==, "llama4_text");
    g_assert_cmpuint (vc_hf_config_get_arch (llm)->encoder_params, ==, 0);
    g_assert_cmpfloat (vc_hf_config_get_counts (llm)->total, ==, 107769861120.0);
  }
}

/* A config.json given as text, read; NULL with error set when refused. */
static VcHfConfig *
read_text (const char  *text,
           GError     **error)
{
  return vc_hf_config_new_from_data (text, strlen (text), "config.json", NULL, error);
}

/* text with key set to value (JSON text), added or replaced */
static char *
with_key (const char *text,
          const char *key,
          const char *value)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) value_parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  g_assert_true (json_parser_load_from_data (value_parser, value, -1, NULL));
  json_object_set_member (json_node_get_object (json_parser_get_root (parser)), key,
                          json_node_copy (json_parser_get_root (value_parser)));
  json_generator_set_root (generator, json_parser_get_root (parser));
  return json_generator_to_data (generator, NULL);
}

/* Cohere 2 (modeling_cohere2.py), with Command R7B's sizes: 32 layers of q 4096 × 4096, k and v
 * 4096 × 1024, o 4096 × 4096, gated MLP 3 × 4096 × 14336 and one LayerNorm weight, the tied
 * embeddings 256000 × 4096 and the final norm: 8,028,033,024; the window on three layers of
 * four (Cohere2Config's layer_types from sliding_window_pattern) */
static void
test_cohere2 (void)
{
  static const char r7b[] =
    "{\"model_type\": \"cohere2\", \"hidden_size\": 4096, \"intermediate_size\": 14336, "
    "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"num_hidden_layers\": 32, "
    "\"vocab_size\": 256000, \"head_dim\": 128, \"sliding_window\": 4096, "
    "\"sliding_window_pattern\": 4, \"max_position_embeddings\": 132096, "
    "\"use_parallel_block\": true, \"use_gated_activation\": true, \"use_embedding_sharing\": true, "
    "\"order_of_interleaved_layers\": \"local_attn_first\", \"rotary_pct\": 1.0, "
    "\"position_embedding_type\": \"rope_gptj\"}";
  static const struct { const char *key; const char *value; } refused[] = {
    { "head_dim", "64" },
    { "use_qk_norm", "true" },
    { "use_parallel_block", "false" },
    { "use_gated_activation", "false" },
    { "use_embedding_sharing", "false" },
    { "order_of_interleaved_layers", "\"global_attn_first\"" },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) c = read_text (r7b, &error);
  const VcArch *arch;

  g_assert_no_error (error);
  g_assert_true (vc_hf_config_is_exact (c));
  arch = vc_hf_config_get_arch (c);
  g_assert_cmpfloat (vc_hf_config_get_counts (c)->total, ==, 8028033024.0);
  g_assert_cmpuint (arch->norms_per_layer, ==, 1);
  g_assert_cmpint (arch->norm, ==, VC_NORM_RMS);
  g_assert_true (arch->tied_embeddings && arch->gated_mlp && !arch->qk_norm && !arch->qkv_bias);
  g_assert_cmpuint (arch->sliding_window, ==, 4096);
  g_assert_cmpuint (arch->sliding_window_layers, ==, 24);
  g_assert_cmpuint (arch->sliding_window_pattern, ==, 4);
  g_assert_cmpuint (arch->max_context, ==, 132096);
  /* keys and values of 8 heads of 128 in 16 bits: 4,096 bytes a layer and token */
  g_assert_cmpfloat (vc_arch_kv_bytes_per_token (arch, 2), ==, 32 * 4096.0);

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *text = with_key (r7b, refused[i].key, refused[i].value);
      g_autoptr(VcHfConfig) other = read_text (text, &error);
      const char *const *parts;

      g_test_message ("%s: %s", refused[i].key, refused[i].value);
      g_assert_no_error (error);
      g_assert_false (vc_hf_config_is_exact (other));
      parts = vc_hf_config_get_not_understood (other);
      g_assert_cmpstr (parts[0], ==, refused[i].key);
      g_assert_null (parts[1]);
    }

  /* what changes the count or the window, as Cohere2Config and Cohere2Attention build it */
  {
    g_autofree char *bias = with_key (r7b, "attention_bias", "true");
    g_autofree char *untied = with_key (r7b, "tie_word_embeddings", "false");
    g_autofree char *no_window = with_key (r7b, "sliding_window", "null");
    g_autofree char *pattern = with_key (r7b, "sliding_window_pattern", "2");
    g_autofree char *types = NULL;
    g_autoptr(GString) list = g_string_new ("[");
    g_autoptr(VcHfConfig) b = NULL;
    g_autoptr(VcHfConfig) u = NULL;
    g_autoptr(VcHfConfig) n = NULL;
    g_autoptr(VcHfConfig) p = NULL;
    g_autoptr(VcHfConfig) t = NULL;

    b = read_text (bias, &error);
    g_assert_no_error (error);
    g_assert_true (vc_hf_config_is_exact (b));
    /* q, k, v and o biases: 32 × (4,096 + 1,024 + 1,024 + 4,096) */
    g_assert_cmpfloat (vc_hf_config_get_counts (b)->total - 8028033024.0, ==, 327680.0);
    /* untied, with use_embedding_sharing still true: not understood, and the head counted */
    u = read_text (untied, &error);
    g_assert_no_error (error);
    g_assert_false (vc_hf_config_is_exact (u));
    g_assert_cmpstr (vc_hf_config_get_not_understood (u)[0], ==, "use_embedding_sharing");
    g_assert_cmpfloat (vc_hf_config_get_counts (u)->total - 8028033024.0, ==, 256000.0 * 4096);
    n = read_text (no_window, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (n)->sliding_window_layers, ==, 0);
    p = read_text (pattern, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (p)->sliding_window_layers, ==, 16);
    g_assert_cmpuint (vc_hf_config_get_arch (p)->sliding_window_pattern, ==, 2);
    g_assert_cmpuint (vc_hf_config_get_arch (n)->sliding_window_pattern, ==, 0);
    /* layer_types, when given, says which layers slide */
    for (guint i = 0; i < 32; i++)
      g_string_append_printf (list, "%s\"%s\"", i ? ", " : "", i < 20 ? "sliding_attention" : "full_attention");
    g_string_append (list, "]");
    types = with_key (r7b, "layer_types", list->str);
    t = read_text (types, &error);
    g_assert_no_error (error);
    g_assert_true (vc_hf_config_is_exact (t));
    g_assert_cmpuint (vc_hf_config_get_arch (t)->sliding_window_layers, ==, 20);
    /* 20 sliding then 12 full: not every Pth layer, no pattern */
    g_assert_cmpuint (vc_hf_config_get_arch (t)->sliding_window_pattern, ==, 0);
  }
}

/* Hunyuan (modular_hunyuan_v1_dense.py, modular_hunyuan_v1_moe.py): Llama's projections with
 * per-head query and key RMSNorms; the MoE with Hunyuan-A13B's sizes: 32 layers of attention
 * 41,943,040 + q/k norms 256 + 2 norms 8,192, 64 experts and a shared MLP of 3 × 4096 × 3072
 * and the router 4096 × 64; tied embeddings 128167 × 4096 and the final norm */
static void
test_hunyuan (void)
{
  static const char moe[] =
    "{\"model_type\": \"hunyuan_v1_moe\", \"hidden_size\": 4096, \"intermediate_size\": 3072, "
    "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"num_hidden_layers\": 32, "
    "\"head_dim\": 128, \"attention_head_dim\": 128, \"vocab_size\": 128167, \"num_experts\": 64, "
    "\"moe_topk\": [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8], "
    "\"moe_intermediate_size\": [3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, "
    "3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072, "
    "3072, 3072, 3072, 3072, 3072], \"num_shared_expert\": 1, \"use_mixed_mlp_moe\": true, "
    "\"use_qk_norm\": true, \"use_cla\": false, \"cla_share_factor\": 2, \"moe_layer_num_skipped\": 0, "
    "\"tie_word_embeddings\": true}";
  static const struct { const char *key; const char *value; } refused[] = {
    { "use_qk_norm", "false" },
    { "use_cla", "true" },
    { "attention_head_dim", "64" },
    { "moe_intermediate_size", "1536" },
    { "num_shared_expert", "2" },
    { "use_mixed_mlp_moe", "false" },
    { "moe_layer_num_skipped", "1" },
    { "num_experts", "[64, 32, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, "
                     "64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64]" },
    { "moe_topk", "[8, 2, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]" },
    { "sliding_window", "4096" },
    { "mlp_bias", "true" },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) m = read_text (moe, &error);
  g_autoptr(VcHfConfig) bad = NULL;
  g_autofree char *too_many = NULL;
  const VcArch *arch;

  g_assert_no_error (error);
  g_assert_true (vc_hf_config_is_exact (m));
  arch = vc_hf_config_get_arch (m);
  g_assert_true (arch->qk_norm && !arch->qk_norm_full && !arch->qkv_bias && !arch->mlp_bias);
  g_assert_cmpuint (arch->n_experts, ==, 64);
  g_assert_cmpuint (arch->experts_per_token, ==, 8);
  g_assert_cmpuint (arch->n_shared_experts, ==, 1);
  g_assert_cmpuint (arch->dense_layers, ==, 0);
  g_assert_cmpfloat (vc_hf_config_get_counts (m)->total, ==, 80393183232.0);
  /* 8 of 64 experts and the shared MLP a token goes through */
  g_assert_cmpfloat (vc_hf_config_get_counts (m)->active, ==, 12747448320.0);

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *text = with_key (moe, refused[i].key, refused[i].value);
      g_autoptr(VcHfConfig) other = read_text (text, &error);
      const char *const *parts;

      g_test_message ("%s: %s", refused[i].key, refused[i].value);
      g_assert_no_error (error);
      g_assert_false (vc_hf_config_is_exact (other));
      parts = vc_hf_config_get_not_understood (other);
      g_assert_cmpstr (parts[0], ==, refused[i].key);
      g_assert_null (parts[1]);
    }

  /* more experts chosen than there are: refused, naming the key */
  too_many = with_key (moe, "moe_topk", "65");
  bad = read_text (too_many, &error);
  g_assert_null (bad);
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "\"moe_topk\" must be a whole number from 1 to 64, got 65"));
  g_clear_error (&error);
  g_free (too_many);
  too_many = with_key (moe, "num_experts", "[]");
  bad = read_text (too_many, &error);
  g_assert_null (bad);
  g_assert_nonnull (strstr (error->message, "\"num_experts\" must be a whole number or a list of one per layer (32)"));
  g_clear_error (&error);
  g_free (too_many);
  /* one value too few: transformers would index past the list */
  too_many = with_key (moe, "moe_topk", "[8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, "
                       "8, 8, 8, 8, 8, 8, 8, 8, 8]");
  bad = read_text (too_many, &error);
  g_assert_null (bad);
  g_assert_nonnull (strstr (error->message, "\"moe_topk\" must be a whole number or a list of one per layer (32)"));
}

/* Hunyuan dense with Hunyuan-7B's sizes: 32 layers of attention 41,943,040 + q/k norms 256 +
 * 2 norms 8,192 + MLP 3 × 4096 × 14336, tied embeddings 128167 × 4096 and the final norm */
static void
test_hunyuan_dense (void)
{
  static const char dense[] =
    "{\"model_type\": \"hunyuan_v1_dense\", \"hidden_size\": 4096, \"intermediate_size\": 14336, "
    "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"num_hidden_layers\": 32, "
    "\"head_dim\": 128, \"vocab_size\": 128167, \"use_qk_norm\": true, \"tie_word_embeddings\": true}";
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) d = NULL;

  d = read_text (dense, &error);
  g_assert_no_error (error);
  g_assert_true (vc_hf_config_is_exact (d));
  g_assert_false (vc_arch_is_moe (vc_hf_config_get_arch (d)));
  g_assert_true (vc_hf_config_get_arch (d)->qk_norm);
  g_assert_cmpfloat (vc_hf_config_get_counts (d)->total, ==, 7504568320.0);
  /* the MoE keys a dense file may carry say nothing with one expert, and more are not built */
  {
    g_autofree char *one = with_key (dense, "num_experts", "1");
    g_autofree char *one_moe = with_key (one, "moe_intermediate_size", "14336");
    g_autofree char *many = with_key (dense, "num_experts", "64");
    g_autoptr(VcHfConfig) o = read_text (one_moe, &error);
    g_autoptr(VcHfConfig) e = NULL;

    g_assert_no_error (error);
    g_assert_true (vc_hf_config_is_exact (o));
    g_assert_cmpfloat (vc_hf_config_get_counts (o)->total, ==, 7504568320.0);
    e = read_text (many, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (vc_hf_config_get_not_understood (e)[0], ==, "num_experts");
    g_assert_cmpfloat (vc_hf_config_get_counts (e)->total, ==, 7504568320.0);
  }
}

/* Tencent's own files name "hunyuan" for the dense and the MoE models: the architecture says
 * which of transformers' classes reads them; another architecture is not understood. */
static void
test_hunyuan_remote_type (void)
{
  static const char dense[] =
    "{\"model_type\": \"hunyuan\", \"architectures\": [\"HunYuanDenseV1ForCausalLM\"], "
    "\"hidden_size\": 4096, \"intermediate_size\": 14336, \"num_attention_heads\": 32, "
    "\"num_key_value_heads\": 8, \"num_hidden_layers\": 32, \"head_dim\": 128, \"vocab_size\": 128167, "
    "\"use_qk_norm\": true, \"tie_word_embeddings\": true}";
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) d = read_text (dense, &error);
  g_autoptr(VcHfConfig) other = NULL;
  g_autofree char *unknown = NULL;

  g_assert_no_error (error);
  g_assert_true (vc_hf_config_is_exact (d));
  g_assert_cmpstr (vc_hf_config_get_family (d), ==, "hunyuan_v1_dense");
  g_assert_cmpfloat (vc_hf_config_get_counts (d)->total, ==, 7504568320.0);

  unknown = with_key (dense, "architectures", "[\"HunYuanVLForConditionalGeneration\"]");
  other = read_text (unknown, &error);
  g_assert_no_error (error);
  g_assert_false (vc_hf_config_is_exact (other));
  g_assert_cmpstr (vc_hf_config_get_not_understood (other)[0], ==, "model_type “hunyuan”");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autofree char *name = g_strdup_printf ("/hf-config/model/%s", models[i].dir);
      g_test_add_data_func (name, &models[i], test_model);
    }
  g_test_add_func ("/hf-config/family-details", test_family_details);
  g_test_add_func ("/hf-config/hybrid-details", test_hybrid_details);
  g_test_add_func ("/hf-config/gemma3-encoder", test_gemma3_encoder);
  g_test_add_func ("/hf-config/llama4-preprocessor", test_llama4_preprocessor);
  g_test_add_func ("/hf-config/qwen3-vl-preprocessor", test_qwen3_vl_preprocessor);
  g_test_add_func ("/hf-config/qwen3-vl-sglang-layers", test_qwen3_vl_sglang_layers);
  g_test_add_func ("/hf-config/pixtral-encoder", test_pixtral_encoder);
  g_test_add_func ("/hf-config/hybrid-layers", test_hybrid_layers);
  g_test_add_func ("/hf-config/glm4-moe", test_glm4_moe);
  g_test_add_func ("/hf-config/unknown-family", test_unknown_family);
  g_test_add_func ("/hf-config/not-understood", test_not_understood);
  g_test_add_func ("/hf-config/windows-and-layers", test_windows_and_layers);
  g_test_add_func ("/hf-config/bad-values", test_bad_values);
  g_test_add_func ("/hf-config/bad-files", test_bad_files);
  g_test_add_func ("/hf-config/files-and-folders", test_files_and_folders);
  g_test_add_func ("/hf-config/async", test_async);
  g_test_add_func ("/hf-config/apply", test_apply);
  g_test_add_func ("/hf-config/cli/models", test_cli_models);
  g_test_add_func ("/hf-config/cli/overrides", test_cli_overrides);
  g_test_add_func ("/hf-config/cli/errors", test_cli_errors);
  g_test_add_func ("/hf-config/cli/sequence-state", test_cli_sequence_state);
  g_test_add_func ("/hf-config/max-context", test_max_context);
  g_test_add_func ("/hf-config/cohere2", test_cohere2);
  g_test_add_func ("/hf-config/hunyuan", test_hunyuan);
  g_test_add_func ("/hf-config/hunyuan-dense", test_hunyuan_dense);
  g_test_add_func ("/hf-config/hunyuan-remote-type", test_hunyuan_remote_type);
  return g_test_run ();
}
