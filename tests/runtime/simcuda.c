/* A simulated CUDA runtime for CI, which has no GPU: exports the cudart functions libgmemrt's
 * hooks call, over a simulated device with a fixed capacity and a first-fit address space, so
 * that leaks, fragmentation and out-of-memory can be produced exactly.
 *   SIMCUDA_CAPACITY     device bytes (default 1 GiB)
 *   SIMCUDA_FAIL_AT      the Nth allocation call fails with cudaErrorMemoryAllocation
 *   SIMCUDA_PAGE         report free memory as the driver does, in whole pages of this many
 *                        bytes: a page with any live block in it is used
 *   SIMCUDA_HOST_BACKED  1: the address space is real host memory (reserved, not committed), so
 *                        whole programs run: the host may touch managed memory; kernels are
 *                        not run, and copies move no data.
 * Managed memory is emulated as the driver moves it: a block starts on the host; a kernel launch
 * migrates every managed block not on the device on demand (GPU page faults; a quarter of the
 * bytes for the faults themselves, cause "coherence", the rest by the driver's speculative
 * prefetch around them, cause "prefetch", as an H200 reported a dense kernel's), and
 * cudaMemPrefetchAsync to a device migrates it by prefetch (cause "user"). The unified-memory
 * records this produces are handed to the stand-in libcupti through simcuda_um_records(). */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

/* CUPTI's unified-memory counter kinds and migration causes, as the stand-in reports them */
enum {
  CUPTI_BYTES_HTOD = 1,
  CUPTI_BYTES_DTOH = 2,
  CUPTI_CPU_PAGE_FAULT = 3,
  CUPTI_GPU_PAGE_FAULT = 4,
  CAUSE_USER = 1,        /* cudaMemPrefetchAsync */
  CAUSE_COHERENCE = 2,   /* a fault */
  CAUSE_SPECULATIVE = 3, /* the driver's prefetch around faults (CUPTI's "prefetch") */
};

