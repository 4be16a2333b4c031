/* Runtime scenarios, built with the forced-include header against the simulated CUDA runtime.
 * Each is one mode of this program; tests/runtime/check.py checks the telemetry it leaves. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MiB (1024 * 1024)

static int leak_steps(void) {
  void *keep[5];
  for (int step = 0; step < 5; step++) {
    void *a, *b;
    cudaMalloc(&a, 1 * MiB);          /* line 17: freed each step */
    cudaMalloc(&keep[step], 2 * MiB); /* line 18: kept: grows by 2 MiB a step */
    cudaMalloc(&b, 4096);             /* line 19: freed each step */
    cudaFree(a);
    cudaFree(b);
    gmem_step();
  }
  cudaFree(keep[0]); /* 4 x 2 MiB still live at exit */
  return 0;
}

static int wrong_family(void) {
  float *h;
  cudaMallocHost((void **)&h, 1000); /* line 30 */
  cudaFree(h);                       /* wrong family: returns an error, memory stays */
  cudaFreeHost(h);
  void *d;
  cudaMalloc(&d, 512); /* line 34 */
  cudaFree(d);
  cudaFree(d); /* double free */
  return 0;
}

static int fragmentation(void) {
  /* SIMCUDA_CAPACITY=64 MiB: 16 x 4 MiB, free every other one, then ask for 8 MiB */
  void *blocks[16];
  for (int i = 0; i < 16; i++)
    cudaMalloc(&blocks[i], 4 * MiB); /* line 44 */
  for (int i = 0; i < 16; i += 2)
    cudaFree(blocks[i]);
  void *big;
  cudaError_t rc = cudaMalloc(&big, 8 * MiB); /* line 48: fails although 32 MiB are free */
  printf("fragmented allocation: %d\n", (int)rc);
  void *huge;
  rc = cudaMalloc(&huge, 128 * MiB); /* line 51: more than the device has */
  printf("oversized allocation: %d\n", (int)rc);
  return 0;
}

static void *churn(void *arg) {
  (void)arg;
  for (int i = 0; i < 1000; i++) {
    void *p;
    cudaMalloc(&p, 256); /* line 60 */
    cudaFree(p);
  }
  return NULL;
}

static int threads(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, churn, NULL);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  return 0;
}

static int crash(void) {
  void *p;
  cudaMalloc(&p, 3 * MiB); /* line 77: live when the program dies */
  raise(SIGSEGV);
  return 1;
}

static int forked(void) {
  void *p;
  cudaMalloc(&p, 1 * MiB); /* line 84: parent only */
  pid_t child = fork();
  if (child == 0) {
    void *q;
    cudaMalloc(&q, 5 * MiB); /* line 88: child only, leaked */
    exit(0);
  }
  int status;
  waitpid(child, &status, 0);
  printf("child %d\n", (int)child);
  cudaFree(p);
  return 0;
}

static int copies(void) {
  char host[64];
  void *d;
  cudaMallocManaged(&d, 64, cudaMemAttachGlobal); /* line 101 */
  for (int i = 0; i < 8; i++)
    cudaMemcpy((char *)d + i * 8, host + i * 8, 8, cudaMemcpyHostToDevice); /* line 103 */
  struct cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(d, 64, loc, 0, 0); /* line 105 */
  cudaFree(d);
  return gmem_dump() == 0 ? 0 : 1;
}

static int managed(void) {
  void *a, *b;
  cudaMallocManaged(&a, 1 * MiB, cudaMemAttachGlobal); /* first block: the device's base */
  cudaMallocManaged(&b, 1 * MiB, cudaMemAttachGlobal); /* the next megabyte */
  cudaFree(a);
  cudaFree(b);
  return 0;
}

static int pools(void) {
  void *a, *b;
  cudaStream_t stream = 0;
  cudaMallocAsync(&a, 3 * MiB, stream);
  cudaMallocAsync(&b, 1 * MiB, stream);
  cudaFreeAsync(b, stream);
  gmem_step();
  return 0; /* a stays allocated */
}

