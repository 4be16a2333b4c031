/* Unified-memory counters through CUPTI's activity API: GPU page faults, CPU page faults and
 * bytes migrated each way, attributed to managed allocation sites by address range. libcupti is
 * loaded with dlopen (GMEMRT_CUPTI_LIBRARY names another), so programs need no link to it. CUPTI
 * takes one subscriber per process: when another tool holds it (compute-sanitizer, Nsight), or
 * the library or the device is missing, the reason is recorded and the run carries on. */
#include "um.h"
#include "internal.h"
#include "record.h"

#include <cupti.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
  CUptiResult (*configure)(CUpti_ActivityUnifiedMemoryCounterConfig *, uint32_t);
  CUptiResult (*enable)(CUpti_ActivityKind);
  CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc,
                                    CUpti_BuffersCallbackCompleteFunc);
  CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
  CUptiResult (*flush_all)(uint32_t);
  CUptiResult (*subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
  CUptiResult (*result_string)(CUptiResult, const char **);
  CUptiResult (*enable_callback)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain,
                                 CUpti_CallbackId);
  CUptiResult (*callback_name)(CUpti_CallbackDomain, uint32_t, const char **);
  CUptiResult (*get_timestamp)(uint64_t *);
} cupti;
static CUpti_SubscriberHandle subscriber;
void (*gmemrt_cupti_api_callback)(void *, int, unsigned, const void *);

static char reason[256] = "not started";
static int loaded;
static pthread_once_t enable_once = PTHREAD_ONCE_INIT;
int gmemrt_um_available;
gmemrt_um_counts gmemrt_um_unattributed;
uint64_t gmemrt_um_records[16];

const char *gmemrt_um_reason(void) {
  return reason;
}

static const char *result_text(CUptiResult rc) {
  const char *s = NULL;
  if (cupti.result_string && cupti.result_string(rc, &s) == CUPTI_SUCCESS && s)
    return s;
  return "unknown CUPTI error";
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *size = 4u << 20;
  *buffer = aligned_alloc(8, *size);
  *max_records = 0;
}

/* CUPTI's clock at each gmem_step(), so that a record's start time says which step moved it.
 * Lock held. */
static uint64_t *step_stamps;
static size_t nstamps, capstamps;
/* CUPTI's clock and ours read together when the counters start: record times in our ms */
static uint64_t cupti_origin_ns, our_origin_ns;
static double origin_ms;

void gmemrt_um_note_step(void) {
  uint64_t now;
  if (!gmemrt_um_available || !cupti.get_timestamp || cupti.get_timestamp(&now) != CUPTI_SUCCESS)
    return;
  if (nstamps == capstamps) {
    size_t cap = capstamps ? capstamps * 2 : 256;
    uint64_t *s = realloc(step_stamps, cap * sizeof *s);
    if (!s)
      return;
    step_stamps = s;
    capstamps = cap;
  }
  step_stamps[nstamps++] = now;
}

