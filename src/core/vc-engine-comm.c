/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine-comm.c: the custom all-reduce buffers vLLM and SGLang keep on each GPU under tensor
 * parallelism, and where each engine counts them. The sources followed are in FORMULAS.md
 * ("Tensor parallelism and memory outside torch"). */
#define G_LOG_DOMAIN "vc-engine"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "vc-engine-comm.h"

#define MIB 1048576.0

/* CustomAllreduce.__init__ (vllm/distributed/device_communicators/custom_all_reduce.py, and
 * python/sglang/srt/distributed/device_communicators/custom_all_reduce.py adapted from it):
 * max_size = 8192 × 1024 bytes; _SUPPORTED_WORLD_SIZES = [2, 4, 6, 8] */
#define CUSTOM_AR_MAX_SIZE (8192.0 * 1024.0)
/* ops.meta_size() = sizeof(Signal): self_counter[36][8] and peer_counter[2][36][8] flags of
 * 4 bytes (kMaxBlocks = 36, csrc/custom_all_reduce.cuh) */
#define CUSTOM_AR_SIGNAL_BYTES (36.0 * 8 * 4 + 2 * 36.0 * 8 * 4)

gboolean
vc_engine_custom_ar_enabled (const VcInputs *in,
                             double          tp)
{
  if (in->mode != VC_MODE_INFERENCE || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG) ||
      in->disable_custom_all_reduce)
    return FALSE;
  /* world_size 1 needs none; other sizes than 2, 4, 6 and 8 are refused with a warning */
  return tp == 2 || tp == 4 || tp == 6 || tp == 8;
}

/* meta_ptrs = create_shared_buffer(meta_size() + max_size) and buffer_ptrs =
 * create_shared_buffer(max_size), cudaMalloc'd and shared by IPC handles (the peers' are only
 * mapped), and rank_data = torch.empty(8 MiB) for the registered pointers (vLLM's
 * 8 × 1024 × 1024, SGLang's max_size: the same 8 MiB) */
double
vc_engine_custom_ar_bytes (const VcInputs *in,
                           double          tp)
{
  if (!vc_engine_custom_ar_enabled (in, tp))
    return 0;
  return CUSTOM_AR_SIGNAL_BYTES + CUSTOM_AR_MAX_SIZE + CUSTOM_AR_MAX_SIZE + 8.0 * MIB;
}

/* SGLang's ModelRunner.init_torch_distributed sets the groups up (initialize_model_parallel,
 * which creates the custom all-reduce) and only then reads min_per_gpu_memory =
 * get_available_gpu_memory(...), the total its mem_fraction_static applies to. vLLM 0.11 to
 * 0.20 create it in init_worker_distributed_environment, before init_device's memory snapshot,
 * so it lies outside the request like the CUDA context; 0.10 and earlier took the snapshot
 * first, and are sized on one GPU only. */
double
vc_engine_comm_pool_bytes (const VcInputs *in,
                           double          tp)
{
  if (in->engine != VC_ENGINE_SGLANG)
    return 0;
  return vc_engine_custom_ar_bytes (in, tp);
}

/* NCCL's own buffers are not sized (FORMULAS.md): the text says so wherever they exist */
static const char *
nccl_clause (const VcInputs *in)
{
  if (in->engine == VC_ENGINE_SGLANG)
    return _("; NCCL’s own buffers, which follow its topology search on the machine, are not counted "
             "(SGLang measures its total after them)");
  return _("; NCCL’s own buffers, which follow its topology search on the machine, are not counted "
           "(those NCCL first connects in the profile run come out of vLLM’s cache)");
}

char *
vc_engine_comm_describe (const VcInputs *in,
                         double          tp)
{
  double bytes = vc_engine_custom_ar_bytes (in, tp);
  g_autofree char *size = NULL;

  if (in->mode != VC_MODE_INFERENCE || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG) || tp < 2)
    return g_strdup ("");
  if (bytes <= 0)
    return g_strconcat (in->disable_custom_all_reduce ? _("; no custom all-reduce (--disable-custom-all-reduce)")
                                                      : _("; no custom all-reduce at this TP degree (2, 4, 6 or 8 only)"),
                        nccl_clause (in), NULL);
  size = g_format_size_full ((guint64) bytes, G_FORMAT_SIZE_IEC_UNITS);
  if (in->engine == VC_ENGINE_SGLANG)
    return g_strdup_printf (_("; beside it, the custom all-reduce at TP %.0f: two 8 MiB buffers shared between "
                              "the GPUs, its signals and 8 MiB of registered pointers = %s a GPU, allocated before "
                              "SGLang measures the memory its static fraction applies to%s"),
                            tp, size, nccl_clause (in));
  return g_strdup_printf (_("; beside it, the custom all-reduce at TP %.0f: two 8 MiB buffers shared between "
                            "the GPUs, its signals and 8 MiB of registered pointers = %s a GPU, allocated before "
                            "vLLM’s memory snapshot, outside the requested share%s"),
                          tp, size, nccl_clause (in));
}