static int sampled(void) {
  void *a;
  cudaMalloc(&a, 1 * MiB);
  usleep(150 * 1000); /* long enough for several NVML samples */
  cudaFree(a);
  return 0;
}

static int driver(void) {
  CUdeviceptr d, m;
  void *h;
  cuMemAlloc(&d, 2 * MiB);       /* leaked */
  cuMemAllocManaged(&m, MiB, 1); /* freed with cudaFree: the same address space */
  cuMemAllocHost(&h, 4096);      /* freed with cuMemFree: the wrong family */
  cudaFree((void *)(uintptr_t)m);
  cuMemFree((CUdeviceptr)(uintptr_t)h);
  cuMemFreeHost(h);
  return 0;
}

static int arrays(void) {
  struct cudaPitchedPtr pp;
  cudaMalloc3D(&pp, make_cudaExtent(1000, 4, 2)); /* pitch 1024: 8192 bytes, leaked */
  struct cudaChannelFormatDesc desc =
      cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray_t a, b;
  cudaMallocArray(&a, &desc, 64, 8, 0);                      /* 64 x 8 floats: 2048 bytes */
  cudaMalloc3DArray(&b, &desc, make_cudaExtent(4, 4, 4), 0); /* 256 bytes */
  cudaFreeArray(a);
  cudaFree(b); /* the wrong family for an array */
  cudaFreeArray(b);
  return 0;
}

/* The rest of the allocation table: pitched, stream-ordered, pinned and physical driver memory,
 * and mipmapped arrays. */
static int driver_more(void) {
  CUdeviceptr p, a, q;
  size_t pitch;
  void *h;
  CUmemGenericAllocationHandle handle;
  CUmemAllocationProp prop = {0};
  struct cudaChannelFormatDesc desc =
      cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
  cudaMipmappedArray_t mip;
  cuMemAllocPitch(&p, &pitch, 1000, 10, 4);                 /* pitch 1024: 10240 bytes, leaked */
  cuMemAllocAsync(&a, MiB, 0);                              /* freed with cuMemFreeAsync */
  cuMemAllocFromPoolAsync(&q, 2 * MiB, (CUmemoryPool)0, 0); /* leaked */
  cuMemHostAlloc(&h, 4096, 0);                              /* freed with cuMemFreeHost */
  cuMemCreate(&handle, 2 * MiB, &prop, 0);                  /* released */
  cudaMallocMipmappedArray(&mip, &desc, make_cudaExtent(8, 8, 0), 2, 0); /* 256 + 64 bytes */
  cuMemFreeAsync(a, 0);
  cuMemFreeHost(h);
  cuMemRelease(handle);
  cudaFreeMipmappedArray(mip);
  return 0;
}

/* Below the page size: 32 x 1 MiB in 2 MiB pages, every other one freed, then 4 MiB asked. */
static int fragmentation_pages(void) {
  void *blocks[32];
  for (int i = 0; i < 32; i++)
    cudaMalloc(&blocks[i], MiB);
  for (int i = 0; i < 32; i += 2)
    cudaFree(blocks[i]);
  void *big;
  cudaError_t rc = cudaMalloc(&big, 4 * MiB); /* line 195 */
  printf("allocation in half-used pages: %d\n", (int)rc);
  return 0;
}

/* Two devices (SIMCUDA_DEVICES=2, 64 MiB each): one thread per device, each leaking from its own
 * site, then a request too large for device 1 while device 0 still has room. */
static void *on_device(void *arg) {
  int device = (int)(intptr_t)arg;
  cudaSetDevice(device);
  void *p;
  cudaMalloc(&p, (size_t)(device + 1) * 8 * MiB); /* line 206: 8 MiB on 0, 16 MiB on 1 */
  return NULL;
}

