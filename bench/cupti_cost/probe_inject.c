/* What does each way of watching stream-ordered allocations cost? An injection library whose
 * behaviour PROBE_MODE picks: nothing, a bare subscription, empty callbacks on the runtime or the
 * driver entry points, the same plus a short unwind, callbacks on other APIs only (other), or
 * MEMORY2 activity records. It counts what it saw and prints the first records' PC and source so
 * we learn what they point at. */
#define _GNU_SOURCE
#include <cupti.h>
#include <dlfcn.h>
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *mode = "none";
static unsigned long long counts[2][2]; /* [runtime?][exit?] */
static unsigned long long records, shown;
static CUpti_SubscriberHandle sub;

/* "gpa": the runtime fetches driver entry points through cuGetProcAddress; hand it wrappers. */
typedef CUresult (*alloc_async_fn)(CUdeviceptr *, size_t, CUstream);
typedef CUresult (*free_async_fn)(CUdeviceptr, CUstream);
typedef CUresult (*alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*free_fn)(CUdeviceptr);
static alloc_async_fn real_alloc_async;
static free_async_fn real_free_async;
static alloc_fn real_alloc;
static free_fn real_free;
static unsigned long long wrapped, fetches, unwinds;
static char fetched[600];

static void maybe_unwind(void) {
  if (strstr(mode, "unw")) {
    void *frames[12];
    unwinds += unw_backtrace(frames, 12) > 0;
  }
}
static CUresult wrap_alloc_async(CUdeviceptr *p, size_t n, CUstream s) {
  CUresult rc = real_alloc_async(p, n, s);
  __atomic_add_fetch(&wrapped, 1, __ATOMIC_RELAXED);
  maybe_unwind();
  return rc;
}
static CUresult wrap_free_async(CUdeviceptr p, CUstream s) {
  maybe_unwind();
  __atomic_add_fetch(&wrapped, 1, __ATOMIC_RELAXED);
  return real_free_async(p, s);
}
static CUresult wrap_alloc(CUdeviceptr *p, size_t n) {
  CUresult rc = real_alloc(p, n);
  __atomic_add_fetch(&wrapped, 1, __ATOMIC_RELAXED);
  maybe_unwind();
  return rc;
}
static CUresult wrap_free(CUdeviceptr p) {
  maybe_unwind();
  __atomic_add_fetch(&wrapped, 1, __ATOMIC_RELAXED);
  return real_free(p);
}

static void on_fetch(const char *symbol, void **pfn, int version) {
  fetches++;
  if (strlen(fetched) + strlen(symbol) + 2 < sizeof fetched && (strstr(symbol, "Alloc") || strstr(symbol, "Free"))) {
    char v[16];
    snprintf(v, sizeof v, "@%d ", version);
    strcat(fetched, symbol);
    strcat(fetched, v);
  }
  if (!pfn || !*pfn)
    return;
  if (!strcmp(symbol, "cuMemAllocAsync") && *pfn != (void *)wrap_alloc_async) {
    real_alloc_async = (alloc_async_fn)*pfn;
    *pfn = (void *)wrap_alloc_async;
  } else if (!strcmp(symbol, "cuMemFreeAsync") && *pfn != (void *)wrap_free_async) {
    real_free_async = (free_async_fn)*pfn;
    *pfn = (void *)wrap_free_async;
  } else if (!strcmp(symbol, "cuMemAlloc") && version >= 3020 && *pfn != (void *)wrap_alloc) {
    real_alloc = (alloc_fn)*pfn;
    *pfn = (void *)wrap_alloc;
  } else if (!strcmp(symbol, "cuMemFree") && version >= 3020 && *pfn != (void *)wrap_free) {
    real_free = (free_fn)*pfn;
    *pfn = (void *)wrap_free;
  }
}