enum { ALIGN = 256, MAX_BLOCKS = 1 << 16 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t capacity, base = 0x7f0000000000ULL;
static struct block {
  uint64_t addr, size;
  int managed, on_device;
} blocks[MAX_BLOCKS]; /* live device blocks, sorted by address */
static int nblocks;
static __thread int current_device; /* cudaSetDevice: each device has its own address range */
static int device_count(void) {
  const char *env = getenv("SIMCUDA_DEVICES");
  return env && atoi(env) > 0 ? atoi(env) : 1;
}
static long alloc_calls, fail_at = -1;
static int configured;
static cudaError_t every_alloc_fails; /* SIMCUDA_ERROR: e.g. 100, no device (no GPU here) */

static void configure(void) {
  if (configured)
    return;
  configured = 1;
  const char *c = getenv("SIMCUDA_CAPACITY");
  capacity = c ? strtoull(c, NULL, 10) : (1ULL << 30);
  const char *f = getenv("SIMCUDA_FAIL_AT");
  fail_at = f ? strtol(f, NULL, 10) : -1;
  const char *e = getenv("SIMCUDA_ERROR");
  every_alloc_fails = e ? (cudaError_t)atoi(e) : cudaSuccess;
  const char *h = getenv("SIMCUDA_HOST_BACKED");
  if (h && *h == '1') {
    void *space = mmap(NULL, capacity * (uint64_t)device_count(), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (space != MAP_FAILED)
      base = (uint64_t)(uintptr_t)space;
  }
}

/* Unified-memory records, "address:counter-kind:value:cause:start;" as the stand-in libcupti
 * reads; start is CLOCK_MONOTONIC in ns, the stand-in's cuptiGetTimestamp clock. */
static char *um_text;
static size_t um_len, um_cap;
static void um_record(uint64_t addr, int kind, uint64_t value, int cause) {
  char item[128];
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  int n =
      snprintf(item, sizeof item, "%llu:%d:%llu:%d:%llu;", (unsigned long long)addr, kind,
               (unsigned long long)value, cause,
               (unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec);
  if (um_len + (size_t)n + 1 > um_cap) {
    size_t cap = um_cap ? um_cap * 2 : 4096;
    char *t = realloc(um_text, cap);
    if (!t)
      return;
    um_text = t;
    um_cap = cap;
  }
  memcpy(um_text + um_len, item, (size_t)n + 1);
  um_len += (size_t)n;
}
const char *simcuda_um_records(void) {
  return um_text ? um_text : "";
}

/* Moves a managed block to the device: by the program's prefetch, or on demand with GPU faults
 * in 64 KiB groups, a quarter of the bytes for the faults and the rest speculatively. */
static void migrate(struct block *b, int prefetch) {
  if (b->on_device)
    return;
  b->on_device = 1;
  if (prefetch) {
    um_record(b->addr, CUPTI_BYTES_HTOD, b->size, CAUSE_USER);
    return;
  }
  um_record(b->addr, CUPTI_GPU_PAGE_FAULT, (b->size + 65535) / 65536, 0);
  um_record(b->addr, CUPTI_BYTES_HTOD, b->size / 4, CAUSE_COHERENCE);
  if (b->size - b->size / 4)
    um_record(b->addr, CUPTI_BYTES_HTOD, b->size - b->size / 4, CAUSE_SPECULATIVE);
}

/* The host touches managed memory at p (a simulated program says so, as a CPU page fault would):
 * a block on the device migrates back, on demand. */
void simcuda_host_touch(const void *p) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < nblocks; i++)
    if (blocks[i].managed && blocks[i].on_device && (uint64_t)(uintptr_t)p >= blocks[i].addr &&
        (uint64_t)(uintptr_t)p < blocks[i].addr + blocks[i].size) {
      blocks[i].on_device = 0;
      um_record(blocks[i].addr, CUPTI_CPU_PAGE_FAULT, 0x401000, 0);
      um_record(blocks[i].addr, CUPTI_BYTES_DTOH, blocks[i].size, CAUSE_COHERENCE);
    }
  pthread_mutex_unlock(&lock);
}

/* First fit in the simulated address space [base, base + capacity). */
static cudaError_t device_alloc(void **ptr, size_t size) {
  pthread_mutex_lock(&lock);
  configure();
  alloc_calls++;
  uint64_t need = (size + ALIGN - 1) / ALIGN * ALIGN;
  if (need == 0)
    need = ALIGN;
  uint64_t lo = base + (uint64_t)current_device * capacity, hi = lo + capacity;
  uint64_t at = lo;
  int pos = 0;
  for (; pos < nblocks; pos++) {
    if (blocks[pos].addr < lo)
      continue; /* another device's */
    if (blocks[pos].addr >= hi || blocks[pos].addr - at >= need)
      break;
    at = blocks[pos].addr + blocks[pos].size;
  }
  cudaError_t rc = cudaSuccess;
  if (every_alloc_fails) {
    rc = every_alloc_fails;
  } else if (alloc_calls == fail_at || at + need > hi || nblocks == MAX_BLOCKS) {
    rc = cudaErrorMemoryAllocation;
  } else {
    memmove(&blocks[pos + 1], &blocks[pos], sizeof blocks[0] * (size_t)(nblocks - pos));
    blocks[pos].addr = at;
    blocks[pos].size = need;
    blocks[pos].managed = blocks[pos].on_device = 0;
    nblocks++;
    *ptr = (void *)(uintptr_t)at;
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

static cudaError_t device_free(void *ptr) {
  if (!ptr)
    return cudaSuccess;
  pthread_mutex_lock(&lock);
  cudaError_t rc = cudaErrorInvalidValue;
  for (int i = 0; i < nblocks; i++)
    if (blocks[i].addr == (uint64_t)(uintptr_t)ptr) {
      memmove(&blocks[i], &blocks[i + 1], sizeof blocks[0] * (size_t)(nblocks - i - 1));
      nblocks--;
      rc = cudaSuccess;
      break;
    }
  pthread_mutex_unlock(&lock);
  return rc;
}

/* The public, traced entry points are at the end of the file. */
static cudaError_t sim_cudaMallocManaged(void **ptr, size_t size, unsigned int flags) {
  (void)flags;
  cudaError_t rc = device_alloc(ptr, size);
  pthread_mutex_lock(&lock);
  for (int i = 0; rc == cudaSuccess && i < nblocks; i++)
    if (blocks[i].addr == (uint64_t)(uintptr_t)*ptr)
      blocks[i].managed = 1;
  pthread_mutex_unlock(&lock);
  return rc;
}
static uint64_t async_used, async_used_high, async_reserved_high;
static cudaError_t sim_cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream) {
  (void)stream;
  cudaError_t rc = device_alloc(ptr, size);
  if (rc == cudaSuccess) {
    async_used += size;
    if (async_used > async_used_high)
      async_used_high = async_used;
    uint64_t reserved = (async_used + (2u << 20) - 1) / (2u << 20) * (2u << 20);
    if (reserved > async_reserved_high)
      async_reserved_high = reserved;
  }
  return rc;
}
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
                                    cudaStream_t stream) {
  (void)pool;
  (void)stream;
  return device_alloc(ptr, size);
}
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  *pitch = (width + 511) / 512 * 512;
  return device_alloc(ptr, *pitch * height);
}
static cudaError_t sim_cudaFreeAsync(void *ptr, cudaStream_t stream) {
  (void)stream;
  for (int i = 0; i < nblocks; i++)
    if (blocks[i].addr == (uint64_t)(uintptr_t)ptr)
      async_used -= blocks[i].size;
  return device_free(ptr);
}