static int multi_device(void) {
  pthread_t t[2];
  for (intptr_t d = 0; d < 2; d++)
    pthread_create(&t[d], NULL, on_device, (void *)d);
  for (int d = 0; d < 2; d++)
    pthread_join(t[d], NULL);
  cudaSetDevice(1);
  void *kept, *big;
  cudaMalloc(&kept, 32 * MiB);                 /* line 218: device 1, leaked */
  cudaError_t rc = cudaMalloc(&big, 32 * MiB); /* line 219: device 1 has 16 MiB left */
  printf("device 1 request: %d\n", (int)rc);
  return 0;
}

/* Runtime twins: churn behind a function pointer, which the static pass (GM010) cannot see. */
typedef void (*stage_fn)(size_t bytes);

static void scratch_stage(size_t bytes) {
  void *scratch;
  cudaMalloc(&scratch, bytes); /* @hidden_churn */
  cudaFree(scratch);
}

static int churn_hidden(void) {
  stage_fn stages[] = {scratch_stage};
  for (int i = 0; i < 64; i++)
    stages[i % 1](4096);
  return 0;
}

/* Runtime twins: a buffer regrown through an allocation helper shared by every buffer (as a
 * framework's allocator is), behind a function pointer: GM020 cannot see it. */
void simcuda_host_touch(const void *p);

static void *device_buffer(size_t bytes) {
  void *p = NULL;
  cudaMalloc(&p, bytes); /* @shared_allocator */
  return p;
}

static void append_chunk(void **data, size_t *size, size_t chunk) {
  void *incoming = device_buffer(chunk);
  void *grown = device_buffer(*size + chunk);
  if (*data)
    cudaMemcpy(grown, *data, *size, cudaMemcpyDeviceToDevice); /* @regrow_copy */
  cudaMemcpy((char *)grown + *size, incoming, chunk, cudaMemcpyDeviceToDevice);
  cudaFree(*data);
  cudaFree(incoming);
  *data = grown;
  *size += chunk;
}

/* A small temporary and then a large buffer, both from one helper: replaced once, never again,
 * so not a regrowth chain. */
static void *workspace_buffer(size_t bytes) {
  void *p = NULL;
  cudaMalloc(&p, bytes); /* @temp_then_big */
  return p;
}
static void temp_then_big(void) {
  void *tmp = workspace_buffer(4096);
  void *big = workspace_buffer(1 * MiB);
  cudaFree(tmp);
  cudaFree(big);
}

static int regrow_hidden(void) {
  void (*append)(void **, size_t *, size_t) = append_chunk;
  void (*work)(void) = temp_then_big;
  void *data = NULL;
  size_t size = 0;
  for (int i = 0; i < 12; i++) {
    append(&data, &size, 64 * 1024);
    work();
  }
  cudaFree(data);
  return 0;
}

/* Managed memory a kernel and the host take turns on, every step, behind a function pointer:
 * GM031 cannot see the loop. */
static void touch_kernel(float *data) {
  (void)data;
}
static void gpu_then_host(float *data) {
  dim3 grid = {1, 1, 1}, block = {1, 1, 1};
  void *args[] = {&data};
  cudaLaunchKernel((const void *)touch_kernel, grid, block, args, 0, 0);
  cudaDeviceSynchronize();
  simcuda_host_touch(data); /* the host reads the result */
}
static int ping_pong_hidden(void) {
  float *data;
  cudaMallocManaged((void **)&data, 1 * MiB, cudaMemAttachGlobal); /* @ping_pong */
  float *once;
  cudaMallocManaged((void **)&once, 1 * MiB, cudaMemAttachGlobal); /* @one_way */
  void (*step)(float *) = gpu_then_host;
  for (int i = 0; i < 6; i++) {
    step(data);
    gmem_step();
  }
  cudaFree(data);
  cudaFree(once);
  return 0;
}

/* Runtime twins: managed memory that a kernel launched through a function pointer touches with
 * no prefetch (GM030 cannot see the kernel), next to a buffer prefetched before the launch. The
 * simulated launch migrates every managed block not on the device on demand. */
typedef cudaError_t (*launch_fn)(const void *kernel, void *data);
static const char stand_in_kernel; /* the simulated runtime runs no kernel: any address will do */

