/* Stream-ordered pairs kept per thread (pairs.h says why and when they go into the tables). */
#include "pairs.h"
#include "internal.h"
#include "record.h"

#include <pthread.h>

__thread gmemrt_pair_thread gmemrt_pair_me;

/* The threads with a batch, for claims and settling (lock held). A thread past the limit just
 * records the ordinary way. */
enum { MAX_PAIR_THREADS = 4096 };
static gmemrt_pair_thread *registry[MAX_PAIR_THREADS];
static size_t nregistry;
static pthread_key_t end_key;
static pthread_once_t end_key_once = PTHREAD_ONCE_INIT;

/* t's waiting allocation into the tables, unless its thread took it back first. */
static void take_slot(gmemrt_pair_thread *t) {
  uintptr_t p = __atomic_load_n(&t->slot.ptr, __ATOMIC_ACQUIRE);
  if (!p)
    return;
  uint64_t ns = __atomic_load_n(&t->slot.ns, __ATOMIC_RELAXED); /* read while it is published */
  if (!__atomic_compare_exchange_n(&t->slot.ptr, &p, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    return;
  /* the site, size and the rest stay as they are while the batch lasts, and a batch changes only
   * under the lock, which is held here */
  if (t->slot.generation == gmemrt.site_generation)
    gmemrt_record_alloc(t->slot.site, (void *)p, t->slot.size, t->slot.family, t->slot.device, ns);
}

static void flush_batch(gmemrt_pair_batch *b) {
  if (!b->armed)
    return;
  if (b->generation != gmemrt.site_generation) {
    b->armed = 0; /* a forked child's: its sites are gone */
    return;
  }
  gmemrt_record_pairs(b);
  b->base_calls = gmemrt_site_at((size_t)b->alloc_site)->calls;
  b->n = b->alloc_ns = b->alloc_timed = b->free_ns = b->free_timed = 0;
  b->last_active_ms = -1;
}

/* The thread's batch, then its waiting allocation (made after the batch's pairs). */
static void flush_thread(gmemrt_pair_thread *t) {
  flush_batch(&t->batch);
  take_slot(t);
}

void gmemrt_pairs_flush_own(void) {
  gmemrt_pair_thread *me = &gmemrt_pair_me;
  if (me->batch.n || me->slot.ptr)
    flush_thread(me);
}

void gmemrt_pairs_settle(void) {
  gmemrt_pairs_flush_own();
  for (size_t i = 0; i < nregistry; i++)
    take_slot(registry[i]);
}

int gmemrt_pairs_claim(uintptr_t p) {
  for (size_t i = 0; i < nregistry; i++)
    if (__atomic_load_n(&registry[i]->slot.ptr, __ATOMIC_ACQUIRE) == p) {
      take_slot(registry[i]);
      return 1;
    }
  return 0;
}

/* A thread that ends puts its batch and slot in and leaves the registry. */
static void thread_ends(void *value) {
  gmemrt_pair_thread *t = value;
  gmemrt_lock();
  flush_thread(t);
  for (size_t i = 0; i < nregistry; i++)
    if (registry[i] == t) {
      registry[i] = registry[--nregistry];
      break;
    }
  t->registered = 0;
  t->batch.armed = 0;
  gmemrt_unlock();
}

static void make_end_key(void) {
  pthread_key_create(&end_key, thread_ends);
}

static int register_thread(gmemrt_pair_thread *me) {
  if (me->registered)
    return 1;
  if (nregistry == MAX_PAIR_THREADS)
    return 0;
  pthread_once(&end_key_once, make_end_key);
  if (pthread_setspecific(end_key, me) != 0)
    return 0;
  registry[nregistry++] = me;
  me->registered = 1;
  return 1;
}

void gmemrt_pairs_note_alloc(const gmemrt_where *w, const char *api, void *ptr) {
  gmemrt_pair_thread *me = &gmemrt_pair_me;
  me->last_where = *w;
  me->last_api = api;
  me->last_ptr = (uintptr_t)ptr;
}

void gmemrt_pairs_note_free(const gmemrt_where *w, const char *api, int free_api, int free_site,
                            const struct live_entry *freed) {
  gmemrt_pair_thread *me = &gmemrt_pair_me;
  uintptr_t latest = me->last_ptr;
  me->last_ptr = 0;
  if (!gmemrt_opt.pair_batches || latest != freed->ptr || free_api != FREE_ASYNC ||
      freed->family != FAM_ASYNC || free_site < 0)
    return;
  gmemrt_site *s = gmemrt_site_at(freed->site);
  /* the ordinary way still asks a site's device for its first 64 calls, and for every call of
   * a site that several devices used */
  if (s->device < 0 || s->calls + s->failed_calls < 64 || !register_thread(me))
    return;
  gmemrt_pair_batch *b = &me->batch;
  /* the thread's slot and batch went in when this free's record began (flush_own) */
  *b = (gmemrt_pair_batch){.armed = 1,
                           .generation = gmemrt.site_generation,
                           .alloc_where = me->last_where,
                           .free_where = *w,
                           .alloc_api = me->last_api,
                           .free_api_name = api,
                           .family = freed->family,
                           .free_api = free_api,
                           .alloc_site = (int)freed->site,
                           .free_site = free_site,
                           .device = freed->device,
                           .ptr = freed->ptr,
                           .size = freed->size,
                           .base_calls = s->calls,
                           .last_active_ms = -1};
  /* what a claim needs to put the slot's allocation in, fixed while the batch lasts */
  me->slot.site = (int)freed->site;
  me->slot.family = freed->family;
  me->slot.device = freed->device;
  me->slot.size = freed->size;
  me->slot.generation = gmemrt.site_generation;
}

void gmemrt_pair_freed(int ok, uint64_t ns) {
  gmemrt_pair_thread *me = &gmemrt_pair_me;
  gmemrt_pair_batch *b = &me->batch;
  if (ok) {
    b->n++;
    uint64_t alloc_ns = __atomic_load_n(&me->slot.ns, __ATOMIC_RELAXED);
    uint64_t active_ns = __atomic_load_n(&me->slot.active_ns, __ATOMIC_RELAXED);
    b->alloc_ns += alloc_ns;
    b->alloc_timed += alloc_ns != 0;
    if (active_ns)
      b->last_active_ms = (double)(active_ns - 1) / 1e6;
    b->free_ns += ns;
    b->free_timed += ns != 0;
    if (b->n >= GMEMRT_PAIR_BATCH_MAX) {
      gmemrt_lock();
      flush_batch(b);
      gmemrt_unlock();
    }
    return;
  }
  /* the free failed: the block is still allocated, and the attempt counts, as the ordinary way
   * has it */
  gmemrt_lock();
  flush_batch(b);
  gmemrt_record_alloc(me->slot.site, (void *)b->ptr, b->size, b->family, b->device,
                      __atomic_load_n(&me->slot.ns, __ATOMIC_RELAXED));
  gmemrt_site_at((size_t)b->free_site)->free_calls++;
  struct live_entry saved;
  if (gmemrt_free_begin((void *)b->ptr, b->free_api, &saved))
    gmemrt_free_failed(&saved);
  b->armed = 0;
  gmemrt_unlock();
  gmemrt_add_free_ns(b->free_site, ns);
}

void gmemrt_pairs_forget(void) {
  nregistry = 0;
  gmemrt_pair_me.batch.armed = 0;
  gmemrt_pair_me.batch.n = 0;
  gmemrt_pair_me.slot.ptr = 0;
  gmemrt_pair_me.last_ptr = 0;
  gmemrt_pair_me.registered = 0;
}
