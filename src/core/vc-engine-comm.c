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

/* NCCL's limits (NVIDIA/nccl, src/include/device.h): MAXCHANNELS = 64, NCCL_STEPS = 8; the
 * buffers of one connection (src/init.cc, computeBuffSizes): LL 8 lines × 512 threads × 8 steps
 * × 16 B, LL128 120 × 640 × 8 × 8 B, Simple NCCL_BUFFSIZE = 4 MiB */
#define NCCL_MAX_CHANNELS 64.0
#define NCCL_LL_BYTES (8.0 * 512 * 8 * 16)
#define NCCL_LL128_BYTES (120.0 * 640 * 8 * 8)
#define NCCL_SIMPLE_BYTES (4.0 * MIB)
/* cuMem allocations are rounded up to the allocation granularity (src/include/alloc.h,
 * ncclCuMemAlloc), 2 MiB: the bound rounds each buffer set up to it */
#define NCCL_GRANULE (2.0 * MIB)
/* NVLS (src/transport/nvls.cc): at most 32 channels (NVLS_NCHANNELS_SM100, the largest default)
 * × 2 × NCCL_NVLS_CHUNKSIZE 128 KiB × 8 steps for each head, one head per GPU at most */
#define NCCL_NVLS_PER_HEAD (32.0 * 2 * 128 * 1024 * 8)
/* send/recv (pipeline stages): p2pChunkSize × 8 steps, at most the Simple buffer, for each of
 * MAX_P2P_NCHANNELS = 64 channels, to the next stage and from the previous one */
#define NCCL_P2P_BYTES (2.0 * NCCL_MAX_CHANNELS * NCCL_SIMPLE_BYTES)

static double
round_granule (double bytes)
{
  return ceil (bytes / NCCL_GRANULE) * NCCL_GRANULE;
}

/* One communicator on one GPU of a group on one machine: in each channel the ring's connection
 * from the previous rank and the tree's from its parent and its child (ncclTopoPreset chains
 * the ranks of a machine, src/graph/connect.cc), each with its LL and LL128 buffers on the
 * receiver and its Simple buffer on the receiver or, with P2P read, on the sender
 * (src/transport/p2p.cc, p2pSendSetup and p2pRecvSetup) */
static double
nccl_comm_bound (void)
{
  double connection = round_granule (NCCL_LL_BYTES + NCCL_LL128_BYTES) + round_granule (NCCL_SIMPLE_BYTES);

  return NCCL_MAX_CHANNELS * 3 * connection;
}

double
vc_engine_nccl_bound_bytes (const VcInputs *in,
                            double          tp,
                            double          pp)
{
  double bytes = 0;
  double nvls = 0;

  if (in->mode != VC_MODE_INFERENCE || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG) ||
      !(tp * pp > 1))
    return 0;
  /* vLLM with --kv-cache-memory takes the cache as given: NCCL moves no figure */
  if (in->engine == VC_ENGINE_VLLM && in->kv_cache_memory_gb > 0)
    return 0;
  /* NVLS needs cuMem, which vLLM leaves on from 0.11 (SGLang sets NCCL_NVLS_ENABLE=0 unless
   * --enable-nccl-nvls, and vLLM 0.10 NCCL_CUMEM_ENABLE=0) */
  if (in->engine == VC_ENGINE_VLLM && in->vllm_version != VC_VLLM_VERSION_0_10)
    nvls = NCCL_NVLS_PER_HEAD;
  /* each group of more than one GPU holds two communicators, the engine's PyNcclCommunicator
   * and torch's for the collectives run on its device group: the TP group and the expert group
   * of the same ranks (vLLM's EP group, SGLang's MoE groups), the PP group, and torch's for the
   * world */
  if (tp > 1)
    bytes += 2 * 2 * (nccl_comm_bound () + nvls * tp);
  if (pp > 1)
    bytes += 2 * (nccl_comm_bound () + NCCL_P2P_BYTES + nvls * pp);
  bytes += nccl_comm_bound () + nvls * tp * pp;
  return bytes;
}

char *
vc_engine_nccl_uncounted_text (const VcInputs *in,
                               double          tp,
                               double          pp)
{
  double bytes = vc_engine_nccl_bound_bytes (in, tp, pp);
  g_autofree char *size = NULL;

  if (bytes <= 0)
    return NULL;
  size = g_format_size_full ((guint64) bytes, G_FORMAT_SIZE_IEC_UNITS);
  /* Translators: the bound is a size, "10.6 GiB" */
  return g_strdup_printf (_("NCCL’s buffers are not counted: up to %s less for the KV cache on each GPU "
                            "(NCCL’s channel count follows its topology search on the machine)"),
                          size);
}

/* NCCL's own buffers are not sized (FORMULAS.md): the text says so, with their bound */
static char *
nccl_clause (const VcInputs *in,
             double          tp)
{
  double bytes = vc_engine_nccl_bound_bytes (in, tp, MAX (1u, in->layout.pp));
  g_autofree char *size = NULL;

  if (bytes <= 0)
    return g_strdup ("");
  size = g_format_size_full ((guint64) bytes, G_FORMAT_SIZE_IEC_UNITS);
  if (in->engine == VC_ENGINE_SGLANG)
    return g_strdup_printf (_("; NCCL’s own buffers, which follow its topology search on the machine, are not "
                              "counted (SGLang measures its total after them): up to %s a GPU"),
                            size);
  return g_strdup_printf (_("; NCCL’s own buffers, which follow its topology search on the machine, are not "
                            "counted (those NCCL first connects in the profile run come out of vLLM’s cache): "
                            "up to %s a GPU"),
                          size);
}

char *
vc_engine_comm_describe (const VcInputs *in,
                         double          tp)
{
  double bytes = vc_engine_custom_ar_bytes (in, tp);
  g_autofree char *size = NULL;
  g_autofree char *nccl = NULL;

  if (in->mode != VC_MODE_INFERENCE || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG))
    return g_strdup ("");
  nccl = nccl_clause (in, tp);
  /* pipeline stages alone: NCCL's buffers only */
  if (tp < 2)
    return g_steal_pointer (&nccl);
  if (bytes <= 0)
    return g_strconcat (in->disable_custom_all_reduce ? _("; no custom all-reduce (--disable-custom-all-reduce)")
                                                      : _("; no custom all-reduce at this TP degree (2, 4, 6 or 8 only)"),
                        nccl, NULL);
  size = g_format_size_full ((guint64) bytes, G_FORMAT_SIZE_IEC_UNITS);
  if (in->engine == VC_ENGINE_SGLANG)
    return g_strdup_printf (_("; beside it, the custom all-reduce at TP %.0f: two 8 MiB buffers shared between "
                              "the GPUs, its signals and 8 MiB of registered pointers = %s a GPU, allocated before "
                              "SGLang measures the memory its static fraction applies to%s"),
                            tp, size, nccl);
  return g_strdup_printf (_("; beside it, the custom all-reduce at TP %.0f: two 8 MiB buffers shared between "
                            "the GPUs, its signals and 8 MiB of registered pointers = %s a GPU, allocated before "
                            "vLLM’s memory snapshot, outside the requested share%s"),
                          tp, size, nccl);
}
