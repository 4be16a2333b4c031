/* libgmemrt internals. The runtime records facts only: counts, bytes, times, stacks and events
 * by allocation site; every verdict is gmemlint's (DESIGN.md). One lock guards the tables: a
 * cudaMalloc costs 70-140 us, a cudaMallocAsync about 1 us, an uncontended lock about 20 ns. */
#ifndef GMEMRT_INTERNAL_H
#define GMEMRT_INTERNAL_H

#define GMEMRT_BUILDING 1

#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* ---- options (options.c): one table, read from GMEMRT_* environment variables ---- */
typedef struct gmemrt_options {
  const char *output;        /* GMEMRT_OUTPUT: telemetry path, %p = pid */
  int stack_depth;           /* GMEMRT_STACK_DEPTH: frames per stack, 0 = none */
  int stacks_per_site;       /* GMEMRT_STACKS: distinct stacks kept per site */
  int disabled;              /* GMEMRT_DISABLE */
  int oom_probe;             /* GMEMRT_OOM_PROBE: probe the largest allocatable block on OOM */
  int timeline;              /* GMEMRT_TIMELINE: live-bytes samples kept */
  int verbose;               /* GMEMRT_VERBOSE */
  int cupti;                 /* GMEMRT_CUPTI: collect unified-memory counters */
  const char *cupti_library; /* GMEMRT_CUPTI_LIBRARY */
  int nvml;                  /* GMEMRT_NVML: sample NVML */
  int nvml_ms;               /* GMEMRT_NVML_MS */
  const char *nvml_library;  /* GMEMRT_NVML_LIBRARY */
  const char *step_api;      /* GMEMRT_STEP_API (injected runtime) */
  int caller_sites;          /* GMEMRT_CALLER_SITES (injected runtime) */
  int entry_wrappers;        /* GMEMRT_ENTRY_WRAPPERS (injected runtime) */
} gmemrt_options;

extern gmemrt_options gmemrt_opt;
void gmemrt_options_load(void);
void gmemrt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- families ---- */
enum gmemrt_family {
  FAM_DEVICE,     /* cudaMalloc, cudaMallocPitch */
  FAM_MANAGED,    /* cudaMallocManaged */
  FAM_HOST,       /* cudaMallocHost, cudaHostAlloc */
  FAM_ASYNC,      /* cudaMallocAsync, cudaMallocFromPoolAsync */
  FAM_CU_DEVICE,  /* cuMemAlloc, cuMemAllocPitch, cuMemAllocAsync, cuMemAllocFromPoolAsync */
  FAM_CU_MANAGED, /* cuMemAllocManaged */
  FAM_CU_HOST,    /* cuMemAllocHost, cuMemHostAlloc */
  FAM_ARRAY,      /* cudaMallocArray, cudaMalloc3DArray */
  FAM_MIPMAP,     /* cudaMallocMipmappedArray */
  FAM_CU_HANDLE,  /* cuMemCreate: a physical allocation handle, keyed by its value */
  FAM_COUNT
};
extern const char *const gmemrt_family_names[FAM_COUNT];

enum gmemrt_free_api {
  FREE_CUDA,
  FREE_HOST,
  FREE_ASYNC,
  FREE_CU,
  FREE_CU_HOST,
  FREE_ARRAY,
  FREE_MIPMAP,
  FREE_CU_ASYNC,
  FREE_CU_RELEASE,
  FREE_API_COUNT
};
extern const char *const gmemrt_free_names[FREE_API_COUNT];

/* ---- records (record.c) ---- */
enum { MAX_DISTINCT_SIZES = 16, MAX_FRAMES = 32, MAX_STACKS = 8 };
enum { SITE_CHUNK = 256, SITE_CHUNKS = 4096 }; /* at most a million sites */

typedef struct gmemrt_stack {
  void *frames[MAX_FRAMES];
  int depth;
  uint64_t count;
} gmemrt_stack;

