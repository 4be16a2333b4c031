/* The injected runtime (gmemrun): the CUDA driver loads libgmemrt_inject.so named by
 * CUDA_INJECTION64_PATH and calls InitializeInjection; CUPTI's callback API then reports every
 * allocation, free and copy of the runtime and driver APIs, static cudart included, through the
 * same subscription the unified-memory counters use. Each call goes to the same hook bodies as
 * the other ways in; its site is the first frame of the caller outside CUDA's own code. The
 * runtime's own CUDA calls (free memory, probes, pools) go to the driver API, since the program
 * may carry its cudart statically, out of reach.
 * This file attaches: InitializeInjection, the entry points cudart fetched before the library
 * came, and when the driver's own callbacks are needed. inject_calls.c records the calls,
 * inject_caller.c finds their sites, inject_describe.h reads their parameters, and
 * inject_driver.c makes the runtime's own CUDA calls. */
#include "inject.h"
#include "attach.h"
#include "hooks.h"
#include "imports.h"
#include "inject_caller.h"
#include "inject_describe.h"
#include "internal.h"
#include "symbols.h"
#include "um.h"

#include <cuda.h>
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- entry points the runtime fetched before this library came ----
 * cudart fetches all its driver entry points with cuGetProcAddress and only then calls cuInit,
 * in which the driver loads this library: those fetches are never seen. cudart keeps them in its
 * own data, so the words there equal to a wrapped function's address are its pointers to that
 * function, and each is swapped for the wrapper in place (one aligned store: a thread reading it
 * meanwhile gets one or the other, and both call the driver). As with fetches seen, a runtime
 * API goes over to the wrapper only once one of its calls is seen going through it. */
enum { MAX_ENTRY_VALUES = WRAP_COUNT * 8 };
typedef struct entry_values {
  uintptr_t value[MAX_ENTRY_VALUES];
  size_t wrap_index[MAX_ENTRY_VALUES];
  size_t count;
} entry_values;

static void add_entry_value(entry_values *v, void *address, size_t index) {
  if (!address || v->count == MAX_ENTRY_VALUES)
    return;
  for (size_t k = 0; k < v->count; k++)
    if (v->value[k] == (uintptr_t)address)
      return;
  v->value[v->count] = (uintptr_t)address;
  v->wrap_index[v->count++] = index;
}

/* The driver's addresses of the wrapped functions: as cuGetProcAddress hands them out (legacy and
 * per-thread default stream) and as libcuda exports them. */
static void driver_entry_values(entry_values *v) {
  CUresult (*get)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
  CUresult (*driver_version)(int *);
  *(void **)&get = gmemrt_driver_sym("cuGetProcAddress_v2");
  *(void **)&driver_version = gmemrt_driver_sym("cuDriverGetVersion");
  int newest = CUDA_VERSION;
  if (driver_version)
    driver_version(&newest);
  static const cuuint64_t flags[] = {CU_GET_PROC_ADDRESS_DEFAULT, CU_GET_PROC_ADDRESS_LEGACY_STREAM,
                                     CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM};
  for (size_t i = 0; i < WRAP_COUNT; i++) {
    const int versions[] = {wraps[i].version, newest};
    for (size_t f = 0; get && f < sizeof flags / sizeof flags[0]; f++)
      for (size_t k = 0; k < 2; k++) {
        void *p = NULL;
        CUdriverProcAddressQueryResult status;
        if (get(wraps[i].symbol, &p, versions[k], flags[f], &status) == CUDA_SUCCESS)
          add_entry_value(v, p, i);
      }
    /* the exported names are the callbacks' names, with _ptsz for per-thread streams */
    const char *name = gmemrt_cupti_callback_name(CUPTI_CB_DOMAIN_DRIVER_API, wraps[i].id);
    char ptsz[128];
    if (name) {
      add_entry_value(v, gmemrt_driver_sym(name), i);
      snprintf(ptsz, sizeof ptsz, "%s_ptsz", name);
      add_entry_value(v, gmemrt_driver_sym(ptsz), i);
    }
  }
}

