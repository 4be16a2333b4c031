/* A traced call as the injected runtime records it, described from the parameters CUPTI's
 * callbacks pass or a wrapper replays, and the APIs whose callbacks it turns on. Everything here
 * is static, for inject_calls.c to compile as its own: each wrapper inlines the driver's cases
 * and keeps only its own, and the CUPTI callback calls the runtime's as a local function.
 * Private to runtime/inject*.c. */
#ifndef GMEMRT_INJECT_DESCRIBE_H
#define GMEMRT_INJECT_DESCRIBE_H

#include "internal.h"

#include <cuda.h>
#include <cupti.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { CALL_NONE, CALL_ALLOC, CALL_FREE, CALL_COPY };
typedef struct call {
  int kind;
  const char *api;
  int family, free_api;
  void **out;         /* runtime allocations: where the pointer is written */
  CUdeviceptr *out_d; /* driver allocations */
  uint64_t *out_h;    /* cuMemCreate's handle */
  size_t *pitch;      /* pitched allocations: the size is pitch x height */
  uint64_t size, height;
  void *ptr;       /* frees; a copy's destination */
  const void *src; /* a copy's source */
  int copy_kind;   /* a copy's cudaMemcpyKind */
} call;

#define RT(name) CUPTI_RUNTIME_TRACE_CBID_##name
#define DRV(name) CUPTI_DRIVER_TRACE_CBID_##name
#define P(type) ((const type##_params *)params)

static inline int describe_runtime(unsigned id, const void *params, call *c) {
  memset(c, 0, sizeof *c);
  switch (id) {
  case RT(cudaMalloc_v3020):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cudaMalloc",
                .family = FAM_DEVICE,
                .free_api = 0,
                .out = P(cudaMalloc_v3020)->devPtr};
    c->size = P(cudaMalloc_v3020)->size;
    return 1;
  case RT(cudaMallocManaged_v6000):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cudaMallocManaged",
                .family = FAM_MANAGED,
                .free_api = 0,
                .out = P(cudaMallocManaged_v6000)->devPtr};
    c->size = P(cudaMallocManaged_v6000)->size;
    return 1;
  case RT(cudaMallocHost_v3020):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cudaMallocHost",
                .family = FAM_HOST,
                .free_api = 0,
                .out = P(cudaMallocHost_v3020)->ptr};
    c->size = P(cudaMallocHost_v3020)->size;
    return 1;
  case RT(cudaHostAlloc_v3020):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cudaHostAlloc",
                .family = FAM_HOST,
                .free_api = 0,
                .out = P(cudaHostAlloc_v3020)->pHost};
    c->size = P(cudaHostAlloc_v3020)->size;
    return 1;
  case RT(cudaMallocPitch_v3020):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cudaMallocPitch",
                .family = FAM_DEVICE,
                .free_api = 0,
                .out = P(cudaMallocPitch_v3020)->devPtr};
    c->pitch = P(cudaMallocPitch_v3020)->pitch;
    c->height = P(cudaMallocPitch_v3020)->height;
    c->size = P(cudaMallocPitch_v3020)->width * c->height;
    return 1;
  case RT(cudaMallocAsync_v11020):
  case RT(cudaMallocAsync_ptsz_v11020):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cudaMallocAsync",
                .family = FAM_ASYNC,
                .free_api = 0,
                .out = P(cudaMallocAsync_v11020)->devPtr};
    c->size = P(cudaMallocAsync_v11020)->size;
    return 1;
  case RT(cudaMallocFromPoolAsync_v11020):
  case RT(cudaMallocFromPoolAsync_ptsz_v11020):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cudaMallocFromPoolAsync",
                .family = FAM_ASYNC,
                .free_api = 0,
                .out = P(cudaMallocFromPoolAsync_v11020)->ptr};
    c->size = P(cudaMallocFromPoolAsync_v11020)->size;
    return 1;
  case RT(cudaFree_v3020):
    *c = (call){.kind = CALL_FREE, .api = "cudaFree", .family = -2, .free_api = FREE_CUDA};
    c->ptr = P(cudaFree_v3020)->devPtr;
    return 1;
  case RT(cudaFreeHost_v3020):
    *c = (call){.kind = CALL_FREE, .api = "cudaFreeHost", .family = -2, .free_api = FREE_HOST};
    c->ptr = P(cudaFreeHost_v3020)->ptr;
    return 1;
  case RT(cudaFreeAsync_v11020):
  case RT(cudaFreeAsync_ptsz_v11020):
    *c = (call){.kind = CALL_FREE, .api = "cudaFreeAsync", .family = -2, .free_api = FREE_ASYNC};
    c->ptr = P(cudaFreeAsync_v11020)->devPtr;
    return 1;
  case RT(cudaFreeArray_v3020):
    *c = (call){.kind = CALL_FREE, .api = "cudaFreeArray", .family = -2, .free_api = FREE_ARRAY};
    c->ptr = (void *)P(cudaFreeArray_v3020)->array;
    return 1;
  case RT(cudaMemcpy_v3020):
    *c = (call){.kind = CALL_COPY, .api = "cudaMemcpy", .family = -1};
    c->size = P(cudaMemcpy_v3020)->count;
    c->ptr = P(cudaMemcpy_v3020)->dst;
    c->src = P(cudaMemcpy_v3020)->src;
    c->copy_kind = (int)P(cudaMemcpy_v3020)->kind;
    return 1;
  case RT(cudaMemcpyAsync_v3020):
  case RT(cudaMemcpyAsync_ptsz_v7000):
    *c = (call){.kind = CALL_COPY, .api = "cudaMemcpyAsync", .family = -1};
    c->size = P(cudaMemcpyAsync_v3020)->count;
    c->ptr = P(cudaMemcpyAsync_v3020)->dst;
    c->src = P(cudaMemcpyAsync_v3020)->src;
    c->copy_kind = (int)P(cudaMemcpyAsync_v3020)->kind;
    return 1;
  }
  return 0;
}