/* pinned host memory: ordinary host memory here */
static cudaError_t sim_cudaMallocHost(void **ptr, size_t size) {
  *ptr = malloc(size ? size : 1);
  return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
static cudaError_t sim_cudaFreeHost(void *ptr) {
  free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) {
  pthread_mutex_lock(&lock);
  configure();
  uint64_t used = 0;
  const char *page_env = getenv("SIMCUDA_PAGE");
  uint64_t page = page_env ? strtoull(page_env, NULL, 10) : 0;
  uint64_t last_page = UINT64_MAX;
  uint64_t lo = base + (uint64_t)current_device * capacity;
  for (int i = 0; i < nblocks; i++) {
    if (blocks[i].addr < lo || blocks[i].addr >= lo + capacity)
      continue; /* the current device's memory only */
    if (!page) {
      used += blocks[i].size;
      continue;
    }
    for (uint64_t p = (blocks[i].addr - lo) / page;
         p <= (blocks[i].addr - lo + blocks[i].size - 1) / page; p++)
      if (p != last_page) {
        used += page;
        last_page = p;
      }
  }
  if (used > capacity)
    used = capacity;
  *free_bytes = capacity - used;
  *total = capacity;
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}

static cudaError_t sim_cudaMemcpy(void *dst, const void *src, size_t count,
                                  enum cudaMemcpyKind kind) {
  (void)dst;
  (void)src;
  (void)count;
  (void)kind;
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream) {
  (void)stream;
  return cudaMemcpy(dst, src, count, kind);
}
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  (void)count;
  (void)flags;
  (void)stream;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < nblocks; i++)
    if (blocks[i].managed && (uint64_t)(uintptr_t)ptr >= blocks[i].addr &&
        (uint64_t)(uintptr_t)ptr < blocks[i].addr + blocks[i].size) {
      if (location.type == cudaMemLocationTypeDevice)
        migrate(&blocks[i], 1);
      else
        blocks[i].on_device = 0;
    }
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}

/* What nvcc's generated host code calls to register and launch kernels: a launch runs nothing,
 * but moves managed memory to the device as a real kernel touching it would. */
void **__cudaRegisterFatBinary(void *fat) {
  static void *handle;
  (void)fat;
  return &handle;
}
void __cudaRegisterFatBinaryEnd(void **h) {
  (void)h;
}
void __cudaUnregisterFatBinary(void **h) {
  (void)h;
}
char __cudaInitModule(void **h) {
  (void)h;
  return 1;
}
void __cudaRegisterFunction(void **h, const char *host_fun, char *device_fun,
                            const char *device_name, int limit, uint3 *tid, uint3 *bid, dim3 *bdim,
                            dim3 *gdim, int *wsize) {
  (void)h, (void)host_fun, (void)device_fun, (void)device_name, (void)limit, (void)tid;
  (void)bid, (void)bdim, (void)gdim, (void)wsize;
}
void __cudaRegisterVar(void **h, char *host_var, char *device_address, const char *device_name,
                       int ext, size_t size, int constant, int global) {
  (void)h, (void)host_var, (void)device_address, (void)device_name, (void)ext, (void)size;
  (void)constant, (void)global;
}
static __thread dim3 pushed_grid, pushed_block;
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream) {
  (void)shared, (void)stream;
  pushed_grid = grid;
  pushed_block = block;
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream) {
  *grid = pushed_grid;
  *block = pushed_block;
  *shared = 0;
  *(cudaStream_t *)stream = 0;
  return cudaSuccess;
}
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun) {
  *kernel = (cudaKernel_t)fun;
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                               size_t shared, cudaStream_t stream) {
  (void)kernel, (void)grid, (void)block, (void)args, (void)shared, (void)stream;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < nblocks; i++)
    if (blocks[i].managed)
      migrate(&blocks[i], 0);
  pthread_mutex_unlock(&lock);
  return cudaSuccess;
}
cudaError_t cudaLaunchKernel(const void *fun, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream) {
  return __cudaLaunchKernel((cudaKernel_t)fun, grid, block, args, shared, stream);
}

