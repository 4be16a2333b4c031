/* Stream-ordered pairs kept per thread (pairs.c). A loop that allocates a block with
 * cudaMallocAsync and frees it with cudaFreeAsync makes the same pair at the same two places, call
 * after call, and a pool answers each in about a microsecond: recording each call in the shared
 * tables (the lock, the live table, the device's books) cost a quarter of that. So, once a
 * thread has made such a pair the ordinary way, its repeats are counted in the thread's own batch:
 * the allocation waits in the thread's slot, its free takes it back, and the batch is added to the
 * tables in one go, with the figures the ordinary way gives (calls, bytes, peaks, frees, timings,
 * timeline samples). The batch goes in before anything else the thread records, every 1024 pairs,
 * and when the thread ends; a slot's allocation is claimed into the tables by any thread that
 * needs it (a free of it elsewhere, a step, an out-of-memory event, the telemetry file), so no
 * block is ever missing from what others see. Private to runtime/. */
#ifndef GMEMRT_PAIRS_H
#define GMEMRT_PAIRS_H

#include "internal.h"

#include <stdint.h>

/* The thread's allocation waiting for its free: not yet in the tables. ptr is published last and
 * taken back with a compare-and-swap, by the thread or by a claim. */
typedef struct gmemrt_pair_slot {
  uintptr_t ptr; /* 0: empty */
  /* written by the thread while the slot is empty, read by a claim while it is not (atomic:
   * relaxed, for the instant a thread takes its block back and allocates it again) */
  uint64_t ns;        /* the allocation's timed duration, 0 if not timed */
  uint64_t active_ns; /* the runtime's clock at a timed allocation (since its start) + 1, or 0 */
  int site, family, device;
  uint64_t size;
  uint64_t generation; /* gmemrt.site_generation when filled */
} gmemrt_pair_slot;

/* The thread's repeated pair: its identity, and the repeats not yet in the tables. */
typedef struct gmemrt_pair_batch {
  int armed;
  uint64_t generation;
  gmemrt_where alloc_where, free_where;
  const char *alloc_api, *free_api_name;
  int family, free_api, alloc_site, free_site, device;
  uintptr_t ptr;
  uint64_t size;
  uint64_t base_calls; /* the allocation site's calls when the batch last went in */
  uint64_t n, alloc_ns, alloc_timed, free_ns, free_timed;
  double last_active_ms; /* of the latest timed allocation in the batch, or -1 */
} gmemrt_pair_batch;

typedef struct gmemrt_pair_thread {
  gmemrt_pair_slot slot;
  gmemrt_pair_batch batch;
  /* the thread's latest allocation recorded the ordinary way: a free of it arms the batch */
  gmemrt_where last_where;
  const char *last_api;
  uintptr_t last_ptr;
  int registered; /* in the registry, for claims and its end */
} gmemrt_pair_thread;
extern __thread gmemrt_pair_thread gmemrt_pair_me;

enum { GMEMRT_PAIR_BATCH_MAX = 1024 };

static inline int gmemrt_same_where(const gmemrt_where *a, const gmemrt_where *b) {
  return a->pc == b->pc &&
         (a->pc || (a->file == b->file && a->line == b->line && a->col == b->col));
}

/* An allocation that repeats the thread's batched pair: waits in the slot (1), or 0 when it must
 * be recorded the ordinary way (another place or block, the site's stack sample is due, the
 * slot is taken). */
static inline int gmemrt_pair_alloc(const gmemrt_where *w, const char *api, void *ptr,
                                    uint64_t size, uint64_t ns) {
  gmemrt_pair_thread *me = &gmemrt_pair_me;
  gmemrt_pair_batch *b = &me->batch;
  if (!b->armed || b->ptr != (uintptr_t)ptr || b->size != size || b->alloc_api != api ||
      !gmemrt_same_where(w, &b->alloc_where) || me->slot.ptr ||
      b->generation != __atomic_load_n(&gmemrt.site_generation, __ATOMIC_RELAXED))
    return 0;
  /* the ordinary way captures a stack at a site's 1024th, 2048th ... call */
  if (((b->base_calls + b->n + 1) & 1023) == 0 && gmemrt_opt.stack_depth > 0)
    return 0;
  __atomic_store_n(&me->slot.ns, ns, __ATOMIC_RELAXED);
  __atomic_store_n(&me->slot.active_ns,
                   ns ? (uint64_t)((gmemrt_now_ms() - gmemrt.start_ms) * 1e6) + 1 : 0,
                   __ATOMIC_RELAXED);
  __atomic_store_n(&me->slot.ptr, (uintptr_t)ptr, __ATOMIC_RELEASE);
  return 1;
}

/* A free of the slot's allocation at the batch's free place: taken back (1), or 0 for the
 * ordinary way. */
static inline int gmemrt_pair_free(const gmemrt_where *w, const char *api, void *ptr) {
  gmemrt_pair_thread *me = &gmemrt_pair_me;
  uintptr_t p = (uintptr_t)ptr;
  if (!p || __atomic_load_n(&me->slot.ptr, __ATOMIC_RELAXED) != p ||
      me->batch.free_api_name != api || !gmemrt_same_where(w, &me->batch.free_where))
    return 0;
  return __atomic_compare_exchange_n(&me->slot.ptr, &p, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* The taken-back pair's free returned: counted in the batch, or, when it failed, recorded the
 * ordinary way (the allocation live, the free attempted). ns: the free's timed duration. */
void gmemrt_pair_freed(int ok, uint64_t ns);

/* Lock held. The thread's slot and batch into the tables: before anything else it records. */
void gmemrt_pairs_flush_own(void);
/* Lock held. Every thread's waiting allocation into the tables (steps, out-of-memory events,
 * the telemetry file). */
void gmemrt_pairs_settle(void);
/* Lock held. A free found p nowhere in the tables: if a thread's slot holds it, it goes in now
 * (1). */
int gmemrt_pairs_claim(uintptr_t p);
/* Lock held. The ordinary way recorded an allocation of this thread (remembered), or freed one
 * (saved) at site free_site: a free of the thread's latest allocation arms its batch. */
void gmemrt_pairs_note_alloc(const gmemrt_where *w, const char *api, void *ptr);
void gmemrt_pairs_note_free(const gmemrt_where *w, const char *api, int free_api, int free_site,
                            const struct live_entry *freed);
/* A forked child: the parent's threads and sites are gone. */
void gmemrt_pairs_forget(void);

#endif