/* The interval a timestamp falls in: 1 before the first gmem_step(), k + 1 after the k-th. */
static uint64_t interval_at(uint64_t t) {
  size_t lo = 0, hi = nstamps;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (step_stamps[mid] <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo + 1;
}

/* Ping-pong facts: a transfer the other way than the same block's last one (blocks of one site
 * going each their own way are not ping-pong), and the steps that moved the site's pages one way
 * or both. Records come in completion order, which follows time closely enough. */
static void note_direction(gmemrt_um_counts *c, uint8_t direction, uint64_t start,
                           uint8_t *block_direction, uint16_t *block_changes) {
  if (cupti_origin_ns && start) {
    double ms = origin_ms + ((double)start - (double)cupti_origin_ns) / 1e6;
    if (!c->last_ms)
      c->first_ms = ms;
    c->last_ms = ms > 0 ? ms : 1e-6; /* nonzero: the window is known */
  }
  if (*block_direction && *block_direction != direction) {
    c->direction_changes++;
    if (*block_changes < UINT16_MAX)
      ++*block_changes;
    if (*block_changes > c->block_direction_changes_max)
      c->block_direction_changes_max = *block_changes;
  }
  *block_direction = direction;
  uint64_t interval = interval_at(start);
  if (interval != c->step_now) {
    c->step_now = interval;
    c->step_directions = 0;
    c->steps_moved++;
  }
  if (c->step_directions != 3 && (c->step_directions | direction) == 3)
    c->steps_both_ways++;
  c->step_directions |= direction;
}

static void add(gmemrt_um_counts *c, const CUpti_ActivityUnifiedMemoryCounter3 *r,
                uint8_t *block_direction, uint16_t *block_changes) {
  switch (r->counterKind) {
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD:
    note_direction(c, 1, r->start, block_direction, block_changes);
    c->htod_bytes += r->value;
    /* for transfers, flags holds the migration cause */
    if (r->flags == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE)
      c->htod_on_demand_bytes += r->value;
    else if (r->flags == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_USER)
      c->htod_user_prefetch_bytes += r->value; /* cudaMemPrefetchAsync */
    else if (r->flags == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH)
      c->htod_speculative_bytes += r->value; /* the driver's, around faults */
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH:
    note_direction(c, 2, r->start, block_direction, block_changes);
    c->dtoh_bytes += r->value;
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT:
    c->gpu_page_faults += r->value; /* the number of fault groups */
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT:
    c->cpu_page_faults++; /* `value` is the faulting PC here, not a count */
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING:
    c->thrashing++;
    break;
  default:
    break;
  }
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid) {
  (void)ctx;
  (void)stream;
  (void)size;
  CUpti_Activity *rec = NULL;
  gmemrt_lock();
  while (valid && cupti.next_record(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind != CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER)
      continue;
    const CUpti_ActivityUnifiedMemoryCounter3 *r = (const void *)rec;
    gmemrt_um_records[(unsigned)r->counterKind & 15]++;
    /* CUPTI's time in the runtime's clock, from the pair read when the counters started */
    uint64_t when = cupti_origin_ns && r->start ? r->start - cupti_origin_ns + our_origin_ns : 0;
    struct managed_range *block = gmemrt_managed_range(r->address, when);
    static uint8_t unattributed_direction;
    static uint16_t unattributed_changes;
    add(block ? &gmemrt_site_at(block->site)->um : &gmemrt_um_unattributed, r,
        block ? &block->last_direction : &unattributed_direction,
        block ? &block->direction_changes : &unattributed_changes);
  }
  gmemrt_unlock();
  free(buffer);
}

/* The process's one CUPTI subscription: API callbacks go to the injected runtime (gmemrun),
 * when there is one; the activity records need no callback. */
static void CUPTIAPI api_callback(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                  const void *info) {
  if (gmemrt_cupti_api_callback)
    gmemrt_cupti_api_callback(data, (int)domain, (unsigned)id, info);
}

int gmemrt_cupti_subscribed(void) {
  return loaded;
}

int gmemrt_cupti_enable_callback(int domain, unsigned id, int on) {
  return loaded && cupti.enable_callback &&
         cupti.enable_callback(on ? 1 : 0, subscriber, (CUpti_CallbackDomain)domain, id) ==
             CUPTI_SUCCESS;
}

const char *gmemrt_cupti_callback_name(int domain, unsigned id) {
  const char *name = NULL;
  if (loaded && cupti.callback_name &&
      cupti.callback_name((CUpti_CallbackDomain)domain, id, &name) == CUPTI_SUCCESS)
    return name;
  return NULL;
}

void gmemrt_um_start(void) {
  if (!gmemrt_opt.cupti) {
    snprintf(reason, sizeof reason, "turned off (GMEMRT_CUPTI=0)");
    return;
  }
  const char *name = gmemrt_opt.cupti_library;
  void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!lib && strcmp(name, "libcupti.so.13") == 0)
    lib = dlopen("libcupti.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(reason, sizeof reason, "CUPTI not loaded: %s", dlerror());
    return;
  }
  *(void **)&cupti.configure = dlsym(lib, "cuptiActivityConfigureUnifiedMemoryCounter");
  *(void **)&cupti.enable = dlsym(lib, "cuptiActivityEnable");
  *(void **)&cupti.register_callbacks = dlsym(lib, "cuptiActivityRegisterCallbacks");
  *(void **)&cupti.next_record = dlsym(lib, "cuptiActivityGetNextRecord");
  *(void **)&cupti.flush_all = dlsym(lib, "cuptiActivityFlushAll");
  *(void **)&cupti.subscribe = dlsym(lib, "cuptiSubscribe");
  *(void **)&cupti.result_string = dlsym(lib, "cuptiGetResultString");
  *(void **)&cupti.enable_callback = dlsym(lib, "cuptiEnableCallback");
  *(void **)&cupti.callback_name = dlsym(lib, "cuptiGetCallbackName");
  *(void **)&cupti.get_timestamp = dlsym(lib, "cuptiGetTimestamp");
  if (!cupti.configure || !cupti.enable || !cupti.register_callbacks || !cupti.next_record ||
      !cupti.flush_all || !cupti.subscribe) {
    snprintf(reason, sizeof reason, "%s lacks the activity API", name);
    return;
  }
  /* One subscriber per process: find out now whether another tool holds CUPTI. */
  CUptiResult rc = cupti.subscribe(&subscriber, api_callback, NULL);
  if (rc == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    snprintf(reason, sizeof reason,
             "CUPTI is in use by another tool (compute-sanitizer or Nsight): no unified-memory "
             "counters in this run");
    return;
  }
  if (rc != CUPTI_SUCCESS) {
    snprintf(reason, sizeof reason, "cuptiSubscribe failed: %s", result_text(rc));
    return;
  }
  loaded = 1;
  snprintf(reason, sizeof reason, "waiting for the first CUDA call");
#ifdef GMEMRT_INJECT
  return; /* loaded by the driver inside cuInit: the counters start after the first API call */
#endif
  /* GPU page-fault records need the counters on before the program's context exists, and CUPTI
   * configures them only once the driver is initialised: cuInit (idempotent, creates no
   * context) lets that happen now. Without a driver, it waits for the first CUDA call. */
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  int (*cu_init)(unsigned) = driver ? (int (*)(unsigned))dlsym(driver, "cuInit") : NULL;
  if (cu_init && cu_init(0) == 0)
    gmemrt_um_after_cuda_call();
}

