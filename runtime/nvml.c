/* Optional NVML sampling (GMEMRT_NVML=1): device memory used, SM utilisation and
 * memory-bandwidth utilisation over time, as `nvidia-smi dmon` shows, so a report can tell
 * capacity-bound (memory near full, SM idle) from bandwidth-bound (memory busy, SM waiting).
 * libnvidia-ml is loaded with dlopen and the few functions used are declared here: nvml.h is not
 * on every machine that builds this. */
#include "nvml.h"
#include "internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int nvmlReturn_t; /* 0 = NVML_SUCCESS */
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef struct {
  unsigned long long total, free, used;
} nvmlMemory_t;
typedef struct {
  unsigned int gpu, memory; /* percent of time the SMs, and the memory interface, were busy */
} nvmlUtilization_t;

static struct {
  nvmlReturn_t (*init)(void);
  nvmlReturn_t (*count)(unsigned int *);
  nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t *);
  nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t *);
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t *);
} nvml;

static char reason[200] = "turned off (GMEMRT_NVML=0)";
int gmemrt_nvml_available;

const char *gmemrt_nvml_reason(void) {
  return reason;
}

static void add_sample(double t, unsigned dev, const nvmlMemory_t *m, const nvmlUtilization_t *u) {
  gmemrt_lock();
  if (gmemrt.nnvml == gmemrt.capnvml) {
    if (gmemrt.capnvml >= 4096) {
      /* full: keep every other sample */
      for (size_t i = 0; i < gmemrt.nnvml / 2; i++)
        gmemrt.nvml_samples[i] = gmemrt.nvml_samples[2 * i];
      gmemrt.nnvml /= 2;
    } else {
      size_t cap = gmemrt.capnvml ? gmemrt.capnvml * 2 : 256;
      gmemrt_nvml_sample *s = realloc(gmemrt.nvml_samples, cap * sizeof *s);
      if (!s) {
        gmemrt_unlock();
        return;
      }
      gmemrt.nvml_samples = s;
      gmemrt.capnvml = cap;
    }
  }
  gmemrt.nvml_samples[gmemrt.nnvml++] =
      (gmemrt_nvml_sample){t, dev, m->used, m->total, u->gpu, u->memory};
  gmemrt_unlock();
}

static void *sampler(void *arg) {
  (void)arg;
  unsigned count = 0;
  if (nvml.count(&count) != 0 || count == 0)
    return NULL;
  if (count > 16)
    count = 16;
  nvmlDevice_t dev[16];
  for (unsigned i = 0; i < count; i++)
    if (nvml.handle(i, &dev[i]) != 0)
      return NULL;
  struct timespec pause = {gmemrt_opt.nvml_ms / 1000, (gmemrt_opt.nvml_ms % 1000) * 1000000L};
  for (;;) {
    double t = gmemrt_now_ms() - gmemrt.start_ms;
    for (unsigned i = 0; i < count; i++) {
      nvmlMemory_t m;
      nvmlUtilization_t u;
      if (nvml.memory(dev[i], &m) == 0 && nvml.utilization(dev[i], &u) == 0)
        add_sample(t, i, &m, &u);
    }
    nanosleep(&pause, NULL);
  }
  return NULL;
}

void gmemrt_nvml_start(void) {
  if (!gmemrt_opt.nvml)
    return;
  void *lib = dlopen(gmemrt_opt.nvml_library, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(reason, sizeof reason, "NVML not loaded: %s", dlerror());
    return;
  }
  *(void **)&nvml.init = dlsym(lib, "nvmlInit_v2");
  *(void **)&nvml.count = dlsym(lib, "nvmlDeviceGetCount_v2");
  *(void **)&nvml.handle = dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
  *(void **)&nvml.memory = dlsym(lib, "nvmlDeviceGetMemoryInfo");
  *(void **)&nvml.utilization = dlsym(lib, "nvmlDeviceGetUtilizationRates");
  if (!nvml.init || !nvml.count || !nvml.handle || !nvml.memory || !nvml.utilization) {
    snprintf(reason, sizeof reason, "%s lacks the functions used", gmemrt_opt.nvml_library);
    return;
  }
  int rc = nvml.init();
  if (rc != 0) {
    snprintf(reason, sizeof reason, "nvmlInit failed (%d)", rc);
    return;
  }
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&thread, &attr, sampler, NULL) != 0) {
    snprintf(reason, sizeof reason, "no sampling thread");
    pthread_attr_destroy(&attr);
    return;
  }
  pthread_attr_destroy(&attr);
  gmemrt_nvml_available = 1;
  snprintf(reason, sizeof reason, "sampled every %d ms", gmemrt_opt.nvml_ms);
}