/* Unified-memory counters attributed to a managed allocation site (um.c). */
typedef struct gmemrt_um_counts {
  uint64_t gpu_page_faults, cpu_page_faults, htod_bytes, dtoh_bytes, thrashing;
  uint64_t htod_on_demand_bytes; /* migrated because something touched it (coherence) */
  uint64_t htod_prefetch_bytes;  /* migrated by cudaMemPrefetchAsync */
} gmemrt_um_counts;

/* Where a hooked call was made: the source position gmem_forced.h passes (file, line, column),
 * or, for a preloaded or injected runtime, the caller's return address (pc). */
typedef struct gmemrt_where {
  const char *file;
  int line, col;
  uintptr_t pc;
  uintptr_t ret; /* the hook entry's return address: where a captured stack starts */
} gmemrt_where;

typedef struct gmemrt_site {
  const char *file; /* for pc sites: symbolised from the return address, NULL without debug info */
  int line, column;
  uintptr_t pc;         /* return-address sites: the key; 0 for source sites */
  const char *function; /* pc sites: the calling function, when the symbol table has it */
  const char *module;   /* pc sites: the object file holding pc */
  uint64_t module_offset;
  int wrapper; /* pc lies in a CUDA header's wrapper (a C++ template overload): the site is
                  the wrapper's caller, found by unwinding */
  const char *api;
  int family; /* -1 for copy sites */
  int device;
  uint64_t calls, failed_calls;
  uint64_t bytes_total, bytes_min, bytes_max;
  uint64_t sizes[MAX_DISTINCT_SIZES];
  int nsizes, sizes_truncated;
  uint64_t live_bytes, live_count, peak_live_bytes;
  uint64_t frees[FREE_API_COUNT];
  uint64_t wrong_family_frees, double_frees;
  uint64_t alloc_ns, free_ns;       /* measured time in the real calls */
  uint64_t alloc_timed, free_timed; /* how many calls were measured */
  uint64_t free_calls;
  uint64_t last_size, increasing_sizes;
  uint64_t copies, copy_bytes, copy_ns;
  uint64_t prefetches;
  gmemrt_um_counts um;
  uint64_t *step_live; /* live bytes at each gmem_step() */
  size_t nsteps, capsteps;
  gmemrt_stack stacks[MAX_STACKS];
  int nstacks;
  uint64_t stacks_dropped;
} gmemrt_site;

/* Live device allocations at one moment, for the address-space (fragmentation) view. */
typedef struct gmemrt_block {
  uintptr_t ptr;
  uint64_t size;
  uint32_t site;
} gmemrt_block;
typedef struct gmemrt_space_view {
  gmemrt_block *blocks; /* in address order */
  size_t nblocks;
  uint64_t live_bytes; /* all live bytes when taken (pinned host memory included) */
  size_t truncated;    /* blocks left out beyond MAX_VIEW_BLOCKS */
  double time_ms;
} gmemrt_space_view;
enum { MAX_VIEW_BLOCKS = 4096 };
/* Takes the view now (lock held); returns 0 when out of host memory. */
int gmemrt_space_view_take(gmemrt_space_view *v);

typedef struct gmemrt_oom {
  int site;
  uint64_t requested, free_bytes, total_bytes, largest_block;
  int probed;
  const char *verdict; /* "fragmentation" or "capacity": what the numbers say */
  double time_ms;
  uint64_t live_bytes;
  uint64_t pool_reserved, pool_used; /* the default or program pool, for stream-ordered requests */
  int device;                        /* the failing thread's device */
  uint64_t live_device_bytes; /* the program's live device memory (not pinned, not managed) */
  uint64_t held_unused;       /* device memory in use beyond baseline + live device bytes */
  int pool_sampled;
  gmemrt_space_view view; /* live device blocks at the failure (the first few events) */
} gmemrt_oom;

typedef struct gmemrt_pool {
  void *handle; /* cudaMemPool_t */
  int device;   /* -1 for a pool the program created */
  uint64_t reserved, used, reserved_high, used_high;
  int sampled;
} gmemrt_pool;
enum { MAX_POOLS = 32 };

typedef struct gmemrt_nvml_sample {
  double t_ms;
  unsigned device;
  uint64_t used, total;
  unsigned sm_util, mem_util; /* percent */
} gmemrt_nvml_sample;

