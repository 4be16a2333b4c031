/* The tables: allocation sites, live allocations, steps and the live-bytes timeline. Memory per
 * live allocation: one 24-byte slot in a table kept at most half full, so 48 bytes or less. */
#include "record.h"
#include "pairs.h"
#include "internal.h"
#include "pools.h"
#include "symbols.h"
#include "um.h"

#include <libunwind.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The same family names as the analyzer's table (rules/families.ini). */
const char *const gmemrt_family_names[FAM_COUNT] = {
    [FAM_DEVICE] = "cuda-device", [FAM_MANAGED] = "cuda-managed", [FAM_HOST] = "cuda-host",
    [FAM_ASYNC] = "cuda-async",   [FAM_CU_DEVICE] = "cu-device",  [FAM_CU_MANAGED] = "cu-managed",
    [FAM_CU_HOST] = "cu-host",    [FAM_ARRAY] = "cuda-array",     [FAM_MIPMAP] = "cuda-mipmap",
    [FAM_CU_HANDLE] = "cu-handle"};
const char *const gmemrt_free_names[FREE_API_COUNT] = {[FREE_CUDA] = "cudaFree",
                                                       [FREE_HOST] = "cudaFreeHost",
                                                       [FREE_ASYNC] = "cudaFreeAsync",
                                                       [FREE_CU] = "cuMemFree",
                                                       [FREE_CU_HOST] = "cuMemFreeHost",
                                                       [FREE_ARRAY] = "cudaFreeArray",
                                                       [FREE_MIPMAP] = "cudaFreeMipmappedArray",
                                                       [FREE_CU_ASYNC] = "cuMemFreeAsync",
                                                       [FREE_CU_RELEASE] = "cuMemRelease"};

gmemrt_state gmemrt;