static cudaError_t launch_one(const void *kernel, void *data) {
  dim3 grid = {64, 1, 1}, block = {256, 1, 1};
  void *args[] = {&data};
  return cudaLaunchKernel(kernel, grid, block, args, 0, 0);
}

static int managed_hidden(void) {
  launch_fn launchers[] = {launch_one};
  void *weights, *inputs;
  cudaMallocManaged(&weights, 8 * MiB, cudaMemAttachGlobal); /* @hidden_managed */
  cudaMallocManaged(&inputs, 8 * MiB, cudaMemAttachGlobal);  /* @prefetched_managed */
  struct cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(inputs, 8 * MiB, gpu, 0, 0);
  launchers[0](&stand_in_kernel, weights);
  cudaFree(weights);
  cudaFree(inputs);
  return 0;
}

/* Managed memory freed and its address reused by another site before CUPTI delivers the first
 * block's records (the stand-in delivers them all at exit): they belong to the first site. */
static int managed_reuse(void) {
  void *early, *late;
  cudaMallocManaged(&early, 4 * MiB, cudaMemAttachGlobal); /* @reuse_early */
  launch_one(&stand_in_kernel, early);
  cudaFree(early);
  usleep(2000); /* the clocks' pairing is read to the microsecond: keep the lives apart */
  cudaMallocManaged(&late, 4 * MiB, cudaMemAttachGlobal); /* @reuse_late: same address */
  cudaFree(late);
  return 0;
}

/* GM140: memory held while the (stand-in) NVML device shows a profile (FAKENVML_PROFILE); the
 * weights hold the most at the peak (the view of it is taken after both are made). */
static int memory_bound(void) {
  void *weights, *small;
  cudaMalloc(&small, MiB);
  cudaMalloc(&weights, 64 * MiB); /* @bound_weights */
  usleep(250 * 1000);             /* 25 samples at GMEMRT_NVML_MS=10 */
  cudaFree(small);
  cudaFree(weights);
  return 0;
}

/* Runtime twins: small uploads made by a helper called through a function pointer (GM021 cannot
 * see the loop), and one large upload in the same direction to hold them against. */
typedef void (*upload_fn)(void *dst, const void *src, size_t bytes);

static void upload_piece(void *dst, const void *src, size_t bytes) {
  cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice); /* @hidden_small_copy */
}

static int small_copies_hidden(void) {
  static char host[4 * MiB];
  void *d;
  cudaMalloc(&d, 4 * MiB);
  upload_fn upload = upload_piece;
  for (int i = 0; i < 256; i++)
    upload((char *)d + i * 64, host + i * 64, 64);
  for (int k = 0; k < 4; k++)
    cudaMemcpy(d, host, 4 * MiB, cudaMemcpyHostToDevice); /* @large_copy */
  cudaFree(d);
  return 0;
}

/* SIMCUDA_ERROR=100: a machine without a GPU, where every allocation fails with
 * cudaErrorNoDevice: nothing is live at the end, and nothing was freed either. */
static int no_device(void) {
  for (int i = 0; i < 3; i++) {
    void *a, *b;
    if (cudaMalloc(&a, MiB) != cudaSuccess) /* @no_device_first: fails each time */
      continue;
    if (cudaMalloc(&b, MiB) != cudaSuccess)
      return 1; /* GM001: a leaks on this error path */
    cudaFree(b);
    cudaFree(a);
  }
  return 0;
}

/* Clock sampling: past a thread's first 4096 calls, one in 16 is timed; a loop of pairs must
 * have its frees timed as well as its allocations (the cudaFree(0) shifts the pairs' parity). */
static int timed_pairs(void) {
  void *p;
  cudaFree(0);
  for (int i = 0; i < 4096; i++) {
    cudaMalloc(&p, 4096);
    cudaFree(p);
  }
  for (int i = 0; i < 160; i++) {
    cudaMallocAsync(&p, 4096, 0); /* timed_pairs: async alloc */
    cudaFreeAsync(p, 0);          /* timed_pairs: async free */
  }
  return 0;
}