/* Inlined into each wrapper, whose constant id leaves only its own case. */
static inline __attribute__((always_inline)) int describe_driver(unsigned id, const void *params,
                                                                 call *c) {
  memset(c, 0, sizeof *c);
  switch (id) {
  case DRV(cuMemAlloc_v2):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAlloc", .family = FAM_CU_DEVICE};
    c->out_d = P(cuMemAlloc_v2)->dptr;
    c->size = P(cuMemAlloc_v2)->bytesize;
    return 1;
  case DRV(cuMemAllocPitch_v2):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAllocPitch", .family = FAM_CU_DEVICE};
    c->out_d = P(cuMemAllocPitch_v2)->dptr;
    c->pitch = P(cuMemAllocPitch_v2)->pPitch;
    c->height = P(cuMemAllocPitch_v2)->Height;
    c->size = P(cuMemAllocPitch_v2)->WidthInBytes * c->height;
    return 1;
  case DRV(cuMemAllocManaged):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAllocManaged", .family = FAM_CU_MANAGED};
    c->out_d = P(cuMemAllocManaged)->dptr;
    c->size = P(cuMemAllocManaged)->bytesize;
    return 1;
  case DRV(cuMemAllocAsync):
  case DRV(cuMemAllocAsync_ptsz): /* the same parameters */
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAllocAsync", .family = FAM_CU_DEVICE};
    c->out_d = P(cuMemAllocAsync)->dptr;
    c->size = P(cuMemAllocAsync)->bytesize;
    return 1;
  case DRV(cuMemAllocFromPoolAsync):
  case DRV(cuMemAllocFromPoolAsync_ptsz):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAllocFromPoolAsync", .family = FAM_CU_DEVICE};
    c->out_d = P(cuMemAllocFromPoolAsync)->dptr;
    c->size = P(cuMemAllocFromPoolAsync)->bytesize;
    return 1;
  case DRV(cuMemAllocHost_v2):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cuMemAllocHost",
                .family = FAM_CU_HOST,
                .free_api = 0,
                .out = P(cuMemAllocHost_v2)->pp};
    c->size = P(cuMemAllocHost_v2)->bytesize;
    return 1;
  case DRV(cuMemHostAlloc):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cuMemHostAlloc",
                .family = FAM_CU_HOST,
                .free_api = 0,
                .out = P(cuMemHostAlloc)->pp};
    c->size = P(cuMemHostAlloc)->bytesize;
    return 1;
  case DRV(cuMemCreate):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemCreate", .family = FAM_CU_HANDLE};
    c->out_h = (uint64_t *)P(cuMemCreate)->handle;
    c->size = P(cuMemCreate)->size;
    return 1;
  case DRV(cuMemFree_v2):
    *c = (call){.kind = CALL_FREE, .api = "cuMemFree", .family = -2, .free_api = FREE_CU};
    c->ptr = (void *)(uintptr_t)P(cuMemFree_v2)->dptr;
    return 1;
  case DRV(cuMemFreeAsync):
  case DRV(cuMemFreeAsync_ptsz):
    *c =
        (call){.kind = CALL_FREE, .api = "cuMemFreeAsync", .family = -2, .free_api = FREE_CU_ASYNC};
    c->ptr = (void *)(uintptr_t)P(cuMemFreeAsync)->dptr;
    return 1;
  case DRV(cuMemFreeHost):
    *c = (call){.kind = CALL_FREE, .api = "cuMemFreeHost", .family = -2, .free_api = FREE_CU_HOST};
    c->ptr = P(cuMemFreeHost)->p;
    return 1;
  case DRV(cuMemRelease):
    *c =
        (call){.kind = CALL_FREE, .api = "cuMemRelease", .family = -2, .free_api = FREE_CU_RELEASE};
    c->ptr = (void *)(uintptr_t)P(cuMemRelease)->handle;
    return 1;
  }
  return 0;
}