static void adopt_word(uintptr_t *word, size_t which, void *ctx) {
  const entry_values *v = ctx;
  void *wrapper = wrapper_for(v->wrap_index[which], (void *)v->value[which]);
  uintptr_t expected = v->value[which];
  if (wrapper && __atomic_compare_exchange_n(word, &expected, (uintptr_t)wrapper, 0,
                                             __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    __atomic_add_fetch(&gmemrt_attach.entry_points_adopted, 1, __ATOMIC_RELAXED);
}

/* The driver entry points kept in the data of the object holding pc: wrapped in place. */
static void adopt_fetched_entries(uintptr_t pc) {
  static entry_values values; /* the driver's addresses do not change: read once */
  static pthread_mutex_t values_lock = PTHREAD_MUTEX_INITIALIZER;
  if (!gmemrt_opt.entry_wrappers || pc <= 1)
    return;
  pthread_mutex_lock(&values_lock);
  if (!values.count)
    driver_entry_values(&values);
  uint64_t before = gmemrt_attach.entry_points_adopted;
  const char *object = gmemrt_find_words(pc, values.value, values.count, adopt_word, &values);
  if (object && gmemrt_attach.entry_points_adopted > before && !gmemrt_attach.adopted_in) {
    static char name[512];
    snprintf(name, sizeof name, "%s", *object ? object : "the program");
    gmemrt_attach.adopted_in = name;
  }
  pthread_mutex_unlock(&values_lock);
}

/* ---- when the driver's own callbacks are needed ----
 * The wrappers see every call through an entry point fetched with cuGetProcAddress: the CUDA
 * runtime's, and the program's own fetches. A program that calls the driver's allocating
 * functions otherwise (linked against them, or through dlsym as TensorFlow, JAX and Numba load
 * libcuda) needs CUPTI's driver callbacks on them, which cost as much as the runtime's did. They
 * are turned on, for good, when a loaded object links one of them (objects loaded later are
 * read when the link map grows) or when something other than the CUDA runtime calls cuInit, as
 * every direct user of the driver must. */
static const char *const direct_symbols[] = {
    "cuMemAlloc_v2",           "cuMemFree_v2",
    "cuMemAllocAsync",         "cuMemAllocAsync_ptsz",
    "cuMemFreeAsync",          "cuMemFreeAsync_ptsz",
    "cuMemAllocFromPoolAsync", "cuMemAllocFromPoolAsync_ptsz",
    "cuMemAllocManaged",       "cuMemAllocHost_v2",
    "cuMemHostAlloc",          "cuMemFreeHost",
    "cuMemAllocPitch_v2"};
static const unsigned direct_ids[] = {
    DRV(cuMemAlloc_v2),           DRV(cuMemFree_v2),
    DRV(cuMemAllocAsync),         DRV(cuMemAllocAsync_ptsz),
    DRV(cuMemFreeAsync),          DRV(cuMemFreeAsync_ptsz),
    DRV(cuMemAllocFromPoolAsync), DRV(cuMemAllocFromPoolAsync_ptsz),
    DRV(cuMemAllocManaged),       DRV(cuMemAllocHost_v2),
    DRV(cuMemHostAlloc),          DRV(cuMemFreeHost),
    DRV(cuMemAllocPitch_v2)};
enum { DIRECT_COUNT = sizeof direct_ids / sizeof direct_ids[0] };
static int driver_watched;
static char driver_reason[512];

static void watch_driver_calls(void) {
  pthread_mutex_lock(&hand_lock);
  if (!driver_watched) {
    for (size_t i = 0; i < DIRECT_COUNT; i++)
      gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, direct_ids[i], 1);
    gmemrt_attach.driver_callbacks = driver_reason;
    __atomic_store_n(&driver_watched, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&hand_lock);
}

/* Objects loaded since the last look that link a driver allocation function. */
void read_new_objects(void) {
  if (__atomic_load_n(&driver_watched, __ATOMIC_ACQUIRE) || !gmemrt_objects_loaded_since_scan())
    return;
  const char *importer[DIRECT_COUNT] = {0};
  pthread_mutex_lock(&hand_lock);
  gmemrt_scan_imports(direct_symbols, DIRECT_COUNT, importer);
  for (size_t i = 0; i < DIRECT_COUNT && !driver_reason[0]; i++)
    if (importer[i])
      snprintf(driver_reason, sizeof driver_reason, "%s links %s",
               *importer[i] ? importer[i] : "the program", direct_symbols[i]);
  pthread_mutex_unlock(&hand_lock);
  if (driver_reason[0])
    watch_driver_calls();
}

/* A call of cuInit (or the one the driver loaded this library in). Its caller's fetched entry
 * points are wrapped in place; and a call made by the program itself rather than through the
 * CUDA runtime turns the driver's callbacks on. */
void on_cu_init(void) {
  int via_runtime, entry;
  uintptr_t runtime_pc;
  gmemrt_where w = find_caller(&via_runtime, &entry, &runtime_pc);
  adopt_fetched_entries(runtime_pc ? runtime_pc : w.pc);
  if (entry != FRAME_DRIVER || __atomic_load_n(&driver_watched, __ATOMIC_ACQUIRE))
    return;
  gmemrt_symbol sym;
  pthread_mutex_lock(&hand_lock);
  if (!driver_reason[0]) {
    if (w.pc > 1 && gmemrt_symbolise(w.pc, &sym))
      snprintf(driver_reason, sizeof driver_reason, "cuInit called by %s (%s)",
               sym.function ? sym.function : "?", sym.module ? sym.module : "?");
    else
      snprintf(driver_reason, sizeof driver_reason, "cuInit called outside the CUDA runtime");
  }
  pthread_mutex_unlock(&hand_lock);
  watch_driver_calls();
}

/* GMEMRT_STEP_API=cudaDeviceSynchronize (say): each return from that CUDA function is a step. */
static void find_step_api(void) {
  const char *name = gmemrt_opt.step_api;
  if (!name || !*name)
    return;
  size_t len = strlen(name);
  static const struct {
    int domain;
    unsigned count;
  } domains[] = {{CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE},
                 {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE}};
  for (size_t d = 0; d < 2; d++)
    for (unsigned id = 1; id < domains[d].count; id++) {
      const char *cb_name = gmemrt_cupti_callback_name(domains[d].domain, id);
      /* "cudaDeviceSynchronize_v3020" answers to "cudaDeviceSynchronize" */
      if (cb_name && strncmp(cb_name, name, len) == 0 &&
          (cb_name[len] == 0 || (cb_name[len] == '_' && cb_name[len + 1] == 'v'))) {
        if (gmemrt_cupti_enable_callback(domains[d].domain, id, 1)) {
          step_domain = domains[d].domain;
          step_id = id;
          return;
        }
      }
    }
  gmemrt_warn("GMEMRT_STEP_API=%s names no CUDA API function CUPTI knows; no steps marked", name);
}

/* Where gmemrun reads why an injection failed. */
static void report_failure(const char *what) {
  const char *path = getenv("GMEMRUN_STATUS_FILE");
  FILE *f = path ? fopen(path, "w") : NULL;
  if (f) {
    fputs(what, f);
    fclose(f);
  }
}

int InitializeInjection(void) {
  gmemrt_init();
  if (gmemrt_opt.disabled)
    return 1;
  if (!gmemrt_cupti_subscribed()) {
    /* without CUPTI no call is seen: say so and stop rather than write an empty report */
    const char *why = gmemrt_um_reason();
    report_failure(why);
    fprintf(stderr, "gmemrun: error: cannot attach: %s\n", why);
    if (getenv("GMEMRUN_STATUS_FILE"))
      _exit(3);
    return 0;
  }
  name_runtime_apis();
  gmemrt_cupti_api_callback = on_api;
  int ok = 1;
  for (size_t i = 0; i < sizeof runtime_ids / sizeof runtime_ids[0]; i++)
    if (gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_ids[i], 1))
      runtime_watched[runtime_ids[i]] = 1;
    else
      ok = 0;
  for (size_t i = 0; i < sizeof driver_ids / sizeof driver_ids[0]; i++) {
    int direct = 0; /* with wrappers, the allocation functions' callbacks wait for a reason */
    for (size_t k = 0; k < DIRECT_COUNT; k++)
      direct |= driver_ids[i] == direct_ids[k];
    if (!direct || !gmemrt_opt.entry_wrappers)
      ok &= gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, driver_ids[i], 1);
  }
  if (gmemrt_opt.entry_wrappers) {
    gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, DRV(cuGetProcAddress_v2), 1);
    gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, DRV(cuGetProcAddress), 1);
    gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, DRV(cuInit), 1);
    own_work++;
    on_cu_init(); /* the driver calls this from inside the first cuInit */
    read_new_objects();
    own_work--;
  } else {
    snprintf(driver_reason, sizeof driver_reason, "GMEMRT_ENTRY_WRAPPERS=0");
    gmemrt_attach.driver_callbacks = driver_reason;
  }
  if (!ok)
    gmemrt_warn("CUPTI refused some API callbacks; those calls are not recorded");
  find_step_api();
  return 1;
}