/* The rest of what the samples call: nothing to do on a device that runs no kernels. */
static cudaError_t sim_cudaDeviceSynchronize(void) {
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  (void)s;
  return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t *s) {
  *s = (cudaStream_t)(uintptr_t)0x2000;
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  (void)s;
  return cudaSuccess;
}
cudaError_t cudaGetLastError(void) {
  return cudaSuccess;
}
cudaError_t cudaPeekAtLastError(void) {
  return cudaSuccess;
}
const char *cudaGetErrorString(cudaError_t e) {
  return e == cudaSuccess                 ? "no error"
         : e == cudaErrorMemoryAllocation ? "out of memory"
                                          : "simulated error";
}
const char *cudaGetErrorName(cudaError_t e) {
  return e == cudaSuccess                 ? "cudaSuccess"
         : e == cudaErrorMemoryAllocation ? "cudaErrorMemoryAllocation"
         : e == cudaErrorNoDevice         ? "cudaErrorNoDevice"
         : e == 999                       ? "unrecognized error code" /* as cudart says */
                                          : "cudaErrorSimulated";
}
CUresult cuGetErrorName(CUresult e, const char **name) {
  *name = e == CUDA_SUCCESS               ? "CUDA_SUCCESS"
          : e == CUDA_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY"
          : e == CUDA_ERROR_NO_DEVICE     ? "CUDA_ERROR_NO_DEVICE"
                                          : "CUDA_ERROR_SIMULATED";
  return CUDA_SUCCESS;
}
cudaError_t cudaMemset(void *p, int v, size_t n) {
  (void)p, (void)v, (void)n;
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) {
  (void)p, (void)v, (void)n, (void)s;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  (void)device;
  *value = attr == cudaDevAttrMultiProcessorCount ? 132 : 1;
  return cudaSuccess;
}
/* events: host clock readings */
cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = (cudaEvent_t)calloc(1, sizeof(double));
  return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  free(e);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  (void)s;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  *(double *)e = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  (void)e;
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = (float)(*(double *)b - *(double *)a);
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device) {
  *device = current_device;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int *count) {
  *count = device_count();
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  if (device < 0 || device >= device_count())
    return cudaErrorInvalidDevice;
  current_device = device;
  return cudaSuccess;
}

/* the default stream-ordered pool: reserved grows in 2 MiB steps over what is used */
static struct CUmemPoolHandle_st *default_pool = (struct CUmemPoolHandle_st *)0x1000;

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
  (void)device;
  *pool = default_pool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value) {
  if (pool != default_pool)
    return cudaErrorInvalidValue;
  uint64_t reserved = (async_used + (2u << 20) - 1) / (2u << 20) * (2u << 20);
  uint64_t *out = value;
  switch (attr) {
  case cudaMemPoolAttrReservedMemCurrent:
    *out = reserved;
    break;
  case cudaMemPoolAttrUsedMemCurrent:
    *out = async_used;
    break;
  case cudaMemPoolAttrReservedMemHigh:
    *out = async_reserved_high;
    break;
  case cudaMemPoolAttrUsedMemHigh:
    *out = async_used_high;
    break;
  default:
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

/* The driver API, over the same simulated device. Every entry point is traced in CUPTI's driver
 * domain (TRACED, below), and the runtime reaches them as cudart does: through pointers it
 * fetches with cuGetProcAddress before the driver is initialised (entry_points). The sim's codes
 * for success, invalid value and out of memory (0, 1, 2) are the same in both APIs. */
static CUresult drv_mem_alloc(CUdeviceptr *dptr, size_t size) {
  void *p = NULL;
  cudaError_t rc = device_alloc(&p, size);
  *dptr = (CUdeviceptr)(uintptr_t)p;
  return (CUresult)rc;
}
static CUresult drv_mem_free(CUdeviceptr dptr) {
  return (CUresult)device_free((void *)(uintptr_t)dptr);
}
static CUresult drv_mem_alloc_managed(CUdeviceptr *dptr, size_t size, unsigned int flags) {
  void *p = NULL;
  cudaError_t rc = sim_cudaMallocManaged(&p, size, flags);
  *dptr = (CUdeviceptr)(uintptr_t)p;
  return (CUresult)rc;
}
static CUresult drv_mem_alloc_host(void **pp, size_t size) {
  return (CUresult)sim_cudaMallocHost(pp, size);
}
static CUresult drv_mem_free_host(void *p) {
  return (CUresult)sim_cudaFreeHost(p);
}
static CUresult drv_mem_alloc_pitch(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height,
                                    unsigned int elem) {
  (void)elem;
  *pitch = (width + 511) / 512 * 512;
  return drv_mem_alloc(dptr, *pitch * height);
}
static CUresult drv_mem_alloc_async(CUdeviceptr *dptr, size_t size, CUstream stream) {
  void *p = NULL;
  cudaError_t rc = sim_cudaMallocAsync(&p, size, (cudaStream_t)stream);
  *dptr = (CUdeviceptr)(uintptr_t)p;
  return (CUresult)rc;
}
static CUresult drv_mem_free_async(CUdeviceptr dptr, CUstream stream) {
  return (CUresult)sim_cudaFreeAsync((void *)(uintptr_t)dptr, (cudaStream_t)stream);
}
/* what the injected runtime asks the driver for itself (it cannot reach a static cudart) */
CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
  return (CUresult)cudaMemGetInfo(free_bytes, total);
}
/* what gmemrun asks the driver library it finds (GMEMRUN_DRIVER names this one) */
CUresult cuDriverGetVersion(int *version) {
  *version = CUDA_VERSION;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetDevice(CUdevice *device) {
  *device = (CUdevice)current_device;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *count) {
  return (CUresult)cudaGetDeviceCount(count);
}
CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice device) {
  return (CUresult)cudaDeviceGetDefaultMemPool((cudaMemPool_t *)pool, (int)device);
}
CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
  return (CUresult)cudaMemPoolGetAttribute((cudaMemPool_t)pool, (enum cudaMemPoolAttr)attr, value);
}