struct live_entry {
  uintptr_t ptr; /* 0 = empty, 1 = deleted */
  uint64_t size;
  uint32_t site;
  uint8_t family;
  uint8_t device; /* the allocating thread's device; the slot's padding, so still 24 bytes */
};

/* What the program holds on each device. */
enum { MAX_DEVICES = 64 };
typedef struct gmemrt_device_stats {
  uint64_t live_bytes, peak_live_bytes, live_count; /* every family, by allocating device */
  uint64_t live_device_bytes; /* device-resident families only (not pinned, not managed) */
  uint64_t baseline_used;     /* in use apart from the program, plus one; 0 unread */
  int baseline_tried;         /* read once, whether or not the read worked */
  uint64_t allocations;
} gmemrt_device_stats;

typedef struct gmemrt_state {
  int lock; /* gmemrt_lock(): 0 free, 1 held, 2 held with a thread waiting */
  /* Sites live in fixed chunks that never move, so a hook may update a site's counters with
   * atomics after it has dropped the lock. */
  gmemrt_site *site_chunks[SITE_CHUNKS];
  size_t nsites;
  uint64_t site_generation; /* bumped when the table is reset (a forked child) */
  uint32_t *site_index;     /* hash: (file pointer, line, column, api) -> site + 1 */
  size_t site_index_cap;
  struct live_entry *live;
  size_t live_cap, live_used, live_count;
  uintptr_t freed_ring[1024]; /* recently freed pointers, for double-free attribution */
  uint32_t freed_ring_site[1024];
  size_t freed_next;
  uint64_t live_bytes, peak_live_bytes;
  gmemrt_device_stats devices[MAX_DEVICES];
  uint64_t steps;
  gmemrt_oom *ooms;
  size_t nooms;
  double *timeline; /* pairs: ms since start, live bytes */
  size_t ntimeline, captimeline;
  uint64_t timeline_stride, timeline_counter;
  struct managed_range {
    uintptr_t ptr;
    uint64_t size;
    uint32_t site;
  } * managed; /* every managed allocation, for attributing CUPTI records by address */
  size_t nmanaged, capmanaged;
  gmemrt_nvml_sample *nvml_samples;
  size_t nnvml, capnvml;
  gmemrt_pool pools[MAX_POOLS];
  int npools;
  int default_pools_used;      /* cudaMallocAsync ran: sample every device's default pool */
  gmemrt_space_view peak_view; /* retaken when live bytes pass the last view's by 1/16 */
  double start_ms;
  int broken; /* the runtime failed: it stays out of the program's way */
} gmemrt_state;

extern gmemrt_state gmemrt;

/* The tables' lock, taken twice for every allocation and free recorded. An inline futex lock
 * (Drepper, "Futexes Are Tricky", mutex 3): taking and dropping it free costs a few
 * instructions, where pthread_mutex_lock and _unlock cost about 50 together (callgrind). */
