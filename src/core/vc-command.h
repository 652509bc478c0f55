/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-command.h: the command that runs an estimate, as each engine takes it.
 *
 * From the estimate's effective inputs (its layout, context, engine options; for training the
 * sharding, offload, micro-batch and accumulation) a ready command line: llama-server, vllm
 * serve, SGLang's launch_server, an Ollama Modelfile, an Accelerate max_memory map, a DeepSpeed
 * JSON or an Accelerate FSDP config with its launch line, or the trainer's own: an Axolotl or
 * LLaMA-Factory YAML with its launch line, TRL's `trl sft` line, torchtune's `tune run` with its
 * recipe config's overrides. The command states only what the
 * estimate assumed: a value left to the engine's default is left out. What the estimate assumes
 * and the engine cannot be told is refused, naming it. Every flag and key is taken from the
 * engine's own parser at the version vc_command_engine_source() names.
 */
#pragma once

#include <glib.h>

#include "vc-estimate.h"
#include "vc-estimator.h"

G_BEGIN_DECLS

typedef enum
{
  VC_COMMAND_LLAMA_CPP,
  VC_COMMAND_VLLM,
  VC_COMMAND_SGLANG,
  VC_COMMAND_OLLAMA,
  VC_COMMAND_ACCELERATE,
  VC_COMMAND_DEEPSPEED,
  VC_COMMAND_FSDP,
  VC_COMMAND_AXOLOTL,              /* training with a trainer's own config (--trainer) */
  VC_COMMAND_LLAMAFACTORY,
  VC_COMMAND_TRL,
  VC_COMMAND_TORCHTUNE,
} VcCommandEngine;

#define VC_N_COMMAND_ENGINES (VC_COMMAND_TORCHTUNE + 1)
#define VC_COMMAND_MAX_DEVICES 16

/* Where the model comes from, as the engine loads it */
typedef enum
{
  VC_COMMAND_MODEL_NONE,
  VC_COMMAND_MODEL_PATH,           /* a local file or folder */
  VC_COMMAND_MODEL_HUB,            /* a Hugging Face repository, with a file in it or not */
  VC_COMMAND_MODEL_OLLAMA,         /* an Ollama model name[:tag] */
} VcCommandModelKind;

/* What a command is built from: the estimate's inputs, the model, and what a per-device plan
 * knows (each left at its "none" value without one). */
typedef struct
{
  const VcInputs *inputs;
  VcCommandModelKind model_kind;
  const char *model;               /* the path, the repository or the Ollama name */
  const char *model_file;          /* HUB: a file in the repository (a GGUF); NULL: none */
  const char *mmproj;              /* llama.cpp --mmproj: the projector file as given; NULL: none */
  double per_gpu_bytes;            /* the estimate's need on each GPU (the busiest one's) */
  /* from a plan */
  guint n_devices;                 /* GPUs of the plan; 0: the layout's */
  double split[VC_COMMAND_MAX_DEVICES];            /* llama.cpp --tensor-split proportions;
                                                    * all 0: an equal split */
  double max_memory_bytes[VC_COMMAND_MAX_DEVICES]; /* Accelerate max_memory per GPU; all 0:
                                                    * per_gpu_bytes on each */
  double cpu_memory_bytes;         /* Accelerate max_memory["cpu"]; 0: none */
  int main_gpu;                    /* llama.cpp --main-gpu, Ollama main_gpu; -1: none */
  gboolean row_split;              /* llama.cpp --split-mode row */
  gboolean no_split;               /* llama.cpp --split-mode none: the main GPU alone */
  guint n_cpu_moe;                 /* llama.cpp --n-cpu-moe: experts of the first N layers in
                                    * RAM; 0: none */
  char *pp_partition;              /* vLLM's VLLM_PP_LAYER_PARTITION ("20,12"), owned; NULL: none */
  char *owned[2];                  /* what vc_command_request_set_model() copied */
  VcInputs *planned;               /* the inputs at the plan's degrees (vLLM, SGLang), owned */
} VcCommandRequest;

typedef struct
{
  VcCommandEngine engine;
  char **argv;                     /* the line to run */
  char *file_name;                 /* the file it reads (Modelfile, JSON, YAML); NULL: none */
  char *file_text;
  char *text;                      /* what to paste in a shell (or, for Accelerate, Python) */
} VcCommand;

void        vc_command_request_init   (VcCommandRequest *request,
                                       const VcInputs   *inputs);
gboolean    vc_command_request_set_model (VcCommandRequest *request,
                                          const char       *spec,
                                          GError          **error);
void        vc_command_request_clear  (VcCommandRequest *request);
/* initializes the request (what it owned is not freed: clear it first) */
void        vc_command_request_from_estimate (VcCommandRequest *request,
                                              VcEstimate       *estimate);
VcCommand  *vc_command_build          (VcCommandEngine         engine,
                                       const VcCommandRequest *request,
                                       GError                **error);
void        vc_command_free           (VcCommand *command);

const char *vc_command_engine_id      (VcCommandEngine engine);
const char *vc_command_engine_source  (VcCommandEngine engine);
gboolean    vc_command_engine_from_id (const char      *id,
                                       VcCommandEngine *engine,
                                       GError         **error);
char       *vc_command_engine_list    (void);
gboolean    vc_command_estimate_engine (const VcInputs  *inputs,
                                        VcCommandEngine *engine);
const char * const *vc_command_flags  (VcCommandEngine engine);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VcCommand, vc_command_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VcCommandRequest, vc_command_request_clear)

G_END_DECLS
