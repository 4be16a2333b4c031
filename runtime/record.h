/* Sites, live allocations, copies and stacks as record.c keeps them: the per-thread site cache
 * and stack capture stay inline, for the hooks' fast paths. Private to runtime/. */
#ifndef GMEMRT_RECORD_H
#define GMEMRT_RECORD_H

#include "internal.h"

#include <stdint.h>

/* Takes the address-space view now (lock held); returns 0 when out of host memory. */
int gmemrt_space_view_take(gmemrt_space_view *v);

/* Time spent in a timed free, added after the lock is dropped (sites never move); the call
 * itself was counted under the lock before the real call. */
static inline void gmemrt_add_free_ns(int site, uint64_t ns) {
  if (site < 0 || !ns)
    return;
  gmemrt_site *s = gmemrt_site_at((size_t)site);
  __atomic_fetch_add(&s->free_ns, ns, __ATOMIC_RELAXED);
  __atomic_fetch_add(&s->free_timed, 1, __ATOMIC_RELAXED);
}

/* All called with the lock held. */
/* The site of a call: each thread remembers sites it used in a small cache of 8 sets of 2, so a
 * loop's allocation and free sites are found again inline with a comparison or two, without
 * hashing into the table. Entries of another generation (before a fork reset the table) are
 * stale. A miss looks the site up (or makes it) and caches it: gmemrt_site_for_slow(). */
enum { GMEMRT_SITE_CACHE = 16 };
struct gmemrt_site_cache_entry {
  const char *file, *api;
  int line, col;
  uintptr_t pc;
  int site;
  uint64_t generation; /* gmemrt.site_generation + 1; 0 = empty */
};
typedef struct gmemrt_site_cache {
  struct gmemrt_site_cache_entry entries[GMEMRT_SITE_CACHE];
  uint8_t victim[GMEMRT_SITE_CACHE / 2]; /* the way each set fills next */
} gmemrt_site_cache;
/* Made at the thread's first miss and freed when it ends: only the pointer is thread-local, for
 * the injected library's static TLS comes out of glibc's reserve for dlopen'ed libraries (about
 * 1.7 KiB in all, shared with every other library loaded so), and the cache is 776 bytes. */
extern __thread gmemrt_site_cache *gmemrt_thread_sites;
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
  gmemrt_site_cache *cache = gmemrt_thread_sites;
  if (cache) {
    const struct gmemrt_site_cache_entry *c = &cache->entries[gmemrt_site_cache_set(w, api)];
    if (gmemrt_site_cache_hit(c, w, api, generation))
      return c->site;
    if (gmemrt_site_cache_hit(c + 1, w, api, generation))
      return c[1].site;
  }
  return gmemrt_site_for_slow(w, api, family, generation);
}
void gmemrt_record_alloc(int site, void *ptr, uint64_t size, int family, int device, uint64_t ns);
/* error: the call's result (0: it succeeded without an address, as for 0 bytes), driver_api:
 * a CUresult rather than a cudaError_t, name: its name (gmemrt_error_name) or NULL */
void gmemrt_record_failed_alloc(int site, uint64_t size, uint64_t ns, int error, int driver_api,
                                const char *name);
/* The CUDA library's name for a failed call's result (cudaGetErrorName, cuGetErrorName), or
 * NULL where the library is not there to ask (error_names.c). */
const char *gmemrt_error_name(int error, int driver_api);
struct live_entry;
int gmemrt_free_begin(void *ptr, int free_api, struct live_entry *saved);
/* A thread's batch of repeated pairs (pairs.h), counted as its calls would have been one by
 * one; the block is in no table. */
struct gmemrt_pair_batch;
void gmemrt_record_pairs(const struct gmemrt_pair_batch *b);
void gmemrt_free_failed(const struct live_entry *saved);
/* kind: the cudaMemcpyKind (-1 unknown); dst and src tie a regrowth's copy to its blocks */
void gmemrt_record_copy(int site, uint64_t bytes, uint64_t ns, int kind, const void *dst,
                        const void *src);
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

/* The managed block that held an address at when_ns (the runtime's clock; 0: unknown, the
 * latest block there), or NULL. Lock held. */
struct managed_range *gmemrt_managed_range(uint64_t address, uint64_t when_ns);

#endif
