/* Stream-ordered memory pools: reserved against used memory (cudaMemPoolGetAttribute), for the
 * default pool of each device that cudaMallocAsync used and for pools the program passed to
 * cudaMallocFromPoolAsync. Sampled at gmem_step(), on out-of-memory, every 4096th stream-ordered
 * allocation and before exit; the pool keeps its own high-water marks. */
#include "pools.h"
#include "internal.h"
#include "real.h"
#include "um.h"
#include "writer.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>

void gmemrt_pool_note(void *pool, int device) {
  for (int i = 0; i < gmemrt.npools; i++)
    if (gmemrt.pools[i].handle == pool && gmemrt.pools[i].device == device)
      return;
  if (gmemrt.npools < MAX_POOLS)
    gmemrt.pools[gmemrt.npools++] = (gmemrt_pool){.handle = pool, .device = device};
}

/* Every device's default pool, once cudaMallocAsync has run: a default pool is listed once it
 * has reserved memory, so devices the program never used stay out of the file. */
static void note_default_pools(void) {
  gmemrt_lock();
  int used = gmemrt.default_pools_used;
  gmemrt_unlock();
  int count = 0;
  if (!used || CUDA_REAL(cudaGetDeviceCount)(&count) != cudaSuccess)
    return;
  for (int d = 0; d < count && d < MAX_POOLS; d++) {
    cudaMemPool_t pool;
    uint64_t high = 0;
    if (CUDA_REAL(cudaDeviceGetDefaultMemPool)(&pool, d) != cudaSuccess ||
        CUDA_REAL(cudaMemPoolGetAttribute)(pool, cudaMemPoolAttrReservedMemHigh, &high) !=
            cudaSuccess ||
        !high)
      continue;
    gmemrt_lock();
    gmemrt_pool_note(NULL, d);
    gmemrt_unlock();
  }
}

void gmemrt_pools_sample(void) {
  note_default_pools();
  gmemrt_lock();
  int n = gmemrt.npools;
  gmemrt_pool pools[MAX_POOLS];
  for (int i = 0; i < n; i++)
    pools[i] = gmemrt.pools[i];
  gmemrt_unlock();
  for (int i = 0; i < n; i++) {
    cudaMemPool_t pool = (cudaMemPool_t)pools[i].handle;
    if (!pool && CUDA_REAL(cudaDeviceGetDefaultMemPool)(&pool, pools[i].device) != cudaSuccess)
      continue;
    uint64_t v[4];
    static const enum cudaMemPoolAttr attrs[4] = {
        cudaMemPoolAttrReservedMemCurrent, cudaMemPoolAttrUsedMemCurrent,
        cudaMemPoolAttrReservedMemHigh, cudaMemPoolAttrUsedMemHigh};
    int ok = 1;
    for (int k = 0; k < 4 && ok; k++)
      ok = CUDA_REAL(cudaMemPoolGetAttribute)(pool, attrs[k], &v[k]) == cudaSuccess;
    if (!ok)
      continue; /* a destroyed pool, or the runtime shutting down: keep the last sample */
    gmemrt_lock();
    gmemrt_pool *p = &gmemrt.pools[i];
    p->reserved = v[0];
    p->used = v[1];
    if (v[2] > p->reserved_high)
      p->reserved_high = v[2];
    if (v[3] > p->used_high)
      p->used_high = v[3];
    p->sampled = 1;
    gmemrt_unlock();
  }
}

static void before_cudart_teardown(void) {
  gmemrt_pools_sample();
  gmemrt_write("exit");
}

static void register_late_exit(void) {
  atexit(before_cudart_teardown);
}

int gmemrt_cuda_call_seen;

void gmemrt_first_cuda_call(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  static int registered;
  /* registered after the CUDA runtime's own exit handler, so it runs before it */
  gmemrt_once(&once, &registered, register_late_exit);
  gmemrt_um_after_cuda_call();
  __atomic_store_n(&gmemrt_cuda_call_seen, 1, __ATOMIC_RELEASE);
}