static void CUPTIAPI on_api(void *ud, CUpti_CallbackDomain d, CUpti_CallbackId id, const void *info) {
  (void)ud;
  const CUpti_CallbackData *cb = info;
  if (d == CUPTI_CB_DOMAIN_DRIVER_API && cb->callbackSite == CUPTI_API_EXIT &&
      (id == CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress_v2 || id == CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress)) {
    const cuGetProcAddress_params *p = cb->functionParams; /* v2 starts the same way */
    if (*(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS)
      on_fetch(p->symbol, p->pfn, p->cudaVersion);
    return;
  }
  counts[d == CUPTI_CB_DOMAIN_RUNTIME_API][cb->callbackSite == CUPTI_API_EXIT]++;
  if (strstr(mode, "unw") && !strstr(mode, "gpa") && cb->callbackSite == CUPTI_API_EXIT) {
    void *frames[12];
    unw_backtrace(frames, 12);
  }
}

static void CUPTIAPI want_buffer(uint8_t **buf, size_t *size, size_t *max) {
  *size = 8 << 20;
  *buf = aligned_alloc(8, *size);
  *max = 0;
}

static void CUPTIAPI got_buffer(CUcontext c, uint32_t s, uint8_t *buf, size_t size, size_t valid) {
  (void)c;
  (void)s;
  (void)size;
  CUpti_Activity *r = NULL;
  while (cuptiActivityGetNextRecord(buf, valid, &r) == CUPTI_SUCCESS) {
    if (r->kind != CUPTI_ACTIVITY_KIND_MEMORY2)
      continue;
    records++;
    const CUpti_ActivityMemory4 *m = (const void *)r;
    if (shown++ < 6) {
      Dl_info di = {0};
      dladdr((void *)(uintptr_t)m->PC, &di);
      fprintf(stderr, "probe: op=%d kind=%d async=%u bytes=%llu addr=%#llx PC=%#llx (%s in %s) source=%s\n",
              (int)m->memoryOperationType, (int)m->memoryKind, m->isAsync,
              (unsigned long long)m->bytes, (unsigned long long)m->address,
              (unsigned long long)m->PC, di.dli_sname ? di.dli_sname : "?",
              di.dli_fname ? di.dli_fname : "?", m->source ? m->source : "(none)");
    }
  }
  free(buf);
}

static void at_exit(void) {
  if (strstr(mode, "act"))
    cuptiActivityFlushAll(1);
  if (strstr(mode, "gpa"))
    fprintf(stderr, "probe: %llu fetches, %llu wrapped calls, %llu unwinds; fetched: %s\n", fetches,
            wrapped, unwinds, fetched);
  fprintf(stderr, "probe: mode=%s rt_enter=%llu rt_exit=%llu drv_enter=%llu drv_exit=%llu memory2=%llu\n",
          mode, counts[1][0], counts[1][1], counts[0][0], counts[0][1], records);
}

int InitializeInjection(void) {
  const char *m = getenv("PROBE_MODE");
  mode = m ? m : "none";
  atexit(at_exit);
  if (!strcmp(mode, "none"))
    return 1;
  if (cuptiSubscribe(&sub, (CUpti_CallbackFunc)on_api, NULL) != CUPTI_SUCCESS) {
    fprintf(stderr, "probe: subscribe failed\n");
    return 1;
  }
  if (strstr(mode, "rt")) {
    CUpti_CallbackId ids[] = {CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020,
                              CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020,
                              CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020,
                              CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020};
    for (size_t i = 0; i < 4; i++)
      cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API, ids[i]);
  }
  if (strstr(mode, "drv")) {
    CUpti_CallbackId ids[] = {CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync,
                              CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync,
                              CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2,
                              CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2};
    for (size_t i = 0; i < 4; i++)
      cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]);
  }
  /* callbacks on APIs the churn never calls, as gmemrun keeps them on: does their being on
   * slow the calls that have none? */
  if (strstr(mode, "other")) {
    CUpti_CallbackId drv[] = {CUPTI_DRIVER_TRACE_CBID_cuInit, CUPTI_DRIVER_TRACE_CBID_cuMemCreate,
                              CUPTI_DRIVER_TRACE_CBID_cuMemRelease,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2};
    for (size_t i = 0; i < 4; i++)
      cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, drv[i]);
    cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020);
  }
  if (strstr(mode, "gpa")) {
    cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress_v2);
    cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress);
  }
  if (strstr(mode, "act")) {
    cuptiActivityRegisterCallbacks(want_buffer, got_buffer);
    if (strstr(mode, "src"))
      cuptiActivityEnableAllocationSource(1);
    if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMORY2) != CUPTI_SUCCESS)
      fprintf(stderr, "probe: MEMORY2 refused\n");
  }
  return 1;
}