/* physical allocation handles: numbered from 1, never reused */
static unsigned long long next_handle = 1;
static CUresult drv_mem_create(CUmemGenericAllocationHandle *handle, size_t size,
                               const CUmemAllocationProp *prop, unsigned long long flags) {
  (void)size;
  (void)prop;
  (void)flags;
  *handle = __atomic_fetch_add(&next_handle, 1, __ATOMIC_RELAXED);
  return CUDA_SUCCESS;
}
static CUresult drv_mem_release(CUmemGenericAllocationHandle handle) {
  return handle && handle < next_handle ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* pitched 3D memory and CUDA arrays (array handles are host allocations here) */
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pp, struct cudaExtent e) {
  size_t pitch = (e.width + 511) / 512 * 512;
  void *p;
  cudaError_t rc = device_alloc(&p, pitch * e.height * e.depth);
  if (rc == cudaSuccess) {
    pp->ptr = p;
    pp->pitch = pitch;
    pp->xsize = e.width;
    pp->ysize = e.height;
  }
  return rc;
}
cudaError_t cudaMallocArray(cudaArray_t *a, const struct cudaChannelFormatDesc *d, size_t w,
                            size_t h, unsigned int flags) {
  (void)d;
  (void)w;
  (void)h;
  (void)flags;
  *a = (cudaArray_t)malloc(16);
  return *a ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaMalloc3DArray(cudaArray_t *a, const struct cudaChannelFormatDesc *d,
                              struct cudaExtent e, unsigned int flags) {
  return cudaMallocArray(a, d, e.width, e.height, flags);
}
cudaError_t cudaFreeArray(cudaArray_t a) {
  free(a);
  return cudaSuccess;
}
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *a, const struct cudaChannelFormatDesc *d,
                                     struct cudaExtent e, unsigned int levels, unsigned int flags) {
  (void)d;
  (void)e;
  (void)levels;
  (void)flags;
  *a = (cudaMipmappedArray_t)malloc(16);
  return *a ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t a) {
  free(a);
  return cudaSuccess;
}
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}

/* ---- the driver's injection hook and CUPTI's API callbacks, emulated ----
 * As the driver does, the first call loads the library CUDA_INJECTION64_PATH names and calls its
 * InitializeInjection; then each traced call is reported to the stand-in libcupti on entry and
 * exit (cudaSimDispatch), which calls the subscriber for the callbacks it enabled. */
typedef void (*dispatch_fn)(int domain, unsigned id, int exit, const char *name, void *params,
                            void *result);
static dispatch_fn dispatch;
static int injected;
static __thread int injecting; /* this thread is loading the library or fetching entry points */
static pthread_mutex_t inject_lock = PTHREAD_MUTEX_INITIALIZER;
static void inject(void);
static void fetch_entry_points(void);

/* Once, on the first traced call or cuInit; not through pthread_once, so that the stack the
 * injected library sees in InitializeInjection runs from its caller through CUDA's code alone. */
