/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A stand-in for libnvidia-ml with the functions vc-local-gpus.c calls (nvml.h's signatures):
 * two cards, the second one unnamed. Loaded by test-local-gpus with dlopen. */
#include <string.h>

typedef struct
{
  unsigned long long total, free, used;
} FakeMemory;

static int initialized;
static int devices[2];

int nvmlInit_v2 (void);
int nvmlShutdown (void);
int nvmlDeviceGetCount_v2 (unsigned int *count);
int nvmlDeviceGetHandleByIndex_v2 (unsigned int index, void **device);
int nvmlDeviceGetName (void *device, char *name, unsigned int length);
int nvmlDeviceGetMemoryInfo (void *device, FakeMemory *memory);

int
nvmlInit_v2 (void)
{
  initialized = 1;
  return 0;
}

int
nvmlShutdown (void)
{
  initialized = 0;
  return 0;
}

int
nvmlDeviceGetCount_v2 (unsigned int *count)
{
  if (!initialized)
    return 1;
  *count = 2;
  return 0;
}

int
nvmlDeviceGetHandleByIndex_v2 (unsigned int  index,
                               void        **device)
{
  if (!initialized || index > 1)
    return 2;
  *device = &devices[index];
  return 0;
}

int
nvmlDeviceGetName (void         *device,
                   char         *name,
                   unsigned int  length)
{
  if (device != &devices[0])
    return 3;
  strncpy (name, "NVIDIA GeForce RTX 4090", length);
  return 0;
}

int
nvmlDeviceGetMemoryInfo (void       *device,
                         FakeMemory *memory)
{
  memory->total = device == &devices[0] ? 24564ull * 1048576 : 81559ull * 1048576;
  memory->free = memory->total / 2;
  memory->used = memory->total - memory->free;
  return 0;
}