/* Unified-memory counters can be configured only once the driver is initialised (before that
 * CUPTI answers NOT_READY), so this runs after the program's first hooked CUDA call returns. */
void gmemrt_um_after_cuda_call(void);

static void enable_counters(void) {
  CUptiResult rc = cupti.register_callbacks(buffer_requested, buffer_completed);
  static const CUpti_ActivityUnifiedMemoryCounterKind kinds[] = {
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING};
  CUpti_ActivityUnifiedMemoryCounterConfig config[sizeof kinds / sizeof kinds[0]];
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    config[i].scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
    config[i].kind = kinds[i];
    config[i].deviceId = 0;
    config[i].enable = 1;
  }
  if (rc == CUPTI_SUCCESS)
    rc = cupti.configure(config, sizeof kinds / sizeof kinds[0]);
  if (rc == CUPTI_SUCCESS)
    rc = cupti.enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
  if (rc != CUPTI_SUCCESS) {
    snprintf(reason, sizeof reason, "unified-memory counters unavailable: %s", result_text(rc));
    return;
  }
  if (cupti.get_timestamp && cupti.get_timestamp(&cupti_origin_ns) == CUPTI_SUCCESS) {
    our_origin_ns = gmemrt_now_ns();
    origin_ms = (double)our_origin_ns / 1e6 - gmemrt.start_ms;
  }
  gmemrt_um_available = 1;
  snprintf(reason, sizeof reason, "collected through CUPTI");
}

void gmemrt_um_after_cuda_call(void) {
  static int enabled;
  if (loaded)
    gmemrt_once(&enable_once, &enabled, enable_counters);
}

void gmemrt_um_flush(void) {
  if (gmemrt_um_available)
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}