/* The lock's slow paths: wait until it is dropped, marking it as waited on (2). */
void gmemrt_lock_wait(void) {
  for (int spins = 0; spins < 100; spins++) { /* held briefly, as a rule: spin a little first */
    if (__atomic_load_n(&gmemrt.lock, __ATOMIC_RELAXED) == 0 && gmemrt_trylock())
      return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
  }
  while (__atomic_exchange_n(&gmemrt.lock, 2, __ATOMIC_ACQUIRE) != 0)
    syscall(SYS_futex, &gmemrt.lock, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
}

void gmemrt_lock_wake(void) {
  syscall(SYS_futex, &gmemrt.lock, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

uint64_t gmemrt_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double gmemrt_now_ms(void) {
  return (double)gmemrt_now_ns() / 1e6;
}

/* The runtime's own allocation failures disable it rather than the program. */
static void *grow(void *p, size_t n) {
  void *q = realloc(p, n);
  if (!q && !gmemrt.broken) {
    gmemrt.broken = 1;
    gmemrt_warn("out of host memory for telemetry; recording stops here");
  }
  return q;
}

static uint64_t hash_ptr(uintptr_t p) {
  uint64_t x = (uint64_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

/* Source sites are keyed by the file string's address (each translation unit passes its own
 * __FILE__ literal), line, column and api; return-address sites by pc and api. */
static uint64_t hash_site(const char *file, int line, int col, uintptr_t pc, const char *api) {
  if (pc)
    return hash_ptr(pc) ^ hash_ptr((uintptr_t)api + 1);
  return hash_ptr((uintptr_t)file) ^ hash_ptr((uintptr_t)api + 1) ^
         ((uint64_t)(unsigned)line * 0x9E3779B97F4A7C15ULL) ^ (uint64_t)(unsigned)col;
}

static uint64_t hash_of(const gmemrt_site *s) {
  return s->pc ? hash_site(NULL, 0, 0, s->pc, s->api)
               : hash_site(s->file, s->line, s->column, 0, s->api);
}

static int same_site(const gmemrt_site *s, const gmemrt_where *w, const char *api) {
  if (s->api != api || s->pc != w->pc)
    return 0;
  return w->pc || (s->file == w->file && s->line == w->line && s->column == w->col);
}

/* A return-address site learns its source position from the debug information; a pc inside a
 * CUDA header's C++ wrapper (cudaMalloc<T> calling ::cudaMalloc) stands for its callers. */
static void describe_pc_site(gmemrt_site *s) {
  gmemrt_symbol sym;
  if (!gmemrt_symbolise(s->pc, &sym))
    return;
  s->file = sym.file;
  s->line = sym.line;
  s->column = sym.col;
  s->function = sym.function;
  s->module = sym.module;
  s->module_offset = sym.module_offset;
  s->wrapper = sym.in_cuda_header;
}

static int rehash_sites(size_t cap) {
  uint32_t *idx = calloc(cap, sizeof *idx);
  if (!idx) {
    gmemrt.broken = 1;
    return 0;
  }
  for (size_t i = 0; i < gmemrt.nsites; i++) {
    gmemrt_site *s = gmemrt_site_at(i);
    size_t h = hash_of(s) & (cap - 1);
    while (idx[h])
      h = (h + 1) & (cap - 1);
    idx[h] = (uint32_t)i + 1;
  }
  free(gmemrt.site_index);
  gmemrt.site_index = idx;
  gmemrt.site_index_cap = cap;
  return 1;
}

static int site_lookup(const gmemrt_where *w, const char *api, int family) {
  if (gmemrt.nsites * 2 >= gmemrt.site_index_cap &&
      !rehash_sites(gmemrt.site_index_cap ? gmemrt.site_index_cap * 2 : 256))
    return -1;
  size_t mask = gmemrt.site_index_cap - 1;
  size_t h = hash_site(w->file, w->line, w->col, w->pc, api) & mask;
  for (; gmemrt.site_index[h]; h = (h + 1) & mask) {
    gmemrt_site *s = gmemrt_site_at(gmemrt.site_index[h] - 1);
    if (same_site(s, w, api))
      return (int)gmemrt.site_index[h] - 1;
  }
  if (gmemrt.nsites % SITE_CHUNK == 0) {
    size_t chunk = gmemrt.nsites / SITE_CHUNK;
    if (chunk >= SITE_CHUNKS)
      return -1;
    if (!gmemrt.site_chunks[chunk]) {
      gmemrt.site_chunks[chunk] = calloc(SITE_CHUNK, sizeof(gmemrt_site));
      if (!gmemrt.site_chunks[chunk]) {
        gmemrt.broken = 1;
        return -1;
      }
    }
  }
  gmemrt_site *s = gmemrt_site_at(gmemrt.nsites);
  memset(s, 0, sizeof *s);
  s->file = w->file;
  s->line = w->line;
  s->column = w->col;
  s->pc = w->pc;
  s->api = api;
  s->family = family;
  s->bytes_min = UINT64_MAX;
  if (s->pc)
    describe_pc_site(s);
  gmemrt.site_index[h] = (uint32_t)++gmemrt.nsites;
  return (int)gmemrt.nsites - 1;
}

__thread gmemrt_site_cache *gmemrt_thread_sites;
static pthread_key_t thread_sites_key;
static pthread_once_t thread_sites_once = PTHREAD_ONCE_INIT;

/* The thread ends: its cache goes (a later call in another key's destructor makes a new one,
 * which glibc's further destructor rounds free in turn). */
static void thread_sites_end(void *cache) {
  gmemrt_thread_sites = NULL;
  free(cache);
}
static void thread_sites_key_create(void) {
  pthread_key_create(&thread_sites_key, thread_sites_end);
}
static gmemrt_site_cache *thread_sites(void) {
  if (!gmemrt_thread_sites) {
    pthread_once(&thread_sites_once, thread_sites_key_create);
    gmemrt_site_cache *cache = calloc(1, sizeof *cache);
    if (cache && pthread_setspecific(thread_sites_key, cache) != 0) {
      free(cache); /* never freed at the thread's end: go without */
      cache = NULL;
    }
    gmemrt_thread_sites = cache;
  }
  return gmemrt_thread_sites;
}

/* A site not in this thread's cache: looked up (or made), then cached. Kept out of line so that
 * the cache's hit path, taken by almost every call, stays a short leaf. */
int gmemrt_site_for_slow(const gmemrt_where *w, const char *api, int family, uint64_t generation) {
  int site = site_lookup(w, api, family);
  int hopped = 0;
  /* a wrapper's pc: the site is the first caller outside the CUDA headers */
  for (int hops = 0; site >= 0 && gmemrt_site_at((size_t)site)->wrapper && hops < 4; hops++) {
    gmemrt_where outer = {.pc = gmemrt_caller_of(gmemrt_site_at((size_t)site)->pc)};
    if (!outer.pc)
      break;
    site = site_lookup(&outer, api, family);
    hopped = 1;
  }
  /* a wrapper's site (hopped) depends on the stack: never cached */
  gmemrt_site_cache *cache = site >= 0 && !hopped ? thread_sites() : NULL;
  if (cache) {
    size_t set = gmemrt_site_cache_set(w, api);
    cache->entries[set + cache->victim[set / 2]] =
        (struct gmemrt_site_cache_entry){w->file, api, w->line, w->col, w->pc, site, generation};
    cache->victim[set / 2] ^= 1;
  }
  return site;
}

static int live_resize(size_t cap) {
  struct live_entry *old = gmemrt.live;
  size_t oldcap = gmemrt.live_cap;
  struct live_entry *t = calloc(cap, sizeof *t);
  if (!t) {
    gmemrt.broken = 1;
    gmemrt_warn("out of host memory for the live-allocation table; recording stops here");
    return 0;
  }
  gmemrt.live = t;
  gmemrt.live_cap = cap;
  gmemrt.live_used = 0;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].ptr > 1) {
      size_t h = hash_ptr(old[i].ptr) & (cap - 1);
      while (t[h].ptr)
        h = (h + 1) & (cap - 1);
      t[h] = old[i];
      gmemrt.live_used++;
    }
  free(old);
  return 1;
}

_Static_assert(sizeof(struct live_entry) == 24,
               "a live slot stays 24 bytes (docs/telemetry-format.md)");

static inline struct live_entry *live_find(uintptr_t p) {
  if (!gmemrt.live_cap)
    return NULL;
  size_t mask = gmemrt.live_cap - 1;
  for (size_t h = hash_ptr(p) & mask;; h = (h + 1) & mask) {
    if (gmemrt.live[h].ptr == p)
      return &gmemrt.live[h];
    if (gmemrt.live[h].ptr == 0)
      return NULL;
  }
}

static __attribute__((noinline)) void timeline_take_sample(void) {
  gmemrt.timeline_counter = 0;
  if (gmemrt.ntimeline + 2 > gmemrt.captimeline) {
    if (gmemrt.captimeline / 2 >= (size_t)gmemrt_opt.timeline) {
      /* full: keep every other sample and sample half as often */
      for (size_t i = 0; i < gmemrt.ntimeline / 4; i++) {
        gmemrt.timeline[2 * i] = gmemrt.timeline[4 * i];
        gmemrt.timeline[2 * i + 1] = gmemrt.timeline[4 * i + 1];
      }
      gmemrt.ntimeline = (gmemrt.ntimeline / 4) * 2;
      gmemrt.timeline_stride = gmemrt.timeline_stride ? gmemrt.timeline_stride * 2 : 2;
    } else {
      size_t cap = gmemrt.captimeline ? gmemrt.captimeline * 2 : 256;
      double *t = grow(gmemrt.timeline, cap * sizeof *t);
      if (!t)
        return;
      gmemrt.timeline = t;
      gmemrt.captimeline = cap;
    }
  }
  gmemrt.timeline[gmemrt.ntimeline++] = gmemrt_now_ms() - gmemrt.start_ms;
  gmemrt.timeline[gmemrt.ntimeline++] = (double)gmemrt.live_bytes;
}

/* After each allocation and free: one sample in timeline_stride (the check stays inline). */
static inline void timeline_sample(void) {
  if (gmemrt_opt.timeline && ++gmemrt.timeline_counter >= gmemrt.timeline_stride)
    timeline_take_sample();
}

static inline void note_active(gmemrt_site *s) {
  s->last_ms = gmemrt_now_ms() - gmemrt.start_ms;
  if (s->calls + s->copies <= 1)
    s->first_ms = s->last_ms;
}

static inline void note_size(gmemrt_site *s, uint64_t size) {
  s->calls++;
  s->bytes_total += size;
  if (size < s->bytes_min)
    s->bytes_min = size;
  if (size > s->bytes_max)
    s->bytes_max = size;
  if (s->calls > 1 && size > s->last_size)
    s->increasing_sizes++;
  s->last_size = size;
  for (int i = 0; i < s->nsizes; i++)
    if (s->sizes[i] == size)
      return;
  if (s->nsizes < MAX_DISTINCT_SIZES)
    s->sizes[s->nsizes++] = size;
  else
    s->sizes_truncated = 1;
}

static gmemrt_device_stats *device_stats(int device) {
  return &gmemrt.devices[device >= 0 && device < MAX_DEVICES ? device : 0];
}

/* Takes an entry's bytes off its device's books. */
static inline void device_release(const struct live_entry *e) {
  gmemrt_device_stats *d = device_stats(e->device);
  d->live_bytes -= e->size;
  d->live_count--;
  if (gmemrt_is_device_resident(e->family))
    d->live_device_bytes -= e->size;
}

static inline void device_add(const struct live_entry *e) {
  gmemrt_device_stats *d = device_stats(e->device);
  d->live_bytes += e->size;
  d->live_count++;
  if (d->live_bytes > d->peak_live_bytes)
    d->peak_live_bytes = d->live_bytes;
  if (gmemrt_is_device_resident(e->family))
    d->live_device_bytes += e->size;
}

void gmemrt_record_alloc(int site, void *ptr, uint64_t size, int family, int device, uint64_t ns) {
  if (site < 0 || !ptr)
    return;
  gmemrt_site *s = gmemrt_site_at(site);
  note_size(s, size);
  if (s->calls == 1 || ns) /* the first call, and the timed ones: their clock was read anyway */
    note_active(s);
  s->alloc_ns += ns;
  s->alloc_timed += ns != 0;
  if ((gmemrt.live_used + 1) * 2 > gmemrt.live_cap &&
      !live_resize(gmemrt.live_cap ? gmemrt.live_cap * 2 : 1024))
    return;
  uintptr_t p = (uintptr_t)ptr;
  /* one probe sequence: the address's own entry if it is there, else the first free or deleted
   * slot on the way to an empty one */
  size_t mask = gmemrt.live_cap - 1;
  struct live_entry *e = NULL, *slot = NULL;
  for (size_t h = hash_ptr(p) & mask;; h = (h + 1) & mask) {
    struct live_entry *at = &gmemrt.live[h];
    if (at->ptr == p) {
      e = at;
      break;
    }
    if (at->ptr <= 1 && !slot)
      slot = at;
    if (at->ptr == 0)
      break;
  }
  if (!e) {
    if (slot->ptr == 0)
      gmemrt.live_used++;
    e = slot;
    gmemrt.live_count++;
  } else {
    /* the same address again without a free we saw: drop the stale record */
    gmemrt_site *old = gmemrt_site_at(e->site);
    old->live_bytes -= e->size;
    old->live_count--;
    gmemrt.live_bytes -= e->size;
    device_release(e);
  }
  e->ptr = p;
  e->size = size;
  e->site = (uint32_t)site;
  e->family = (uint8_t)family;
  e->device = (uint8_t)(device >= 0 && device < MAX_DEVICES ? device : 0);
  e->generation = 0;
  s->last_ptr = p;
  device_add(e);
  device_stats(device)->allocations++;
  s->live_bytes += size;
  s->live_count++;
  if (s->live_bytes > s->peak_live_bytes)
    s->peak_live_bytes = s->live_bytes;
  gmemrt.live_bytes += size;
  if (gmemrt.live_bytes > gmemrt.peak_live_bytes) {
    gmemrt.peak_live_bytes = gmemrt.live_bytes;
    /* a new peak: retake the address-space view when it has grown by 1/16 since the last one,
     * so a program growing to its peak takes O(log) views, not one per allocation */
    uint64_t last = gmemrt.peak_view.live_bytes;
    if (!gmemrt.peak_view.blocks || gmemrt.live_bytes >= last + last / 16)
      gmemrt_space_view_take(&gmemrt.peak_view);
  }
  if ((family == FAM_MANAGED || family == FAM_CU_MANAGED) && gmemrt.nmanaged < (1u << 16)) {
    if (gmemrt.nmanaged == gmemrt.capmanaged) {
      size_t cap = gmemrt.capmanaged ? gmemrt.capmanaged * 2 : 64;
      struct managed_range *m = grow(gmemrt.managed, cap * sizeof *m);
      if (m) {
        gmemrt.managed = m;
        gmemrt.capmanaged = cap;
      }
    }
    if (gmemrt.nmanaged < gmemrt.capmanaged)
      gmemrt.managed[gmemrt.nmanaged++] =
          (struct managed_range){p, size, (uint32_t)site, gmemrt_now_ns(), UINT64_MAX, 0, 0};
  }
  timeline_sample();
}

static int is_device_family(int family) {
  return family == FAM_DEVICE || family == FAM_ASYNC || family == FAM_CU_DEVICE ||
         family == FAM_MANAGED || family == FAM_CU_MANAGED;
}

static int by_address(const void *a, const void *b) {
  uintptr_t x = ((const gmemrt_block *)a)->ptr, y = ((const gmemrt_block *)b)->ptr;
  return x < y ? -1 : x > y;
}

int gmemrt_space_view_take(gmemrt_space_view *v) {
  size_t n = 0;
  for (size_t i = 0; i < gmemrt.live_cap; i++)
    n += gmemrt.live[i].ptr > 1 && is_device_family(gmemrt.live[i].family);
  gmemrt_block *b = malloc((n ? n : 1) * sizeof *b);
  if (!b)
    return 0;
  size_t k = 0;
  for (size_t i = 0; i < gmemrt.live_cap && k < n; i++)
    if (gmemrt.live[i].ptr > 1 && is_device_family(gmemrt.live[i].family))
      b[k++] = (gmemrt_block){gmemrt.live[i].ptr, gmemrt.live[i].size, gmemrt.live[i].site};
  qsort(b, k, sizeof *b, by_address);
  free(v->blocks);
  v->blocks = b;
  v->nblocks = k < MAX_VIEW_BLOCKS ? k : MAX_VIEW_BLOCKS;
  v->truncated = k - v->nblocks;
  v->live_bytes = gmemrt.live_bytes;
  v->time_ms = gmemrt_now_ms() - gmemrt.start_ms;
  return 1;
}

struct managed_range *gmemrt_managed_range(uint64_t address, uint64_t when_ns) {
  struct managed_range *latest = NULL;
  for (size_t i = gmemrt.nmanaged; i-- > 0;) {
    struct managed_range *m = &gmemrt.managed[i];
    if (address < m->ptr || address >= m->ptr + m->size)
      continue;
    if (!when_ns || (when_ns >= m->born_ns && when_ns < m->died_ns))
      return m;
    if (!latest)
      latest = m; /* no range lived then (clocks a little apart): the latest */
  }
  return latest;
}

/* A managed block is freed: its range stops taking records from later times. */
static void managed_died(uintptr_t p) {
  for (size_t i = gmemrt.nmanaged; i-- > 0;)
    if (gmemrt.managed[i].ptr == p && gmemrt.managed[i].died_ns == UINT64_MAX) {
      gmemrt.managed[i].died_ns = gmemrt_now_ns();
      return;
    }
}

void gmemrt_record_failed_alloc(int site, uint64_t size, uint64_t ns, int error, int driver_api,
                                const char *name) {
  if (site < 0)
    return;
  gmemrt_site *s = gmemrt_site_at(site);
  s->failed_calls++;
  s->alloc_ns += ns;
  s->alloc_timed += ns != 0;
  (void)size;
  if (!error)
    return;
  int k = 0;
  while (k < s->nfailures &&
         (s->failures[k].code != error || s->failures[k].driver_api != driver_api))
    k++;
  if (k == s->nfailures) {
    if (k == MAX_FAILURE_KINDS)
      return; /* counted in failed_calls only */
    s->failures[k] = (gmemrt_failure){.code = error, .driver_api = driver_api};
    char *copy = s->failures[k].name;
    for (size_t i = 0; name && name[i] && i + 1 < sizeof s->failures[k].name; i++)
      copy[i] = name[i]; /* NUL-terminated: the record was zeroed */
    s->nfailures++;
  }
  s->failures[k].calls++;
}

static int free_accepts(int free_api, int family) {
  switch (free_api) {
  case FREE_CUDA:
  case FREE_ASYNC:
  case FREE_CU_ASYNC:
  case FREE_CU: /* runtime and driver device memory share one address space */
    return family == FAM_DEVICE || family == FAM_MANAGED || family == FAM_ASYNC ||
           family == FAM_CU_DEVICE || family == FAM_CU_MANAGED;
  case FREE_HOST:
  case FREE_CU_HOST:
    return family == FAM_HOST || family == FAM_CU_HOST;
  case FREE_ARRAY:
    return family == FAM_ARRAY;
  case FREE_MIPMAP:
    return family == FAM_MIPMAP;
  case FREE_CU_RELEASE:
    return family == FAM_CU_HANDLE;
  default:
    return 0;
  }
}

/* The block e of site s is being freed: when the site's latest allocation came after it and is
 * larger, e was replaced by a larger block (allocate larger, copy, free the old: GM020's pattern,
 * or torch.cat's). The replacement's generation is one more than e's, so a buffer regrown step
 * after step makes a long chain, and a one-off "small temporary, then a big buffer" (or the
 * chunk appended to the new block) makes a chain of one. */
static void note_regrowth(gmemrt_site *s, const struct live_entry *e) {
  if (!s->last_ptr || s->last_ptr == e->ptr)
    return;
  struct live_entry *newer = live_find(s->last_ptr);
  if (!newer || newer->site != e->site || newer->size <= e->size)
    return;
  s->regrowths++;
  unsigned generation = e->generation + 1u;
  if (generation > newer->generation && generation <= UINT16_MAX)
    newer->generation = (uint16_t)generation;
  if (newer->generation > s->regrowth_chain_max)
    s->regrowth_chain_max = newer->generation;
}

/* A freed block's address and site, in the ring a later free of it is found in (double frees). */
static void note_freed(uintptr_t p, uint32_t site) {
  size_t slot = gmemrt.freed_next++ % (sizeof gmemrt.freed_ring / sizeof gmemrt.freed_ring[0]);
  gmemrt.freed_ring[slot] = p;
  gmemrt.freed_ring_site[slot] = site;
}

/* A free is recorded before the real call, under the lock, so that another thread cannot be
 * handed the same address (and record it) between the real free and our record of it. If the
 * real call then fails, gmemrt_free_failed() puts the record back. */
int gmemrt_free_begin(void *ptr, int free_api, struct live_entry *saved) {
  if (!ptr)
    return 0; /* cudaFree(0): a no-op, and a common way to create the context */
  uintptr_t p = (uintptr_t)ptr;
  struct live_entry *e = live_find(p);
  if (!e && gmemrt_pairs_claim(p))
    e = live_find(p); /* another thread's allocation, waiting in its slot (pairs.h) */
  if (!e) {
    /* not live: freed before (double free), or never seen (allocated elsewhere) */
    for (size_t i = 0; i < sizeof gmemrt.freed_ring / sizeof gmemrt.freed_ring[0]; i++)
      if (gmemrt.freed_ring[i] == p) {
        gmemrt_site_at(gmemrt.freed_ring_site[i])->double_frees++;
        break;
      }
    return 0;
  }
  gmemrt_site *s = gmemrt_site_at(e->site);
  s->frees[free_api]++;
  if (!free_accepts(free_api, e->family))
    s->wrong_family_frees++;
  else
    note_regrowth(s, e);
  if (e->family == FAM_MANAGED || e->family == FAM_CU_MANAGED)
    managed_died(p);
  s->live_bytes -= e->size;
  s->live_count--;
  gmemrt.live_bytes -= e->size;
  device_release(e);
  gmemrt.live_count--;
  *saved = *e;
  e->ptr = 1; /* deleted */
  note_freed(p, saved->site);
  timeline_sample();
  return 1;
}

void gmemrt_record_pairs(const gmemrt_pair_batch *b) {
  uint64_t n = b->n;
  if (!n)
    return;
  gmemrt_site *s = gmemrt_site_at((size_t)b->alloc_site);
  gmemrt_device_stats *d = device_stats(b->device);
  if (s->live_bytes + b->size > s->peak_live_bytes ||
      gmemrt.live_bytes + b->size > gmemrt.peak_live_bytes ||
      d->live_bytes + b->size > d->peak_live_bytes) {
    /* the first pair raises a peak: made the ordinary way, so the peaks and the view of the
     * address space that follows the process's peak are as they would be */
    struct live_entry saved;
    gmemrt_record_alloc(b->alloc_site, (void *)b->ptr, b->size, b->family, b->device, 0);
    gmemrt_free_begin((void *)b->ptr, b->free_api, &saved);
    n--;
  }
  if (n) {
    note_size(s, b->size); /* the rest repeat its size: no new size, nothing increasing */
    s->calls += n - 1;
    s->bytes_total += (n - 1) * b->size;
    d->allocations += n;
    s->frees[b->free_api] += n;
    s->last_ptr = b->ptr;
    note_freed(b->ptr, (uint32_t)b->alloc_site);
    /* the timeline's samples fall where the 2n calls would take them (timeline_sample), a
     * sample after an allocation with the block live; from one sample to the next, not call
     * by call (a sample may double the stride) */
    for (uint64_t done = 0, total = 2 * n; gmemrt_opt.timeline;) {
      uint64_t stride = gmemrt.timeline_stride ? gmemrt.timeline_stride : 1;
      uint64_t to_next = gmemrt.timeline_counter < stride ? stride - gmemrt.timeline_counter : 1;
      if (done + to_next > total) {
        gmemrt.timeline_counter += total - done;
        break;
      }
      done += to_next;
      uint64_t held = (done - 1) & 1 ? 0 : b->size; /* calls 1, 3, 5 ... are allocations */
      gmemrt.live_bytes += held;
      timeline_take_sample();
      gmemrt.live_bytes -= held;
    }
  }
  s->alloc_ns += b->alloc_ns;
  s->alloc_timed += b->alloc_timed;
  if (b->last_active_ms >= 0)
    s->last_ms = b->last_active_ms;
  gmemrt_site *f = gmemrt_site_at((size_t)b->free_site);
  f->free_calls += b->n;
  f->free_ns += b->free_ns;
  f->free_timed += b->free_timed;
}

void gmemrt_free_failed(const struct live_entry *saved) {
  /* the memory is still allocated (a wrong-family free fails): it is live again */
  gmemrt_site *s = gmemrt_site_at(saved->site);
  if ((gmemrt.live_used + 1) * 2 > gmemrt.live_cap && !live_resize(gmemrt.live_cap * 2))
    return;
  size_t mask = gmemrt.live_cap - 1;
  size_t h = hash_ptr(saved->ptr) & mask;
  while (gmemrt.live[h].ptr > 1)
    h = (h + 1) & mask;
  if (gmemrt.live[h].ptr == 0)
    gmemrt.live_used++;
  gmemrt.live[h] = *saved;
  gmemrt.live_count++;
  s->live_bytes += saved->size;
  s->live_count++;
  gmemrt.live_bytes += saved->size;
  device_add(saved);
  if (saved->family == FAM_MANAGED || saved->family == FAM_CU_MANAGED)
    for (size_t i = gmemrt.nmanaged; i-- > 0;) /* its range lives on */
      if (gmemrt.managed[i].ptr == saved->ptr) {
        gmemrt.managed[i].died_ns = UINT64_MAX;
        break;
      }
  for (size_t i = 0; i < sizeof gmemrt.freed_ring / sizeof gmemrt.freed_ring[0]; i++)
    if (gmemrt.freed_ring[i] == saved->ptr)
      gmemrt.freed_ring[i] = 0;
}

void gmemrt_record_copy(int site, uint64_t bytes, uint64_t ns, int kind, const void *dst,
                        const void *src) {
  gmemrt_pairs_flush_own(); /* a copy from or into the waiting block finds it in the tables */
  if (site < 0)
    return;
  gmemrt_site *s = gmemrt_site_at(site);
  s->copies++;
  s->copy_bytes += bytes;
  s->copy_ns += ns;
  note_active(s);
  if (kind >= 0 && kind < 8)
    s->copy_kinds |= 1u << kind;
  uintptr_t dst_step = (uintptr_t)dst - s->last_copy_dst,
            src_step = (uintptr_t)src - s->last_copy_src;
  if (s->copies > 2 &&
      ((dst_step && dst_step == s->copy_dst_step) || (src_step && src_step == s->copy_src_step)))
    s->copies_strided++;
  s->copy_dst_step = dst_step;
  s->copy_src_step = src_step;
  s->last_copy_dst = (uintptr_t)dst;
  s->last_copy_src = (uintptr_t)src;
  /* a copy from a live block into the larger block its site made last: the copy of a regrowth */
  const struct live_entry *from = src ? live_find((uintptr_t)src) : NULL;
  if (!from || (uintptr_t)dst == from->ptr)
    return;
  gmemrt_site *owner = gmemrt_site_at(from->site);
  if (owner->last_ptr != (uintptr_t)dst)
    return;
  const struct live_entry *to = live_find((uintptr_t)dst);
  if (to && to->site == from->site && to->size > from->size) {
    owner->regrowth_copies++;
    owner->regrowth_copy_bytes += bytes;
  }
}

/* A few distinct stacks per site: the first calls are captured, repeats are only counted.
 * gmemrt_capture_stack (record.h) says which calls. */
void gmemrt_capture_stack_now(int site, uintptr_t from) {
  gmemrt_site *s = gmemrt_site_at(site);
  enum { OWN = 24 }; /* the runtime's own frames above the caller (CUPTI and driver ones too) */
  if (s->pc)
    from = s->pc; /* past a CUDA header's wrapper, when the site is its caller */
  void *frames[MAX_FRAMES + OWN];
  int depth = unw_backtrace(frames, gmemrt_opt.stack_depth + OWN);
  int skip = 0;
  while (skip < depth && skip < OWN && (uintptr_t)frames[skip] != from)
    skip++;
  if (skip == depth || skip == OWN)
    skip = depth > 2 ? 2 : 0; /* the entry's frame was not found: drop this function's */
  depth -= skip;
  if (depth > gmemrt_opt.stack_depth)
    depth = gmemrt_opt.stack_depth;
  for (int i = 0; i < s->nstacks; i++)
    if (s->stacks[i].depth == depth &&
        memcmp(s->stacks[i].frames, frames + skip, sizeof(void *) * (size_t)depth) == 0) {
      s->stacks[i].count++;
      return;
    }
  if (s->nstacks >= gmemrt_opt.stacks_per_site) {
    s->stacks_dropped++;
    return;
  }
  gmemrt_stack *st = &s->stacks[s->nstacks++];
  memcpy(st->frames, frames + skip, sizeof(void *) * (size_t)depth);
  st->depth = depth;
  st->count = 1;
}

/* gmem_step(): live bytes of every site at the end of an iteration. */
void gmemrt_step(void) {
  gmemrt_init();
  if (gmemrt.broken || gmemrt_opt.disabled)
    return;
  gmemrt_pools_sample();
  gmemrt_lock();
  gmemrt_pairs_settle(); /* the steps' live bytes count every thread's waiting allocation */
  gmemrt.steps++;
  gmemrt_um_note_step();
  for (size_t i = 0; i < gmemrt.nsites; i++) {
    gmemrt_site *s = gmemrt_site_at(i);
    if (s->family < 0)
      continue;
    if (s->capsteps < gmemrt.steps) {
      size_t cap = s->capsteps ? s->capsteps : 16;
      while (cap < gmemrt.steps)
        cap *= 2;
      uint64_t *v = grow(s->step_live, cap * sizeof *v);
      if (!v)
        break;
      s->step_live = v;
      s->capsteps = cap;
    }
    while (s->nsteps + 1 < gmemrt.steps) /* a site first seen after some steps */
      s->step_live[s->nsteps++] = 0;
    s->step_live[s->nsteps++] = s->live_bytes;
  }
  gmemrt_unlock();
}

/* The same entry points under the public names, for callers without the header (ctypes). */
void gmem_step(void) {
  gmemrt_step();
}