static void ensure_injected(void) {
  if (injecting || __atomic_load_n(&injected, __ATOMIC_ACQUIRE))
    return;
  pthread_mutex_lock(&inject_lock);
  if (!injected) {
    /* as cudart does: every entry point fetched, then cuInit, in which the driver loads the
     * injection library (SIMCUDA_FETCH_AFTER_INJECTION=1: the other order, where the library
     * sees the fetches, as when the program had called cuInit first) */
    const char *after = getenv("SIMCUDA_FETCH_AFTER_INJECTION");
    int fetch_first = !after || strcmp(after, "1") != 0;
    injecting = 1;
    if (fetch_first)
      fetch_entry_points();
    inject();
    if (!fetch_first)
      fetch_entry_points();
    injecting = 0;
    __atomic_store_n(&injected, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&inject_lock);
}
/* cuInit, for the stand-in driver library (simdriver.c) */
int simcuda_cu_init(void) {
  ensure_injected();
  return 0;
}

static void inject(void) {
  const char *path = getenv("CUDA_INJECTION64_PATH");
  if (!path || !*path)
    return;
  const char *cupti = getenv("GMEMRT_CUPTI_LIBRARY");
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  int (*init)(void) = lib ? (int (*)(void))dlsym(lib, "InitializeInjection") : NULL;
  if (!init) {
    fprintf(stderr, "simcuda: cannot inject %s: %s\n", path, dlerror());
    return;
  }
  init();
  void *c = cupti ? dlopen(cupti, RTLD_NOW | RTLD_LOCAL) : NULL;
  dispatch = c ? (dispatch_fn)dlsym(c, "cudaSimDispatch") : NULL;
}

#define TRACED(domain, id, name, ptype, result_type, call, ...)                                    \
  ensure_injected();                                                                               \
  ptype params_ = {__VA_ARGS__};                                                                   \
  result_type rc_ = (result_type)0;                                                                \
  if (dispatch)                                                                                    \
    dispatch(domain, id, 0, name, &params_, &rc_);                                                 \
  rc_ = call;                                                                                      \
  if (dispatch)                                                                                    \
    dispatch(domain, id, 1, name, &params_, &rc_);                                                 \
  return rc_

#define RUNTIME_CALL(name, id, ptype, call, ...)                                                   \
  TRACED(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_##id, name, ptype, cudaError_t,     \
         call, __VA_ARGS__)
#define DRIVER_CALL(name, call, ...)                                                               \
  TRACED(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##name, #name, name##_params,         \
         CUresult, call, __VA_ARGS__)

/* the driver's exported entry points */
static CUresult cuMemAlloc_v2_traced(CUdeviceptr *dptr, size_t bytesize) {
  DRIVER_CALL(cuMemAlloc_v2, drv_mem_alloc(dptr, bytesize), dptr, bytesize);
}
static CUresult cuMemFree_v2_traced(CUdeviceptr dptr) {
  DRIVER_CALL(cuMemFree_v2, drv_mem_free(dptr), dptr);
}
static CUresult cuMemAllocManaged_traced(CUdeviceptr *dptr, size_t bytesize, unsigned int flags) {
  DRIVER_CALL(cuMemAllocManaged, drv_mem_alloc_managed(dptr, bytesize, flags), dptr, bytesize,
              flags);
}
static CUresult cuMemAllocHost_v2_traced(void **pp, size_t bytesize) {
  DRIVER_CALL(cuMemAllocHost_v2, drv_mem_alloc_host(pp, bytesize), pp, bytesize);
}
static CUresult cuMemHostAlloc_traced(void **pp, size_t bytesize, unsigned int flags) {
  DRIVER_CALL(cuMemHostAlloc, drv_mem_alloc_host(pp, bytesize), pp, bytesize, flags);
}
static CUresult cuMemFreeHost_traced(void *p) {
  DRIVER_CALL(cuMemFreeHost, drv_mem_free_host(p), p);
}
static CUresult cuMemAllocPitch_v2_traced(CUdeviceptr *dptr, size_t *pitch, size_t width,
                                          size_t height, unsigned int elem) {
  DRIVER_CALL(cuMemAllocPitch_v2, drv_mem_alloc_pitch(dptr, pitch, width, height, elem), dptr,
              pitch, width, height, elem);
}
static CUresult cuMemAllocAsync_traced(CUdeviceptr *dptr, size_t bytesize, CUstream stream) {
  DRIVER_CALL(cuMemAllocAsync, drv_mem_alloc_async(dptr, bytesize, stream), dptr, bytesize, stream);
}
static CUresult cuMemAllocFromPoolAsync_traced(CUdeviceptr *dptr, size_t bytesize,
                                               CUmemoryPool pool, CUstream stream) {
  DRIVER_CALL(cuMemAllocFromPoolAsync, drv_mem_alloc_async(dptr, bytesize, stream), dptr, bytesize,
              pool, stream);
}
static CUresult cuMemFreeAsync_traced(CUdeviceptr dptr, CUstream stream) {
  DRIVER_CALL(cuMemFreeAsync, drv_mem_free_async(dptr, stream), dptr, stream);
}
static CUresult cuMemCreate_traced(CUmemGenericAllocationHandle *handle, size_t size,
                                   const CUmemAllocationProp *prop, unsigned long long flags) {
  DRIVER_CALL(cuMemCreate, drv_mem_create(handle, size, prop, flags), handle, size, prop, flags);
}
static CUresult cuMemRelease_traced(CUmemGenericAllocationHandle handle) {
  DRIVER_CALL(cuMemRelease, drv_mem_release(handle), handle);
}

/* What cuGetProcAddress answers: the entry point under its base name, for CUDA >= version. */
static const struct {
  const char *symbol;
  int version;
  void *entry;
} procs[] = {
    {"cuMemAlloc", 3020, (void *)cuMemAlloc_v2_traced},
    {"cuMemFree", 3020, (void *)cuMemFree_v2_traced},
    {"cuMemAllocManaged", 6000, (void *)cuMemAllocManaged_traced},
    {"cuMemAllocHost", 3020, (void *)cuMemAllocHost_v2_traced},
    {"cuMemHostAlloc", 2020, (void *)cuMemHostAlloc_traced},
    {"cuMemFreeHost", 2000, (void *)cuMemFreeHost_traced},
    {"cuMemAllocPitch", 3020, (void *)cuMemAllocPitch_v2_traced},
    {"cuMemAllocAsync", 11020, (void *)cuMemAllocAsync_traced},
    {"cuMemAllocFromPoolAsync", 11020, (void *)cuMemAllocFromPoolAsync_traced},
    {"cuMemFreeAsync", 11020, (void *)cuMemFreeAsync_traced},
    {"cuMemCreate", 10020, (void *)cuMemCreate_traced},
    {"cuMemRelease", 10020, (void *)cuMemRelease_traced},
};
static CUresult find_proc(const char *symbol, void **pfn, int version) {
  for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++)
    if (strcmp(procs[i].symbol, symbol) == 0 && version >= procs[i].version) {
      *pfn = procs[i].entry;
      return CUDA_SUCCESS;
    }
  *pfn = NULL;
  return CUDA_ERROR_NOT_FOUND;
}
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus) {
  if (symbolStatus)
    *symbolStatus = CU_GET_PROC_ADDRESS_SUCCESS;
  DRIVER_CALL(cuGetProcAddress_v2, find_proc(symbol, pfn, cudaVersion), symbol, pfn, cudaVersion,
              flags, symbolStatus);
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t size) {
  return cuMemAlloc_v2_traced(dptr, size);
}
CUresult cuMemFree_v2(CUdeviceptr dptr) {
  return cuMemFree_v2_traced(dptr);
}
CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t size, unsigned int flags) {
  return cuMemAllocManaged_traced(dptr, size, flags);
}
CUresult cuMemAllocHost_v2(void **pp, size_t size) {
  return cuMemAllocHost_v2_traced(pp, size);
}
CUresult cuMemHostAlloc(void **pp, size_t size, unsigned int flags) {
  return cuMemHostAlloc_traced(pp, size, flags);
}
CUresult cuMemFreeHost(void *p) {
  return cuMemFreeHost_traced(p);
}
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height,
                            unsigned int elem) {
  return cuMemAllocPitch_v2_traced(dptr, pitch, width, height, elem);
}
CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t size, CUstream stream) {
  return cuMemAllocAsync_traced(dptr, size, stream);
}
CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t size, CUmemoryPool pool,
                                 CUstream stream) {
  return cuMemAllocFromPoolAsync_traced(dptr, size, pool, stream);
}
CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream stream) {
  return cuMemFreeAsync_traced(dptr, stream);
}
CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                     const CUmemAllocationProp *prop, unsigned long long flags) {
  return cuMemCreate_traced(handle, size, prop, flags);
}
CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
  return cuMemRelease_traced(handle);
}

