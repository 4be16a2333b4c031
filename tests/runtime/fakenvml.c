/* A stand-in for libnvidia-ml in CI (GMEMRT_NVML_LIBRARY): one device of 8000 bytes whose used
 * memory grows by 10 bytes a query, at 50% SM and 80% memory-bandwidth utilisation.
 * FAKENVML_PROFILE makes it a 140 GiB device that shows one of GM140's verdicts instead:
 *   capacity   95% of it used, SM 15%, memory bandwidth 3% (light kernels on a full device)
 *   bandwidth  8 GiB used, SM 100%, memory bandwidth 85% (a streaming kernel)
 *   compute    8 GiB used, SM 100%, memory bandwidth 2% (arithmetic on a small buffer) */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  unsigned long long total, free, used;
} fake_memory;
typedef struct {
  unsigned int gpu, memory;
} fake_utilization;

static unsigned long long queries;

typedef struct profile {
  const char *name;
  unsigned long long total, used;
  unsigned int sm, memory;
} profile;

#define GiB (1ULL << 30)
static const profile profiles[] = {
    {"capacity", 140 * GiB, 133 * GiB, 15, 3},
    {"bandwidth", 140 * GiB, 8 * GiB, 100, 85},
    {"compute", 140 * GiB, 8 * GiB, 100, 2},
};
static const profile *chosen; /* NULL: the growing 8000-byte device */

int nvmlInit_v2(void) {
  const char *want = getenv("FAKENVML_PROFILE");
  for (size_t i = 0; want && i < sizeof profiles / sizeof profiles[0]; i++)
    if (strcmp(want, profiles[i].name) == 0)
      chosen = &profiles[i];
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
  m->total = chosen ? chosen->total : 8000;
  m->used = chosen ? chosen->used : 1000 + 10 * queries++;
  m->free = m->total - m->used;
  return 0;
}
int nvmlDeviceGetUtilizationRates(void *device, fake_utilization *u) {
  (void)device;
  u->gpu = chosen ? chosen->sm : 50;
  u->memory = chosen ? chosen->memory : 80;
  return 0;
}