static inline int describe(int domain, unsigned id, const void *params, call *c) {
  return domain == CUPTI_CB_DOMAIN_RUNTIME_API ? describe_runtime(id, params, c)
                                               : describe_driver(id, params, c);
}

/* The APIs whose callbacks the injected runtime turns on. */
static const unsigned runtime_ids[] = {RT(cudaMalloc_v3020),
                                       RT(cudaMallocManaged_v6000),
                                       RT(cudaMallocHost_v3020),
                                       RT(cudaHostAlloc_v3020),
                                       RT(cudaMallocPitch_v3020),
                                       RT(cudaMallocAsync_v11020),
                                       RT(cudaMallocAsync_ptsz_v11020),
                                       RT(cudaMallocFromPoolAsync_v11020),
                                       RT(cudaMallocFromPoolAsync_ptsz_v11020),
                                       RT(cudaFree_v3020),
                                       RT(cudaFreeHost_v3020),
                                       RT(cudaFreeAsync_v11020),
                                       RT(cudaFreeAsync_ptsz_v11020),
                                       RT(cudaFreeArray_v3020),
                                       RT(cudaMemcpy_v3020),
                                       RT(cudaMemcpyAsync_v3020),
                                       RT(cudaMemcpyAsync_ptsz_v7000)};
static const unsigned driver_ids[] = {DRV(cuMemAlloc_v2),
                                      DRV(cuMemAllocPitch_v2),
                                      DRV(cuMemAllocManaged),
                                      DRV(cuMemAllocAsync),
                                      DRV(cuMemAllocAsync_ptsz),
                                      DRV(cuMemAllocFromPoolAsync),
                                      DRV(cuMemAllocFromPoolAsync_ptsz),
                                      DRV(cuMemAllocHost_v2),
                                      DRV(cuMemHostAlloc),
                                      DRV(cuMemCreate),
                                      DRV(cuMemFree_v2),
                                      DRV(cuMemFreeAsync),
                                      DRV(cuMemFreeAsync_ptsz),
                                      DRV(cuMemFreeHost),
                                      DRV(cuMemRelease)};

#endif