/* The runtime's view of the driver: fetched once with cuGetProcAddress, as cudart does, into the
 * runtime's own data (where gmemrun finds them when the fetches came before it). */
static struct {
  CUresult (*mem_alloc)(CUdeviceptr *, size_t);
  CUresult (*mem_free)(CUdeviceptr);
  CUresult (*mem_alloc_managed)(CUdeviceptr *, size_t, unsigned int);
  CUresult (*mem_alloc_host)(void **, size_t);
  CUresult (*host_alloc)(void **, size_t, unsigned int);
  CUresult (*free_host)(void *);
  CUresult (*mem_alloc_async)(CUdeviceptr *, size_t, CUstream);
  CUresult (*mem_free_async)(CUdeviceptr, CUstream);
} entry;

static void fetch_entry_points(void) {
  static const struct {
    const char *symbol;
    size_t offset;
  } wanted[] = {
      {"cuMemAlloc", offsetof(__typeof__(entry), mem_alloc)},
      {"cuMemFree", offsetof(__typeof__(entry), mem_free)},
      {"cuMemAllocManaged", offsetof(__typeof__(entry), mem_alloc_managed)},
      {"cuMemAllocHost", offsetof(__typeof__(entry), mem_alloc_host)},
      {"cuMemHostAlloc", offsetof(__typeof__(entry), host_alloc)},
      {"cuMemFreeHost", offsetof(__typeof__(entry), free_host)},
      {"cuMemAllocAsync", offsetof(__typeof__(entry), mem_alloc_async)},
      {"cuMemFreeAsync", offsetof(__typeof__(entry), mem_free_async)},
  };
  for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
    cuGetProcAddress_v2(wanted[i].symbol, (void **)((char *)&entry + wanted[i].offset), 12000, 0,
                        NULL);
}
#define DRIVER(fn) (ensure_injected(), entry.fn)