void gmemrt_lock_wait(void);
void gmemrt_lock_wake(void);
static inline int gmemrt_trylock(void) {
  int free_word = 0;
  return __atomic_compare_exchange_n(&gmemrt.lock, &free_word, 1, 0, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}
static inline void gmemrt_lock(void) {
  if (!gmemrt_trylock())
    gmemrt_lock_wait();
}
static inline void gmemrt_unlock(void) {
  if (__atomic_exchange_n(&gmemrt.lock, 0, __ATOMIC_RELEASE) == 2)
    gmemrt_lock_wake();
}

/* How the injected runtime (gmemrun) sees the program's calls, for runtime.attach: CUDA runtime
 * APIs handed over from CUPTI callbacks to wrapped driver entry points (inject.c). */
enum { MAX_HANDED_OVER = 32 };
typedef struct gmemrt_attach_facts {
  uint64_t entry_points_wrapped; /* fetches of a driver entry point answered with a wrapper */
  uint64_t entry_points_adopted; /* pointers fetched before this library came, swapped in place */
  const char *adopted_in;        /* the object that held them */
  uint64_t wrapper_calls; /* calls a wrapper recorded, less each thread's last unflushed batch */
  uint64_t shortcut_failures; /* caller shortcuts a full unwind contradicted (inject.c) */
  const char *handed_over[MAX_HANDED_OVER];
  int nhanded_over;
  const char *driver_callbacks; /* why the driver's allocation callbacks are on, or NULL */
} gmemrt_attach_facts;
extern gmemrt_attach_facts gmemrt_attach;
/* wrapper_calls with the calling thread's unflushed batch (other threads' stay unflushed) */
uint64_t gmemrt_attach_wrapper_calls(void);

static inline gmemrt_site *gmemrt_site_at(size_t i) {
  return &gmemrt.site_chunks[i / SITE_CHUNK][i % SITE_CHUNK];
}
/* Time spent in a timed free, added after the lock is dropped (sites never move); the call
 * itself was counted under the lock before the real call. */
static inline void gmemrt_add_free_ns(int site, uint64_t ns) {
  if (site < 0 || !ns)
    return;
  gmemrt_site *s = gmemrt_site_at((size_t)site);
  __atomic_fetch_add(&s->free_ns, ns, __ATOMIC_RELAXED);
  __atomic_fetch_add(&s->free_timed, 1, __ATOMIC_RELAXED);
}
double gmemrt_now_ms(void);
uint64_t gmemrt_now_ns(void);
void gmemrt_init(void);
/* pthread_once for a hot path: once fn has run, callers pass on a flag instead of a call */
static inline void gmemrt_once(pthread_once_t *once, int *done, void (*fn)(void)) {
  if (!__atomic_load_n(done, __ATOMIC_ACQUIRE)) {
    pthread_once(once, fn);
    __atomic_store_n(done, 1, __ATOMIC_RELEASE);
  }
}

/* Each hook exists in two forms that share one body hook_<name>(where, ...):
 * gmemrt_<name>(file, line, column, ...) for the calls gmem_forced.h routes here, and, in the
 * preloaded library, the API's own name <sym>(...), whose site is the caller's return address. */
#define GMEMRT_SOURCE_WHERE                                                                        \
  { .file = file, .line = line, .col = col, .ret = (uintptr_t)__builtin_return_address(0) }
#define GMEMRT_CALLER_WHERE                                                                        \
  { .pc = (uintptr_t)__builtin_return_address(0), .ret = (uintptr_t)__builtin_return_address(0) }
#define GMEMRT_UNPAREN(...) __VA_ARGS__
/* entry and hook are pasted by the caller's own macro (gmemrt_##name, hook_##name), before
 * cuda.h's macros (cuMemAlloc -> cuMemAlloc_v2) could rename them. */
#define GMEMRT_SOURCE_ENTRY(type, entry, hook, params, args)                                       \
  type entry(const char *file, int line, int col, GMEMRT_UNPAREN params) {                         \
    gmemrt_where w = GMEMRT_SOURCE_WHERE;                                                          \
    return hook(&w, GMEMRT_UNPAREN args);                                                          \
  }
#ifdef GMEMRT_PRELOAD
#define GMEMRT_HOOK(type, entry, hook, sym, params, args)                                          \
  GMEMRT_SOURCE_ENTRY(type, entry, hook, params, args)                                             \
  type sym params {                                                                                \
    gmemrt_where w = GMEMRT_CALLER_WHERE;                                                          \
    return hook(&w, GMEMRT_UNPAREN args);                                                          \
  }
#else
#define GMEMRT_HOOK(type, entry, hook, sym, params, args)                                          \
  GMEMRT_SOURCE_ENTRY(type, entry, hook, params, args)
#endif

/* A driver API function (driver.c): the program's own, else libcuda.so.1's (opened once). */
void *gmemrt_driver_sym(const char *sym);

/* The hook bodies (hooks.c), shared by the runtime and driver API hooks. */
int gmemrt_hooks_enabled(void);
/* Reading the clock twice costs about as much as a cudaMallocAsync's own bookkeeping, so each
 * thread times its first 4096 calls and then one in 16; sites report the measured time scaled
 * by the calls they made (alloc_timed_calls says how many were measured). 0: not timed. */
extern __thread uint32_t gmemrt_thread_calls;
static inline uint64_t gmemrt_start_clock(void) {
  uint32_t n = ++gmemrt_thread_calls;
  return n <= 4096 || (n & 15) == 0 ? gmemrt_now_ns() : 0;
}
int gmemrt_after_alloc(const gmemrt_where *w, const char *api, int family, int ok,
                       int out_of_memory, void *ptr, uint64_t size, uint64_t t0);
/* A free between its record (before the real call) and the real call's result. */
typedef struct gmemrt_free_in_flight {
  int site, was_live;
  struct live_entry saved; /* put back if the real call fails */
  uint64_t t0;
} gmemrt_free_in_flight;
void gmemrt_before_free(const gmemrt_where *w, const char *api, int free_api, void *ptr,
                        gmemrt_free_in_flight *f);
void gmemrt_after_free(const gmemrt_free_in_flight *f, int ok);

/* All called with the lock held. */
/* The site of a call: each thread remembers sites it used in a small cache of 8 sets of 2, so a
 * loop's allocation and free sites are found again inline with a comparison or two, without
 * hashing into the table. Entries of another generation (before a fork reset the table) are
 * stale. A miss looks the site up (or makes it) and caches it: gmemrt_site_for_slow(). */
enum { GMEMRT_SITE_CACHE = 16 };
extern __thread struct gmemrt_site_cache_entry {
  const char *file, *api;
  int line, col;
  uintptr_t pc;
  int site;
  uint64_t generation; /* gmemrt.site_generation + 1; 0 = empty */
} gmemrt_site_cache[GMEMRT_SITE_CACHE];
int gmemrt_site_for_slow(const gmemrt_where *w, const char *api, int family, uint64_t generation);
static inline size_t gmemrt_site_cache_set(const gmemrt_where *w, const char *api) {
  uintptr_t key = (w->pc ? w->pc : (uintptr_t)w->file + (uintptr_t)w->line) ^ (uintptr_t)api;
  return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> 61) * 2; /* 8 sets */
}
static inline int gmemrt_site_cache_hit(const struct gmemrt_site_cache_entry *c,
                                        const gmemrt_where *w, const char *api,
                                        uint64_t generation) {
  return c->generation == generation && c->pc == w->pc && c->api == api &&
         (w->pc || (c->file == w->file && c->line == w->line && c->col == w->col));
}
static inline int gmemrt_site_for(const gmemrt_where *w, const char *api, int family) {
  uint64_t generation = gmemrt.site_generation + 1;
  const struct gmemrt_site_cache_entry *c = &gmemrt_site_cache[gmemrt_site_cache_set(w, api)];
  if (gmemrt_site_cache_hit(c, w, api, generation))
    return c->site;
  if (gmemrt_site_cache_hit(c + 1, w, api, generation))
    return c[1].site;
  return gmemrt_site_for_slow(w, api, family, generation);
}
void gmemrt_record_alloc(int site, void *ptr, uint64_t size, int family, int device, uint64_t ns);
void gmemrt_record_failed_alloc(int site, uint64_t size, uint64_t ns);
struct live_entry;
int gmemrt_free_begin(void *ptr, int free_api, struct live_entry *saved);
void gmemrt_free_failed(const struct live_entry *saved);
void gmemrt_record_copy(int site, uint64_t bytes, uint64_t ns);
void gmemrt_capture_stack_now(int site, uintptr_t from);
/* Unwinding costs about a microsecond, as much as a whole cudaMallocAsync: the first 16 calls of
 * a site are captured, then one call in 1024, so hot sites stay cheap. */
