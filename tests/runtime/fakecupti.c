/* A stand-in for libcupti in CI (loaded through GMEMRT_CUPTI_LIBRARY): delivers the
 * unified-memory records named in FAKECUPTI_RECORDS ("address:counter-kind:value[:cause];...")
 * when the runtime flushes, or else those the simulated CUDA runtime produced since the last
 * flush (simcuda_um_records()), and plays another tool holding CUPTI when FAKECUPTI_BUSY=1. */
#include <cupti.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CUPTI's clock: the simulated runtime stamps its records with the same one. */
CUptiResult cuptiGetTimestamp(uint64_t *timestamp) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  *timestamp = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
  return CUPTI_SUCCESS;
}

static CUpti_CallbackFunc subscriber_callback;
static void *subscriber_data;
static unsigned char enabled_ids[2][1024]; /* runtime, driver: API callbacks switched on */
static CUpti_BuffersCallbackRequestFunc requested;
static CUpti_BuffersCallbackCompleteFunc completed;
static int enabled;

CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *h, CUpti_CallbackFunc cb, void *data) {
  *h = NULL;
  const char *busy = getenv("FAKECUPTI_BUSY");
  if (busy && *busy == '1')
    return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  subscriber_callback = cb;
  subscriber_data = data;
  return CUPTI_SUCCESS;
}

static int domain_index(CUpti_CallbackDomain domain) {
  return domain == CUPTI_CB_DOMAIN_RUNTIME_API ? 0 : domain == CUPTI_CB_DOMAIN_DRIVER_API ? 1 : -1;
}

CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle h,
                                CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  (void)h;
  int d = domain_index(domain);
  if (d < 0 || id >= 1024)
    return CUPTI_ERROR_INVALID_PARAMETER;
  enabled_ids[d][id] = (unsigned char)enable;
  return CUPTI_SUCCESS;
}

/* The names of the few functions the simulated runtime traces (CUPTI has them all). */
CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t id, const char **name) {
  static const struct {
    CUpti_CallbackDomain domain;
    uint32_t id;
    const char *name;
  } names[] = {
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, "cudaMalloc_v3020"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
       "cudaDeviceSynchronize_v3020"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, "cudaFree_v3020"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].domain == domain && names[i].id == id) {
      *name = names[i].name;
      return CUPTI_SUCCESS;
    }
  return CUPTI_ERROR_INVALID_PARAMETER;
}

/* Called by the simulated runtime on entry to and exit from a traced function. */
void cudaSimDispatch(int domain, unsigned id, int exit, const char *name, void *params,
                     void *result) {
  int d = domain_index((CUpti_CallbackDomain)domain);
  if (d < 0 || id >= 1024 || !enabled_ids[d][id] || !subscriber_callback)
    return;
  CUpti_CallbackData data;
  memset(&data, 0, sizeof data);
  data.callbackSite = exit ? CUPTI_API_EXIT : CUPTI_API_ENTER;
  data.functionName = name;
  data.functionParams = params;
  data.functionReturnValue = result;
  subscriber_callback(subscriber_data, (CUpti_CallbackDomain)domain, (CUpti_CallbackId)id, &data);
}

CUptiResult cuptiGetResultString(CUptiResult rc, const char **s) {
  *s = rc == CUPTI_SUCCESS ? "CUPTI_SUCCESS" : "CUPTI_ERROR";
  return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req,
                                           CUpti_BuffersCallbackCompleteFunc done) {
  requested = req;
  completed = done;
  return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityConfigureUnifiedMemoryCounter(CUpti_ActivityUnifiedMemoryCounterConfig *c,
                                                       uint32_t n) {
  (void)c;
  (void)n;
  return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
  enabled = kind == CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER;
  return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **record) {
  uint8_t *next =
      *record ? (uint8_t *)*record + sizeof(CUpti_ActivityUnifiedMemoryCounter3) : buffer;
  if (next + sizeof(CUpti_ActivityUnifiedMemoryCounter3) > buffer + valid)
    return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = (CUpti_Activity *)next;
  return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityFlushAll(uint32_t flag) {
  (void)flag;
  static int delivered; /* like CUPTI, a record is delivered once */
  static size_t sim_offset;
  const char *spec = getenv("FAKECUPTI_RECORDS");
  if (!spec) {
    const char *(*sim)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "simcuda_um_records");
    spec = sim ? sim() + sim_offset : NULL;
    if (spec && !*spec)
      return CUPTI_SUCCESS;
  } else if (delivered) {
    return CUPTI_SUCCESS;
  }
  if (!enabled || !spec || !requested || !completed)
    return CUPTI_SUCCESS;
  delivered = 1;
  if (!getenv("FAKECUPTI_RECORDS"))
    sim_offset += strlen(spec);
  uint8_t *buffer;
  size_t size, max_records, valid = 0;
  requested(&buffer, &size, &max_records);
  char *copy = strdup(spec);
  for (char *save = NULL, *item = strtok_r(copy, ";", &save); item;
       item = strtok_r(NULL, ";", &save)) {
    CUpti_ActivityUnifiedMemoryCounter3 r;
    memset(&r, 0, sizeof r);
    r.kind = CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER;
    char *end;
    r.address = strtoull(item, &end, 0);
    r.counterKind = (CUpti_ActivityUnifiedMemoryCounterKind)strtoul(end + 1, &end, 10);
    r.value = strtoull(end + 1, &end, 10);
    if (*end == ':')
      r.flags = (uint32_t)strtoul(end + 1, &end, 10); /* transfers: the migration cause */
    if (*end == ':')
      r.start = r.end = strtoull(end + 1, NULL, 10); /* cuptiGetTimestamp's clock */
    if (valid + sizeof r <= size) {
      memcpy(buffer + valid, &r, sizeof r);
      valid += sizeof r;
    }
  }
  free(copy);
  completed(NULL, 0, buffer, size, valid);
  return CUPTI_SUCCESS;
}
