/* libgmemrt internals. The runtime records facts only: counts, bytes, times, stacks and events
 * by allocation site; every verdict is gmemlint's. One lock guards the tables: a
 * cudaMalloc costs 70-140 us, a cudaMallocAsync about 1 us, an uncontended lock about 20 ns.
 * This header holds what the whole runtime shares (options, families, the tables and their lock);
 * each part's own interface is in its header (record.h, hooks.h, symbols.h, um.h, ...). */
#ifndef GMEMRT_INTERNAL_H
#define GMEMRT_INTERNAL_H

#define GMEMRT_BUILDING 1

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "gmemrt.h" /* GMEMRT_API, and the entry points defined in record.c and writer.c */

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
  int pair_batches;          /* GMEMRT_PAIR_BATCHES: repeated async pairs batched (pairs.h) */
  const char *torch_view;    /* GMEMRT_TORCH_VIEW: gmemrun's "on", or "off: why" (torch_view.h) */
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
static inline int gmemrt_is_device_resident(int family) {
  return family == FAM_DEVICE || family == FAM_ASYNC || family == FAM_CU_DEVICE;
}

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

/* ---- records (record.c; its functions are in record.h) ---- */
enum { MAX_DISTINCT_SIZES = 16, MAX_FRAMES = 32, MAX_STACKS = 8, MAX_FAILURE_KINDS = 4 };

/* Failed allocations of one site with one error: the call's result as the API returned it
 * (a cudaError_t, or a CUresult from the driver API), named when the call failed. */
typedef struct gmemrt_failure {
  int code, driver_api;
  /* the CUDA library's name for it, copied (a preloaded or injected runtime may outlive the
   * library whose string it was); empty when it had none to give */
  char name[48];
  uint64_t calls;
} gmemrt_failure;
enum { SITE_CHUNK = 256, SITE_CHUNKS = 4096 }; /* at most a million sites */

typedef struct gmemrt_stack {
  void *frames[MAX_FRAMES];
  int depth;
  uint64_t count;
} gmemrt_stack;

/* Unified-memory counters attributed to a managed allocation site (um.c). */
typedef struct gmemrt_um_counts {
  uint64_t gpu_page_faults, cpu_page_faults, htod_bytes, dtoh_bytes, thrashing;
  uint64_t htod_on_demand_bytes;     /* migrated because something touched it (coherence) */
  uint64_t htod_user_prefetch_bytes; /* migrated by cudaMemPrefetchAsync (cause "user") */
  /* migrated by the driver's own speculative prefetch around faults (cause "prefetch"): the
   * program did not ask for it; on an H200, 80% of an unprefetched buffer's pages came this way */
  uint64_t htod_speculative_bytes;
  /* ping-pong: transfers whose direction differs from the site's previous transfer, and the
   * gmem_step() intervals that moved pages (at all, and both ways) */
  uint64_t direction_changes, steps_moved, steps_both_ways;
  uint64_t block_direction_changes_max; /* the most changes one block of the site made */
  uint64_t step_now;        /* the interval of the last transfer (steps before it + 1; 0 = none) */
  double first_ms, last_ms; /* the first and last transfer's start, since the process started */
  uint8_t step_directions;  /* in the current step: 1 = to the device, 2 = to the host, 3 both */
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
  gmemrt_failure failures[MAX_FAILURE_KINDS]; /* the failed calls by error; more kinds: dropped */
  int nfailures;
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
  unsigned copy_kinds; /* bit per cudaMemcpyKind the site's copies used */
  /* copies whose destination or source moved on from the previous copy's by the same nonzero
   * step as that one did: the copies of a loop over a range (rows, elements), which one batched
   * or 2D copy could make; a scalar read back to one place, or buffers taken in turn, are not */
  uint64_t copies_strided;
  uintptr_t last_copy_dst, last_copy_src, copy_dst_step, copy_src_step;
  /* when the site was active (ms since the process started): its first call, and its last
   * timed one (allocations: the first 4096 and one in 16 after; copies: every one) */
  double first_ms, last_ms;
  /* regrowth (the run's GM020): a block freed after the site made a larger one while it was
   * live; the longest chain of such replacements, and the copies from a block into its own */
  uintptr_t last_ptr;
  uint64_t regrowths, regrowth_chain_max, regrowth_copies, regrowth_copy_bytes;
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

typedef struct gmemrt_oom {
  int site;
  uint64_t requested, free_bytes, total_bytes, largest_block;
  int probed; /* largest_block was measured; gmemlint judges the event from these figures */
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
  uint8_t device;      /* the allocating thread's device; the slot's padding, so still 24 bytes */
  uint16_t generation; /* regrowths behind this block (see note_regrowth); padding too */
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
    uint64_t born_ns, died_ns;  /* the runtime's clock; died_ns UINT64_MAX while live */
    uint8_t last_direction;     /* of this block's last transfer: 1 to the device, 2 back */
    uint16_t direction_changes; /* this block's, saturating */
  } * managed; /* every managed allocation, for attributing CUPTI records by address and time:
                  records come late, after the address may have gone to another site */
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

static inline gmemrt_site *gmemrt_site_at(size_t i) {
  return &gmemrt.site_chunks[i / SITE_CHUNK][i % SITE_CHUNK];
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

#endif