static inline void gmemrt_capture_stack(int site, uintptr_t from) {
  if (site < 0 || gmemrt_opt.stack_depth <= 0)
    return;
  uint64_t calls = gmemrt_site_at((size_t)site)->calls;
  if (calls <= 16 || (calls & 1023) == 0)
    gmemrt_capture_stack_now(site, from);
}

/* The managed allocation site holding an address (latest first), or -1. Lock held. */
int gmemrt_managed_site(uint64_t address);

/* ---- symbols (symbols.c, libdw): return addresses to functions and source lines ---- */
typedef struct gmemrt_symbol {
  const char *function; /* NULL when the symbol table lacks it */
  uint64_t function_offset;
  const char *module; /* the object file's path */
  uint64_t module_offset;
  const char *file; /* NULL without debug info */
  int line, col;
  int in_cuda_header; /* the location is inside the CUDA toolkit's headers */
} gmemrt_symbol;
/* Describes a return address (the call instruction before it). Strings are interned and live
 * as long as the process. Returns 0 when pc is in no known module. */
int gmemrt_symbolise(uintptr_t pc, gmemrt_symbol *out);
int gmemrt_is_cuda_wrapper_name(const char *function);
/* The caller of the frame whose return address is pc, by unwinding the current stack; 0 if pc
 * is not on it. */
