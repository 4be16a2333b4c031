/* A stand-in for libnvidia-ml in CI (GMEMRT_NVML_LIBRARY): one device of 8000 bytes whose used
 * memory grows by 10 bytes a query, at 50% SM and 80% memory-bandwidth utilisation. */
#include <stddef.h>

typedef struct {
  unsigned long long total, free, used;
} fake_memory;
typedef struct {
  unsigned int gpu, memory;
} fake_utilization;

static unsigned long long queries;

int nvmlInit_v2(void) {
  return 0;
}
int nvmlDeviceGetCount_v2(unsigned int *count) {
  *count = 1;
  return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void **device) {
  *device = (void *)(size_t)(index + 1);
  return 0;
}
int nvmlDeviceGetMemoryInfo(void *device, fake_memory *m) {
  (void)device;
  m->total = 8000;
  m->used = 1000 + 10 * queries++;
  m->free = m->total - m->used;
  return 0;
}
int nvmlDeviceGetUtilizationRates(void *device, fake_utilization *u) {
  (void)device;
  u->gpu = 50;
  u->memory = 80;
  return 0;
}