/* Repeated stream-ordered pairs (runtime/pairs.h): batched or not (GMEMRT_PAIR_BATCHES), the
 * file must say the same. A loop long enough for batches, their flushes every 1024 pairs and the
 * stack samples at the site's 1024th calls; a block left waiting in the slot at a step and at
 * exit (a leak); a block waiting in one thread's slot freed by another; a double free. */
static pthread_barrier_t handed;
static void *async_pairs(void *arg) {
  void **keep = arg, *p = NULL;
  for (int i = 0; i <= 3000; i++) {
    cudaMallocAsync(&p, 2 * MiB, 0); /* pair_batches: alloc */
    if (i < 3000)
      cudaFreeAsync(p, 0); /* pair_batches: free */
  }
  *keep = p; /* the last allocation waits in the thread's slot */
  return NULL;
}

static void *async_pairs_handed(void *arg) {
  async_pairs(arg);
  pthread_barrier_wait(&handed); /* alive, its block waiting: main frees it */
  pthread_barrier_wait(&handed);
  return NULL;
}

static int pair_batches(void) {
  void *kept, *p;
  pthread_t t;
  pthread_barrier_init(&handed, NULL, 2);
  pthread_create(&t, NULL, async_pairs_handed, &kept);
  pthread_barrier_wait(&handed);
  cudaFreeAsync(kept, 0); /* pair_batches: another thread's */
  pthread_barrier_wait(&handed);
  pthread_join(t, NULL);
  async_pairs(&kept);
  gmem_step();
  for (int i = 0; i < 100; i++) {
    cudaMallocAsync(&p, 1 * MiB, 0); /* pair_batches: second place */
    cudaFreeAsync(p, 0);             /* pair_batches: second free */
  }
  cudaFreeAsync(p, 0); /* pair_batches: double free */
  return 0;            /* kept is still allocated */
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "leak") == 0)
    return leak_steps();
  if (strcmp(mode, "wrong-family") == 0)
    return wrong_family();
  if (strcmp(mode, "fragmentation") == 0)
    return fragmentation();
  if (strcmp(mode, "multi-device") == 0)
    return multi_device();
  if (strcmp(mode, "fragmentation-pages") == 0)
    return fragmentation_pages();
  if (strcmp(mode, "threads") == 0)
    return threads();
  if (strcmp(mode, "crash") == 0)
    return crash();
  if (strcmp(mode, "fork") == 0)
    return forked();
  if (strcmp(mode, "copies") == 0)
    return copies();
  if (strcmp(mode, "managed") == 0)
    return managed();
  if (strcmp(mode, "pools") == 0)
    return pools();
  if (strcmp(mode, "nvml") == 0)
    return sampled();
  if (strcmp(mode, "driver") == 0)
    return driver();
  if (strcmp(mode, "arrays") == 0)
    return arrays();
  if (strcmp(mode, "driver-more") == 0)
    return driver_more();
  if (strcmp(mode, "churn-hidden") == 0)
    return churn_hidden();
  if (strcmp(mode, "managed-reuse") == 0)
    return managed_reuse();
  if (strcmp(mode, "managed-hidden") == 0)
    return managed_hidden();
  if (strcmp(mode, "memory-bound") == 0)
    return memory_bound();
  if (strcmp(mode, "small-copies-hidden") == 0)
    return small_copies_hidden();
  if (strcmp(mode, "regrow-hidden") == 0)
    return regrow_hidden();
  if (strcmp(mode, "ping-pong-hidden") == 0)
    return ping_pong_hidden();
  if (strcmp(mode, "no-device") == 0)
    return no_device();
  if (strcmp(mode, "timed-pairs") == 0)
    return timed_pairs();
  if (strcmp(mode, "pair-batches") == 0)
    return pair_batches();
  fprintf(stderr, "usage: scenarios leak|wrong-family|fragmentation|threads|crash|fork|copies\n");
  return 2;
}
