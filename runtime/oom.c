/* Out-of-memory forensics: when an allocation fails for lack of memory, record what was asked,
 * what cudaMemGetInfo says is free, the largest block that can still be allocated (a bounded
 * binary search of real cudaMalloc/cudaFree calls, at most 24), the live bytes, what the device
 * holds beyond them and what the pools hold. Only the figures: gmemlint judges from them whether
 * memory was fragmented or full (analyzer/runtime_view/oom_verdict.c). */
#include "oom.h"
#include "internal.h"
#include "pairs.h"
#include "pools.h"
#include "real.h"
#include "record.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>

enum { PROBE_STEPS = 24, MAX_OOMS = 256, MAX_OOM_VIEWS = 4 };

static uint64_t largest_block(uint64_t upper) {
  uint64_t lo = 0, hi = upper;
  for (int i = 0; i < PROBE_STEPS && hi - lo > (1u << 20); i++) {
    uint64_t mid = lo + (hi - lo) / 2;
    void *p = NULL;
    if (CUDA_REAL(cudaMalloc)(&p, (size_t)mid) == cudaSuccess) {
      CUDA_REAL(cudaFree)(p);
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* Device memory in use apart from the program's own allocations (its context, libraries), read
 * once per device, just after the first device allocation there succeeded (the calling thread's
 * current device is that device). Stored plus one, so that zero means not read. */
void gmemrt_note_baseline(int device) {
  size_t free_b = 0, total_b = 0;
  if (CUDA_REAL(cudaMemGetInfo)(&free_b, &total_b) != cudaSuccess)
    return;
  gmemrt_lock();
  gmemrt_device_stats *d = &gmemrt.devices[device];
  if (!d->baseline_used) {
    uint64_t used = (uint64_t)total_b - free_b;
    d->baseline_used = (used > d->live_device_bytes ? used - d->live_device_bytes : 0) + 1;
  }
  gmemrt_unlock();
}

void gmemrt_oom_event(int site, uint64_t requested) {
  gmemrt_pools_sample();
  size_t free_b = 0, total_b = 0;
  int have_info = CUDA_REAL(cudaMemGetInfo)(&free_b, &total_b) == cudaSuccess;
  if (!have_info)
    free_b = total_b = 0; /* a total of 0 tells gmemlint there were no figures to judge */
  int device = 0;
  CUDA_REAL(cudaGetDevice)(&device);
  if (device < 0 || device >= MAX_DEVICES)
    device = 0;
  uint64_t largest = 0;
  int probed = 0;
  gmemrt_lock();
  int family = site >= 0 ? gmemrt_site_at(site)->family : -1;
  /* a stream-ordered request: what the pools hold (sampled just above) */
  uint64_t pool_reserved = 0, pool_used = 0;
  int pool_sampled = 0;
  if (family == FAM_ASYNC)
    for (int i = 0; i < gmemrt.npools; i++)
      if (gmemrt.pools[i].sampled) {
        pool_reserved += gmemrt.pools[i].reserved;
        pool_used += gmemrt.pools[i].used;
        pool_sampled = 1;
      }
  gmemrt_unlock();
  /* the probe uses cudaMalloc, so it measures device memory: skip it for pinned host memory */
  if (gmemrt_opt.oom_probe && have_info && family != FAM_HOST && family != FAM_MANAGED &&
      family != FAM_CU_HOST && family != FAM_CU_MANAGED) {
    largest = largest_block(free_b < requested ? free_b : requested);
    probed = 1;
  }
  gmemrt_lock();
  gmemrt_pairs_settle(); /* the figures count every thread's waiting block */
  if (gmemrt.nooms < MAX_OOMS) {
    gmemrt_oom *o = realloc(gmemrt.ooms, sizeof *o * (gmemrt.nooms + 1));
    if (o) {
      gmemrt.ooms = o;
      gmemrt_oom *e = &o[gmemrt.nooms++];
      e->site = site;
      e->requested = requested;
      e->free_bytes = free_b;
      e->total_bytes = total_b;
      e->largest_block = largest;
      e->probed = probed;
      e->time_ms = gmemrt_now_ms() - gmemrt.start_ms;
      e->live_bytes = gmemrt.live_bytes;
      /* what the device holds for the program beyond its live allocations: freed memory
       * stranded in partially used pages, or kept by pools and caches */
      uint64_t used = have_info ? (uint64_t)total_b - free_b : 0;
      const gmemrt_device_stats *d = &gmemrt.devices[device];
      uint64_t accounted = d->live_device_bytes + (d->baseline_used ? d->baseline_used - 1 : 0);
      e->device = device;
      e->live_device_bytes = d->live_device_bytes;
      e->held_unused = used > accounted ? used - accounted : 0;
      e->pool_reserved = pool_reserved;
      e->pool_used = pool_used;
      e->pool_sampled = pool_sampled;
      e->view = (gmemrt_space_view){0};
      if (gmemrt.nooms <= MAX_OOM_VIEWS)
        gmemrt_space_view_take(&e->view);
    }
  }
  gmemrt_unlock();
}