uintptr_t gmemrt_caller_of(uintptr_t pc);

/* ---- unified memory (um.c) ---- */
extern int gmemrt_um_available;
extern gmemrt_um_counts gmemrt_um_unattributed;
extern uint64_t gmemrt_um_records[16]; /* records seen, by counter kind */
void gmemrt_um_start(void);
void gmemrt_um_flush(void);           /* without the lock: CUPTI calls back into us */
void gmemrt_um_after_cuda_call(void); /* enables the counters once the driver is up */
const char *gmemrt_um_reason(void);
/* The process's one CUPTI subscription, shared with the injected runtime's API callbacks. */
extern void (*gmemrt_cupti_api_callback)(void *, int, unsigned, const void *);
int gmemrt_cupti_subscribed(void);
int gmemrt_cupti_enable_callback(int domain, unsigned id, int on);
const char *gmemrt_cupti_callback_name(int domain, unsigned id);

/* ---- objects linking driver functions (imports.c, injected runtime) ---- */
/* Whether objects were loaded since the last scan (cheap, and inline: every wrapped call asks). */
extern struct link_map *gmemrt_last_object_seen; /* the link map's tail at the last scan */
static inline int gmemrt_objects_loaded_since_scan(void) {
  struct link_map *last = __atomic_load_n(&gmemrt_last_object_seen, __ATOMIC_RELAXED);
  return !last || __atomic_load_n(&last->l_next, __ATOMIC_RELAXED) != NULL;
}
/* For each of symbols[count], the name of a loaded object that links it directly ("" for the
 * program itself), left as is when none does. */
void gmemrt_scan_imports(const char *const *symbols, size_t count, const char **importer);
/* The words of the object holding pc, in what it maps writable now, that equal one of
 * values[count]: found(word, index in values, ctx) for each. Returns the object's name ("" for
 * the program), or NULL when pc is in no loaded object. */
const char *gmemrt_find_words(uintptr_t pc, const uintptr_t *values, size_t count,
                              void (*found)(uintptr_t *word, size_t which, void *ctx), void *ctx);

/* ---- stream-ordered pools (pools.c) ---- */
void gmemrt_pool_note(void *pool, int device); /* lock held */
void gmemrt_pools_sample(void);                /* without the lock */
/* After each CUDA call: the first registers the exit writer that runs before cudart's
 * teardown (while pools and CUPTI can still be read) and starts the unified-memory counters. */
extern int gmemrt_cuda_call_seen;
void gmemrt_first_cuda_call(void);
static inline void gmemrt_after_cuda_call(void) {
  if (!__atomic_load_n(&gmemrt_cuda_call_seen, __ATOMIC_ACQUIRE))
    gmemrt_first_cuda_call();
}

/* ---- NVML sampling (nvml.c) ---- */
extern int gmemrt_nvml_available;
void gmemrt_nvml_start(void);
const char *gmemrt_nvml_reason(void);

/* ---- out of memory (oom.c), called without the lock ---- */
void gmemrt_oom_event(int site, uint64_t requested);
void gmemrt_note_baseline(int device);
static inline int gmemrt_is_device_resident(int family) {
  return family == FAM_DEVICE || family == FAM_ASYNC || family == FAM_CU_DEVICE;
}

/* ---- writer (writer.c) ---- */
int gmemrt_write(const char *reason);
void gmemrt_install_handlers(void);

#endif
