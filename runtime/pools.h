/* Stream-ordered pools (pools.c), and what follows each CUDA call. Private to runtime/. */
#ifndef GMEMRT_POOLS_H
#define GMEMRT_POOLS_H

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

#endif