/* As in cudart, one API can reach the driver by more than one path (here large requests take
 * one more frame), so the same return address into the runtime leads up to the program through
 * different stack layouts: gmemrun's caller shortcut must notice. */
static __attribute__((noinline)) cudaError_t malloc_through_driver(void **ptr, size_t size) {
  cudaError_t rc = (cudaError_t)DRIVER(mem_alloc)((CUdeviceptr *)ptr, size);
  __asm__ volatile("" : : : "memory"); /* not a tail call: one return address for both paths */
  return rc;
}
static __attribute__((noinline)) cudaError_t malloc_large(void **ptr, size_t size) {
  volatile char scratch[256];
  scratch[0] = 0;
  cudaError_t rc = malloc_through_driver(ptr, size);
  __asm__ volatile("" : : "r"(scratch) : "memory"); /* not a tail call: this frame stays */
  return rc;
}
cudaError_t cudaMalloc(void **ptr, size_t size) {
  RUNTIME_CALL("cudaMalloc", cudaMalloc_v3020, cudaMalloc_v3020_params,
               size >= (64u << 20) ? malloc_large(ptr, size) : malloc_through_driver(ptr, size),
               ptr, size);
}
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags) {
  RUNTIME_CALL("cudaMallocManaged", cudaMallocManaged_v6000, cudaMallocManaged_v6000_params,
               (cudaError_t)DRIVER(mem_alloc_managed)((CUdeviceptr *)ptr, size, flags), ptr, size,
               flags);
}
cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream) {
  RUNTIME_CALL("cudaMallocAsync", cudaMallocAsync_v11020, cudaMallocAsync_v11020_params,
               (cudaError_t)DRIVER(mem_alloc_async)((CUdeviceptr *)ptr, size, (CUstream)stream),
               ptr, size, stream);
}
/* as cudart does, freeing NULL asks nothing of the driver */
cudaError_t cudaFree(void *ptr) {
  RUNTIME_CALL("cudaFree", cudaFree_v3020, cudaFree_v3020_params,
               ptr ? (cudaError_t)DRIVER(mem_free)((CUdeviceptr)(uintptr_t)ptr) : cudaSuccess, ptr);
}
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream) {
  RUNTIME_CALL("cudaFreeAsync", cudaFreeAsync_v11020, cudaFreeAsync_v11020_params,
               (cudaError_t)DRIVER(mem_free_async)((CUdeviceptr)(uintptr_t)ptr, (CUstream)stream),
               ptr, stream);
}
cudaError_t cudaMallocHost(void **ptr, size_t size) {
  RUNTIME_CALL("cudaMallocHost", cudaMallocHost_v3020, cudaMallocHost_v3020_params,
               (cudaError_t)DRIVER(mem_alloc_host)(ptr, size), ptr, size);
}
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags) {
  RUNTIME_CALL("cudaHostAlloc", cudaHostAlloc_v3020, cudaHostAlloc_v3020_params,
               (cudaError_t)DRIVER(host_alloc)(ptr, size, flags), ptr, size, flags);
}
cudaError_t cudaFreeHost(void *ptr) {
  RUNTIME_CALL("cudaFreeHost", cudaFreeHost_v3020, cudaFreeHost_v3020_params,
               (cudaError_t)DRIVER(free_host)(ptr), ptr);
}
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
  RUNTIME_CALL("cudaMemcpy", cudaMemcpy_v3020, cudaMemcpy_v3020_params,
               sim_cudaMemcpy(dst, src, count, kind), dst, src, count, kind);
}
cudaError_t cudaDeviceSynchronize(void) {
  ensure_injected();
  int none = 0;
  cudaError_t rc_ = cudaSuccess;
  if (dispatch)
    dispatch(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 0,
             "cudaDeviceSynchronize", &none, &rc_);
  rc_ = sim_cudaDeviceSynchronize();
  if (dispatch)
    dispatch(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 1,
             "cudaDeviceSynchronize", &none, &rc_);
  return rc_;
}
